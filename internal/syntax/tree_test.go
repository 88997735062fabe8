package syntax

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestErrors(t *testing.T) {
	cases := []struct {
		name   string
		reason string
		lang   Lang
		src    string
		want   []string
	}{
		{name: "python clean", reason: "valid code has no errors", lang: Python, src: pySrc},
		{
			name: "python broken", reason: "an unclosed parameter list: the ERROR node and the nested ERROR node are both listed", lang: Python,
			src:  "def f(a:\n    return a\n\nx = [1, 2\ny = 3\n",
			want: []string{`line 1, column 1: unexpected "def f(a:…"`, `line 2, column 5: unexpected "return a"`},
		},
		{
			name: "java missing semicolon", reason: "a MISSING node names the token", lang: Java,
			src:  "class A {\n  int f() {\n    int x = 1\n    return x;\n  }\n}\n",
			want: []string{`line 3, column 14: missing ";"`},
		},
		{
			name: "go missing paren", reason: "a MISSING node inside a function body", lang: Go,
			src:  "package p\n\nfunc f() {\n\tx := (1\n}\n",
			want: []string{`line 4, column 9: missing ")"`},
		},
		{
			name: "go unexpected token", reason: "an ERROR node holding one token", lang: Go,
			src:  "package p\n\nfunc f() int {\n\treturn 1 +\n}\n",
			want: []string{`line 4, column 11: unexpected "+"`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tree, err := Parse(tc.lang, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range tree.Errors() {
				got = append(got, e.Error())
			}
			assert.Equal(t, tc.want, got, "%s\nErrors() mismatch", tc.reason)
			assert.Equal(t, len(tc.want) > 0, tree.HasErrors(), "%s\nHasErrors() mismatch", tc.reason)
		})
	}
}

func TestSyntaxErrorFields(t *testing.T) {
	tree, err := Parse(Java, []byte("class A {\n  int f() {\n    int x = 1\n  }\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []SyntaxError{{Line: 3, Column: 14, Offset: 35, End: 35, Msg: `missing ";"`}}
	assert.Equal(t, want, tree.Errors(), "Errors() mismatch")
}

func TestParseUnsupported(t *testing.T) {
	if _, err := Parse(Lang("cobol"), []byte("x")); err == nil {
		t.Fatal("Parse accepted an unsupported language")
	}
	if _, err := Parse(Lang(""), nil); err == nil {
		t.Fatal("Parse accepted the zero Lang")
	}
}

func TestTreeAccessors(t *testing.T) {
	src := []byte("import os\n\ndef f():\n    pass\n")
	tree, err := Parse(Python, src)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Lang() != Python || &tree.Source()[0] != &src[0] {
		t.Errorf("Lang/Source do not return what was parsed")
	}
	// Results are copies: mutating them does not affect the tree.
	fs := tree.Functions()
	fs[0].Name = "changed"
	if got := tree.Functions()[0].Name; got != "f" {
		t.Errorf("Functions() aliases the tree: name = %q", got)
	}
	imp := tree.Imports()
	_ = append(imp[0], "X"...)
	if got := string(src); got != "import os\n\ndef f():\n    pass\n" {
		t.Errorf("appending to an import clobbered the source: %q", got)
	}
	if f, err := tree.Find("f"); err != nil || f.QualifiedName() != "f" {
		t.Errorf("Find(f) = %+v, %v", f, err)
	}
}

// TestParseConcurrent exercises the parser pool from many goroutines (run
// with -race to be meaningful).
func TestParseConcurrent(t *testing.T) {
	srcs := map[Lang]string{Python: pySrc, Go: goSrc, Java: javaSrc}
	want := map[Lang]int{}
	for l, s := range srcs {
		tree, err := Parse(l, []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		want[l] = len(tree.Functions())
	}
	var wg sync.WaitGroup
	errc := make(chan error, 64)
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				l := []Lang{Python, Go, Java}[(i+j)%3]
				tree, err := Parse(l, []byte(srcs[l]))
				if err != nil {
					errc <- err
					return
				}
				if n := len(tree.Functions()); n != want[l] || tree.HasErrors() {
					errc <- fmt.Errorf("%s: %d functions, errors %v", l, n, tree.Errors())
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
}

func TestSpliceErrorUnwrap(t *testing.T) {
	se := SyntaxError{Line: 1, Column: 2, Msg: `missing ")"`}
	err := error(&SpliceError{Name: "f", Errors: []SyntaxError{se, se}})
	var got SyntaxError
	if !errors.As(err, &got) || got != se {
		t.Errorf("errors.As did not find the SyntaxError: %v", got)
	}
	assert.Equal(t, `syntax: source is invalid after replacing "f": line 1, column 2: missing ")" (and 1 more)`, err.Error(), "Error() mismatch")
}
