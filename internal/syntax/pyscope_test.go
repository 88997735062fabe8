package syntax

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// symtableScript prints Python's symbol table of the module on stdin in
// the form of symtableView: one line per scope and name, the name's
// class (local, free, global, global-decl or nonlocal) and flags. Entries
// that do not stand for an occurrence in the scope's code are left out:
// the comprehension's ".0" argument, __class__, the module's entries for
// names only declared global in functions, names a function only passes
// on to a nested one (free, nothing else), and a comprehension's entry for
// a walrus target it binds outward (kept as "free", or "global" at module
// level, when the comprehension also reads it). symtable marks the target
// of a walrus in a module-level comprehension as declared global in the
// module; the module binds it, so it counts as local there.
const symtableScript = `
import symtable, sys
COMPS = ("listcomp", "setcomp", "dictcomp", "genexpr")
out = []
walrus = set()
def module_walrus(t):
    for c in t.get_children():
        if c.get_name() in COMPS:
            for s in c.get_symbols():
                if s.is_declared_global() and s.is_assigned():
                    walrus.add(s.get_name())
            module_walrus(c)
def walk(t, path):
    for s in t.get_symbols():
        n = s.get_name()
        if n.startswith(".") or n == "__class__":
            continue
        if t.get_type() == "module":
            if s.is_local() or s.get_name() in walrus:
                c = "local"
            elif s.is_referenced():
                c = "global"
            else:
                continue
        elif s.is_declared_global() and t.get_name() in COMPS:
            if not s.is_referenced():
                continue
            c = "global"
        elif s.is_declared_global():
            c = "global-decl"
        elif s.is_nonlocal():
            if t.get_name() in COMPS:
                if not s.is_referenced():
                    continue
                c = "free"
            else:
                c = "nonlocal"
        elif s.is_free():
            if not (s.is_referenced() or s.is_assigned() or s.is_parameter()):
                continue
            c = "free"
        elif s.is_local():
            c = "local"
        else:
            c = "global"
        flags = [f for f, on in (("param", s.is_parameter()), ("imported", s.is_imported()), ("def", s.is_namespace())) if on]
        out.append(" ".join([path, n + ":", c] + flags))
    for c in t.get_children():
        walk(c, path + "/" + c.get_type() + " " + c.get_name() + "@" + str(c.get_lineno()))
top = symtable.symtable(sys.stdin.read(), "<snippet>", "exec")
module_walrus(top)
walk(top, "module")
print("\n".join(sorted(out)))
`

// symtableView renders the analysis as symtableScript renders Python's.
func symtableView(s *Scopes) []string {
	path := map[*Scope]string{}
	var out []string
	for _, sc := range s.all {
		if sc.Parent == nil {
			path[sc] = "module"
		} else {
			kind, name := "function", ""
			switch sc.Kind {
			case ScopeFunction, ScopeClass:
				if nm := sc.Node.Child("name"); nm != nil {
					name = nm.Text(s.src)
				}
				if sc.Kind == ScopeClass {
					kind = "class"
				}
			case ScopeLambda:
				name = "lambda"
			case ScopeComprehension:
				name = map[string]string{"list_comprehension": "listcomp", "set_comprehension": "setcomp",
					"dictionary_comprehension": "dictcomp", "generator_expression": "genexpr"}[sc.Node.Type]
			}
			path[sc] = fmt.Sprintf("%s/%s %s@%d", path[sc.Parent], kind, name, sc.Node.Line)
		}
		for _, sym := range sc.Symbols() {
			// The first occurrence in the scope's own code, if any.
			i := slices.IndexFunc(s.refs, func(r Ref) bool { return r.Scope == sc && s.Name(r) == sym.Name })
			if i < 0 {
				continue
			}
			var c string
			switch to := s.refs[i].Symbol; {
			case sym.Global:
				c = "global-decl"
			case sym.Nonlocal:
				c = "nonlocal"
			case to == sym:
				c = "local"
			case to == nil || to.Scope.Kind == ScopeModule:
				c = "global"
			default:
				c = "free"
			}
			fields := []string{path[sc], sym.Name + ":", c}
			for _, f := range []struct {
				name string
				on   bool
			}{{"param", sym.Param}, {"imported", sym.Imported}, {"def", sym.Defined}} {
				if f.on {
					fields = append(fields, f.name)
				}
			}
			out = append(out, strings.Join(fields, " "))
		}
	}
	slices.Sort(out)
	return out
}

// TestPyScopesSymtable compares the analysis with CPython's symtable
// module, the ground truth of Python's scoping, on snippets that exercise
// each rule.
func TestPyScopesSymtable(t *testing.T) {
	const python = "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		t.Skipf("no %s: %v", python, err)
	}
	tests := []struct {
		name, src, reason string
	}{{
		name:   "class-body-invisible",
		src:    "def outer(p):\n    x = 1\n    class K(Base, metaclass=M):\n        x = x\n        y = p\n        def meth(self):\n            return x, y\n        w = [y for _ in range(3)]\n        v = [z for z in y]\n",
		reason: "names bound in a class body are not seen by its methods and comprehensions (meth's x is outer's, y global); the class sees outer's p; the first iterable is evaluated in the class",
	}, {
		name:   "comprehension-first-iterable",
		src:    "def f(xs):\n    return [[x + y for y in x] for x in [z for z in xs]]\n",
		reason: "the first iterable (and the comprehension in it) is evaluated in the enclosing scope; later iterables in the comprehension",
	}, {
		name:   "walrus",
		src:    "def f(xs):\n    a = [y := g(x) for x in xs if y]\n    return y\nb = [w := 1 for _ in ()]\n",
		reason: "a walrus in a comprehension binds in the enclosing function (or module); the comprehension reads it as free",
	}, {
		name:   "nonlocal-chain",
		src:    "def a():\n    x = 1\n    def b():\n        nonlocal x\n        def c():\n            nonlocal x\n            x = 3\n        return c\n    def d():\n        return x\n    return b, d\n",
		reason: "nonlocal through a scope that is itself nonlocal reaches the function that binds the name",
	}, {
		name:   "global-in-enclosing",
		src:    "def f():\n    global g\n    g = 1\n    def h():\n        return g\n    return h\ndef k():\n    global undefined_yet\n    return undefined_yet\n",
		reason: "global makes the name global in f and in what f encloses",
	}, {
		name:   "params",
		src:    "def f(a, /, b: T = d0, *args: int, c, k=lambda q=e0: q, **kw) -> R:\n    return a, b, args, c, k, kw\nlam = lambda u, *v, w=2, **z: u + w\n",
		reason: "parameters bind in the function; defaults and annotations are evaluated outside",
	}, {
		name:   "imports",
		src:    "import os.path, sys as system\nfrom . import rel\nfrom pkg.mod import a as b, c\ndef f():\n    import json\n    from x import y\n    return os, system, rel, b, c, json, y\n",
		reason: "imports bind the alias or the first name of the module path",
	}, {
		name:   "targets",
		src:    "def f(m):\n    for i, (j, *k) in m:\n        pass\n    with open(i) as fh, g() as (p, q):\n        pass\n    try:\n        pass\n    except E as err:\n        pass\n    del m\n    n: int\n    o.attr = s[t] = 1\n    cnt += 1\n",
		reason: "for, with, except, del, annotation-only and augmented targets bind; attribute and subscript targets read their object",
	}, {
		name:   "used-before-bound",
		src:    "x = 0\ndef f():\n    print(x)\n    x = 1\ndef g():\n    return x\n",
		reason: "a name bound anywhere in a function is local throughout it",
	}, {
		name:   "match",
		src:    "def f(cmd):\n    match cmd:\n        case [c1, *rest] if c1:\n            pass\n        case Point(x=a1, y=0) | {\"k\": a1, **kw}:\n            pass\n        case Color.RED as cr:\n            pass\n        case str(sx) | bytes(sx):\n            pass\n        case other:\n            pass\n        case _:\n            pass\n",
		reason: "capture patterns bind; class names, value patterns and keyword names do not",
	}, {
		name:   "decorators-and-classes",
		src:    "@deco(arg)\nclass A(B):\n    attr: T2 = v0\n    @staticmethod\n    def m(x=attr):\n        return x\n    @property\n    def n(self):\n        return attr\n",
		reason: "decorators and bases are evaluated outside; a method's default sees the class body, its body does not",
	}, {
		name:   "fstring-and-calls",
		src:    "def f(a, b):\n    s = f\"{a!r:>{b}} {c}\"\n    return g(*a, key=b, **s), sum(x for x in a), {k: v for k, v in b}, {e for e in a}\n",
		reason: "f-string fields, splats and keyword values are reads; keyword names are not names",
	}, {
		name:   "class-in-function-free",
		src:    "def f():\n    v = 1\n    class C:\n        w = v\n        def m(self):\n            return v\n    return C\n",
		reason: "a class body and its methods see the enclosing function's variables",
	}, {
		name:   "class-nesting",
		src:    "class A:\n    a = 1\n    f = lambda self: a\n    class B:\n        b = a\n        global G\n        G = b\n    c = [B for _ in (a,)]\n",
		reason: "a lambda and a nested class body do not see the class's names either; global works in a class body",
	}, {
		name:   "async",
		src:    "async def f(it):\n    async for i in it:\n        pass\n    async with lock as l:\n        pass\n    return [j async for j in it if await j], i, l\n",
		reason: "async for, async with and async comprehensions bind like their synchronous forms",
	}, {
		name:   "module-walrus-read",
		src:    "r = [w := x for x in range(3) if w]\nprint(w)\n",
		reason: "a module-level comprehension reads its walrus target as a global",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(python, "-c", symtableScript)
			cmd.Stdin = strings.NewReader(tt.src)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("symtable: %v\n%s", err, out)
			}
			want := strings.Split(strings.TrimSpace(string(out)), "\n")
			root, err := ParseNodes(Python, []byte(tt.src))
			if err != nil || root.Err {
				t.Fatalf("ParseNodes: %v (syntax errors: %t)", err, root != nil && root.Err)
			}
			got := symtableView(PyScopes(root, []byte(tt.src)))
			assert.Equal(t, want, got, "%s: scopes differ from symtable", tt.reason)
		})
	}
}

// FuzzPyScopes checks that the analysis never panics and that its
// results hang together: occurrences in source order, each naming its
// symbol, resolved to its own scope or an enclosing one.
func FuzzPyScopes(f *testing.F) {
	f.Add([]byte(pySrc))
	f.Add([]byte("def f(a, *b, c=lambda d: d, **e):\n    global g\n    nonlocal h\n    [i := j for j in a if i]\n    class C:\n        k = [k for _ in k]\n"))
	f.Add([]byte("match x:\n    case [a, *b] | {\"k\": a, **b} if a:\n        pass\n    case P(x=c) as d:\n        pass\n"))
	f.Add([]byte("def f(:\n    return [x for x in\nclass"))
	f.Add([]byte("import a.b as c, d\nfrom . import (e as f)\nfrom g import *\ndel h, i[0]\ntype T = int\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		root, err := ParseNodes(Python, src)
		if err != nil {
			t.Skip()
		}
		s := PyScopes(root, src)
		refs := s.Refs()
		for i, r := range refs {
			if i > 0 && refs[i-1].Node.Start > r.Node.Start {
				t.Fatalf("occurrences out of order at %d", r.Node.Start)
			}
			if r.Binds && r.Declares {
				t.Fatalf("occurrence at %d both binds and declares", r.Node.Start)
			}
			if got, ok := s.RefAt(r.Node); !ok || got != r {
				t.Fatalf("RefAt(%d) = %+v, %t", r.Node.Start, got, ok)
			}
			if r.Symbol == nil {
				continue
			}
			if r.Symbol.Name != s.Name(r) {
				t.Fatalf("occurrence %q resolved to %q", s.Name(r), r.Symbol.Name)
			}
			if !r.Scope.Within(r.Symbol.Scope) {
				t.Fatalf("occurrence %q at %d resolved to a scope that does not enclose it", s.Name(r), r.Node.Start)
			}
		}
		for _, sc := range s.All() {
			if sc != s.Module() && (sc.Parent == nil || s.ScopeOf(sc.Node) != sc) {
				t.Fatalf("scope %v at %d is not linked", sc.Kind, sc.Node.Start)
			}
			for _, sym := range sc.Symbols() {
				for _, r := range s.RefsTo(sym) {
					if r.Symbol != sym {
						t.Fatalf("RefsTo(%q) lists an occurrence of %q", sym.Name, r.Symbol.Name)
					}
				}
			}
		}
	})
}
