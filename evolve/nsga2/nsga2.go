package nsga2

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
)

// ErrStop may be returned by [Options.OnGeneration] to end a run early. Run
// then returns the population reached so far and a nil error.
var ErrStop = errors.New("nsga2: stop")

// ErrObjectives is wrapped by the error Run returns when [Problem.Evaluate]
// returns an empty objective vector, one whose length differs from the
// first vector's, or one containing NaN.
var ErrObjectives = errors.New("nsga2: invalid objective vector")

// Problem is what [Run] searches over: how to make a random individual, how
// to score one and how to breed two. T is the individual (genome) type; Run
// never looks inside it.
type Problem[T any] struct {
	// Init returns a new random individual for the initial population,
	// drawing its randomness from rng only.
	Init func(rng *rand.Rand) T

	// Evaluate returns the objective vector of x. Every objective is
	// minimised. All calls must return vectors of the same non-zero length,
	// without NaN (an infeasible individual can be given +Inf). Evaluate
	// must be a deterministic function of x; when Options.Parallelism is
	// above 1 it is called from several goroutines at once. Run keeps the
	// returned slice and never writes to it.
	Evaluate func(x T) []float64

	// Vary returns two children of parents a and b: crossover, mutation or
	// both, drawing randomness from rng only. It must not modify a or b, and
	// the children must not share mutable memory with them: individuals of
	// the population are never copied, only referred to.
	Vary func(rng *rand.Rand, a, b T) (T, T)
}

// Options configures [Run]. The zero value is valid, and a nil *Options is
// the same as a zero one: population 100, 250 generations, seed 0, crowded
// tournament, serial evaluation.
type Options[T any] struct {
	// Population is the number of individuals kept from one generation to
	// the next and the number of children bred in each. 0 means 100;
	// otherwise it must be at least 2.
	Population int

	// Generations is the number of generations, counting the initial
	// population as generation 0, as DEAP and pymoo count them: the run
	// breeds Generations-1 times. 0 means 250.
	Generations int

	// Seed seeds the run's only source of randomness,
	// rand.New(rand.NewPCG(Seed, Seed)). The same Problem and Options give
	// byte-identical results.
	Seed uint64

	// Tournament chooses how parents are selected. The zero value is
	// CrowdedTournament.
	Tournament Tournament

	// Parallelism is the number of goroutines that evaluate a generation's
	// individuals. 0 or 1 means evaluate serially in the calling goroutine.
	// Results are stored by index, so it never changes the outcome.
	Parallelism int

	// OnGeneration, if not nil, is called after each generation has been
	// selected, with gen = 0 for the initial population. pop is the new
	// population, front by front; the callback must not modify it, but
	// may keep it. Returning ErrStop ends the run without error; any other
	// error ends it and is returned by Run.
	OnGeneration func(gen int, pop []Individual[T]) error
}

// Individual is one member of a population with its objective values and
// the NSGA-II attributes Run assigned to it.
type Individual[T any] struct {
	X   T         // the genome
	Obj []float64 // objective values, all minimised

	// Rank is the individual's non-domination rank in the population: 0
	// for the first (Pareto) front.
	Rank int

	// Crowding is the individual's crowding distance within its front, +Inf
	// at the ends of the front, larger meaning lonelier. As in Deb's code
	// and DEAP, it is computed in the sort of parents and children that
	// selected the population, so a front only partly kept keeps the
	// distances it had before it was cut.
	Crowding float64
}

// Result is what [Run] returns.
type Result[T any] struct {
	// Population is the last population, front by front: all of rank 0
	// first, then rank 1, and so on.
	Population []Individual[T]

	// Generations is the number of generations completed, counting the
	// initial population: Options.Generations unless the run was stopped.
	Generations int

	// Evaluations is the number of calls to Problem.Evaluate.
	Evaluations int
}

// Front returns the members of the last population's first front (rank 0),
// in population order.
func (r *Result[T]) Front() []Individual[T] {
	var f []Individual[T]
	for _, ind := range r.Population {
		if ind.Rank == 0 {
			f = append(f, ind)
		}
	}
	return f
}

// Objectives returns the objective vectors of inds, in order. The vectors
// are shared with inds, not copied.
func Objectives[T any](inds []Individual[T]) [][]float64 {
	objs := make([][]float64, len(inds))
	for i := range inds {
		objs[i] = inds[i].Obj
	}
	return objs
}

// Tournament is a parent-selection rule for [Options.Tournament]. Both are
// binary tournaments drawn from two random permutations of the population,
// as in Deb's reference C code and DEAP's selTournamentDCD: every individual
// enters exactly two tournaments per generation when the population size is
// a multiple of 4 (the rest wrap around), and a tie left after both criteria
// is settled by a fair coin from the run's random stream.
type Tournament uint8

const (
	// CrowdedTournament prefers the lower non-domination rank, then the
	// larger crowding distance: the crowded-comparison operator of Deb et
	// al. 2002.
	CrowdedTournament Tournament = iota

	// DominanceTournament prefers an individual that dominates the other,
	// then the larger crowding distance: DEAP's selTournamentDCD, which
	// DEAP's NSGA-II example uses for mating selection.
	DominanceTournament
)

var tournamentNames = [...]string{CrowdedTournament: "crowded", DominanceTournament: "dominance"}

// String returns "crowded" or "dominance".
func (t Tournament) String() string {
	if int(t) < len(tournamentNames) {
		return tournamentNames[t]
	}
	return fmt.Sprintf("Tournament(%d)", uint8(t))
}

// MarshalText returns the text form of t, as String does. It fails for an
// undefined value.
func (t Tournament) MarshalText() ([]byte, error) {
	if int(t) >= len(tournamentNames) {
		return nil, fmt.Errorf("nsga2: invalid Tournament %d", uint8(t))
	}
	return []byte(tournamentNames[t]), nil
}

// UnmarshalText sets t from "crowded" or "dominance".
func (t *Tournament) UnmarshalText(b []byte) error {
	for i, name := range tournamentNames {
		if string(b) == name {
			*t = Tournament(i)
			return nil
		}
	}
	return fmt.Errorf("nsga2: unknown tournament %q, want \"crowded\" or \"dominance\"", b)
}

// config is a resolved copy of the options.
type config[T any] struct {
	population  int
	generations int
	seed        uint64
	tournament  Tournament
	parallelism int
	onGen       func(int, []Individual[T]) error
}

func resolve[T any](p *Problem[T], o *Options[T]) (config[T], error) {
	var c config[T]
	if p == nil {
		return c, errors.New("nsga2: nil Problem")
	}
	if p.Init == nil || p.Evaluate == nil || p.Vary == nil {
		return c, errors.New("nsga2: Problem needs Init, Evaluate and Vary")
	}
	if o == nil {
		o = new(Options[T])
	}
	c = config[T]{
		population:  o.Population,
		generations: o.Generations,
		seed:        o.Seed,
		tournament:  o.Tournament,
		parallelism: o.Parallelism,
		onGen:       o.OnGeneration,
	}
	switch {
	case c.population == 0:
		c.population = 100
	case c.population < 2:
		return c, fmt.Errorf("nsga2: Population %d, want 0 (default) or at least 2", o.Population)
	}
	switch {
	case c.generations == 0:
		c.generations = 250
	case c.generations < 0:
		return c, fmt.Errorf("nsga2: Generations %d, want 0 (default) or more", o.Generations)
	}
	if int(c.tournament) >= len(tournamentNames) {
		return c, fmt.Errorf("nsga2: invalid Tournament %d", uint8(c.tournament))
	}
	switch {
	case c.parallelism < 0:
		return c, fmt.Errorf("nsga2: Parallelism %d, want 0 or more", o.Parallelism)
	case c.parallelism == 0:
		c.parallelism = 1
	}
	return c, nil
}

// Run runs NSGA-II (Deb, Pratap, Agarwal and Meyarivan 2002) on p and
// returns the last population.
//
// Generation 0 is Population individuals from Problem.Init, evaluated and
// ranked. Each later generation selects Population parents by binary
// tournament, breeds them in pairs with Problem.Vary into Population
// children, evaluates the children, and keeps the best Population of
// parents and children together: whole non-domination fronts in order, and
// the lonelier members (by crowding distance) of the front that does not
// fit.
//
// Run returns an error and a nil Result if p or opts is invalid. It checks
// ctx between generations: when ctx is done it returns the population of the
// last completed generation together with ctx.Err(). An error from
// OnGeneration, or an invalid objective vector (wrapping [ErrObjectives]),
// likewise returns the last completed population, if any, with the error.
// Cancellation does not interrupt Problem's functions: a generation in
// progress completes its evaluations first.
func Run[T any](ctx context.Context, p *Problem[T], opts *Options[T]) (*Result[T], error) {
	c, err := resolve(p, opts)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := c.population
	prob := *p // the caller may not change it under us
	p = &prob
	s := &state[T]{
		p:    p,
		c:    c,
		rng:  rand.New(rand.NewPCG(c.seed, c.seed)),
		perm: make([]int, 2*n),
		sel:  make([]int, n),
	}

	pop := make([]Individual[T], n)
	for i := range pop {
		pop[i].X = p.Init(s.rng)
	}
	if err := s.evaluate(pop, 0); err != nil {
		return nil, err
	}
	pop = s.survive(pop, make([]Individual[T], 0, n))
	res := &Result[T]{Population: pop, Generations: 1, Evaluations: n}
	if stop, err := s.callback(0, pop); stop {
		return res, err
	}

	both := make([]Individual[T], 2*n)
	for gen := 1; gen < c.generations; gen++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		copy(both, pop)
		off := both[n:]
		sel := s.selectParents(pop)
		for i := 0; i < n; i += 2 {
			a, b := pop[sel[i]].X, pop[sel[(i+1)%n]].X
			c1, c2 := p.Vary(s.rng, a, b)
			off[i] = Individual[T]{X: c1}
			if i+1 < n {
				off[i+1] = Individual[T]{X: c2}
			}
		}
		if err := s.evaluate(off, gen); err != nil {
			return res, err
		}
		pop = s.survive(both, make([]Individual[T], 0, n))
		res.Population = pop
		res.Generations++
		res.Evaluations += n
		if stop, err := s.callback(gen, pop); stop {
			return res, err
		}
	}
	return res, nil
}

// state is one run's working memory.
type state[T any] struct {
	p      *Problem[T]
	c      config[T]
	rng    *rand.Rand
	nobj   int
	sorter sorter
	objs   [][]float64
	perm   []int // two permutations of the population, back to back
	sel    []int // selected parents
}

// callback calls OnGeneration and reports whether the run must stop, and
// with which error.
func (s *state[T]) callback(gen int, pop []Individual[T]) (stop bool, err error) {
	if s.c.onGen == nil {
		return false, nil
	}
	if err := s.c.onGen(gen, pop); err != nil {
		if errors.Is(err, ErrStop) {
			return true, nil
		}
		return true, err
	}
	return false, nil
}

// evaluate sets Obj of every individual of inds, then checks the vectors in
// index order.
func (s *state[T]) evaluate(inds []Individual[T], gen int) error {
	if w := min(s.c.parallelism, len(inds)); w > 1 {
		var wg sync.WaitGroup
		for k := range w {
			wg.Go(func() {
				for i := k; i < len(inds); i += w {
					inds[i].Obj = s.p.Evaluate(inds[i].X)
				}
			})
		}
		wg.Wait()
	} else {
		for i := range inds {
			inds[i].Obj = s.p.Evaluate(inds[i].X)
		}
	}
	for i := range inds {
		obj := inds[i].Obj
		if s.nobj == 0 {
			s.nobj = len(obj)
		}
		if len(obj) == 0 || len(obj) != s.nobj {
			return fmt.Errorf("%w: generation %d, individual %d: %d objectives, want %d", ErrObjectives, gen, i, len(obj), max(s.nobj, 1))
		}
		for m, v := range obj {
			if math.IsNaN(v) {
				return fmt.Errorf("%w: generation %d, individual %d: objective %d is NaN", ErrObjectives, gen, i, m)
			}
		}
	}
	return nil
}

// survive sorts r into fronts, assigns Rank and Crowding, and appends the
// best cap(dst) individuals to dst: whole fronts in order, then the members
// of the first front that does not fit by decreasing crowding distance.
func (s *state[T]) survive(r []Individual[T], dst []Individual[T]) []Individual[T] {
	n := cap(dst)
	s.objs = s.objs[:0]
	for i := range r {
		s.objs = append(s.objs, r[i].Obj)
	}
	fronts := s.sorter.fronts(s.objs)
	for k, f := range fronts {
		dist := s.sorter.crowding(s.objs, f)
		for j, i := range f {
			r[i].Rank = k
			r[i].Crowding = dist[j]
		}
		if len(dst)+len(f) <= n {
			for _, i := range f {
				dst = append(dst, r[i])
			}
			if len(dst) == n {
				break
			}
			continue
		}
		s.sorter.byCrowding(f, dist)
		for _, i := range f[:n-len(dst)] {
			dst = append(dst, r[i])
		}
		break
	}
	return dst
}

// selectParents fills s.sel with the indices of len(pop) parents, chosen by
// binary tournaments between consecutive members of two random permutations,
// in DEAP's order: two winners from the first permutation, two from the
// second, and so on.
func (s *state[T]) selectParents(pop []Individual[T]) []int {
	n := len(pop)
	p1, p2 := s.perm[:n], s.perm[n:]
	for _, p := range [2][]int{p1, p2} {
		for i := range p {
			p[i] = i
		}
		s.rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	}
	sel := s.sel[:n]
	for i := 0; i < n; i += 4 {
		for j := 0; j < 4 && i+j < n; j++ {
			p := p1
			if j >= 2 {
				p = p2
			}
			a := p[(i+2*(j&1))%n]
			b := p[(i+2*(j&1)+1)%n]
			sel[i+j] = s.tournament(pop, a, b)
		}
	}
	return sel
}

// tournament returns the winner of a and b.
func (s *state[T]) tournament(pop []Individual[T], a, b int) int {
	x, y := &pop[a], &pop[b]
	switch s.c.tournament {
	case DominanceTournament:
		if Dominates(x.Obj, y.Obj) {
			return a
		}
		if Dominates(y.Obj, x.Obj) {
			return b
		}
	default:
		if x.Rank != y.Rank {
			if x.Rank < y.Rank {
				return a
			}
			return b
		}
	}
	if x.Crowding > y.Crowding {
		return a
	}
	if x.Crowding < y.Crowding {
		return b
	}
	if s.rng.Uint64()&1 == 0 {
		return a
	}
	return b
}
