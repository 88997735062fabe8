package mutate_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/internal/mutatetest"
	"github.com/adaptbench/adaptbench/mutate/maven"
)

// BenchmarkGoMutants measures the validity pipeline's compile and test
// steps on the L1 mutants of four fragments of github.com/google/uuid, on
// the old path (gomod.Config.BuildEach: "go test -c" with an overlay per
// mutant, one mutant at a time) and on the fast path (type checking, then
// one schema binary holding every mutant that type-checks) in the same
// run: valid mutants per second on each ("old-" and "new-" metrics), the
// ratio, and the shares of the wall time spent building, in test
// processes (sandboxed) and in the pipeline's own code (the rest: type
// checking, file writes, parsing output, verdicts). Every path must give
// every mutant the same verdict. Run it with -benchtime=1x; each iteration
// checks every mutant once on each path.
//
// "old" is the old path as it was, its binaries linked with DWARF
// (GOFLAGS without -ldflags=-w, through gomod.Config.Env); without -short a
// third path, "oldw", is the old path as it builds now, with
// exec.GoBuildFlags, and "x-oldw" the fast path's ratio to it.
func BenchmarkGoMutants(b *testing.B) {
	sb := exectest.Sandbox(b)
	paths := []benchPath{
		{"old", mutatetest.OpenUUID(b, sb, true, "GOFLAGS=-mod=mod -buildvcs=false")},
		{"new", mutatetest.OpenUUID(b, sb, false)},
	}
	if !testing.Short() {
		paths = append(paths, benchPath{"oldw", mutatetest.OpenUUID(b, sb, true)})
	}
	benchMutants(b, paths, &mutate.Options{Seed: 2, Fragments: benchFragments(), Runs: 1, Parallelism: 1, Contexts: []mutate.ContextLevel{mutate.C1}}, func() {
		// The new path reads its packages' export data when it lists their
		// tests, as Generate does first (the old path's Generate).
		if _, err := paths[1].p.Tests(context.Background()); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkJavaMutants is BenchmarkGoMutants for testdata/maven, the L1
// and L2 mutants of four fragments: a javac and a test JVM per check
// (maven.Config.CompileEach and TestEach) against the mutants compiled in
// one JVM and their checks run in shared JVMs.
func BenchmarkJavaMutants(b *testing.B) {
	mutatetest.NeedMaven(b)
	sb := exectest.Sandbox(b)
	var paths []benchPath
	for _, path := range []struct {
		name string
		each bool
	}{{"old", true}, {"new", false}} {
		mv, err := maven.Open(context.Background(), "maven/testdata/maven", sb, &maven.Config{CompileEach: path.each, TestEach: path.each})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { mv.Close() })
		paths = append(paths, benchPath{path.name, mv})
	}
	benchMutants(b, paths, &mutate.Options{Seed: 3, Fragments: benchFragments(), Runs: 1, Parallelism: 1, Contexts: []mutate.ContextLevel{mutate.C1}}, nil)
}

// benchFragments is the fragments BenchmarkGoMutants and
// BenchmarkJavaMutants sample: 4, or 1 with -short (the smoke run of
// scripts/test.sh, with the same checks).
func benchFragments() int {
	if testing.Short() {
		return 1
	}
	return 4
}

// A benchPath is one way of checking mutants that benchMutants measures.
type benchPath struct {
	name string
	p    mutate.Project
}

// benchMutants generates candidates on paths[0] ("old") with opts,
// after which warm (if not nil) runs, then checks every candidate on each
// path in each iteration and reports the metrics BenchmarkGoMutants
// describes: "speedup" is paths[1] ("new") against "old", "x-NAME" "new"
// against any further path.
func benchMutants(b *testing.B, paths []benchPath, opts *mutate.Options, warm func()) {
	ctx := context.Background()
	res, err := mutate.Generate(ctx, paths[0].p, opts)
	if err != nil {
		b.Fatal(err)
	}
	if warm != nil {
		warm()
	}
	var base []mutate.Candidate
	for _, c := range res.Candidates {
		if c.Reason != mutate.ReasonNoEdit && c.Reason != mutate.ReasonParse && c.Reason != mutate.ReasonOverlap {
			base = append(base, *c)
		}
	}
	type tally struct {
		build, test, wall time.Duration
		valid, checked    int
		verdicts          []string
	}
	tallies := make([]tally, len(paths))
	b.ResetTimer()
	for b.Loop() {
		for i, p := range paths {
			t := &tallies[i]
			cands := make([]*mutate.Candidate, len(base))
			for j := range base {
				c := base[j]
				c.Reason, c.Failing, c.Unresolved, c.TimedOut, c.Detail = mutate.ReasonNone, nil, false, false, ""
				cands[j] = &c
			}
			start := time.Now()
			bt, tt, err := mutate.CheckCandidates(ctx, p.p, cands, &mutate.Options{Parallelism: 1})
			if err != nil {
				b.Fatal(err)
			}
			t.wall += time.Since(start)
			t.build += bt
			t.test += tt
			t.verdicts = t.verdicts[:0]
			for _, c := range cands {
				t.checked++
				if c.Valid() {
					t.valid++
				}
				t.verdicts = append(t.verdicts, fmt.Sprintf("%s %s:%d %v unresolved=%v failing=%v", c.Key(), c.File, c.Frag.Line, c.Reason, c.Unresolved, c.Failing))
			}
		}
		for i := 1; i < len(paths); i++ {
			for j := range tallies[0].verdicts {
				if o, n := tallies[0].verdicts[j], tallies[i].verdicts[j]; o != n {
					b.Errorf("mutant %d: %s path %s, old path %s", j, paths[i].name, n, o)
				}
			}
		}
	}
	rate := func(t tally) float64 { return float64(t.valid) / t.wall.Seconds() }
	for i, p := range paths {
		t := tallies[i]
		b.ReportMetric(rate(t), p.name+"-valid-mutants/s")
		b.ReportMetric(float64(t.checked)/t.wall.Seconds(), p.name+"-mutants/s")
		b.ReportMetric(t.build.Seconds()/t.wall.Seconds(), p.name+"-build-share")
		b.ReportMetric(t.test.Seconds()/t.wall.Seconds(), p.name+"-test-share")
		b.ReportMetric(1-(t.build+t.test).Seconds()/t.wall.Seconds(), p.name+"-own-share")
	}
	// paths[1] is "new"; it is measured against each of the others.
	for i, p := range paths {
		if i == 1 || tallies[i].valid == 0 {
			continue
		}
		name := "x-" + p.name
		if i == 0 {
			name = "speedup"
		}
		b.ReportMetric(rate(tallies[1])/rate(tallies[i]), name)
	}
}
