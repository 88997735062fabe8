package textkit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
)

func TestUnified(t *testing.T) {
	for _, tc := range []struct {
		name, a, b, want, reason string
	}{
		{name: "same", a: "x\ny\n", b: "x\ny\n", want: "", reason: "no change, no diff"},
		{name: "one-line", a: "a\nb\nc\n", b: "a\nB\nc\n", reason: "a replaced line with its context",
			want: "--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{name: "insert-at-end", a: "a\n", b: "a\nb\n", reason: "an insertion",
			want: "--- a\n+++ b\n@@ -1 +1,2 @@\n a\n+b\n"},
		{name: "from-empty", a: "", b: "x\n", reason: "an empty range starts at line 0",
			want: "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n"},
		{name: "two-hunks", a: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", b: "1\nX\n3\n4\n5\n6\n7\n8\nY\n10\n", reason: "changes further apart than twice the context make two hunks",
			want: "--- a\n+++ b\n@@ -1,3 +1,3 @@\n 1\n-2\n+X\n 3\n@@ -8,3 +8,3 @@\n 8\n-9\n+Y\n 10\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Unified("a", "b", tc.a, tc.b, 1)
			assert.Equal(t, tc.want, got, "%s", tc.reason)
		})
	}
}

// apply rebuilds both sides from a script: a diff is right when it gives
// back a and b.
func apply(ops []Op) (a, b []string) {
	for _, o := range ops {
		if o.Kind != '+' {
			a = append(a, o.Line)
		}
		if o.Kind != '-' {
			b = append(b, o.Line)
		}
	}
	return a, b
}

func TestDiffMinimal(t *testing.T) {
	a := strings.Split("a b c a b b a", " ")
	b := strings.Split("c b a b a c", " ")
	ops := Diff(a, b)
	edits := 0
	for _, o := range ops {
		if o.Kind != ' ' {
			edits++
		}
	}
	if edits != 5 { // Myers' paper's example: D = 5
		t.Errorf("edits = %d, want 5 (a shortest script)", edits)
	}
	ga, gb := apply(ops)
	if !cmp.Equal(a, ga) || !cmp.Equal(b, gb) {
		t.Errorf("script does not give back its inputs: %v", ops)
	}
}

func TestDiffHugeFallsBack(t *testing.T) {
	var a, b []string
	for i := range 3000 {
		a = append(a, "a"+strings.Repeat("x", i%7)+string(rune('0'+i%10)))
		b = append(b, "b"+string(rune('0'+i%10)))
	}
	ops := Diff(a, b)
	ga, gb := apply(ops)
	if !cmp.Equal(a, ga) || !cmp.Equal(b, gb) {
		t.Fatal("fallback script does not give back its inputs")
	}
}

func FuzzDiff(f *testing.F) {
	f.Add("a\nb\nc", "a\nc\nd")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, x, y string) {
		a, b := Lines(x), Lines(y)
		ga, gb := apply(Diff(a, b))
		if !cmp.Equal(a, ga, cmp.Comparer(func(p, q []string) bool { return strings.Join(p, "\n") == strings.Join(q, "\n") })) || strings.Join(b, "\n") != strings.Join(gb, "\n") {
			t.Fatalf("script does not give back its inputs: %q %q", x, y)
		}
		_ = Unified("a", "b", x, y, 3)
	})
}
