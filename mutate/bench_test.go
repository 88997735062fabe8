package mutate_test

import (
	"context"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/mutate"
)

// BenchmarkGoMutants measures the validity pipeline's compile and test
// steps on the L1 mutants of four fragments of github.com/google/uuid,
// one mutant at a time: valid mutants per second, and the shares of the
// wall time spent building (go test -c with an overlay), in test
// processes (sandboxed) and in the pipeline's own code (the rest: file
// writes, parsing output, verdicts). Run it with -benchtime=1x; each
// iteration checks every mutant once.
func BenchmarkGoMutants(b *testing.B) {
	gm := openReal(b, exectest.Sandbox(b))
	ctx := context.Background()
	res, err := mutate.Generate(ctx, gm, &mutate.Options{Seed: 2, Fragments: 4, Runs: 1, Parallelism: 1, Contexts: []mutate.ContextLevel{mutate.C1}})
	if err != nil {
		b.Fatal(err)
	}
	var base []mutate.Candidate
	for _, c := range res.Candidates {
		if c.Reason != mutate.ReasonNoEdit && c.Reason != mutate.ReasonParse && c.Reason != mutate.ReasonOverlap {
			base = append(base, *c)
		}
	}
	var build, test, wall time.Duration
	valid, checked := 0, 0
	b.ResetTimer()
	for b.Loop() {
		cands := make([]*mutate.Candidate, len(base))
		for i := range base {
			c := base[i]
			c.Reason, c.Failing, c.Unresolved, c.TimedOut, c.Detail = mutate.ReasonNone, nil, false, false, ""
			cands[i] = &c
		}
		start := time.Now()
		bt, tt, err := mutate.CheckCandidates(ctx, gm, cands, &mutate.Options{Parallelism: 1})
		if err != nil {
			b.Fatal(err)
		}
		wall += time.Since(start)
		build += bt
		test += tt
		for _, c := range cands {
			checked++
			if c.Valid() {
				valid++
			}
		}
	}
	b.ReportMetric(float64(valid)/wall.Seconds(), "valid-mutants/s")
	b.ReportMetric(float64(checked)/wall.Seconds(), "mutants/s")
	b.ReportMetric(build.Seconds()/wall.Seconds(), "build-share")
	b.ReportMetric(test.Seconds()/wall.Seconds(), "test-share")
	b.ReportMetric(1-(build+test).Seconds()/wall.Seconds(), "own-share")
}
