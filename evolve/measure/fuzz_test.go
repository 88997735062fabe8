package measure

import (
	"errors"
	"math"
	"testing"
)

// FuzzMeasure checks Measure's invariants on arbitrary input: it never
// panics; it either fails with ErrSyntax or returns finite, non-negative
// metrics whose relative measures lie in [0, 1]; and it is deterministic.
// (go test -fuzz stalls on cgo packages on this machine; the seed corpus
// runs as a normal test.)
func FuzzMeasure(f *testing.F) {
	for _, c := range metricCases {
		f.Add([]byte(c.src))
	}
	for _, p := range fixtures(f) {
		f.Add(p.Src)
	}
	for _, s := range []string{
		"", "\n", "def", "if x:\n", "x = (", "\x00", "class A:\n    pass\n    ", "lambda: (yield)",
		"print 'py2'\n", "f'{'\n", "a = b = c = d\n" + "if a:\n    if b:\n        if c:\n            pass\n",
		"try:\n    pass\nexcept* E:\n    pass\n", "async def f():\n    await g()\n", "x = 1 if y else 2 if z else 3\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := Measure(src)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("Measure(%q) = %v, not an ErrSyntax", src, err)
			}
			return
		}
		vals := append(append(m.Complexity[:], m.Readability[:]...), m.MaxIfConditions)
		for i, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Fatalf("Measure(%q): value %d is %v", src, i, v)
			}
		}
		if m.Complexity[0] < 1 {
			t.Errorf("Measure(%q): C1 = %v, want at least 1 (the module)", src, m.Complexity[0])
		}
		rc, rr := GeneBenchV1.RelativeComplexity(m), GeneBenchV1.RelativeReadability(m)
		if rc < 0 || rc > 1 || rr < 0 || rr > 1 {
			t.Errorf("Measure(%q): RC %v, RR %v outside [0, 1]", src, rc, rr)
		}
		again, err := Measure(src)
		if err != nil || again != m {
			t.Errorf("Measure(%q) is not deterministic: %v, %v then %v", src, m, err, again)
		}
	})
}
