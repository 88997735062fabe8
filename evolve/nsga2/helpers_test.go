package nsga2_test

import (
	"context"
	"slices"
	"testing"

	"github.com/adaptbench/adaptbench/evolve/nsga2"
)

// ref is the hypervolume reference point of DEAP's NSGA-II example.
var ref = [2]float64{11, 11}

// deapProblem is the problem of DEAP's NSGA-II example: 30 variables in
// [0, 1], SBX η=20 with probability 0.9, polynomial mutation η=20 with
// probability 1/30.
func deapProblem(tb testing.TB, f func([]float64) []float64) *nsga2.Problem[[]float64] {
	tb.Helper()
	p, err := nsga2.Box(30, 0, 1).Problem(f)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// deapOptions are the options of DEAP's NSGA-II example: population 100,
// 250 generations, dominance-based tournament.
func deapOptions(seed uint64) *nsga2.Options[[]float64] {
	return &nsga2.Options[[]float64]{Population: 100, Generations: 250, Seed: seed, Tournament: nsga2.DominanceTournament}
}

// finalObjectives returns the objective vectors of the whole final
// population of a run with the given population size.
func finalObjectives(tb testing.TB, f func([]float64) []float64, seed uint64, pop int) [][]float64 {
	tb.Helper()
	opts := deapOptions(seed)
	opts.Population = pop
	opts.Generations = 20
	res, err := nsga2.Run(context.Background(), deapProblem(tb, f), opts)
	if err != nil {
		tb.Fatal(err)
	}
	return nsga2.Objectives(res.Population)
}

// debFronts is the fast non-dominated sort of Deb et al. 2002, as published:
// for each vector, the set it dominates and the number dominating it; then
// peel fronts. Fronts must give the same result.
func debFronts(objs [][]float64) [][]int {
	n := len(objs)
	dominated := make([][]int, n)
	count := make([]int, n)
	var front []int
	for p := range n {
		for q := range n {
			switch {
			case nsga2.Dominates(objs[p], objs[q]):
				dominated[p] = append(dominated[p], q)
			case nsga2.Dominates(objs[q], objs[p]):
				count[p]++
			}
		}
		if count[p] == 0 {
			front = append(front, p)
		}
	}
	fronts := [][]int{}
	for len(front) > 0 {
		fronts = append(fronts, front)
		var next []int
		for _, p := range front {
			for _, q := range dominated[p] {
				if count[q]--; count[q] == 0 {
					next = append(next, q)
				}
			}
		}
		slices.Sort(next)
		front = next
	}
	return fronts
}
