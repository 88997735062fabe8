package adapteval_test

import (
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
)

// BenchmarkLoad loads the fixture repository and reports the time against
// a baseline measured in the same run: reading every file of the
// repository, which Load cannot avoid. The rest is parsing (JSON,
// tree-sitter) and building the Oracle context.
func BenchmarkLoad(b *testing.B) {
	fsys := os.DirFS("testdata/repo")
	var load, read float64
	for b.Loop() {
		start := nanotime()
		if _, _, err := adapteval.Load(fsys, "."); err != nil {
			b.Fatal(err)
		}
		load += nanotime() - start
		start = nanotime()
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			_, err = fs.ReadFile(fsys, p)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		read += nanotime() - start
	}
	b.ReportMetric(load/read, "x-read-files")
}

// BenchmarkObfuscate obfuscates the fixture snippets and reports the time
// against extracting a function from them (adapt.Extract: tree-sitter
// parses of the answer and of the snippet), the pass every sample pays.
func BenchmarkObfuscate(b *testing.B) {
	tasks, _ := fixture(b)
	var obf, parse float64
	for b.Loop() {
		for _, t := range tasks {
			start := nanotime()
			if _, _, err := adapteval.Obfuscate(adapt.Python, t.Code); err != nil {
				b.Fatal(err)
			}
			obf += nanotime() - start
			start = nanotime()
			_, _ = adapt.Extract(&t, "```python\n"+t.Code+"```")
			parse += nanotime() - start
		}
	}
	b.ReportMetric(obf/parse, "x-extract")
}

func nanotime() float64 { return float64(time.Now().UnixNano()) }
