// Package nsga2 is a generic, deterministic NSGA-II: the elitist
// multi-objective genetic algorithm of Deb, Pratap, Agarwal and Meyarivan,
// "A fast and elitist multiobjective genetic algorithm: NSGA-II" (IEEE TEVC
// 6(2), 2002). It searches over individuals of any type T for any number of
// minimised objectives, draws every random number from one seeded stream,
// and imports nothing but the standard library: it builds with
// CGO_ENABLED=0.
//
// # Problems
//
// A [Problem] is three functions: Init makes a random individual, Evaluate
// returns its objective vector (every objective minimised), and Vary breeds
// two parents into two children (crossover, mutation or both; that choice
// is the problem's). [Run] calls them and returns a [Result] holding the last
// population of [Individual] values with their objective vectors,
// non-domination rank and crowding distance; [Result.Front] is its first
// front. [Options] sets the population size (default 100), the number of
// generations (default 250, counting the initial population as generation
// 0, as DEAP and pymoo do), the seed, the parent-selection [Tournament],
// parallel evaluation, and a per-generation callback that may watch the
// search or stop it with [ErrStop]. A nil *Options means all defaults.
//
//	p, err := nsga2.Box(30, 0, 1).Problem(nsga2.ZDT1) // or your own Problem[T]
//	if err != nil { ... }
//	res, err := nsga2.Run(ctx, p, &nsga2.Options[[]float64]{Seed: 1})
//	if err != nil { ... }
//	hv := nsga2.Hypervolume2D(nsga2.Objectives(res.Front()), [2]float64{11, 11})
//
// # The algorithm
//
// Generation 0 is Population individuals from Init, evaluated, sorted into
// fronts and given crowding distances. Each later generation
//
//  1. selects Population parents by binary tournaments between consecutive
//     members of two random permutations of the population (when
//     Population is a multiple of 4, every individual enters exactly two
//     tournaments), as Deb's reference C code and DEAP's selTournamentDCD
//     do. [CrowdedTournament], the default, prefers
//     the lower rank, then the larger crowding distance (the paper's
//     crowded-comparison operator); [DominanceTournament] prefers the
//     dominating individual, then the larger crowding distance (the C code
//     and DEAP). Remaining ties are settled by a coin;
//  2. breeds the parents in consecutive pairs with Vary;
//  3. evaluates the children;
//  4. sorts parents and children together into non-domination fronts
//     ([Fronts]), computes each front's crowding distance
//     ([CrowdingDistance]), and keeps whole fronts in order, then the members
//     of the first front that does not fit by decreasing crowding distance.
//
// The sort gives the fronts of Deb's fast non-dominated sort, with an
// efficient non-dominated sort (Zhang et al. 2015) that is O(N log N) for two
// objectives and O(M·N²) at worst for M. Besides ErrStop, only ctx
// cancellation, an error from the callback and an invalid objective vector
// (an empty vector, a change of length, a NaN; [ErrObjectives]) end a run
// early, returning the last completed population, if any, with the error.
//
// # Determinism
//
// The same Problem and Options give the same Result, bit for bit: one
// math/rand/v2 PCG stream seeded from Options.Seed supplies every random
// choice, in a fixed order; Init and Vary receive it and must use no other
// randomness; evaluation results are stored by index, so
// Options.Parallelism (evaluation on several goroutines) changes only the
// speed; every sort breaks ties by index or by an earlier fixed order; no
// map is iterated. The guarantee
// holds on one GOARCH: compilers for some architectures (arm64, ppc64,
// s390x) fuse multiply-adds, which can change the last bits of a float and
// therefore the course of a run. The sequence of random draws, and so the
// result of a given seed, may change between versions of this package.
//
// # Real-valued problems and DEAP compatibility
//
// [Real] sets up a problem over []float64 within box bounds the way DEAP's
// NSGA-II example (examples/ga/nsga2.py) does: each variable drawn
// uniformly within its bounds; each pair of parents copied, crossed with
// probability 0.9 by bounded simulated binary crossover ([SBX], η = 20),
// and both children mutated by bounded polynomial mutation
// ([PolynomialMutation], η = 20, each variable with probability 1/n). The
// two operators are DEAP's cxSimulatedBinaryBounded and
// mutPolynomialBounded (themselves Deb's C code) draw for draw: the same
// random numbers drawn in the same order for the same purpose, the same
// 1e-14 test for equal parents, the spread distribution cut at the bounds,
// children clamped to the bounds. Fed the same random numbers, they give
// DEAP's results to within 1e-12 (TestOperatorsMatchDEAP; bit for bit in
// 175 of its 200 cases, the others differing in the last bits because the
// arithmetic is reordered to divide less and powers are computed as
// exp(log(x)/p), as math.Pow does, rather than by the C library). One
// deliberate difference: a variable whose two bounds are equal stays at
// that value, where DEAP's mutation divides by zero. With [DominanceTournament], population 100 and
// 250 generations, Run is DEAP's example; DEAP also divides each crowding
// distance by the number of objectives, which changes no comparison. [ZDT1],
// [ZDT2] and [ZDT3] are DEAP's definitions of the test problems, and
// [Hypervolume2D] computes the exact two-objective hypervolume, agreeing
// with DEAP's hypervolume to 1e-9 on DEAP's fronts.
//
// # Measured
//
// The side-by-side run with DEAP (time and hypervolume on ZDT1–3), the
// generation rate and the sort's speed-up are in BENCHMARKS.md. On ZDT3,
// a run now and then loses one of the front's five pieces, less often with
// DominanceTournament than with the default CrowdedTournament (counts in
// BENCHMARKS.md): DominanceTournament is the safer choice for
// disconnected fronts.
//
// The text of errors and the random stream behind a seed
// are not part of the API.
package nsga2
