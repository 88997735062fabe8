package ctxbug_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/ctxbug"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// readMethod reads a testdata method: a first line
// "# context: class=C methods=a,b globals=G libs=json" and the method.
func readMethod(t *testing.T, path string) ([]byte, *ctxbug.Context) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, src, _ := bytes.Cut(b, []byte("\n"))
	ctx := &ctxbug.Context{}
	for _, f := range strings.Fields(strings.TrimPrefix(string(head), "# context:")) {
		k, v, _ := strings.Cut(f, "=")
		list := strings.Split(v, ",")
		switch k {
		case "class":
			ctx.Class = v
		case "methods":
			ctx.Methods = list
		case "globals":
			ctx.Globals = list
		case "libs":
			ctx.Libs = list
		default:
			t.Fatalf("%s: unknown context key %q", path, k)
		}
	}
	return src, ctx
}

// render writes templates in a txtar-like form: a "-- rule --" header
// with the holes, then the masked code.
func render(src []byte, ts []ctxbug.Template) string {
	var b strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&b, "-- %s --\n", t.Rule)
		for _, h := range t.Holes {
			fmt.Fprintf(&b, "# %s %s [%d,%d) %q\n", h.Placeholder, h.Node, h.Start, h.End, src[h.Start:h.End])
		}
		b.WriteString(t.Code)
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/methods/*.py")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".py")
		t.Run(name, func(t *testing.T) {
			src, ctx := readMethod(t, f)
			ts, err := ctxbug.Perturb(src, ctx, ctxbug.Rules)
			if err != nil {
				t.Fatal(err)
			}
			got := render(src, ts)
			golden := filepath.Join("testdata", "golden", name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			assert.Equal(t, string(want), got, "templates mismatch")
		})
	}
}
