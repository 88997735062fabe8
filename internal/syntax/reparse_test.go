package syntax

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// fullErrors is what a parse of src from scratch reports.
func fullErrors(t testing.TB, lang Lang, src []byte) []SyntaxError {
	t.Helper()
	tree, err := Parse(lang, src)
	if err != nil {
		t.Fatal(err)
	}
	return tree.Errors()
}

// reparseOnce applies one replacement of [start, end) by text to src and
// checks the Reparser's errors against a parse from scratch.
func reparseOnce(t testing.TB, r *Reparser, lang Lang, src []byte, start, end int, text []byte) {
	t.Helper()
	edited := slices.Concat(src[:start], text, src[end:])
	got, err := r.Errors(edited, start, end, start+len(text))
	if err != nil {
		t.Fatal(err)
	}
	require.Equal(t, fullErrors(t, lang, edited), got, "%s: [%d,%d) replaced by %q: errors differ from a full parse", lang, start, end, text)
}

// TestReparserSameAsParse: on real files of each language, edits of every
// kind (deletions, insertions of tokens and of line breaks, whole lines
// moved) give the errors a parse from scratch gives, with the same lines
// and columns after edits that add or remove lines.
func TestReparserSameAsParse(t *testing.T) {
	files := map[Lang][]string{
		Go:     {"tree.go", "match.go"},
		Python: {"../../exec/internal/jobkit/driver_unittest.py", "../../exec/sandbox/forkserver.py"},
		Java:   {"../../exec/driver_junit.java"},
	}
	tokens := [][]byte{
		[]byte("("), []byte(")"), []byte("{"), []byte("}"), []byte("\n"), []byte("\n\n\n"),
		[]byte(" x "), []byte(";"), []byte("\"unterminated"), []byte("if "), []byte("    "), []byte(""),
	}
	for lang, names := range files {
		for _, name := range names {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			r, err := NewReparser(lang, src)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, uint64(len(src))))
			for range 40 {
				start := rng.IntN(len(src))
				end := min(len(src), start+rng.IntN(3)*rng.IntN(40))
				reparseOnce(t, r, lang, src, start, end, tokens[rng.IntN(len(tokens))])
			}
			// A line moved down by a few lines: errors after it and before it.
			ls := lineStart(src, len(src)/2)
			le := ls + bytes.IndexByte(src[ls:], '\n') + 1
			reparseOnce(t, r, lang, src, ls, le, bytes.Repeat([]byte("\n"), 5))
			t.Logf("%s %s: %d bytes, 41 edits", lang, filepath.Base(name), len(src))
		}
	}
}

func TestReparserBadEdit(t *testing.T) {
	r, err := NewReparser(Go, []byte("package p\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ start, oldEnd, newEnd int }{{-1, 0, 0}, {3, 2, 3}, {0, 11, 11}, {0, 1, 3}} {
		if _, err := r.Errors([]byte("package q\n"), c.start, c.oldEnd, c.newEnd); err == nil {
			t.Errorf("edit %v: no error", c)
		}
	}
}

func FuzzReparser(f *testing.F) {
	f.Add(uint8(0), []byte(pySrc), uint16(10), uint16(4), []byte("(\n"))
	f.Add(uint8(1), []byte(goSrc), uint16(30), uint16(0), []byte("}\n\n"))
	f.Add(uint8(2), []byte(javaSrc), uint16(12), uint16(9), []byte("\"\"\""))
	f.Add(uint8(0), []byte("def f(a):\n    if a:\n        return 1\n    return 2\n"), uint16(20), uint16(0), []byte("\n  x = ["))
	f.Fuzz(func(t *testing.T, li uint8, src []byte, at, n uint16, text []byte) {
		lang := fuzzLangs[int(li)%len(fuzzLangs)]
		r, err := NewReparser(lang, src)
		if err != nil {
			t.Fatal(err)
		}
		start := int(at) % (len(src) + 1)
		end := min(len(src), start+int(n))
		reparseOnce(t, r, lang, src, start, end, text)
	})
}
