package syntax

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// bigPython returns a Python module of about lines lines: a class with
// many small methods.
func bigPython(lines int) []byte {
	var b strings.Builder
	b.WriteString("import math\n\n\nclass Big:\n")
	for i := 0; strings.Count(b.String(), "\n") < lines-4; i++ {
		fmt.Fprintf(&b, "    def m%d(self, x):\n        y = x * %d\n        return math.sqrt(y)\n\n", i, i)
	}
	return []byte(b.String())
}

// BenchmarkReplace replaces a method in the middle of a 300-line Python
// file. Besides ns/op it reports baseline-ns/op, a plain bytes.Index +
// splice of the same text measured in the same run, and x-baseline, the
// ratio between the two.
func BenchmarkReplace(b *testing.B) {
	src := bigPython(300)
	if n := bytes.Count(src, []byte{'\n'}); n < 295 || n > 305 {
		b.Fatalf("generated %d lines", n)
	}
	const name = "m40"
	old := []byte("    def m40(self, x):\n        y = x * 40\n        return math.sqrt(y)")
	rep := []byte("def m40(self, x):\n    return x\n")
	repIndented := []byte("    def m40(self, x):\n        return x")
	if _, err := Replace(Python, src, name, rep); err != nil {
		b.Fatal(err)
	}

	baseline := func() []byte {
		i := bytes.Index(src, old)
		out := make([]byte, 0, len(src)-len(old)+len(repIndented))
		out = append(out, src[:i]...)
		out = append(out, repIndented...)
		return append(out, src[i+len(old):]...)
	}
	// Measure the baseline over enough iterations to be stable.
	n := max(b.N, 10000)
	start := time.Now()
	for range n {
		if baseline() == nil {
			b.Fatal("baseline failed")
		}
	}
	baseNs := float64(time.Since(start).Nanoseconds()) / float64(n)

	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := Replace(Python, src, name, rep); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(baseNs, "baseline-ns/op")
	b.ReportMetric(ns/baseNs, "x-baseline")
}

// BenchmarkParse parses the same 300-line Python file (parse, query and
// collection of functions, imports and literals).
func BenchmarkParse(b *testing.B) {
	src := bigPython(300)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(Python, src); err != nil {
			b.Fatal(err)
		}
	}
}
