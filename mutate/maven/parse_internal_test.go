package maven

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/mutate"
)

func TestParseJacocoLines(t *testing.T) {
	got, err := parseJacocoLines([]byte("test a.T#x[2]\ncom/x/A.java:3\ncom/x/A.java:2\nB.java:7\ntest a.T#y\ntest a.T#x[2]\ncom/x/A.java:9\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]mutate.Lines{
		"a.T#x[2]": {"src/main/java/com/x/A.java": {2, 3, 9}, "src/main/java/B.java": {7}},
		"a.T#y":    {},
	}
	assert.Equal(t, want, got, "JaCoCo lines")
	for _, tc := range []struct{ name, out, reason string }{
		{"no line", "test a\nA.java\n", "path:line"},
		{"no test", "A.java:3\n", "a line before any test"},
		{"line zero", "test a\nA.java:0\n", "lines count from 1"},
	} {
		if _, err := parseJacocoLines([]byte(tc.out)); err == nil {
			t.Errorf("%s: %q parsed, want an error (%s)", tc.name, tc.out, tc.reason)
		}
	}
}

// FuzzParseJacocoLines: any output parses or is refused, and what parses
// has sorted, distinct, positive lines.
func FuzzParseJacocoLines(f *testing.F) {
	f.Add([]byte("test a.T#x[2]\ncom/x/A.java:3\ncom/x/A.java:2\n"))
	f.Add([]byte("test \n:1\ntest x\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := parseJacocoLines(b)
		if err != nil {
			return
		}
		for test, ls := range got {
			for file, ns := range ls {
				for i, n := range ns {
					if n <= 0 || i > 0 && ns[i-1] >= n {
						t.Fatalf("%s: %s: lines %v", test, file, ns)
					}
				}
			}
		}
	})
}
