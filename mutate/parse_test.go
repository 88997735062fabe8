package mutate

import (
	"testing"
)

func TestLinesCovers(t *testing.T) {
	l := Lines{"a.go": {4, 9}}
	for _, tc := range []struct {
		from, to int
		want     bool
	}{{1, 3, false}, {1, 4, true}, {5, 8, false}, {9, 20, true}, {10, 20, false}} {
		if got := l.covers("a.go", tc.from, tc.to); got != tc.want {
			t.Errorf("Covers(%d, %d) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
	if l.covers("b.go", 1, 100) {
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
