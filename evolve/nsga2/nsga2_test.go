package nsga2_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/evolve/nsga2"
)

// encodeFront returns the genomes and objective values of the final front,
// bit for bit.
func encodeFront(res *nsga2.Result[[]float64]) []byte {
	var buf bytes.Buffer
	for _, ind := range res.Front() {
		for _, v := range ind.X {
			binary.Write(&buf, binary.LittleEndian, math.Float64bits(v))
		}
		for _, v := range ind.Obj {
			binary.Write(&buf, binary.LittleEndian, math.Float64bits(v))
		}
		binary.Write(&buf, binary.LittleEndian, math.Float64bits(ind.Crowding))
	}
	return buf.Bytes()
}

func TestDeterministic(t *testing.T) {
	for _, tour := range []nsga2.Tournament{nsga2.CrowdedTournament, nsga2.DominanceTournament} {
		t.Run(tour.String(), func(t *testing.T) {
			run := func(seed uint64, par int) []byte {
				opts := deapOptions(seed)
				opts.Tournament = tour
				opts.Generations = 60
				opts.Parallelism = par
				res, err := nsga2.Run(context.Background(), deapProblem(t, nsga2.ZDT3), opts)
				if err != nil {
					t.Fatal(err)
				}
				return encodeFront(res)
			}
			a, b, c := run(42, 1), run(42, 1), run(42, 3)
			if len(a) == 0 {
				t.Fatal("empty front")
			}
			if !bytes.Equal(a, b) {
				t.Error("two runs with seed 42 gave different fronts")
			}
			if !bytes.Equal(a, c) {
				t.Error("Parallelism 3 gave a different front from Parallelism 1")
			}
			if bytes.Equal(a, run(43, 1)) {
				t.Error("seeds 42 and 43 gave the same front")
			}
		})
	}
}

// dtlz2 is DTLZ2 (Deb, Thiele, Laumanns and Zitzler 2002) with three
// objectives: its Pareto front is the positive octant of the unit sphere.
func dtlz2(x []float64) []float64 {
	var g float64
	for _, v := range x[2:] {
		g += (v - 0.5) * (v - 0.5)
	}
	a, b := x[0]*math.Pi/2, x[1]*math.Pi/2
	return []float64{
		(1 + g) * math.Cos(a) * math.Cos(b),
		(1 + g) * math.Cos(a) * math.Sin(b),
		(1 + g) * math.Sin(a),
	}
}

func TestThreeObjectives(t *testing.T) {
	p, err := nsga2.Box(12, 0, 1).Problem(dtlz2)
	if err != nil {
		t.Fatal(err)
	}
	res, err := nsga2.Run(context.Background(), p, &nsga2.Options[[]float64]{Seed: 1, Generations: 200})
	if err != nil {
		t.Fatal(err)
	}
	front := res.Front()
	if len(front) < 50 {
		t.Errorf("%d points on the front, want most of the population", len(front))
	}
	var far int
	for _, ind := range front {
		r := math.Sqrt(ind.Obj[0]*ind.Obj[0] + ind.Obj[1]*ind.Obj[1] + ind.Obj[2]*ind.Obj[2])
		if r > 1.1 {
			t.Errorf("front point %v at distance %.3f from the origin, want about 1", ind.Obj, r)
		}
		if r > 1.02 {
			far++
		}
	}
	if far > len(front)/4 {
		t.Errorf("%d of %d front points further than 1.02 from the origin", far, len(front))
	}
	// The front must spread over the sphere, not collapse to a corner.
	for m := range 3 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, ind := range front {
			lo, hi = min(lo, ind.Obj[m]), max(hi, ind.Obj[m])
		}
		if lo > 0.1 || hi < 0.9 {
			t.Errorf("objective %d spans [%.2f, %.2f] on the front, want about [0, 1]", m, lo, hi)
		}
	}
}

// TestResult checks the bookkeeping of a run: counts, the population's
// order, ranks and crowding distances, and that each callback sees the
// generation's population.
func TestResult(t *testing.T) {
	for _, n := range []int{2, 3, 7, 100} {
		var gens []int
		opts := &nsga2.Options[[]float64]{Population: n, Generations: 5, Seed: 3,
			OnGeneration: func(gen int, pop []nsga2.Individual[[]float64]) error {
				gens = append(gens, gen)
				if len(pop) != n {
					t.Errorf("population %d: generation %d has %d individuals", n, gen, len(pop))
				}
				return nil
			}}
		res, err := nsga2.Run(context.Background(), deapProblem(t, nsga2.ZDT1), opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Generations != 5 || res.Evaluations != 5*n || len(res.Population) != n {
			t.Errorf("population %d: %d generations, %d evaluations, %d individuals; want 5, %d, %d",
				n, res.Generations, res.Evaluations, len(res.Population), 5*n, n)
		}
		if len(gens) != 5 || gens[0] != 0 || gens[4] != 4 {
			t.Errorf("population %d: callback saw generations %v, want 0..4", n, gens)
		}
		front := res.Front()
		if len(front) == 0 {
			t.Fatalf("population %d: empty front", n)
		}
		for i := 1; i < len(res.Population); i++ {
			if res.Population[i].Rank < res.Population[i-1].Rank {
				t.Errorf("population %d: rank %d after rank %d", n, res.Population[i].Rank, res.Population[i-1].Rank)
			}
		}
		for i, a := range front {
			if !(a.Crowding >= 0) {
				t.Errorf("population %d: crowding distance %v", n, a.Crowding)
			}
			for _, b := range front[i+1:] {
				if nsga2.Dominates(a.Obj, b.Obj) || nsga2.Dominates(b.Obj, a.Obj) {
					t.Errorf("population %d: front members %v and %v dominate one another", n, a.Obj, b.Obj)
				}
			}
		}
		for _, ind := range res.Population[len(front):] {
			dominated := false
			for _, f := range front {
				dominated = dominated || nsga2.Dominates(f.Obj, ind.Obj)
			}
			if !dominated {
				t.Errorf("population %d: %v of rank %d is not dominated by the front", n, ind.Obj, ind.Rank)
			}
		}
	}
}

func TestRunStops(t *testing.T) {
	p := deapProblem(t, nsga2.ZDT1)
	t.Run("ErrStop", func(t *testing.T) {
		res, err := nsga2.Run(context.Background(), p, &nsga2.Options[[]float64]{Population: 8,
			OnGeneration: func(gen int, _ []nsga2.Individual[[]float64]) error {
				if gen == 3 {
					return nsga2.ErrStop
				}
				return nil
			}})
		if err != nil || res.Generations != 4 {
			t.Errorf("got %d generations, error %v; want 4, nil", resGens(res), err)
		}
	})
	t.Run("callback error", func(t *testing.T) {
		boom := errors.New("boom")
		res, err := nsga2.Run(context.Background(), p, &nsga2.Options[[]float64]{Population: 8,
			OnGeneration: func(gen int, _ []nsga2.Individual[[]float64]) error {
				if gen == 2 {
					return boom
				}
				return nil
			}})
		if !errors.Is(err, boom) || res.Generations != 3 || len(res.Population) != 8 {
			t.Errorf("got %d generations, error %v; want 3 and boom", resGens(res), err)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		res, err := nsga2.Run(ctx, p, &nsga2.Options[[]float64]{Population: 8,
			OnGeneration: func(gen int, _ []nsga2.Individual[[]float64]) error {
				if gen == 5 {
					cancel()
				}
				return nil
			}})
		if !errors.Is(err, context.Canceled) || res.Generations != 6 || len(res.Population) != 8 {
			t.Errorf("got %d generations, error %v; want 6 and context.Canceled", resGens(res), err)
		}
	})
	t.Run("cancelled before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, err := nsga2.Run(ctx, p, nil)
		if !errors.Is(err, context.Canceled) || res != nil {
			t.Errorf("got %v, %v; want nil, context.Canceled", res, err)
		}
	})
}

func resGens(res *nsga2.Result[[]float64]) int {
	if res == nil {
		return -1
	}
	return res.Generations
}

func TestRunInvalid(t *testing.T) {
	good := deapProblem(t, nsga2.ZDT1)
	tests := []struct {
		name   string
		p      *nsga2.Problem[[]float64]
		opts   *nsga2.Options[[]float64]
		want   string
		reason string
	}{
		{name: "nil problem", p: nil, want: "nil Problem", reason: "nothing to run"},
		{name: "no vary", p: &nsga2.Problem[[]float64]{Init: good.Init, Evaluate: good.Evaluate}, want: "needs Init, Evaluate and Vary", reason: "every func is required"},
		{name: "population 1", p: good, opts: &nsga2.Options[[]float64]{Population: 1}, want: "Population 1", reason: "a pair is needed to breed"},
		{name: "negative generations", p: good, opts: &nsga2.Options[[]float64]{Generations: -1}, want: "Generations -1", reason: "negative count"},
		{name: "negative parallelism", p: good, opts: &nsga2.Options[[]float64]{Parallelism: -2}, want: "Parallelism -2", reason: "negative count"},
		{name: "bad tournament", p: good, opts: &nsga2.Options[[]float64]{Tournament: 9}, want: "invalid Tournament 9", reason: "undefined enum value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := nsga2.Run(context.Background(), tc.p, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "nsga2: ") || res != nil {
				t.Errorf("got %v, %v; want an error containing %q (%s)", res, err, tc.want, tc.reason)
			}
		})
	}
}

func TestBadObjectives(t *testing.T) {
	tests := []struct {
		name     string
		evaluate func(x []float64) []float64
		want     string
		reason   string
	}{
		{name: "empty", evaluate: func([]float64) []float64 { return nil }, want: "0 objectives, want 1", reason: "at least one objective"},
		{name: "nan", evaluate: func(x []float64) []float64 { return []float64{x[0], math.NaN()} }, want: "objective 1 is NaN", reason: "NaN has no order"},
		{name: "length changes", evaluate: func(x []float64) []float64 {
			if x[0] > 0.5 {
				return []float64{x[0]}
			}
			return []float64{x[0], 1}
		}, want: "objectives, want", reason: "all vectors must have one length"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := nsga2.Box(3, 0, 1).Problem(tc.evaluate)
			if err != nil {
				t.Fatal(err)
			}
			_, err = nsga2.Run(context.Background(), p, &nsga2.Options[[]float64]{Population: 20, Generations: 3})
			if !errors.Is(err, nsga2.ErrObjectives) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want ErrObjectives with %q (%s)", err, tc.want, tc.reason)
			}
		})
	}
}

func TestTournamentText(t *testing.T) {
	for _, tour := range []nsga2.Tournament{nsga2.CrowdedTournament, nsga2.DominanceTournament} {
		b, err := tour.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var got nsga2.Tournament
		if err := got.UnmarshalText(b); err != nil || got != tour || string(b) != tour.String() {
			t.Errorf("%v: text %q read back as %v, %v", tour, b, got, err)
		}
	}
	var got nsga2.Tournament
	if err := got.UnmarshalText([]byte("")); err == nil {
		t.Error(`UnmarshalText("") succeeded`)
	}
	if _, err := nsga2.Tournament(7).MarshalText(); err == nil {
		t.Error("MarshalText of 7 succeeded")
	}
}

// TestGenericGenome runs NSGA-II over a genome that is not a slice: a
// struct of two integers, on a discrete problem whose front is known.
func TestGenericGenome(t *testing.T) {
	type genome struct{ a, b int } // minimise (a+b, 10-a) over 0 <= a, b <= 10
	clamp := func(v int) int { return min(max(v, 0), 10) }
	p := &nsga2.Problem[genome]{
		Init: func(rng *rand.Rand) genome { return genome{rng.IntN(11), rng.IntN(11)} },
		Evaluate: func(g genome) []float64 {
			return []float64{float64(g.a + g.b), float64(10 - g.a)}
		},
		Vary: func(rng *rand.Rand, x, y genome) (genome, genome) {
			x, y = genome{x.a, y.b}, genome{y.a, x.b}
			x.a, y.b = clamp(x.a+rng.IntN(3)-1), clamp(y.b+rng.IntN(3)-1)
			return x, y
		},
	}
	res, err := nsga2.Run(context.Background(), p, &nsga2.Options[genome]{Population: 40, Generations: 60, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, ind := range res.Front() {
		if ind.X.b != 0 {
			t.Errorf("front member %+v has b != 0", ind.X)
		}
		seen[ind.X.a] = true
	}
	if len(seen) != 11 {
		t.Errorf("front covers %d values of a, want all 11", len(seen))
	}
}
