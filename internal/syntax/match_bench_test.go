package syntax

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

// editedBigPython returns bigPython(200) and a copy with a renamed local
// in m7, a changed literal in m21 and m30 deleted.
func editedBigPython(tb testing.TB) (a, b []byte) {
	a = bigPython(200)
	if n := bytes.Count(a, []byte{'\n'}); n < 195 || n > 205 {
		tb.Fatalf("generated %d lines", n)
	}
	b = bytes.Replace(a, []byte("y = x * 7\n        return math.sqrt(y)"), []byte("z = x * 7\n        return math.sqrt(z)"), 1)
	b = bytes.Replace(b, []byte("x * 21"), []byte("x * 12"), 1)
	b = bytes.Replace(b, []byte("    def m30(self, x):\n        y = x * 30\n        return math.sqrt(y)\n\n"), nil, 1)
	return a, b
}

func TestDiffBigFile(t *testing.T) {
	a, b := editedBigPython(t)
	edits, err := Diff(Python, a, b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range edits {
		got = append(got, editView(e, a, b))
	}
	want := []string{
		`update identifier "y" -> "z"`,
		`update identifier "y" -> "z"`,
		`update integer "21" -> "12"`,
		`delete function_definition "def m30(self, x):\n        y = x * 30\n        return math.sqrt(y)"`,
	}
	assert.Equal(t, want, got, "three local edits in 200 lines of near-identical methods")
}

// BenchmarkMatch matches and diffs the two files of TestDiffBigFile (1,450
// nodes in a). Parsing is outside the timed loop.
func BenchmarkMatch(b *testing.B) {
	a, c := editedBigPython(b)
	ta, err := ParseNodes(Python, a)
	if err != nil {
		b.Fatal(err)
	}
	tc, _ := ParseNodes(Python, c)
	nodes := 0
	ta.Walk(func(*Node) bool { nodes++; return true })
	var edits int
	for b.Loop() {
		edits = len(Match(ta, a, tc, c).Edits())
	}
	b.ReportMetric(float64(nodes), "nodes")
	b.ReportMetric(float64(edits), "edits")
}
