package ctxbug

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
)

// holesAt makes a hole of each occurrence (1-based) of each text in src.
func holesAt(src string, texts []string, nth []int) []Hole {
	var hs []Hole
	for i, t := range texts {
		off := -1
		for range nth[i] {
			off += 1 + strings.Index(src[off+1:], t)
		}
		hs = append(hs, Hole{Start: off, End: off + len(t)})
	}
	return hs
}

// TestBugsAligned checks the bug locations where GumTree alone pairs
// equal tokens across positions, and the locality check.
func TestBugsAligned(t *testing.T) {
	type bug struct{ Hole, Text, VariantText string }
	tests := []struct {
		name, a, b string
		texts      []string
		nth        []int
		want       []bug
		local      bool
	}{
		{
			name:  "swapped_variables",
			a:     "def f(a, b):\n    x = a - b\n    return x\n",
			b:     "def f(a, b):\n    x = b - a\n    return x\n",
			texts: []string{"a", "b", "x"}, nth: []int{3, 2, 2},
			want:  []bug{{"0", "a", "b"}, {"1", "b", "a"}},
			local: true,
		},
		{
			name:  "attribute_used_elsewhere",
			a:     "def g(self):\n    self.n += 1\n    return self.total\n",
			b:     "def g(self):\n    self.total += 1\n    return self.total\n",
			texts: []string{"self.n", "self.total"}, nth: []int{1, 1},
			want:  []bug{{"0", "self.n", "self.total"}},
			local: true,
		},
		{
			name:  "comment_and_docstring_added",
			a:     "def h(x):\n    return x | 1\n",
			b:     "def h(x):\n    \"\"\"Set the bit.\"\"\"\n    # add it\n    return x + 1\n",
			texts: []string{"|"}, nth: []int{1},
			want:  []bug{{"0", "|", "+"}},
			local: true,
		},
		{
			name:  "edit_elsewhere",
			a:     "def h(x):\n    y = x * 2\n    return y | 1\n",
			b:     "def h(x):\n    y = x * 3\n    return y + 1\n",
			texts: []string{"|"}, nth: []int{1},
			want:  []bug{{"0", "|", "+"}},
			local: false,
		},
		{
			name:  "deleted_return",
			a:     "def k(x):\n    x += 1\n    return x\n",
			b:     "def k(x):\n    x += 1\n",
			texts: []string{"return x"}, nth: []int{1},
			want:  []bug{{"0", "return x", ""}},
			local: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			holes := holesAt(tt.a, tt.texts, tt.nth)
			c, err := compare([]byte(tt.a), []byte(tt.b))
			if err != nil {
				t.Fatal(err)
			}
			var got []bug
			for _, b := range c.bugs(holes) {
				got = append(got, bug{string(rune('0' + b.Hole)), b.Text, b.VariantText})
			}
			assert.Equal(t, tt.want, got, "bugs")
			if ok := c.align(holes).ok; ok != tt.local {
				t.Errorf("local = %v, want %v", ok, tt.local)
			}
		})
	}
}

// TestResolved checks resolution where GumTree alone would call a copied
// swap resolved: the answer keeps the variant's "b - a".
func TestResolved(t *testing.T) {
	a := "def f(a, b):\n    x = a - b\n    return x\n"
	holes := holesAt(a, []string{"a", "b"}, []int{3, 2})
	for _, tt := range []struct {
		answer string
		want   []bool
	}{
		{"def f(a, b):\n    x = b - a\n    return x\n", []bool{false, false}},
		{"def f(a, b):\n    x = a - b\n    return x\n", []bool{true, true}},
		{"def f(a, b):\n    x = a - a\n    return x\n", []bool{true, false}},
		{"def f(a, b):\n    # fixed\n    y = 2\n    x = a - b\n    return x\n", []bool{true, true}},
	} {
		c, err := compare([]byte(a), []byte(tt.answer))
		if err != nil {
			t.Fatal(err)
		}
		if got := c.resolved(holes); !cmp.Equal(got, tt.want) {
			t.Errorf("%q: resolved %v, want %v", tt.answer, got, tt.want)
		}
	}
}
