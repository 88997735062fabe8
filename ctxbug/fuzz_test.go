package ctxbug_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/ctxbug"
)

// FuzzPerturb checks that the rules never panic, that every hole lies in
// the method and that Apply of a template's holes gives its code, and
// that obfuscation round-trips.
func FuzzPerturb(f *testing.F) {
	files, _ := filepath.Glob("testdata/methods/*.py")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("def f(:\n  return\n"))
	f.Add([]byte("async def f(a, *, b=1, **k) -> int:\n    yield from [x async for x in a if (y := x)]\n"))
	ctx := &ctxbug.Context{Class: "C", Methods: []string{"m"}, Globals: []string{"G"}, Libs: []string{"json"}}
	f.Fuzz(func(t *testing.T, src []byte) {
		ts, err := ctxbug.Perturb(src, ctx, ctxbug.Rules)
		if err != nil {
			return
		}
		for _, tp := range ts {
			last := 0
			for _, h := range tp.Holes {
				if h.Start < last || h.End < h.Start || h.End > len(src) {
					t.Fatalf("rule %s: hole [%d,%d) out of order or range (len %d)", tp.Rule, h.Start, h.End, len(src))
				}
				last = h.End
			}
			code, err := ctxbug.Apply(src, tp.Holes)
			if err != nil || string(code) != tp.Code {
				t.Fatalf("rule %s: Apply disagrees with Code: %v", tp.Rule, err)
			}
		}
		if strings.Contains(string(src), "__") || strings.Contains(string(src), "var_") {
			return // the placeholder stand-ins and new names are reserved
		}
		o, err := ctxbug.Obfuscate(src, "")
		if err != nil {
			t.Fatal(err)
		}
		back, err := ctxbug.Deobfuscate([]byte(o.Code), o.Names)
		if err != nil {
			t.Fatal(err)
		}
		if string(back) != string(src) {
			t.Fatalf("round trip:\n%s\n---\n%s", src, back)
		}
	})
}
