package measure

import (
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// BenchmarkMeasure measures all 164 HumanEval canonical solutions per
// iteration. Besides ns/op it reports ns/program, parse-ns/program (the
// tree-sitter parse and copy into Go nodes that Measure starts with,
// measured in the same run) and x-parse, the ratio of the two: what the
// metrics cost on top of parsing. tokens-ns/program is the NLTK-style
// tokenizer alone (R1, R11, R13).
func BenchmarkMeasure(b *testing.B) {
	progs := humanEval(b)
	parse := func() {
		for _, p := range progs {
			if _, err := syntax.ParseNodes(syntax.Python, p.Src); err != nil {
				b.Fatal(err)
			}
		}
	}
	toks := func() {
		for _, p := range progs {
			tokenStats(p.Src)
		}
	}
	baseline := func(f func()) float64 {
		n := max(b.N, 20)
		start := time.Now()
		for range n {
			f()
		}
		return float64(time.Since(start).Nanoseconds()) / float64(n) / float64(len(progs))
	}
	parseNs := baseline(parse)
	tokNs := baseline(toks)

	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, p := range progs {
			if _, err := Measure(p.Src); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	perProg := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(len(progs))
	b.ReportMetric(perProg, "ns/program")
	b.ReportMetric(parseNs, "parse-ns/program")
	b.ReportMetric(tokNs, "tokens-ns/program")
	b.ReportMetric(perProg/parseNs, "x-parse")
}
