package transform

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/adaptbench/adaptbench/exec/exectest"
)

// fuzzSeeds are programs written to stress the editing: tabs, CRLF line
// ends, one-line blocks, multi-line strings, comments around docstrings,
// backslash continuations, async code, walrus, global and nonlocal,
// semicolons.
var fuzzSeeds = []string{
	"def f(xs):\n\tt = 0\n\tfor x in xs:\n\t\tif x:\n\t\t\tt += 1\n\twhile t > 9:\n\t\tt -= 1\n\treturn t\n",
	"def f(n):\r\n    s = 0\r\n    for i in range(n):\r\n        s += i\r\n    return s * 2\r\n",
	"def f(x): return x + 1\nif True: y = f(2)\nfor i in range(3): y += i\nwhile y > 100: y -= 1\n",
	"def f():\n    s = '''a\nb'''\n    for c in s:\n        t = \"\"\"\nx\"\"\" + c\n    if t:\n        u = '''\n  y''' * 2\n    return t\n",
	"import functools\n\n@functools.lru_cache\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n\nclass A:\n    x = [i * 2 for i in range(3)]\n    async def g(self):\n        async for q in self:\n            await q\n    def h(self, k=x):\n        r = k + 1\n        return r\n",
	"# c\n\"\"\"doc\"\"\"\n# d\nimport os\n\ndef f():\n    # lead\n    \"\"\"doc\"\"\"\n    x = 1  # trail\n    return x\n",
	"def f(a, b):\n    c = a + \\\n        b\n    return c\n",
	"g = 0\ndef f(xs):\n    global g\n    g += 1\n    if (n := len(xs)) > 2:\n        return [y for y in xs if (z := y)]\n    return lambda q=n: q + g\n",
	"def outer():\n    v = 0\n    def inner():\n        nonlocal v\n        for i in range(3):\n            v += i\n    inner()\n    w = inner()\n    return v\n",
	"x = 1; y = 2\nfor i in range(2): x += i; y += x\n",
	"",
	"pass\n",
	"from __future__ import annotations\nfor i in range(3):\n    total = i * 2\nprint(total)\n",
	"class C:\n    def m(self):\n        return self.__x + 1\n    def n(self):\n        v = self.__x * 2\n        return v\n",
}

// FuzzTransforms applies every operator at up to four sites of a program
// that parses: Apply must succeed, leave its input alone and give a
// program that parses. (go test -fuzz stalls on cgo packages on the
// development machines; the seed corpus runs as a normal test.)
func FuzzTransforms(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	ins, _ := filepath.Glob(filepath.Join("testdata", "*", "input.py"))
	for _, in := range ins {
		b, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	all := append(All[:len(All):len(All)], Bugs...)
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4000 {
			return
		}
		if _, err := parse([]byte(src)); errors.Is(err, ErrSyntax) {
			return
		}
		p := &Program{Main: []byte(src), Protected: []string{"f"}}
		hash := p.Hash()
		for _, tr := range all {
			sites := tr.Sites(p)
			for i, s := range sites {
				if i == 4 {
					break
				}
				if s.Start < 0 || s.End > len(src) || s.Start > s.End {
					t.Fatalf("%s: site %+v out of range", tr.ID, s)
				}
				q, err := tr.Apply(p, s, rand.New(rand.NewPCG(uint64(i), 1)))
				if err != nil {
					t.Fatalf("%s at %s of %q: %v", tr.ID, s.Key, src, err)
				}
				if err := Check(q); err != nil {
					t.Fatalf("%s at %s of %q: %v\n%s", tr.ID, s.Key, src, err, q.Main)
				}
				if p.Hash() != hash {
					t.Fatalf("%s: Apply modified its input", tr.ID)
				}
			}
		}
	})
}

// TestSeedsCompile compiles with CPython what every operator makes of the
// fuzz seeds, which catches what tree-sitter accepts and CPython does not
// (inconsistent tabs, a nonlocal without a binding).
func TestSeedsCompile(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "%s is not installed", python)
	}
	var vs []variant
	for si, src := range fuzzSeeds {
		p := &Program{Main: []byte(src), Protected: []string{"f"}}
		for _, tr := range append(All[:len(All):len(All)], Bugs...) {
			for i, s := range tr.Sites(p) {
				q, err := tr.Apply(p, s, rand.New(rand.NewPCG(uint64(i), 1)))
				if err != nil {
					t.Fatalf("%s on seed %d: %v", tr.ID, si, err)
				}
				vs = append(vs, variant{op: tr.ID, task: "seed " + strconv.Itoa(si), prog: q})
			}
		}
	}
	for i, msg := range compileAll(t, vs) {
		t.Errorf("%s on %s: %s\n%s", vs[i].op, vs[i].task, msg, vs[i].prog.Main)
	}
	t.Logf("%d programs compile", len(vs))
}
