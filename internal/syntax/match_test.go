package syntax

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// editView renders an edit for comparison: `kind type "text"`, with the
// text of the node of a (of b for inserts), and both labels for updates.
func editView(e Edit, srcA, srcB []byte) string {
	switch e.Kind {
	case Insert:
		return fmt.Sprintf("insert %s %q", e.Type, e.B.Text(srcB))
	case Update:
		return fmt.Sprintf("update %s %q -> %q", e.Type, e.OldLabel, e.NewLabel)
	default:
		return fmt.Sprintf("%s %s %q", e.Kind, e.Type, e.A.Text(srcA))
	}
}

// diffCases are TestDiff's cases: two versions of a program and the
// edits between them, each as editView renders it.
var diffCases = []struct {
	name   string
	lang   Lang
	a, b   string
	want   []string
	reason string
}{{
	name:   "python/identical",
	lang:   Python,
	a:      "def f(x):\n    y = x + 1\n    return y\n",
	b:      "def f(x):\n    y = x + 1\n    return y\n",
	want:   nil,
	reason: "identical code has no edits",
}, {
	name: "python/whitespace",
	lang: Python,
	a:    "def f(x, z):\n    y = x+1\n    return g(y,z)\n",
	b:    "def f( x,z ):\n\n    y  =  x + 1\n\n\n    return g( y, z )  \n",
	want: nil,
	reason: "white space is not part of any label, and blank lines " +
		"are not nodes",
}, {
	name: "python/rename",
	lang: Python,
	a:    "def f(a):\n    t = a * 2\n    print(t)\n    return t\n",
	b:    "def f(a):\n    u = a * 2\n    print(u)\n    return u\n",
	want: []string{
		`update identifier "t" -> "u"`,
		`update identifier "t" -> "u"`,
		`update identifier "t" -> "u"`,
	},
	reason: "a renamed variable is an update at each occurrence",
}, {
	name:   "python/operator",
	lang:   Python,
	a:      "x = a + b\n",
	b:      "x = a | b\n",
	want:   []string{`update + "+" -> "|"`},
	reason: "an operator is an anonymous node typed by its field, labelled by its text",
}, {
	name: "python/guard",
	lang: Python,
	a:    "def f(x):\n    y = x.value + 1\n    return y\n",
	b:    "def f(x):\n    if x is None:\n        return\n    y = x.value + 1\n    return y\n",
	want: []string{
		`insert if_statement "if x is None:\n        return"`,
	},
	reason: "an inserted guard is one insert of its subtree",
}, {
	name: "python/move",
	lang: Python,
	a:    "def f():\n    a = load(1)\n    b = load(2)\n    c = a + b\n    return c\n",
	b:    "def f():\n    b = load(2)\n    a = load(1)\n    c = a + b\n    return c\n",
	want: []string{
		`move expression_statement "a = load(1)"`,
	},
	reason: "swapped statements: one of them is out of order",
}, {
	name: "python/delete call",
	lang: Python,
	a:    "def f(x):\n    y = x * 2\n    log(y, 'f')\n    return y\n",
	b:    "def f(x):\n    y = x * 2\n    return y\n",
	want: []string{
		`delete expression_statement "log(y, 'f')"`,
	},
	reason: "a deleted call statement is one delete of its subtree",
}, {
	name: "python/move into block",
	lang: Python,
	a:    "def f(x):\n    y = compute(x, 3)\n    if x:\n        log(x)\n        return 1\n    return y\n",
	b:    "def f(x):\n    if x:\n        log(x)\n        y = compute(x, 3)\n        return 1\n    return y\n",
	want: []string{
		`move expression_statement "y = compute(x, 3)"`,
	},
	reason: "a statement moved into another block changes parent",
}, {
	name: "go/literal",
	lang: Go,
	a:    "package p\n\nfunc f(n int) int {\n\tif n > 10 {\n\t\treturn n\n\t}\n\treturn 0\n}\n",
	b:    "package p\n\nfunc f(n int) int {\n\tif n >= 10 {\n\t\treturn n\n\t}\n\treturn 1\n}\n",
	want: []string{
		`update > ">" -> ">="`,
		`update int_literal "0" -> "1"`,
	},
	reason: "an operator and a literal change are updates",
}, {
	name:   "go/gofmt",
	lang:   Go,
	a:      "package p\n\nfunc f(n int) int {\n\tx := n*2\n\treturn x\n}\n",
	b:      "package p\n\nfunc f(n int)int{\n  x:=n * 2\n\n\n  return x\n}\n",
	want:   nil,
	reason: `Go's "\n" terminators are labelled by type, not text`,
}, {
	name: "go/delete",
	lang: Go,
	a:    "package p\n\nfunc f(n int) int {\n\tn = clamp(n)\n\treturn n\n}\n",
	b:    "package p\n\nfunc f(n int) int {\n\treturn n\n}\n",
	want: []string{
		`delete assignment_statement "n = clamp(n)"`,
		"delete \n \"\\n\"",
	},
	reason: "a deleted statement takes its terminator with it",
}, {
	name: "go/rename",
	lang: Go,
	a:    "package p\n\nfunc f(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n",
	b:    "package p\n\nfunc f(xs []int) int {\n\tsum := 0\n\tfor _, x := range xs {\n\t\tsum += x\n\t}\n\treturn sum\n}\n",
	want: []string{
		`update identifier "total" -> "sum"`,
		`update identifier "total" -> "sum"`,
		`update identifier "total" -> "sum"`,
	},
	reason: "a renamed Go local is an update at each occurrence",
}, {
	name: "java/try wrap",
	lang: Java,
	a:    "class A {\n  int f(String s) {\n    int n = s.length();\n    return n * 2;\n  }\n}\n",
	b:    "class A {\n  int f(String s) {\n    try {\n      int n = s.length();\n      return n * 2;\n    } catch (RuntimeException e) {\n      return 0;\n    }\n  }\n}\n",
	want: []string{
		`move block "{\n    int n = s.length();\n    return n * 2;\n  }"`,
		`insert block "{\n    try {\n      int n = s.length();\n      return n * 2;\n    } catch (RuntimeException e) {\n      return 0;\n    }\n  }"`,
	},
	reason: "the old body becomes the try block: a new body is inserted " +
		"and the old one moves into it",
}, {
	name: "java/for to while",
	lang: Java,
	a:    "class A {\n  void f(java.util.List<String> xs) {\n    for (int i = 0; i < xs.size(); i++) {\n      use(xs.get(i));\n    }\n  }\n}\n",
	b:    "class A {\n  void f(java.util.List<String> xs) {\n    int i = 0;\n    while (i < xs.size()) {\n      use(xs.get(i));\n      i++;\n    }\n  }\n}\n",
	want: []string{
		`delete for_statement "for (int i = 0; i < xs.size(); i++) {\n      use(xs.get(i));\n    }"`,
		`move local_variable_declaration "int i = 0;"`,
		`move binary_expression "i < xs.size()"`,
		`move update_expression "i++"`,
		`move block "{\n      use(xs.get(i));\n    }"`,
		`insert while_statement "while (i < xs.size()) {\n      use(xs.get(i));\n      i++;\n    }"`,
		`insert expression_statement "i++;"`,
	},
	reason: "a control-flow swap deletes the old construct, inserts the " +
		"new one and moves the parts they share",
}, {
	name: "java/guard",
	lang: Java,
	a:    "class A {\n  int f(String s) {\n    return s.length();\n  }\n}\n",
	b:    "class A {\n  int f(String s) {\n    if (s == null) return 0;\n    return s.length();\n  }\n}\n",
	want: []string{
		`insert if_statement "if (s == null) return 0;"`,
	},
	reason: "an inserted Java guard is one insert",
}, {
	name: "java/api",
	lang: Java,
	a:    "class A {\n  int f(String s) {\n    return s.lastIndexOf('.');\n  }\n}\n",
	b:    "class A {\n  int f(String s) {\n    return s.indexOf('.');\n  }\n}\n",
	want: []string{
		`update identifier "lastIndexOf" -> "indexOf"`,
	},
	reason: "an API substitution is an update of the callee name",
}}

func TestDiff(t *testing.T) {
	for _, tt := range diffCases {
		t.Run(tt.name, func(t *testing.T) {
			edits, err := Diff(tt.lang, []byte(tt.a), []byte(tt.b))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range edits {
				got = append(got, editView(e, []byte(tt.a), []byte(tt.b)))
			}
			assert.Equal(t, tt.want, got, "%s: edits mismatch", tt.reason)
		})
	}
}

// TestMatchIdentical matches each language's fixture with itself and
// with a second parse of it (the checks of FuzzMatch).
func TestMatchIdentical(t *testing.T) {
	for _, src := range []struct {
		lang Lang
		src  string
	}{{Python, pySrc}, {Go, goSrc}, {Java, javaSrc}} {
		t.Run(string(src.lang), func(t *testing.T) {
			root, err := ParseNodes(src.lang, []byte(src.src))
			require.NoError(t, err)
			checkMatchSelf(t, src.lang, root, []byte(src.src))
		})
	}
}

func TestAlignedAndChanged(t *testing.T) {
	a := []byte("def f(x):\n    y = x * 2\n    log(y)\n    return y + 1\n")
	b := []byte("def f(x):\n    z = 0\n    y = x * 3\n    return y + 1\n")
	m, err := MatchSource(Python, a, b)
	if err != nil {
		t.Fatal(err)
	}
	// The perturbed literal `2` (offset of "2" in a) went to `3` in b.
	i := bytes.Index(a, []byte("2\n"))
	at := Range{i, i + 1}
	if string(a[at.Start:at.End]) != "2" {
		t.Fatalf("fixture: %q", a[at.Start:at.End])
	}
	r, ok := m.Aligned(at)
	if !ok || string(b[r.Start:r.End]) != "3" {
		t.Errorf("Aligned(%v) = %v %v, want the range of \"3\"", at, r, ok)
	}
	if _, ok := m.Aligned(Range{0, 2}); ok {
		t.Errorf("Aligned of a range that is no node: ok")
	}
	inA, inB := m.ChangedNodes()
	var ga, gb []string
	for _, n := range inA {
		ga = append(ga, n.Type+" "+n.Text(a))
	}
	for _, n := range inB {
		gb = append(gb, n.Type+" "+n.Text(b))
	}
	wantA := []string{"integer 2", "expression_statement log(y)"}
	wantB := []string{"expression_statement z = 0"}
	assert.Equal(t, wantA, ga, "changed in a")
	assert.Equal(t, wantB, gb, "changed in b")
	for x, y := range m.Pairs() {
		if m.ToB(x) != y || m.ToA(y) != x {
			t.Fatalf("ToB/ToA disagree with Pairs at %s", x.Type)
		}
	}
}

func TestMatchEmpty(t *testing.T) {
	m := Match(nil, nil, nil, nil)
	if m.Len() != 0 || len(m.Edits()) != 0 {
		t.Errorf("empty match: %d pairs, %v", m.Len(), m.Edits())
	}
	a, _ := ParseNodes(Python, []byte("x = 1\n"))
	m = Match(a, []byte("x = 1\n"), nil, nil)
	if got := m.Edits(); len(got) != 1 || got[0].Kind != Delete || got[0].A != a {
		t.Errorf("match with an empty tree: %v", got)
	}
	if _, err := Diff(Lang("cobol"), nil, nil); err == nil {
		t.Errorf("Diff of an unknown language: no error")
	}
}

func TestEditKindString(t *testing.T) {
	for k, want := range map[EditKind]string{EditInvalid: "invalid", Insert: "insert", Delete: "delete", Update: "update", Move: "move", 9: "EditKind(9)"} {
		if got := k.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", k, got, want)
		}
	}
	e := Edit{Kind: Update, Type: "identifier", A: &Node{Start: 1, End: 2}, B: &Node{Start: 3, End: 4}, OldLabel: "t", NewLabel: "u"}
	if got, want := e.String(), `update identifier "t" -> "u" at [1,2)->[3,4)`; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
