package evolve

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/evolve/measure"
	"github.com/adaptbench/adaptbench/evolve/transform"
)

// ErrOriginalFails is wrapped by the error Evolve returns when the original
// program does not pass its own tests: there is nothing to be equivalent
// to, and GeneBench skips such a program.
var ErrOriginalFails = errors.New("evolve: the original program fails its tests")

// Evolve evolves one subject with GeneBench's search (Algorithm 1 of the
// paper) and returns every accepted individual and the pick.
//
// The population starts as the original program, which is measured and
// tested first (a failing original is an error wrapping
// [ErrOriginalFails]). Each generation
//
//  1. sorts the population into non-domination fronts over (RC, RR), both
//     maximised, with nsga2.Fronts, and takes as parents the first front's
//     top Breed fraction by RC (at least one);
//  2. for each parent and each operator in Options.Transforms order picks a
//     site at random among the operator's sites that no step of the
//     parent's lineage transformed (Algorithm 2's ValidLocs), draws a seed
//     and applies the operator there: one offspring per parent and
//     operator, while the evaluation budget lasts;
//  3. rejects an offspring that fails to parse, duplicates a program seen
//     before, breaks readability (see Options.StrictReadability) or fails
//     the original tests, in that order, so the tests run last;
//  4. adds the rest to the population.
//
// The run stops when an individual reaches RC = 1, when the evaluation or
// time budget is spent, after Options.Stall generations that accepted
// nothing, or when no parent has a site left. The pick is the final
// front's highest-RC individual.
//
// Random choices are drawn from one stream in a fixed order before the
// offspring are evaluated in parallel, and results are reduced in index
// order, so the same subject, Options and evaluation budget give the same
// Evolution whatever the parallelism (wall times aside). When ctx ends, Evolve
// returns what it has with Stop = StopCanceled and ctx.Err().
//
// RC and RR are the paper's (capped at 1, floored at 0, over 13
// readability metrics), not the artifact's raw values. The budget counts
// evaluations, so that a seed reproduces a run (Options.Time gives the
// paper's wall-time budget instead); there is no LLM renaming and no
// PyLint gate.
func Evolve(ctx context.Context, s *Subject, opts *Options) (*Evolution, error) {
	c, err := resolve(opts)
	if err != nil {
		return nil, err
	}
	if s == nil || s.Program == nil {
		return nil, errors.New("evolve: nil Subject or Program")
	}
	if err := s.Suite.validate(); err != nil {
		return nil, fmt.Errorf("evolve: %s: %w", s.ID, err)
	}
	if c.tester == nil {
		t, closeFn, err := DefaultTester()
		if err != nil {
			return nil, err
		}
		defer closeFn()
		c.tester = t
	}
	r := &run{c: c, s: s, start: time.Now(), seen: map[string]bool{},
		rng: rand.New(rand.NewPCG(c.seed, streamOf(s.ID)))}
	res, err := r.search(ctx)
	if res != nil {
		res.Elapsed = time.Since(r.start)
	}
	return res, err
}

// streamOf is the second PCG seed of a subject's stream.
func streamOf(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}

// run is one search's working state.
type run struct {
	c     config
	s     *Subject
	rng   *rand.Rand
	start time.Time
	res   *Evolution
	seen  map[string]bool // hashes of every program examined
	orig  measure.Metrics
}

// offspring is one planned child and what became of it.
type offspring struct {
	parent *Individual
	t      *transform.Transform
	site   transform.Site
	seed   uint64

	prog    *transform.Program
	hash    string
	metrics measure.Metrics
	failed  bool // transform, parse or measure failed
	test    TestRun
	testErr error
	testDur time.Duration
}

func (r *run) search(ctx context.Context) (*Evolution, error) {
	res := &Evolution{Subject: r.s.ID, Seed: r.c.seed}
	r.res = res
	orig := r.s.Program.Clone()
	m, err := measure.Measure(orig.Main)
	if err != nil {
		return nil, fmt.Errorf("evolve: %s: original: %w", r.s.ID, err)
	}
	r.orig = m
	out, err := r.c.tester.Test(ctx, r.s.Suite, orig)
	if err != nil {
		return nil, fmt.Errorf("evolve: %s: testing the original: %w", r.s.ID, err)
	}
	if !out.Passed() {
		return nil, fmt.Errorf("%w: %s: %v: %s", ErrOriginalFails, r.s.ID, out.Verdict, out.Detail)
	}
	r.accept(&Individual{Program: orig, Hash: orig.Hash(), Metrics: m, Step: Step{Parent: -1}, done: map[string]bool{}})

	stall := 0
	for {
		switch {
		case ctx.Err() != nil:
			res.Stop = StopCanceled
		case r.reachedTarget():
			res.Stop = StopTarget
		case res.Evaluations >= r.c.evaluations:
			res.Stop = StopBudget
		case r.c.time > 0 && time.Since(r.start) >= r.c.time:
			res.Stop = StopTime
		case stall >= r.c.stall:
			res.Stop = StopStall
		}
		if res.Stop != stopInvalid {
			break
		}
		kids := r.plan(r.parents(), r.c.evaluations-res.Evaluations)
		if len(kids) == 0 {
			res.Stop = StopExhausted
			break
		}
		res.Generations++
		added, err := r.generation(ctx, kids)
		if err != nil {
			r.finish()
			if ctx.Err() != nil {
				res.Stop = StopCanceled
				return res, ctx.Err()
			}
			return res, err
		}
		if added == 0 {
			stall++
		} else {
			stall = 0
		}
	}
	r.finish()
	if res.Stop == StopCanceled {
		return res, ctx.Err()
	}
	return res, nil
}

// accept adds ind to the population.
func (r *run) accept(ind *Individual) {
	ind.ID = len(r.res.Population)
	ind.RC = r.c.thresholds.RelativeComplexity(ind.Metrics)
	ind.RR = r.c.thresholds.RelativeReadability(ind.Metrics)
	r.seen[ind.Hash] = true
	r.res.Population = append(r.res.Population, ind)
}

func (r *run) reachedTarget() bool {
	for _, ind := range r.res.Population {
		if ind.RC >= 1 {
			return true
		}
	}
	return false
}

// plan draws, for each parent and operator, a site among those the
// parent's lineage has not transformed and a seed; at most budget
// offspring.
func (r *run) plan(parents []*Individual, budget int) []*offspring {
	var kids []*offspring
	for _, p := range parents {
		for _, t := range r.c.transforms {
			if len(kids) >= budget {
				return kids
			}
			var valid []transform.Site
			for _, s := range t.Sites(p.Program) {
				if !p.done[s.Key] {
					valid = append(valid, s)
				}
			}
			if len(valid) == 0 {
				continue
			}
			site := valid[r.rng.IntN(len(valid))]
			kids = append(kids, &offspring{parent: p, t: t, site: site, seed: r.rng.Uint64()})
		}
	}
	return kids
}

// generation evaluates the planned offspring and accepts the good ones;
// it returns how many were accepted.
func (r *run) generation(ctx context.Context, kids []*offspring) (int, error) {
	res := r.res
	res.Evaluations += len(kids)
	// Transform, parse and measure, in parallel.
	r.parallel(len(kids), func(i int) { kids[i].make() })
	// Reject, in index order: failures, duplicates, unreadable programs.
	var toTest []*offspring
	for _, k := range kids {
		switch {
		case k.failed:
			res.Rejected.Failed++
		case r.seen[k.hash]:
			res.Rejected.Duplicate++
		case !r.readable(k.metrics):
			r.seen[k.hash] = true
			res.Rejected.Unreadable++
		default:
			r.seen[k.hash] = true
			toTest = append(toTest, k)
		}
	}
	if r.c.time > 0 && time.Since(r.start) >= r.c.time {
		return 0, nil
	}
	// Test, in parallel.
	r.parallel(len(toTest), func(i int) {
		k := toTest[i]
		start := time.Now()
		k.test, k.testErr = r.c.tester.Test(ctx, r.s.Suite, k.prog)
		k.testDur = time.Since(start)
	})
	added := 0
	for _, k := range toTest {
		if k.testErr != nil {
			return added, fmt.Errorf("evolve: %s: testing %s at %s: %w", r.s.ID, k.t.ID, k.site.Key, k.testErr)
		}
		res.Tested++
		res.TestTime += k.testDur
		if !k.test.Passed() {
			res.Rejected.Tests++
			continue
		}
		done := make(map[string]bool, len(k.parent.done)+1)
		for key := range k.parent.done {
			done[key] = true
		}
		done[k.site.Key] = true
		r.accept(&Individual{
			Program: k.prog, Hash: k.hash, Metrics: k.metrics, Generation: res.Generations,
			Step: Step{Parent: k.parent.ID, Operator: k.t.ID, Site: k.site, Seed: k.seed},
			done: done,
		})
		added++
	}
	return added, nil
}

// make applies the offspring's operator and measures the result.
func (k *offspring) make() {
	q, err := apply(k.parent.Program, k.t, k.site, k.seed)
	if err != nil {
		k.failed = true
		return
	}
	m, err := measure.Measure(q.Main)
	if err != nil {
		k.failed = true
		return
	}
	k.prog, k.hash, k.metrics = q, q.Hash(), m
}

// apply runs t at s with the random source of seed and checks that the
// result parses.
func apply(p *transform.Program, t *transform.Transform, s transform.Site, seed uint64) (q *transform.Program, err error) {
	defer func() {
		if v := recover(); v != nil {
			q, err = nil, fmt.Errorf("evolve: %s panicked at %s: %v", t.ID, s.Key, v)
		}
	}()
	q, err = t.Apply(p, s, rand.New(rand.NewPCG(seed, seed)))
	if err != nil {
		return nil, err
	}
	if err := transform.Check(q); err != nil {
		return nil, err
	}
	return q, nil
}

// readable applies the readability rule: no metric at or over its
// threshold, except (unless strict) metrics the original already breaks
// and the offspring does not make worse. The paper's literal rule (any
// R_i >= RT_i rejects) would freeze every program with two nested loops,
// which reach GeneBenchV1's R9 threshold of 2; the artifact's ban map
// (measure.Ban) is not applied.
func (r *run) readable(m measure.Metrics) bool {
	violated, ok := r.c.thresholds.Readable(m)
	if ok {
		return true
	}
	if r.c.strict {
		return false
	}
	for _, i := range violated {
		if m.Readability[i] > r.orig.Readability[i] {
			return false
		}
	}
	return true
}

// parallel calls f(0..n-1) on up to Parallelism goroutines.
func (r *run) parallel(n int, f func(i int)) {
	if r.c.parallelism <= 1 || n <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var g errgroup.Group
	g.SetLimit(r.c.parallelism)
	for i := range n {
		g.Go(func() error { f(i); return nil })
	}
	g.Wait()
}

// finish computes the final front and the pick.
func (r *run) finish() {
	front := frontByRC(r.res.Population)
	r.res.Front = make([]int, len(front))
	for i, ind := range front {
		r.res.Front[i] = ind.ID
	}
	if len(front) > 0 {
		r.res.Best = front[0].ID
	}
}

// Replay rebuilds a program from the original and a lineage ([Evolution.Lineage]),
// applying each step's operator (looked up by ID in transforms; nil means
// transform.All) at its site with its seed. It fails if an operator is
// unknown or a step no longer applies.
func Replay(orig *transform.Program, steps []Step, transforms []*transform.Transform) (*transform.Program, error) {
	if transforms == nil {
		transforms = transform.All
	}
	p := orig.Clone()
	for i, s := range steps {
		j := slices.IndexFunc(transforms, func(t *transform.Transform) bool { return t.ID == s.Operator })
		if j < 0 {
			return nil, fmt.Errorf("evolve: replay step %d: unknown operator %q", i, s.Operator)
		}
		q, err := apply(p, transforms[j], s.Site, s.Seed)
		if err != nil {
			return nil, fmt.Errorf("evolve: replay step %d (%s at %s): %w", i, s.Operator, s.Site.Key, err)
		}
		p = q
	}
	return p, nil
}
