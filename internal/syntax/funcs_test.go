package syntax

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// fnView is a readable projection of a Func for table tests.
type fnView struct {
	Name, Container string
	Depth, Line     int
	Indent          string
	Decorators      string // src[Start:DeclStart]
	Text            string // src[DeclStart:End]
	Body            string // up to 12 bytes from BodyStart, "" if none
}

func view(src string, fs []Func) []fnView {
	var out []fnView
	for _, f := range fs {
		v := fnView{
			Name: f.Name, Container: f.Container, Depth: f.Depth, Line: f.Line, Indent: f.Indent,
			Decorators: src[f.Start:f.DeclStart], Text: src[f.DeclStart:f.End],
		}
		if f.BodyStart >= 0 {
			v.Body = src[f.BodyStart:min(f.BodyStart+12, len(src))]
		}
		out = append(out, v)
	}
	return out
}

const pySrc = `import os


@decorator
def top(a):
    s = """
multi
  line
"""
    return s


class Shape:
    """A shape."""

    @staticmethod
    @other(1)
    def make():
        def helper():
            return 1
        return helper()

    async def area(self):
        return 0


def top(b):
    pass
`

const goSrc = `package shapes

import "fmt"

// Area returns the area.
func Area(s Shape) float64 { return s.Area() }

func (r *Rect) Scale(k float64) {
	r.W *= k
}

func (c Circle) String() string {
	return fmt.Sprint(c.R)
}

func Map[T, U any](xs []T, f func(T) U) []U {
	return nil
}

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }
`

const javaSrc = `package shapes;

import java.util.List;

public class Rect {
    private int w;

    /** Creates a rect. */
    public Rect(int w) {
        this.w = w;
    }

    @Override
    @SuppressWarnings("unchecked")
    public String toString() { return "Rect"; }

    int scale(int k) { return w * k; }

    int scale(double k) { return (int) (w * k); }

    interface Visitor { void visit(Rect r); }

    enum Kind { SQUARE; int sides() { return 4; } }
}
`

func TestFunctions(t *testing.T) {
	cases := []struct {
		name   string
		reason string
		lang   Lang
		src    string
		want   []fnView
	}{
		{
			name:   "python",
			reason: "decorated top-level def with a multi-line string, a class with a decorated static method holding a nested def, an async method, a redefinition",
			lang:   Python,
			src:    pySrc,
			want: []fnView{
				{Name: "top", Line: 4, Decorators: "@decorator\n", Text: "def top(a):\n    s = \"\"\"\nmulti\n  line\n\"\"\"\n    return s", Body: "s = \"\"\"\nmult"},
				{Name: "make", Container: "Shape", Depth: 1, Line: 16, Indent: "    ", Decorators: "@staticmethod\n    @other(1)\n    ", Text: "def make():\n        def helper():\n            return 1\n        return helper()", Body: "def helper()"},
				{Name: "helper", Depth: 2, Line: 19, Indent: "        ", Text: "def helper():\n            return 1", Body: "return 1\n   "},
				{Name: "area", Container: "Shape", Depth: 1, Line: 23, Indent: "    ", Text: "async def area(self):\n        return 0", Body: "return 0\n\n\nd"},
				{Name: "top", Line: 27, Text: "def top(b):\n    pass", Body: "pass\n"},
			},
		},
		{
			name:   "go",
			reason: "function, pointer-receiver method, value-receiver method, generic function, method of a generic type; doc comments are outside the range",
			lang:   Go,
			src:    goSrc,
			want: []fnView{
				{Name: "Area", Line: 6, Text: "func Area(s Shape) float64 { return s.Area() }", Body: "{ return s.A"},
				{Name: "Scale", Container: "Rect", Line: 8, Text: "func (r *Rect) Scale(k float64) {\n\tr.W *= k\n}", Body: "{\n\tr.W *= k\n"},
				{Name: "String", Container: "Circle", Line: 12, Text: "func (c Circle) String() string {\n\treturn fmt.Sprint(c.R)\n}", Body: "{\n\treturn fm"},
				{Name: "Map", Line: 16, Text: "func Map[T, U any](xs []T, f func(T) U) []U {\n\treturn nil\n}", Body: "{\n\treturn ni"},
				{Name: "Push", Container: "Stack", Line: 20, Text: "func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }", Body: "{ s.items = "},
			},
		},
		{
			name:   "java",
			reason: "constructor (Javadoc outside), annotated method (annotations are decorators), overloads, interface method without body, enum method",
			lang:   Java,
			src:    javaSrc,
			want: []fnView{
				{Name: "Rect", Container: "Rect", Depth: 1, Line: 9, Indent: "    ", Text: "public Rect(int w) {\n        this.w = w;\n    }", Body: "{\n        th"},
				{Name: "toString", Container: "Rect", Depth: 1, Line: 13, Indent: "    ", Decorators: "@Override\n    @SuppressWarnings(\"unchecked\")\n    ", Text: "public String toString() { return \"Rect\"; }", Body: "{ return \"Re"},
				{Name: "scale", Container: "Rect", Depth: 1, Line: 17, Indent: "    ", Text: "int scale(int k) { return w * k; }", Body: "{ return w *"},
				{Name: "scale", Container: "Rect", Depth: 1, Line: 19, Indent: "    ", Text: "int scale(double k) { return (int) (w * k); }", Body: "{ return (in"},
				{Name: "visit", Container: "Visitor", Depth: 2, Line: 21, Indent: "    ", Text: "void visit(Rect r);"},
				{Name: "sides", Container: "Kind", Depth: 2, Line: 23, Indent: "    ", Text: "int sides() { return 4; }", Body: "{ return 4; "},
			},
		},
		{
			name:   "java bare method",
			reason: "a model may answer with a method outside any class; it is still a function (top level, no container)",
			lang:   Java,
			src:    "@Override\npublic int f(int a) {\n    return a;\n}\n",
			want: []fnView{
				{Name: "f", Line: 1, Decorators: "@Override\n", Text: "public int f(int a) {\n    return a;\n}", Body: "{\n    return"},
			},
		},
		{
			name:   "python conditional method",
			reason: "a def under an if in a class body is still a method of the class",
			lang:   Python,
			src:    "class A:\n    if X:\n        def f(self): pass\n",
			want: []fnView{
				{Name: "f", Container: "A", Depth: 1, Line: 3, Indent: "        ", Text: "def f(self): pass", Body: "pass\n"},
			},
		},
		{
			name:   "java anonymous class",
			reason: "a method of an anonymous class has no container and is nested deeper than its enclosing method",
			lang:   Java,
			src:    "class A {\n  void run() {\n    new Thread() { public void run() {} };\n  }\n}\n",
			want: []fnView{
				{Name: "run", Container: "A", Depth: 1, Line: 2, Indent: "  ", Text: "void run() {\n    new Thread() { public void run() {} };\n  }", Body: "{\n    new Th"},
				{Name: "run", Depth: 3, Line: 3, Indent: "    ", Text: "public void run() {}", Body: "{} };\n  }\n}\n"},
			},
		},
		{
			name:   "empty",
			reason: "no definitions at all",
			lang:   Go,
			src:    "",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tree, err := Parse(tc.lang, []byte(tc.src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if errs := tree.Errors(); len(errs) > 0 {
				t.Fatalf("unexpected syntax errors: %v", errs)
			}
			assert.Equal(t, tc.want, view(tc.src, tree.Functions()), "%s\nFunctions() mismatch", tc.reason)
		})
	}
}

func TestFindFunction(t *testing.T) {
	cases := []struct {
		name     string
		reason   string
		lang     Lang
		src      string
		find     string
		wantLine int
		wantErr  error
	}{
		{name: "python top-level first", reason: "two top-level defs: the first one wins", lang: Python, src: pySrc, find: "top", wantLine: 4},
		{name: "python method", reason: "a method is found by its bare name", lang: Python, src: pySrc, find: "area", wantLine: 23},
		{name: "python qualified", reason: "Class.method matches the container", lang: Python, src: pySrc, find: "Shape.make", wantLine: 16},
		{name: "python nested", reason: "nested functions are found too", lang: Python, src: pySrc, find: "helper", wantLine: 19},
		{name: "python wrong class", reason: "the container must match", lang: Python, src: pySrc, find: "Other.make", wantErr: ErrNotFound},
		{name: "python top-level beats method", reason: "smaller depth wins even if later in the source", lang: Python, src: "class A:\n    def f(self): pass\n\ndef f(): pass\n", find: "f", wantLine: 4},
		{name: "python method qualified", reason: "qualification selects the method over the top-level function", lang: Python, src: "class A:\n    def f(self): pass\n\ndef f(): pass\n", find: "A.f", wantLine: 2},
		{name: "go method", reason: "Type.method for a pointer receiver", lang: Go, src: goSrc, find: "Rect.Scale", wantLine: 8},
		{name: "go pointer form", reason: "(*T).m is accepted", lang: Go, src: goSrc, find: "(*Rect).Scale", wantLine: 8},
		{name: "go generic receiver", reason: "type arguments are not part of the container", lang: Go, src: goSrc, find: "Stack.Push", wantLine: 20},
		{name: "go func over method", reason: "at equal depth a plain function beats a method", lang: Go, src: "package p\nfunc (T) F() {}\nfunc F() {}\n", find: "F", wantLine: 3},
		{name: "java overload", reason: "overloaded methods: the first one", lang: Java, src: javaSrc, find: "scale", wantLine: 17},
		{name: "java constructor", reason: "a constructor is named after its class", lang: Java, src: javaSrc, find: "Rect.Rect", wantLine: 9},
		{name: "java nested qualified", reason: "Outer.Inner.m matches the last container", lang: Java, src: javaSrc, find: "Rect.Kind.sides", wantLine: 23},
		{name: "not found", reason: "missing functions wrap ErrNotFound", lang: Java, src: javaSrc, find: "area", wantErr: ErrNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := FindFunction(tc.lang, []byte(tc.src), tc.find)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("%s: err = %v, want %v", tc.reason, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			assert.Equal(t, tc.wantLine, f.Line, "%s\nline mismatch", tc.reason)
		})
	}
}

func TestFindFunctionErrors(t *testing.T) {
	if _, err := FindFunction(Python, []byte("def f(): pass\n"), "g"); !errors.Is(err, ErrNotFound) || err.Error() != `syntax: function not found: "g"` {
		t.Errorf("not found: got %v", err)
	}
	for _, name := range []string{"", "A.", ".", "   "} {
		if _, err := FindFunction(Python, []byte("def f(): pass\n"), name); err == nil || errors.Is(err, ErrNotFound) {
			t.Errorf("FindFunction(%q) = %v, want an invalid-name error", name, err)
		}
	}
	if _, err := FindFunction(Lang("ruby"), nil, "f"); err == nil {
		t.Error("unsupported language accepted")
	}
}

func TestLangByName(t *testing.T) {
	cases := []struct {
		name    string
		reason  string
		in      string
		want    Lang
		wantErr string
	}{
		{name: "python", reason: "canonical name", in: "python", want: Python},
		{name: "upper", reason: "case-insensitive", in: "GO", want: Go},
		{name: "spaces", reason: "surrounding space ignored", in: " Java ", want: Java},
		{name: "unknown", reason: "aliases are not accepted", in: "golang", wantErr: `syntax: unknown language "golang" (want python, go or java)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := LangByName(tc.in)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			assert.Equal(t, tc.wantErr, gotErr, "%s\nerror mismatch", tc.reason)
			assert.Equal(t, tc.want, got, "%s\nlang mismatch", tc.reason)
		})
	}
}

func TestImports(t *testing.T) {
	cases := []struct {
		name   string
		reason string
		lang   Lang
		src    string
		want   []string
	}{
		{
			name: "python", reason: "import, from-import (multi-line), __future__; imports inside functions are not top-level", lang: Python,
			src:  "from __future__ import annotations\nimport os, sys\nfrom typing import (\n    List,\n)\n\ndef f():\n    import json\n",
			want: []string{"from __future__ import annotations", "import os, sys", "from typing import (\n    List,\n)"},
		},
		{
			name: "go", reason: "single and grouped import declarations", lang: Go,
			src:  "package p\n\nimport \"fmt\"\nimport (\n\t\"os\"\n\tx \"strings\"\n)\n",
			want: []string{"import \"fmt\"", "import (\n\t\"os\"\n\tx \"strings\"\n)"},
		},
		{
			name: "java", reason: "plain and static imports", lang: Java,
			src:  "package p;\nimport java.util.List;\nimport static java.lang.Math.*;\nclass A {}\n",
			want: []string{"import java.util.List;", "import static java.lang.Math.*;"},
		},
		{name: "none", reason: "no imports gives nil", lang: Python, src: "x = 1\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Imports(tc.lang, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var gotS []string
			for _, b := range got {
				gotS = append(gotS, string(b))
			}
			assert.Equal(t, tc.want, gotS, "%s\nImports mismatch", tc.reason)
		})
	}
}

// TestFindOverloads checks that a Java name with parameter types
// (Func.Signature) finds its overload, in Find and in Target.Replace,
// where the bare name finds the first.
func TestFindOverloads(t *testing.T) {
	src := []byte(`class P {
    int parse(String s) {
        return parse(s, 0);
    }

    int parse(String s, int from) {
        return from;
    }

    int parse(java.util.List<String> xs, int... rest) {
        return 2;
    }
}
`)
	tree, err := Parse(Java, src)
	if err != nil {
		t.Fatal(err)
	}
	var sigs []string
	for _, f := range tree.Functions() {
		sigs = append(sigs, f.Signature())
	}
	if want := []string{"P.parse(String)", "P.parse(String,int)", "P.parse(java.util.List<String>,int...)"}; !slices.Equal(sigs, want) {
		t.Fatalf("signatures %q, want %q", sigs, want)
	}
	for _, tc := range []struct{ name, body string }{
		{"P.parse", "return parse(s, 0);"},
		{"P.parse(String)", "return parse(s, 0);"},
		{"P.parse(String, int)", "return from;"},
		{"parse( java.util.List<String>, int... )", "return 2;"},
	} {
		f, err := tree.Find(tc.name)
		if err != nil {
			t.Errorf("Find(%q): %v", tc.name, err)
			continue
		}
		if !strings.Contains(string(src[f.Start:f.End]), tc.body) {
			t.Errorf("Find(%q) found %q", tc.name, src[f.Start:f.End])
		}
	}
	if _, err := tree.Find("P.parse(int)"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find(P.parse(int)): %v, want ErrNotFound", err)
	}
	tg, err := NewTarget(Java, src)
	if err != nil {
		t.Fatal(err)
	}
	out, err := tg.Replace("P.parse(String,int)", []byte("int parse(String s, int from) {\n    return -from;\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "return -from;") || !strings.Contains(string(out), "return parse(s, 0);") || strings.Contains(string(out), "return from;") {
		t.Errorf("Replace by signature:\n%s", out)
	}
}
