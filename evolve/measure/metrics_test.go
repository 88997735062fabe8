package measure

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// metricCase pins one metric of one snippet to a value counted by hand.
type metricCase struct {
	name   string
	key    string // "C1".."C7", "R1".."R14"
	src    string
	want   float64
	reason string // how the value is counted
}

var metricCases = []metricCase{
	// C1: E − N + 2P on the statement CFG, P = module + functions.
	{"C1/empty", "C1", "", 1,
		"entry→exit: E=1, N=2, P=1"},
	{"C1/straight", "C1", "x = 1\ny = 2\n", 1,
		"entry→x→y→exit: E=3, N=4, P=1"},
	{"C1/if-elif-else", "C1", "if a:\n    b\nelif c:\n    d\nelse:\n    e\n", 3,
		"nodes entry,t1,b,t2,d,e,exit (7); edges entry→t1, t1→b, t1→t2, t2→d, t2→e, b/d/e→exit (8): 8−7+2"},
	{"C1/function-loop-break", "C1", "def f(x):\n    while x:\n        if x > 1:\n            break\n        x -= 1\n    return x\n", 4,
		"module: entry,def,exit, 2 edges; f: entry,while,if,break,x-=1,return,exit (7 nodes), edges entry→while, while→if, if→break, if→x-=1, x-=1→while, break→return, while→return, return→exit (8): 10−10+2·2"},
	{"C1/try-two-handlers-finally", "C1", "try:\n    a\nexcept E:\n    b\nexcept F:\n    c\nfinally:\n    d\n", 3,
		"nodes entry,try,a,h1,b,h2,c,d,exit (9); edges entry→try, try→a, try→h1, h1→b, try→h2, h2→c, a/b/c→d, d→exit (10): 10−9+2"},
	{"C1/for-continue-else", "C1", "for i in x:\n    if i:\n        continue\n    y\nelse:\n    z\n", 3,
		"nodes entry,for,if,continue,y,z,exit (7); edges entry→for, for→if, if→continue, continue→for, if→y, y→for, for→z, z→exit (8): 8−7+2"},
	{"C1/match-wildcard", "C1", "match x:\n    case 1:\n        a\n    case _:\n        b\n", 2,
		"nodes entry,match,case1,a,case_,b,exit (7); edges entry→match, match→case1, case1→a, match→case_, case_→b, a/b→exit (7); no fall-through past `case _`"},
	{"C1/class-and-method", "C1", "class A:\n    x = 1\n    def m(self):\n        return 1 if self else 2\n", 2,
		"class body inline (entry,class,x,def,exit: 4 edges, 5 nodes), m a unit (entry,return,exit: 2 edges, 3 nodes); conditional expressions are not branches: 6−8+2·2"},

	// C2: predicates (if/elif/while tests, comprehension ifs, lambda
	// Compare/BoolOp bodies, positional args of any/all/range) containing
	// a BoolOp, Compare, BinOp or UnaryOp.
	{"C2/mixed", "C2", "if a:\n    pass\nif a > 1:\n    pass\nwhile not x:\n    pass\ny = [i for i in z if i % 2]\nall(v > 0 for v in z)\nrange(n - 1)\nrange(n)\nf = lambda q: q == 1\nw = a if a > 1 else b\n", 6,
		"`if a` 0, `a > 1` 1, `not x` 1, `i % 2` 1, all(<genexp with a Compare>) 1, range(n - 1) 1, range(n) 0, lambda Compare body 1, IfExp test 0"},
	{"C2/elif-and-negative-literal", "C2", "if a:\n    pass\nelif b == 1:\n    pass\nrange(-1, n)\n", 2,
		"the elif is an If: 1; -1 is a UnaryOp: 1; n: 0"},

	// C3: Σ (depth − 1) over If/For/While, elif-like ifs not counted.
	{"C3/nest-elif-else-if", "C3", "for i in x:\n    if i:\n        while i:\n            pass\n    elif j:\n        pass\n    else:\n        if k:\n            pass\nif a:\n    pass\n", 3,
		"for 0, if 1, while 2; the elif and the if heading the elif's else are elif-like (artifact is_elif); last if 0"},
	{"C3/else-block-if-not-first", "C3", "if a:\n    pass\nelse:\n    x = 1\n    if b:\n        pass\n", 1,
		"outer if 0; the inner if is not the first statement of the else block, so it is nested: 1"},
	{"C3/functions-do-not-reset", "C3", "if a:\n    def f():\n        for i in x:\n            pass\n", 1,
		"if 0, the for inside a def inside the if: depth 2 → 1"},

	// C4: 2 × (lambda + .Thread calls + recursive functions + decorators)
	// + (list/dict/set comprehensions + generators + list literals).
	{"C4/all-kinds", "C4", "@dec\nclass A:\n    @property\n    def f(self):\n        return f(self)\n\ng = lambda: [1, 2]\nt = threading.Thread(target=g)\nv = {k: 1 for k in []}\nw = (i for i in [])\n", 15,
		"weight 2: decorators 2, recursive f 1, lambda 1, Thread 1 → 10; weight 1: [1, 2], the dict comprehension, its [], the generator, its [] → 5"},
	{"C4/async-and-nested-def", "C4", "@dec\nasync def a():\n    return a()\n\ndef f():\n    def g():\n        pass\n    return f()\n", 0,
		"async defs are not FunctionDefs (decorator and recursion not counted); after the nested def g the artifact's current function is None, so f() is not seen as recursive"},

	// C5-C7: calls to imported names (stdlib or allowed third party: C5;
	// anything else: C6) and to functions defined in the file (C7).
	{"C5/imports", "C5", callsSrc, 3, "math.sqrt (stdlib), np.zeros (numpy is allowed by default), Counter (from collections)"},
	{"C6/imports", "C6", callsSrc, 2, "newFunc1 (a local module), torch.ones (torch not in the allow-list)"},
	{"C7/defs", "C7", callsSrc, 2, "self.m() (m is a def of the file), helper(); x.y() and enumerate() are nothing"},
	{"C5/dotted-import", "C5", "import os.path\nimport xml.etree.ElementTree as ET\nos.path.join(a)\nET.parse(a)\n", 1,
		"ET resolves to xml (stdlib); `import os.path` binds the name os.path, not os, so os.path.join is not counted (artifact)"},

	// R1, R11, R13: NLTKWordTokenizer tokens.
	{"R1/call", "R1", "x = foo(a, b)\n", 8, "x = foo ( a , b )"},
	{"R11/comment-line", "R11", "a = 1\nprint(a, b)  # c\n", 8, "line 2: print ( a , b ) # c"},
	{"R13/two-tokens", "R13", "a\na\nb\nb\n", 1, "tokens a a b b, p(a) = p(b) = 1/2: 1 bit"},

	// R2: distinct start lines of ast nodes.
	{"R2/comments-and-continuations", "R2", "def f(x):\n    # comment\n\n    return (x +\n            1)\n", 3,
		"line 1 (def, arg), 4 (return, x), 5 (the constant 1); comments, blank lines and closing brackets have no node"},
	{"R2/lone-bracket", "R2", "y = foo(\n    (\n        a\n    ))\n", 2,
		"lines 1 (y, foo(…)) and 3 (a); line 2 holds only a parenthesis, which is no node in Python"},
	{"R2/attribute-chain", "R2", "y = (x\n     .strip()\n     .split())\n", 1,
		"every node starts at x on line 1: Attribute.attr is a string, not a node"},

	// R3: distinct names in Store context.
	{"R3/targets", "R3", "a = b = 1\nc, [d, *e] = x\nf += 1\ng: int = 2\nfor h in x: pass\n[i for i in x]\nwith o as j: pass\n(k := 1)\nobj.attr = 1\nl[0] = 1\na = 2\n", 11,
		"a b c d e f g h i j k; obj and l are loaded, a counted once"},

	// R4: List nodes (any context) + ListComp.
	{"R4/lists", "R4", "x = [1, [2]]\ny = [i for i in x]\n[a, b] = x\nt = (1, 2)\nmatch t:\n    case [1, 2]:\n        pass\n", 4,
		"[1, [2]] 2, the comprehension 1, the [a, b] target 1; tuples and the case pattern (MatchSequence) are not Lists"},

	// R5: BinOp, UnaryOp, BoolOp 1 each, Compare one per operator, AugAssign 1.
	{"R5/operators", "R5", "x = a + b * -c\ny = not a and b and c or d\nz = a < b <= c\nx += 1\nw = (a and b) and c\n", 11,
		"BinOp 2, UnaryOp 2 (-c, not a), `… and b and c or d` = Or[And[…]] 2, Compare 2, AugAssign 1, parenthesised (a and b) and c 2"},

	// R6: If (elifs included) + IfExp + comprehension ifs.
	{"R6/conditions", "R6", "if a:\n    pass\nelif b:\n    pass\nx = 1 if a else 2\ny = [i for i in x if i if i > 1]\n", 5, "If 2, IfExp 1, comprehension ifs 2"},

	// R7: For + While + comprehension generators.
	{"R7/loops", "R7", "for i in x:\n    while i:\n        pass\ny = [i for i in x for j in i]\nz = {i for i in x}\n", 5, "for 1, while 1, two generators, one generator"},

	// R8: Assign + AugAssign + AnnAssign.
	{"R8/assignments", "R8", "a = b = 1\nc: int = 2\nd: int\ne += 1\n(f := 1)\n", 4, "one Assign for a = b = 1, two AnnAssigns, one AugAssign; a walrus is not an assignment statement"},

	// R9: deepest For/While nesting.
	{"R9/loop-depth", "R9", "for i in x:\n    while i:\n        for j in i:\n            pass\n    [k for k in x for m in k]\nwhile y:\n    pass\n", 3, "for > while > for; comprehensions do not count"},

	// R10: deepest If nesting, an elif one level below its if.
	{"R10/elif-chain", "R10", "if a:\n    pass\nelif b:\n    pass\nelif c:\n    if d:\n        pass\n", 4, "if 1, elif 2, elif 3, the if inside the second elif 4"},

	// R12: casts with a call among their positional arguments.
	{"R12/casts", "R12", "a = int(input())\nb = str(len(x))\nc = int(x)\nd = float(x.y())\ne = list(map(f, x))\ng = int(*f())\n", 4,
		"int(input()), str(len(x)), float(x.y()), list(map(…)); int(x) has no call, int(*f()) a Starred"},

	// R14: most atomic conditions in one if test.
	{"R14/conditions-in-if", "R14", "if a and (b or not c) and x.y:\n    pass\nelif d(1) and e > 2 and 'k' and f[0] and True:\n    pass\n", 4,
		"if: a 1 + (b or not c) 2 + x.y 0 = 3; elif: d(1) 1 + e > 2 1 + 'k' 1 + f[0] 0 + True 1 = 4"},
}

const callsSrc = `import math
import numpy as np
from collections import Counter
from newClass1 import newFunc1
import torch


def helper():
    return 1


class K:
    def m(self):
        self.m()
        helper()
        math.sqrt(2)
        np.zeros(3)
        Counter('ab')
        newFunc1()
        torch.ones(1)
        enumerate([])
        x.y()
`

// metricValue returns the metric named key ("C1".."R14") of m.
func metricValue(t *testing.T, m Metrics, key string) float64 {
	t.Helper()
	for _, k := range metricKeys {
		if k.key == key {
			return k.get(m)
		}
	}
	t.Fatalf("unknown metric %q", key)
	return 0
}

func TestMetrics(t *testing.T) {
	for _, c := range metricCases {
		if c.reason == "" {
			t.Fatalf("%s: no reason", c.name)
		}
		t.Run(c.name, func(t *testing.T) {
			m, err := Measure([]byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			if got := metricValue(t, m, c.key); got != c.want {
				t.Errorf("%s = %v, want %v (%s)\nsource:\n%s", c.key, got, c.want, c.reason, c.src)
			}
		})
	}
}

// TestMeasureAll pins every metric of one program at once, so that a
// change to any rule shows here as a diff.
func TestMeasureAll(t *testing.T) {
	src := "def f(xs):\n    total = 0\n    for x in xs:\n        if x > 0 and x % 2:\n            total += x\n    return total\n"
	m, err := Measure([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := Metrics{
		// C1: module 1 + f (1 + for + if) = 4. C2: `x > 0 and x % 2` 1.
		// C3: for 0 + if 1. C4-C7: none.
		Complexity: [7]float64{4, 1, 1, 0, 0, 0, 0},
		Readability: [13]float64{
			28, // R1: def f ( xs ) : | total = 0 | for x in xs : | if x > 0 and x % 2 : | total += x | return total
			6,  // R2: every line starts a node
			2,  // R3: total, x (the for target)
			0,  // R4
			4,  // R5: Compare 1, BinOp 1, BoolOp 1, AugAssign 1
			1,  // R6
			1,  // R7
			2,  // R8: total = 0, total += x
			1,  // R9
			1,  // R10
			9,  // R11: line 4: if x > 0 and x % 2 :
			0,  // R12
			// R13: 28 tokens, x 4 times, total and : 3, xs and 0 twice, 14
			// others once: log2(28) − (2·1 + 2·3·log2(3) + 2·1 + 4·2)/28.
			4.039148671903071,
		},
		MaxIfConditions: 1, // x > 0 (a Compare) 1 + x % 2 (a BinOp) 0
	}
	assert.Equal(t, want, m, "Measure mismatch")
}

func TestMeasureSyntaxError(t *testing.T) {
	for _, src := range []string{"def f(:\n    pass\n", "x = (1,\n", "if x\n    y\n"} {
		_, err := Measure([]byte(src))
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("Measure(%q) = %v, want an error wrapping ErrSyntax", src, err)
			continue
		}
		if !strings.Contains(err.Error(), "line ") {
			t.Errorf("Measure(%q) error %q does not name the line", src, err)
		}
	}
}

// TestMeasureLenient pins what the documentation says tree-sitter
// accepts although CPython rejects it.
func TestMeasureLenient(t *testing.T) {
	for _, src := range []string{"print 'x'\n", "return 1\n", "x = *a\n", "def f():\n  x = 1\n    y = 2\n"} {
		if _, err := Measure([]byte(src)); err != nil {
			t.Errorf("Measure(%q) = %v; the documentation says it is measured", src, err)
		}
	}
}

func TestThirdPartyOption(t *testing.T) {
	for _, c := range []struct {
		name       string
		thirdParty []string
		c5, c6     float64
		reason     string
	}{
		{"default", nil, 3, 2, "numpy allowed, torch not"},
		{"with-torch", []string{"numpy", "torch"}, 4, 1, "torch.ones becomes a third-party call"},
		{"none", []string{}, 2, 3, "only stdlib counts: np.zeros becomes an inter-class call"},
		{"case-insensitive", []string{"NumPy"}, 3, 2, "the artifact matches package names case-insensitively"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := (&Options{ThirdParty: c.thirdParty}).Measure([]byte(callsSrc))
			if err != nil {
				t.Fatal(err)
			}
			if m.Complexity[4] != c.c5 || m.Complexity[5] != c.c6 {
				t.Errorf("C5, C6 = %v, %v, want %v, %v (%s)", m.Complexity[4], m.Complexity[5], c.c5, c.c6, c.reason)
			}
		})
	}
}

func TestTokenize(t *testing.T) {
	// Each want is what nltk 3.8's NLTKWordTokenizer().tokenize returns.
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`x = foo(a, b)`, []string{"x", "=", "foo", "(", "a", ",", "b", ")"}},
		{`print("hi")`, []string{"print", "(", "``", "hi", "''", ")"}},
		{`s = 'it' + 'x'`, []string{"s", "=", "'it", "'", "+", "'", "x", "'"}},
		{`if x == 1.5: return x.y`, []string{"if", "x", "==", "1.5", ":", "return", "x.y"}},
		{`d = {1: 2, "k": v}`, []string{"d", "=", "{", "1", ":", "2", ",", "``", "k", "''", ":", "v", "}"}},
		{`x = y ... z -- w`, []string{"x", "=", "y", "...", "z", "--", "w"}},
		{`return a**2 # done.`, []string{"return", "a", "*", "*", "2", "#", "done", "."}},
		{`don't can't cannot`, []string{"do", "n't", "ca", "n't", "can", "not"}},
		{`print(f"{x!r}")`, []string{"print", "(", "f", "''", "{", "x", "!", "r", "}", "''", ")"}},
		{`a = 'b'  # isn't it?`, []string{"a", "=", "'", "b", "'", "#", "is", "n't", "it", "?"}},
		{`"""Doc. More."""`, []string{"``", "``", "''", "Doc.", "More", ".", "''", "''", "''"}},
		{`a=1;b=2`, []string{"a=1", ";", "b=2"}},
		{`lst[1:2]`, []string{"lst", "[", "1:2", "]"}},
		{`1,000 and 3:30`, []string{"1,000", "and", "3:30"}},
		{`a,,`, []string{"a", ",", ","}},
		{`x = [1,`, []string{"x", "=", "[", "1", ","}},
		{`f(a,b)`, []string{"f", "(", "a", ",", "b", ")"}},
		{`I wanna go 'tis cannot`, []string{"I", "wan", "na", "go", "'t", "is", "can", "not"}},
		{`it's 'x' rock'n'roll ''quoted''`, []string{"it", "'s", "'", "x", "'", "rock'n'roll", "``", "quoted", "''"}},
		{`Gimme more'n   'twas`, []string{"Gim", "me", "more", "'n", "'t", "was"}},
		{`x = a.b.`, []string{"x", "=", "a.b", "."}},
		{`end.)  `, []string{"end", ".", ")"}},
		{`e.g... ok`, []string{"e.g", "...", "ok"}},
		{`a -- b---c`, []string{"a", "--", "b", "--", "-c"}},
		{`x'  'y`, []string{"x", "'", "'", "y"}},
		{"«q» “r” ‘s’ ```code```", []string{"«", "q", "»", "“", "r", "”", "‘", "s", "’", "``", "`", "code", "``", "`"}},
	} {
		assert.Equal(t, c.want, tokenize(c.in), "tokenize(%q) mismatch", c.in)
	}
}
