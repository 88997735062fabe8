package evolve_test

import (
	"context"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/evolve"
)

// BenchmarkSearch runs GeneBench's search with the 22 operators on the
// first five HumanEval problems, 44 evaluations each, serially
// (Parallelism 1) with a fresh tester per iteration, so that the split of
// the wall time is exact: "test-share" is the fraction spent waiting for
// test runs in the sandbox (fork server), the rest is this package's own
// work (operators, parsing, metrics, selection). Also reported: program
// evaluations per second, and milliseconds per evaluation in tests and in
// our code.
func BenchmarkSearch(b *testing.B) {
	suite(b)
	subs := subjects(b, humanEval(b)[:5])
	var evals, tested int
	var elapsed, testTime time.Duration
	for b.Loop() {
		tr := tester(b)
		start := time.Now()
		rep, err := evolve.Generate(context.Background(), subs, &evolve.Options{Evaluations: 44, Seed: 1, Parallelism: 1, Tester: tr})
		if err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(start)
		for res := range rep.Evolved() {
			evals += res.Evaluations
			tested += res.Tested
		}
		testTime += tr.Stats().TestTime // the originals' runs included
	}
	b.ReportMetric(float64(evals)/elapsed.Seconds(), "evals/s")
	b.ReportMetric(testTime.Seconds()/elapsed.Seconds(), "test-share")
	b.ReportMetric(float64(testTime.Milliseconds())/float64(evals), "ms-test/eval")
	b.ReportMetric(float64((elapsed-testTime).Milliseconds())/float64(evals), "ms-ours/eval")
	b.ReportMetric(float64(tested)/float64(evals), "tested/eval")
}
