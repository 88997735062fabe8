package syntax

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

var fuzzLangs = []Lang{Python, Go, Java}

func FuzzParse(f *testing.F) {
	f.Add(uint8(0), []byte(pySrc))
	f.Add(uint8(1), []byte(goSrc))
	f.Add(uint8(2), []byte(javaSrc))
	f.Add(uint8(0), []byte("def f(a:\n    return a\n\nx = [1, 2\ny = 3\n"))
	f.Add(uint8(1), []byte("package p\n\nfunc f() {\n\tx := (1\n}\n"))
	f.Add(uint8(2), []byte("class A {\n  int f() {\n    int x = 1\n  }\n}\n"))
	f.Add(uint8(0), []byte("class A:\n\tdef f(self):\r\n\t\treturn '''\n\xff\n'''\n"))
	f.Add(uint8(2), []byte("@A @B(1) public <T> void f(T t) { String s = \"\"\"\n  x\n  \"\"\"; }"))
	f.Fuzz(func(t *testing.T, li uint8, src []byte) {
		lang := fuzzLangs[int(li)%len(fuzzLangs)]
		tree, err := Parse(lang, src)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		pos := func(off int) (line, col int) {
			ls := lineStart(src, off)
			return bytes.Count(src[:ls], []byte{'\n'}) + 1, off - ls + 1
		}
		for _, e := range tree.Errors() {
			if e.Offset < 0 || e.Offset > e.End || e.End > len(src) {
				t.Fatalf("error %v has range [%d,%d) outside [0,%d]", e, e.Offset, e.End, len(src))
			}
			if l, c := pos(e.Offset); l != e.Line || c != e.Column {
				t.Fatalf("error %v at offset %d: want line %d column %d", e, e.Offset, l, c)
			}
			if e.Msg == "" {
				t.Fatalf("error without message at %d", e.Offset)
			}
		}
		fs := tree.Functions()
		for i, fn := range fs {
			if !(0 <= fn.Start && fn.Start <= fn.DeclStart && fn.DeclStart <= fn.End && fn.End <= len(src)) {
				t.Fatalf("function %+v has an invalid range (len %d)", fn, len(src))
			}
			if fn.BodyStart != -1 && (fn.BodyStart < fn.Start || fn.BodyStart > fn.End) {
				t.Fatalf("function %+v has BodyStart outside its range", fn)
			}
			if l, _ := pos(fn.Start); l != fn.Line {
				t.Fatalf("function %+v: want line %d", fn, l)
			}
			if string(leadingSpace(src[lineStart(src, fn.Start):fn.Start])) != fn.Indent {
				t.Fatalf("function %+v: wrong indent", fn)
			}
			if i > 0 && fs[i-1].Start > fn.Start {
				t.Fatalf("functions not in source order: %+v before %+v", fs[i-1], fn)
			}
			if fn.Name == "" {
				t.Fatalf("function without name: %+v", fn)
			}
		}
		for _, imp := range tree.Imports() {
			if len(imp) == 0 || !bytes.Contains(src, imp) {
				t.Fatalf("import %q is not part of the source", imp)
			}
		}
		// The text helpers and Extract must not panic on arbitrary input.
		_ = Reindent(src, "\t")
		_ = Indent(src, "  ")
		if len(fs) > 0 {
			if _, err := Extract(lang, src, fs[0].Name); err != nil {
				t.Fatalf("Extract(%q): %v", fs[0].Name, err)
			}
		}
	})
}

func FuzzReplace(f *testing.F) {
	f.Add(uint8(0), []byte(pyClass), uint8(2), []byte("def area(self):\n    return 1\n"))
	f.Add(uint8(0), []byte(pySrc), uint8(1), []byte("@d\n  def make():\n\treturn '''\nx\n'''\n"))
	f.Add(uint8(1), []byte(goSrc), uint8(1), []byte("func (r *Rect) Scale(k float64) {\n    r.W *= k\n}\n"))
	f.Add(uint8(2), []byte(javaSrc), uint8(3), []byte("  int scale(int k) {\n\treturn k;\n  }\n"))
	f.Add(uint8(2), []byte("  class A { int f() { return 1; } }\n"), uint8(0), []byte("int f() {\n    return 2;\n}"))
	f.Add(uint8(0), []byte("def f():\r\n    return 1\r\n"), uint8(0), []byte("def f(:\n"))
	f.Fuzz(func(t *testing.T, li uint8, src []byte, pick uint8, rep []byte) {
		lang := fuzzLangs[int(li)%len(fuzzLangs)]
		tree, err := Parse(lang, src)
		if err != nil {
			t.Fatal(err)
		}
		fs := tree.Functions()
		if len(fs) == 0 {
			if out, err := Replace(lang, src, "f", rep); !errors.Is(err, ErrNotFound) || out != nil {
				t.Fatalf("Replace of a missing function = %q, %v; want nil, ErrNotFound", out, err)
			}
			return
		}
		name := fs[int(pick)%len(fs)].QualifiedName()
		fn, err := tree.Find(name)
		if err != nil {
			return // e.g. a Go receiver type that is not an identifier in broken code
		}
		orig := bytes.Clone(src)
		out, err := Replace(lang, src, name, rep)
		if !bytes.Equal(src, orig) {
			t.Fatal("Replace modified its input")
		}
		// A Target parsed once gives what Replace gives, every time.
		tg, terr := NewTarget(lang, src)
		if terr != nil {
			t.Fatal(terr)
		}
		for range 2 {
			tout, terr := tg.Replace(name, rep)
			if !bytes.Equal(tout, out) || fmt.Sprint(terr) != fmt.Sprint(err) {
				t.Fatalf("Target.Replace = %q, %v; Replace = %q, %v", tout, terr, out, err)
			}
		}
		var se *SpliceError
		if err != nil && !errors.As(err, &se) {
			if out != nil {
				t.Fatalf("Replace returned output with error %v", err)
			}
			return
		}
		// The incremental re-parse must agree with a full parse.
		var got []SyntaxError
		if se != nil {
			got = se.Errors
		}
		require.Equal(t, fullErrors(t, lang, out), got, "incremental and full parse disagree on %q", out)
		if !bytes.HasPrefix(out, src[:fn.Start]) {
			t.Fatalf("bytes before Start (%d) changed:\n%q\n%q", fn.Start, src, out)
		}
		if !bytes.HasSuffix(out, src[fn.End:]) {
			t.Fatalf("bytes after End (%d) changed:\n%q\n%q", fn.End, src, out)
		}
	})
}
