package measure

import (
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// BenchmarkMeasure measures all 164 HumanEval canonical solutions per
// iteration (ns/op). It also reports ns/program; parse-ns/program, the
// tree-sitter parse and copy into Go nodes that Measure starts with
// (syntax.ParseNodes); tokens-ns/program, the NLTK-style tokenizer alone
// (R1, R11, R13); and x-parse, the ratio of Measure to parsing. The
// baselines run in every iteration, interleaved with Measure and outside
// its timer, so that load from other processes affects them alike.
func BenchmarkMeasure(b *testing.B) {
	progs := humanEval(b)
	var parse, toks time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		start := time.Now()
		for _, p := range progs {
			if _, err := syntax.ParseNodes(syntax.Python, p.Src); err != nil {
				b.Fatal(err)
			}
		}
		parse += time.Since(start)
		start = time.Now()
		for _, p := range progs {
			tokenStats(p.Src)
		}
		toks += time.Since(start)
		b.StartTimer()
		for _, p := range progs {
			if _, err := Measure(p.Src); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) / float64(len(progs)) }
	measure := per(b.Elapsed())
	b.ReportMetric(measure, "ns/program")
	b.ReportMetric(per(parse), "parse-ns/program")
	b.ReportMetric(per(toks), "tokens-ns/program")
	b.ReportMetric(measure/per(parse), "x-parse")
}
