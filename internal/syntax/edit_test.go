package syntax

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestApplyEdits(t *testing.T) {
	tests := []struct {
		name   string
		edits  []TextEdit
		want   string // the result, or the error
		reason string
	}{
		{"none", nil, "abcdef", "no edits keep the source"},
		{"any-order", []TextEdit{{4, 6, "X"}, {0, 0, ">"}, {1, 3, ""}}, ">adX", "edits apply by offset whatever their order"},
		{"touching", []TextEdit{{0, 2, "X"}, {2, 4, "Y"}}, "XYef", "ranges that only touch do not overlap"},
		{"inserts-in-order", []TextEdit{{2, 2, "1"}, {2, 2, "2"}, {2, 2, "3"}}, "ab123cdef", "insertions at one offset keep their order"},
		{"insert-before-replace", []TextEdit{{2, 4, "X"}, {2, 2, "<"}, {4, 4, ">"}}, "ab<X>ef", "an insertion at the start of a replaced range goes first, one at its end after"},
		{"at-end", []TextEdit{{6, 6, "!"}}, "abcdef!", "len(src) is a valid offset"},
		{"negative", []TextEdit{{-1, 2, ""}}, "syntax: edit [-1,2) out of range [0,6]", "start before 0"},
		{"past-end", []TextEdit{{2, 7, ""}}, "syntax: edit [2,7) out of range [0,6]", "end past the source"},
		{"reversed", []TextEdit{{3, 2, ""}}, "syntax: edit [3,2) out of range [0,6]", "end before start"},
		{"overlap", []TextEdit{{2, 4, "x"}, {0, 3, "y"}}, "syntax: edit [2,4) overlaps [0,3)", "the later of two overlapping ranges is named"},
		{"same-range", []TextEdit{{1, 3, "x"}, {1, 3, "y"}}, "syntax: edit [1,3) overlaps [1,3)", "one range replaced twice"},
		{"insert-inside", []TextEdit{{1, 4, "x"}, {2, 2, "y"}}, "syntax: edit [2,2) overlaps [1,4)", "an insertion inside a replaced range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte("abcdef")
			out, m, err := ApplyEdits(src, tt.edits)
			got := string(out)
			if err != nil {
				got = err.Error()
				var ee *EditError
				if !errors.As(err, &ee) || out != nil || m != nil {
					t.Errorf("error %v is not an *EditError with a nil result", err)
				}
			}
			if got != tt.want {
				t.Errorf("%s: got %q, want %q", tt.reason, got, tt.want)
			}
			if string(src) != "abcdef" {
				t.Error("ApplyEdits modified its input")
			}
		})
	}
}

func TestEditMap(t *testing.T) {
	src := []byte("return a + b")
	edits := []TextEdit{{11, 12, "var_1"}, {7, 8, "var_0"}, {9, 10, ""}}
	out, m, err := ApplyEdits(src, edits)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "return var_0  var_1" {
		t.Fatalf("ApplyEdits = %q", out)
	}
	var ranges []string
	for i := range edits {
		r := m.Range(i)
		ranges = append(ranges, fmt.Sprintf("%d:%q", i, out[r.Start:r.End]))
	}
	assert.Equal(t, []string{`0:"var_1"`, `1:"var_0"`, `2:""`}, ranges, "Range")
	// Offsets of "return var_0  var_1" mapped back to "return a + b".
	tests := []struct {
		off, start, end int
		reason          string
	}{
		{0, 0, 0, "before every edit"},
		{7, 7, 7, "the start of a replacement is the start of what it replaced"},
		{9, 7, 8, "inside a replacement"},
		{12, 8, 8, "the end of a replacement is the end of what it replaced"},
		{13, 9, 9, "at a deletion: no byte of the result is inside it"},
		{14, 11, 11, "after the deletion, at the last replacement's start"},
		{19, 12, 12, "the end of the result is the end of the source"},
	}
	for _, tt := range tests {
		if got := m.Old(tt.off, false); got != tt.start {
			t.Errorf("Old(%d, false) = %d, want %d: %s", tt.off, got, tt.start, tt.reason)
		}
		if got := m.Old(tt.off, true); got != tt.end {
			t.Errorf("Old(%d, true) = %d, want %d: %s", tt.off, got, tt.end, tt.reason)
		}
	}
}

// FuzzApplyEdits checks ApplyEdits against a naive applier on edits
// decoded from the input: the same verdict, and where the edits apply,
// the same result and consistent ranges.
func FuzzApplyEdits(f *testing.F) {
	f.Add([]byte("abcdef"), []byte{0, 2, 1, 2, 2, 0, 6, 6, 3})
	f.Add([]byte("x = 1\n"), []byte{4, 5, 2, 4, 4, 1, 0, 9, 0})
	f.Fuzz(func(t *testing.T, src, spec []byte) {
		edits := decodeTextEdits(spec)
		out, m, err := ApplyEdits(src, edits)
		if ok := naiveEditsValid(src, edits); ok != (err == nil) {
			t.Fatalf("edits %v: error %v, naive check says valid=%t", edits, err, ok)
		}
		if err != nil {
			return
		}
		if naive := naiveApplyEdits(src, edits); naive != string(out) {
			t.Fatalf("edits %v: got %q, naive %q", edits, out, naive)
		}
		for i, e := range edits {
			r := m.Range(i)
			if string(out[r.Start:r.End]) != e.Text {
				t.Fatalf("Range(%d) = %v holds %q, want %q", i, r, out[r.Start:r.End], e.Text)
			}
			// Inside a text (offsets at its ends may also be those of a
			// deletion next to it).
			if off := r.Start + 1; off < r.End {
				if s, e2 := m.Old(off, false), m.Old(off, true); s != e.Start || e2 != e.End {
					t.Fatalf("Old(%d) inside edit %d = %d, %d; want %d, %d", off, i, s, e2, e.Start, e.End)
				}
			}
		}
	})
}

// decodeTextEdits turns fuzz input into up to 8 edits, 3 bytes each:
// start and end (shifted by 2 to reach negative offsets) and a text of
// 0 to 4 "+".
func decodeTextEdits(spec []byte) []TextEdit {
	var edits []TextEdit
	for i := 0; i+2 < len(spec) && len(edits) < 8; i += 3 {
		edits = append(edits, TextEdit{int(spec[i]) - 2, int(spec[i+1]) - 2, strings.Repeat("+", int(spec[i+2]%5))})
	}
	return edits
}

// naiveEditsValid reports whether edits apply to src: in range and
// disjoint (an insertion inside a replaced range overlaps it).
func naiveEditsValid(src []byte, edits []TextEdit) bool {
	ok := true
	for i, e := range edits {
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			ok = false
		}
		for _, g := range edits[:i] {
			inside := func(x, r TextEdit) bool { return x.Start == x.End && r.Start < x.Start && x.Start < r.End }
			if e.Start < g.End && g.Start < e.End || inside(e, g) || inside(g, e) {
				ok = false
			}
		}
	}
	return ok
}

// naiveApplyEdits applies valid edits to src offset by offset.
func naiveApplyEdits(src []byte, edits []TextEdit) string {
	var b strings.Builder
	for off := 0; off <= len(src); off++ {
		replaced := false
		for _, e := range edits { // insertions first, in order
			if e.Start == off && e.End == off {
				b.WriteString(e.Text)
			}
		}
		for _, e := range edits {
			if e.Start == off && e.End > off {
				b.WriteString(e.Text)
			}
			if e.Start <= off && off < e.End {
				replaced = true
			}
		}
		if off < len(src) && !replaced {
			b.WriteByte(src[off])
		}
	}
	return b.String()
}
