package syntax

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

const pyClass = `import math


class Circle:
    """A circle."""

    def __init__(self, r):
        self.r = r

    @property
    def area(self):
        return 0  # TODO

    def perimeter(self):
        return 2 * math.pi * self.r
`

// replaceCases are TestReplace's cases: a definition in a file replaced
// by new text, and the file it gives.
var replaceCases = []struct {
	name        string
	reason      string
	lang        Lang
	src         string
	fn          string
	replacement string
	want        string
}{
	{
		name: "python method, unindented replacement", reason: "a dedented def is indented to the method level; the original @property is kept because the replacement has no decorator",
		lang: Python, src: pyClass, fn: "Circle.area",
		replacement: "def area(self):\n    return math.pi * self.r ** 2\n",
		want:        strings.Replace(pyClass, "return 0  # TODO", "return math.pi * self.r ** 2", 1),
	},
	{
		name: "python method, already indented replacement", reason: "a replacement copied with its class indentation gives the same result",
		lang: Python, src: pyClass, fn: "area",
		replacement: "    def area(self):\n        return math.pi * self.r ** 2\n\n\n",
		want:        strings.Replace(pyClass, "return 0  # TODO", "return math.pi * self.r ** 2", 1),
	},
	{
		name: "python tab-indented replacement", reason: "indentation units are not converted: the body keeps its tab after the 4-space prefix (valid Python)",
		lang: Python, src: pyClass, fn: "perimeter",
		replacement: "def perimeter(self):\n\treturn math.tau * self.r\n",
		want:        strings.Replace(pyClass, "    def perimeter(self):\n        return 2 * math.pi * self.r", "    def perimeter(self):\n    \treturn math.tau * self.r", 1),
	},
	{
		name: "python decorators replaced", reason: "a replacement with its own decorators replaces the original ones",
		lang: Python, src: pyClass, fn: "area",
		replacement: "@functools.cached_property\ndef area(self):\n    return 1\n",
		want:        strings.Replace(pyClass, "    @property\n    def area(self):\n        return 0  # TODO", "    @functools.cached_property\n    def area(self):\n        return 1", 1),
	},
	{
		name: "python decorator added", reason: "an undecorated original gets the replacement's decorator",
		lang: Python, src: pyClass, fn: "perimeter",
		replacement: "@staticmethod\ndef perimeter(r):\n    return 2 * r\n",
		want:        strings.Replace(pyClass, "    def perimeter(self):\n        return 2 * math.pi * self.r", "    @staticmethod\n    def perimeter(r):\n        return 2 * r", 1),
	},
	{
		name: "python multi-line string kept verbatim", reason: "continuation lines of a triple-quoted string (even at column 0) are not re-indented, so the string value is unchanged and the code stays valid",
		lang: Python, src: pyClass, fn: "perimeter",
		replacement: "def perimeter(self):\n    doc = \"\"\"\nline one\n    line two\n\"\"\"\n    return doc\n",
		want: strings.Replace(pyClass, "    def perimeter(self):\n        return 2 * math.pi * self.r",
			"    def perimeter(self):\n        doc = \"\"\"\nline one\n    line two\n\"\"\"\n        return doc", 1),
	},
	{
		name: "python top-level function", reason: "top level: no indentation added; blank lines after the definition are kept",
		lang: Python, src: "def f(x):\n    return x\n\n\ndef g():\n    return f(1)\n", fn: "f",
		replacement: "\n\ndef f(x):\n    y = x + 1\n    return y",
		want:        "def f(x):\n    y = x + 1\n    return y\n\n\ndef g():\n    return f(1)\n",
	},
	{
		name: "python async", reason: "async def is replaced as a whole",
		lang: Python, src: "class A:\n    async def run(self):\n        await x()\n", fn: "run",
		replacement: "async def run(self):\n    await y()\n",
		want:        "class A:\n    async def run(self):\n        await y()\n",
	},
	{
		name: "go method, spaces replacement", reason: "Go top-level: the replacement keeps its own (4-space) body indentation; doc comment kept",
		lang: Go, src: goSrc, fn: "Rect.Scale",
		replacement: "func (r *Rect) Scale(k float64) {\n    r.W *= k\n    r.H *= k\n}\n",
		want:        strings.Replace(goSrc, "func (r *Rect) Scale(k float64) {\n\tr.W *= k\n}", "func (r *Rect) Scale(k float64) {\n    r.W *= k\n    r.H *= k\n}", 1),
	},
	{
		name: "go indented replacement", reason: "a tab-indented replacement (e.g. copied from a nested context) is dedented to column 0",
		lang: Go, src: goSrc, fn: "Map",
		replacement: "\tfunc Map[T, U any](xs []T, f func(T) U) []U {\n\t\tout := make([]U, 0, len(xs))\n\t\treturn out\n\t}\n",
		want:        strings.Replace(goSrc, "\treturn nil\n", "\tout := make([]U, 0, len(xs))\n\treturn out\n", 1),
	},
	{
		name: "go raw string", reason: "raw string continuation lines are verbatim",
		lang: Go, src: "package p\n\nfunc f() string {\n\treturn \"\"\n}\n", fn: "f",
		replacement: "    func f() string {\n        return `a\n  b`\n    }",
		want:        "package p\n\nfunc f() string {\n    return `a\n  b`\n}\n",
	},
	{
		name: "java annotated method", reason: "replacement without annotations keeps @Override and @SuppressWarnings; 2-space replacement is re-based on the 4-space class indentation",
		lang: Java, src: javaSrc, fn: "toString",
		replacement: "public String toString() {\n  return \"Rect(\" + w + \")\";\n}\n",
		want: strings.Replace(javaSrc, "    public String toString() { return \"Rect\"; }",
			"    public String toString() {\n      return \"Rect(\" + w + \")\";\n    }", 1),
	},
	{
		name: "java overload", reason: "the first overload is the one replaced",
		lang: Java, src: javaSrc, fn: "scale",
		replacement: "int scale(int k) {\n    return k * w;\n}",
		want:        strings.Replace(javaSrc, "    int scale(int k) { return w * k; }", "    int scale(int k) {\n        return k * w;\n    }", 1),
	},
	{
		name: "java constructor", reason: "constructors are replaced by class name",
		lang: Java, src: javaSrc, fn: "Rect.Rect",
		replacement: "public Rect(int w) {\n    if (w < 0) throw new IllegalArgumentException();\n    this.w = w;\n}\n",
		want: strings.Replace(javaSrc, "        this.w = w;\n",
			"        if (w < 0) throw new IllegalArgumentException();\n        this.w = w;\n", 1),
	},
	{
		name: "java one-line class", reason: "a definition that does not start its line: the first line goes where it started, the others get the line's indentation",
		lang: Java, src: "  class A { int f() { return 1; } }\n", fn: "f",
		replacement: "int f() {\n    return 2;\n}",
		want:        "  class A { int f() {\n      return 2;\n  } }\n",
	},
	{
		name: "crlf file", reason: "line endings of the replacement follow the original definition",
		lang: Python, src: "def f():\r\n    return 1\r\n\r\nx = 1\r\n", fn: "f",
		replacement: "def f():\n    y = 2\n    return y\n",
		want:        "def f():\r\n    y = 2\r\n    return y\r\n\r\nx = 1\r\n",
	},
}

func TestReplace(t *testing.T) {
	for _, tc := range replaceCases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse(tc.lang, []byte(tc.src)); err != nil {
				t.Fatal(err)
			}
			got, err := Replace(tc.lang, []byte(tc.src), tc.fn, []byte(tc.replacement))
			if err != nil {
				t.Fatalf("%s: Replace: %v\n%s", tc.reason, err, got)
			}
			assert.Equal(t, tc.want, string(got), "%s\nReplace mismatch", tc.reason)
			tg, err := NewTarget(tc.lang, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the parsed target is reused, never changed
				got, err := tg.Replace(tc.fn, []byte(tc.replacement))
				if err != nil || string(got) != tc.want {
					t.Errorf("Target.Replace = %q, %v; want %q", got, err, tc.want)
				}
			}
		})
	}
}

// TestReplacePreservesOutside checks that the bytes before the replaced
// definition and after it are kept exactly.
func TestReplacePreservesOutside(t *testing.T) {
	cases := []struct {
		name        string
		reason      string
		lang        Lang
		src         string
		fn          string
		replacement string
	}{
		{name: "python", reason: "decorated method in a class, comments and blank lines around", lang: Python, src: pyClass, fn: "area", replacement: "@cached\ndef area(self):\n  return 1\n"},
		{name: "python nested", reason: "a nested function keeps the enclosing body intact", lang: Python, src: pySrc, fn: "helper", replacement: "def helper():\n    return 2\n"},
		{name: "go", reason: "generic method at the end of the file", lang: Go, src: goSrc, fn: "Push", replacement: "func (s *Stack[T]) Push(v T) {\n\ts.items = append([]T{v}, s.items...)\n}\n"},
		{name: "java", reason: "method in an enum nested in a class", lang: Java, src: javaSrc, fn: "Kind.sides", replacement: "int sides() {\n  return 5;\n}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			orig := bytes.Clone(src)
			f, err := FindFunction(tc.lang, src, tc.fn)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Replace(tc.lang, src, tc.fn, []byte(tc.replacement))
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if !bytes.Equal(src, orig) {
				t.Fatal("Replace modified its input")
			}
			assert.Equal(t, tc.src[:f.Start], string(got[:f.Start]), "%s\nbytes before Start changed", tc.reason)
			after := tc.src[f.End:]
			if !bytes.HasSuffix(got, []byte(after)) {
				t.Errorf("%s\nbytes after End changed: got\n%s", tc.reason, got)
			}
			// The spliced definition is exactly the re-indented replacement.
			g, err := FindFunction(tc.lang, got, tc.fn)
			if err != nil {
				t.Fatal(err)
			}
			assert.Equal(t, len(got)-len(after), g.End, "%s\nnew definition does not end where the old suffix starts", tc.reason)
		})
	}
}

func TestReplaceErrors(t *testing.T) {
	src := []byte("def f():\n    return 1\n\ny = 2\n")

	t.Run("not found", func(t *testing.T) {
		out, err := Replace(Python, src, "g", []byte("def g(): pass\n"))
		if !errors.Is(err, ErrNotFound) || out != nil {
			t.Errorf("got %q, %v; want nil, ErrNotFound", out, err)
		}
	})
	t.Run("empty replacement", func(t *testing.T) {
		out, err := Replace(Python, src, "f", []byte("  \n\n"))
		if err == nil || out != nil {
			t.Errorf("got %q, %v; want nil and an error", out, err)
		}
	})
	t.Run("splice error", func(t *testing.T) {
		out, err := Replace(Python, src, "f", []byte("def f(:\n    return (1\n"))
		var se *SpliceError
		if !errors.As(err, &se) {
			t.Fatalf("err = %v, want *SpliceError", err)
		}
		assert.Equal(t, "def f(:\n    return (1\n\ny = 2\n", string(out), "spliced output must be returned with the error")
		if len(se.Errors) == 0 || se.Name != "f" {
			t.Errorf("SpliceError = %+v, want syntax errors for f", se)
		}
		var syn SyntaxError
		if !errors.As(err, &syn) || syn.Line < 1 {
			t.Errorf("errors.As(SyntaxError) = %+v", syn)
		}
	})
}

func TestExtract(t *testing.T) {
	cases := []struct {
		name   string
		reason string
		lang   Lang
		code   string
		fn     string
		want   string
	}{
		{
			name: "python method in class", reason: "a model wrapped the method in its class with imports and a helper: the method is returned dedented with its decorator",
			lang: Python, fn: "area",
			code: "import math\n\ndef helper(r):\n    return r * r\n\nclass Circle:\n    @property\n    def area(self):\n        \"\"\"Area.\n\n        Uses helper.\n        \"\"\"\n        return math.pi * helper(self.r)\n\n    def other(self):\n        pass\n",
			want: "@property\ndef area(self):\n    \"\"\"Area.\n\n        Uses helper.\n        \"\"\"\n    return math.pi * helper(self.r)\n",
		},
		{
			name: "python does not parse", reason: "the block has a syntax error elsewhere; the function is still extracted",
			lang: Python, fn: "f",
			code: "Here is the code:\ndef f(x):\n    return x + 1\n\nprint(f(1)\n",
			want: "def f(x):\n    return x + 1\n",
		},
		{
			name: "python prose with decorator", reason: "prose makes tree-sitter swallow the definition; the line-based fallback re-parses from the decorator line",
			lang: Python, fn: "f",
			code: "Fixed version: it works now\n@cache\ndef f(x):\n    return x\n",
			want: "@cache\ndef f(x):\n    return x\n",
		},
		{
			name: "go prose", reason: "an apostrophe in prose opens a rune literal that swallows the method; the fallback finds it",
			lang: Go, fn: "Solution.Solve",
			code: "Sure! Here's the fix:\n\nfunc (s *Solution) Solve(a []int) int {\n\treturn len(a)\n}\n",
			want: "func (s *Solution) Solve(a []int) int {\n\treturn len(a)\n}\n",
		},
		{
			name: "python string at column 0", reason: "continuation lines of a multi-line string neither block dedenting nor change",
			lang: Python, fn: "f",
			code: "class A:\n    def f(self):\n        return '''\nx\n'''\n",
			want: "def f(self):\n    return '''\nx\n'''\n",
		},
		{
			name: "java method in class", reason: "annotations are part of the method, Javadoc is not",
			lang: Java, fn: "Solution.solve",
			code: "import java.util.*;\n\nclass Solution {\n    /** Solves. */\n    @Override\n    public int solve(int[] a) {\n        return a.length;\n    }\n}\n",
			want: "@Override\npublic int solve(int[] a) {\n    return a.length;\n}\n",
		},
		{
			name: "go method", reason: "Go method by receiver type",
			lang: Go, fn: "T.M",
			code: "package main\n\ntype T struct{}\n\nfunc (t *T) M() int {\n\treturn 1\n}\n",
			want: "func (t *T) M() int {\n\treturn 1\n}\n",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Extract(tc.lang, []byte(tc.code), tc.fn)
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			assert.Equal(t, tc.want, string(got), "%s\nExtract mismatch", tc.reason)
		})
	}
	if _, err := Extract(Python, []byte("def f(): pass\n"), "g"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Extract of a missing function: err = %v, want ErrNotFound", err)
	}
}

// TestExtractReplaceRoundTrip extracts a method from a model answer and
// splices it into a target file.
func TestExtractReplaceRoundTrip(t *testing.T) {
	answer := "```python\n" // a caller strips fences; tree-sitter tolerates them anyway
	answer += "class Circle:\n    def area(self):\n        return math.pi * self.r ** 2\n```\n"
	fn, err := Extract(Python, []byte(answer), "Circle.area")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Replace(Python, []byte(pyClass), "Circle.area", fn)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(pyClass, "return 0  # TODO", "return math.pi * self.r ** 2", 1)
	assert.Equal(t, want, string(got), "round trip mismatch")
}
