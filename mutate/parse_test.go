package mutate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseCoverProfile(t *testing.T) {
	prof := "mode: set\n" +
		"example.com/m/a.go:3.10,5.2 2 1\n" +
		"example.com/m/a.go:7.1,7.20 1 0\n" +
		"example.com/m/b.go:10.2,12.3 1 4\n"
	got, err := parseCoverProfile([]byte(prof), "example.com/m")
	if err != nil {
		t.Fatal(err)
	}
	want := Lines{"a.go": {3, 4, 5}, "b.go": {10, 11, 12}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	for _, tc := range []struct{ name, line, reason string }{
		{"fields", "a.go:1.1,2.2 1", "three fields after the colon"},
		{"count", "a.go:1.1,2.2 1 x", "a numeric count"},
		{"range", "a.go:1-2 1 1", "l.c,l.c"},
	} {
		if _, err := parseCoverProfile([]byte("mode: set\n"+tc.line+"\n"), "m"); err == nil {
			t.Errorf("%s: %q parsed, want an error (%s)", tc.name, tc.line, tc.reason)
		}
	}
}

func TestParseJacocoLines(t *testing.T) {
	got, err := parseJacocoLines([]byte("test a.T#x[2]\ncom/x/A.java:3\ncom/x/A.java:2\nB.java:7\ntest a.T#y\ntest a.T#x[2]\ncom/x/A.java:9\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Lines{
		"a.T#x[2]": {"src/main/java/com/x/A.java": {2, 3, 9}, "src/main/java/B.java": {7}},
		"a.T#y":    {},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
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

func TestLinesCovers(t *testing.T) {
	l := Lines{"a.go": {4, 9}}
	for _, tc := range []struct {
		from, to int
		want     bool
	}{{1, 3, false}, {1, 4, true}, {5, 8, false}, {9, 20, true}, {10, 20, false}} {
		if got := l.Covers("a.go", tc.from, tc.to); got != tc.want {
			t.Errorf("Covers(%d, %d) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
	if l.Covers("b.go", 1, 100) {
		t.Error("a file without coverage is covered")
	}
}

func TestOnlyUnresolved(t *testing.T) {
	src := []byte("package p\n\nfunc f() int {\n\treturn valu\n}\n")
	at := len("package p\n\nfunc f() int {\n\treturn ")
	c := &Candidate{Src: src, Records: []Record{{Changes: []Change{{Mut: Range{at, at + 4}, New: "valu"}}}}}
	for _, tc := range []struct {
		name, msg string
		want      bool
	}{
		{"undefined on the changed line", "# p\na.go:4:9: undefined: valu", true},
		{"undefined elsewhere", "a.go:2:1: undefined: valu", false},
		{"another error too", "a.go:4:9: undefined: valu\na.go:4:2: too many return values", false},
		{"no error line", "# p", false},
	} {
		if got := onlyUnresolved(tc.msg, c, Go); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	java := "src/main/java/A.java:4: error: cannot find symbol\n    return valu;\n  symbol: variable valu"
	if !onlyUnresolved(java, c, Java) {
		t.Error("javac's cannot find symbol on the changed line is not unresolved")
	}
}
