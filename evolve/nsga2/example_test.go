package nsga2_test

import (
	"context"
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/adaptbench/adaptbench/evolve/nsga2"
)

// DEAP's NSGA-II example on ZDT1: 30 variables in [0, 1], SBX and
// polynomial mutation with η = 20, population 100, 250 generations.
func Example() {
	p, err := nsga2.Box(30, 0, 1).Problem(nsga2.ZDT1)
	if err != nil {
		log.Fatal(err)
	}
	res, err := nsga2.Run(context.Background(), p, &nsga2.Options[[]float64]{
		Seed:       1,
		Tournament: nsga2.DominanceTournament, // as DEAP's example
	})
	if err != nil {
		log.Fatal(err)
	}
	front := res.Front()
	hv := nsga2.Hypervolume2D(nsga2.Objectives(front), [2]float64{11, 11})
	fmt.Printf("%d generations, %d evaluations\n", res.Generations, res.Evaluations)
	fmt.Printf("%d points on the front, hypervolume %.2f (true front: %.2f)\n", len(front), hv, 121-1.0/3)
	// Output:
	// 250 generations, 25000 evaluations
	// 100 points on the front, hypervolume 120.65 (true front: 120.67)
}

// Run is generic over the individual: here a single float64 on Schaffer's
// problem, minimise x² and (x−2)², whose Pareto set is [0, 2]. The callback
// watches the search and stops it early.
func ExampleRun() {
	p := &nsga2.Problem[float64]{
		Init:     func(rng *rand.Rand) float64 { return 20*rng.Float64() - 10 },
		Evaluate: func(x float64) []float64 { return []float64{x * x, (x - 2) * (x - 2)} },
		Vary: func(rng *rand.Rand, a, b float64) (float64, float64) {
			u := rng.Float64() // blend, then a small Gaussian step
			return u*a + (1-u)*b + 0.1*rng.NormFloat64(), (1-u)*a + u*b + 0.1*rng.NormFloat64()
		},
	}
	res, err := nsga2.Run(context.Background(), p, &nsga2.Options[float64]{
		Population: 40,
		Seed:       7,
		OnGeneration: func(gen int, pop []nsga2.Individual[float64]) error {
			for _, ind := range pop {
				if ind.X < 0 || ind.X > 2 {
					return nil // not yet all in the Pareto set
				}
			}
			return nsga2.ErrStop
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, ind := range res.Front() {
		lo, hi = min(lo, ind.X), max(hi, ind.X)
	}
	fmt.Printf("stopped after %d generations; front of %d spans x in [%.1f, %.1f]\n", res.Generations, len(res.Front()), lo, hi)
	// Output:
	// stopped after 4 generations; front of 40 spans x in [0.0, 2.0]
}

func ExampleFronts() {
	objs := [][]float64{{1, 4}, {2, 2}, {3, 3}, {4, 1}, {4, 4}}
	fmt.Println(nsga2.Fronts(objs))
	// Output:
	// [[0 1 3] [2] [4]]
}

func ExampleCrowdingDistance() {
	objs := [][]float64{{0, 4}, {1, 3}, {3, 1}, {4, 0}}
	fmt.Println(nsga2.CrowdingDistance(objs, []int{0, 1, 2, 3}))
	// Output:
	// [+Inf 1.5 1.5 +Inf]
}

func ExampleDominates() {
	fmt.Println(nsga2.Dominates([]float64{1, 2}, []float64{1, 3}))
	fmt.Println(nsga2.Dominates([]float64{1, 2}, []float64{2, 1}))
	// Output:
	// true
	// false
}

func ExampleHypervolume2D() {
	front := [][]float64{{1, 3}, {2, 2}, {3, 1}}
	fmt.Println(nsga2.Hypervolume2D(front, [2]float64{4, 4}))
	// Output:
	// 6
}

// With η = 20 the children stay close to their parents; equal parents (the
// middle variable) are never crossed.
func ExampleSBX() {
	rng := rand.New(rand.NewPCG(3, 4))
	low, up := []float64{0, 0, 0}, []float64{1, 1, 1}
	a, b := []float64{0.2, 0.5, 0.9}, []float64{0.3, 0.5, 0.1}
	nsga2.SBX(rng, a, b, 20, low, up)
	fmt.Printf("%.3f\n%.3f\n", a, b)
	// Output:
	// [0.198 0.500 0.901]
	// [0.302 0.500 0.099]
}

func ExamplePolynomialMutation() {
	rng := rand.New(rand.NewPCG(1, 2))
	x := []float64{0.2, 0.5, 0.9}
	nsga2.PolynomialMutation(rng, x, 20, 1, []float64{0, 0, 0}, []float64{1, 1, 1})
	fmt.Printf("%.3f\n", x)
	// Output:
	// [0.196 0.493 0.888]
}

func ExampleReal_Problem() {
	r := &nsga2.Real{
		Low: []float64{-5, -5}, Up: []float64{5, 5},
		Crossover: 1, // always cross; the other fields keep DEAP's defaults
	}
	p, err := r.Problem(func(x []float64) []float64 {
		return []float64{x[0]*x[0] + x[1]*x[1], (x[0]-1)*(x[0]-1) + x[1]*x[1]}
	})
	if err != nil {
		log.Fatal(err)
	}
	res, err := nsga2.Run(context.Background(), p, &nsga2.Options[[]float64]{Population: 20, Generations: 50})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(res.Front()), "points on the front")
	// Output:
	// 20 points on the front
}

func ExampleZDT3() {
	fmt.Printf("%.4f\n", nsga2.ZDT3([]float64{0.5, 0, 0}))
	// Output:
	// [0.5000 0.2929]
}
