package measure

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"testing"

	"github.com/adaptbench/adaptbench/internal/shareddata"
)

// program is one HumanEval problem's complete reference program.
type program struct {
	ID  string
	Src []byte
}

// humanEval returns the 164 HumanEval canonical solutions, each the
// problem's prompt followed by its canonical solution (what the
// GeneBench artifact measured), or skips the test when the shared data
// is absent.
func humanEval(tb testing.TB) []program {
	tb.Helper()
	path := shareddata.Path(tb, "humaneval/HumanEval.jsonl.gz")
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	var out []program
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var rec struct {
			TaskID            string `json:"task_id"`
			Prompt            string `json:"prompt"`
			CanonicalSolution string `json:"canonical_solution"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			tb.Fatalf("%s:%d: %v", path, line, err)
		}
		out = append(out, program{rec.TaskID, []byte(rec.Prompt + rec.CanonicalSolution)})
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	if len(out) != 164 {
		tb.Fatalf("%s: %d problems, want 164", path, len(out))
	}
	return out
}
