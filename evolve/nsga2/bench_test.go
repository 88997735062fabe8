package nsga2_test

import (
	"context"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/evolve/nsga2"
)

// BenchmarkRunZDT1 runs DEAP's NSGA-II example configuration on ZDT1
// (population 100, 30 variables, 250 generations, SBX η=20 with probability
// 0.9, polynomial mutation η=20 with probability 1/30, dominance tournament)
// and reports generations per second. BenchmarkDEAPSideBySide compares it
// with DEAP in the same run.
func BenchmarkRunZDT1(b *testing.B) {
	p := deapProblem(b, nsga2.ZDT1)
	opts := deapOptions(1)
	gens := 0
	for b.Loop() {
		res, err := nsga2.Run(context.Background(), p, opts)
		if err != nil {
			b.Fatal(err)
		}
		gens += res.Generations
		opts.Seed++
	}
	b.ReportMetric(float64(gens)/b.Elapsed().Seconds(), "gen/s")
}

// BenchmarkFronts measures Fronts on 200 two-objective vectors, the size
// NSGA-II sorts each generation with population 100, and in the same run
// Deb et al.'s fast non-dominated sort (debFronts): "x-vs-deb" is how many
// times faster Fronts is.
func BenchmarkFronts(b *testing.B) {
	objs := finalObjectives(b, nsga2.ZDT1, 1, 200)
	for b.Loop() {
		nsga2.Fronts(objs)
	}
	perOp := float64(b.Elapsed()) / float64(b.N)

	iters := max(b.N/10, 1) // the baseline is slower: bound its time
	start := time.Now()
	for range iters {
		debFronts(objs)
	}
	if perOp > 0 {
		b.ReportMetric(float64(time.Since(start))/float64(iters)/perOp, "x-vs-deb")
	}
}
