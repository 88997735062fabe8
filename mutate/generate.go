package mutate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/internal/tracker"
)

// Generate runs the validity pipeline on a project: a baseline of
// cfg.Runs runs fixes the stable tests, per-test coverage the relevant
// tests of each fragment; fragments without one are dropped and the rest
// sampled; each sampled fragment gets L1 mutants per operator and the
// combinations of the other levels; each mutant must parse, compile (or
// be kept by its operator's AllowUnresolved policy) and fail a relevant
// test, and each constituent of a combination must parse and compile
// (or be kept) on its own (Candidate.Parts); the valid ones become tasks
// at every context level.
//
// Per-mutant outcomes are in the Result; the error is for a project that
// cannot be built or listed, or a harness failure of the baseline.
func Generate(ctx context.Context, p Project, opts *Options) (*Result, error) {
	g, err := newGeneration(p, opts)
	if err != nil {
		return nil, err
	}
	if err := g.stableTests(ctx); err != nil {
		return nil, err
	}
	cov, err := coverage(ctx, p, g.res.Stable, g.c.Parallelism)
	if err != nil {
		return nil, err
	}
	frags, err := g.coveredFragments(cov)
	if err != nil {
		return nil, err
	}
	if err := g.drawCandidates(ctx, g.sample(frags)); err != nil {
		return nil, err
	}
	first, combos, extra := g.constituents()
	if err := g.validate(ctx, first, combos, extra); err != nil {
		return nil, err
	}
	if err := g.makeTasks(); err != nil {
		return nil, err
	}
	return g.res, nil
}

// A generation is the state of one Generate: its options with their
// defaults, the operators that support the project's language, the
// seeded choices and the result so far.
type generation struct {
	p   Project
	c   Options
	ops []*Operator
	rng *rand.Rand
	res *Result
}

// covered is a fragment with its relevant tests.
type covered struct {
	file  string
	frag  *Fragment
	tests []string
}

// newGeneration validates opts and resolves their defaults.
func newGeneration(p Project, opts *Options) (*generation, error) {
	var c Options
	if opts != nil {
		c = *opts
	}
	if c.Ops == nil {
		c.Ops = Operators
	}
	if err := validateOps(c.Ops); err != nil {
		return nil, err
	}
	if (c.Repo == "") != (c.Commit == "") {
		return nil, fmt.Errorf("mutate: Options.Repo %q and Commit %q: set both (the project's repository and the commit it was read at) or neither", c.Repo, c.Commit)
	}
	var ops []*Operator
	for _, op := range c.Ops {
		if op.supports(p.Lang()) {
			ops = append(ops, op)
		}
	}
	if c.Policy == nil {
		c.Policy = defaultPolicy
	}
	c.Runs = cmpOr(c.Runs, 3)
	c.SitesPerOp = cmpOr(c.SitesPerOp, 1)
	c.PerLevel = cmpOr(c.PerLevel, 1)
	c.Parallelism = cmpOr(c.Parallelism, exec.DefaultParallelism())
	if c.Levels == nil {
		c.Levels = []ComplexityLevel{L1}
	}
	if c.Contexts == nil {
		c.Contexts = []ContextLevel{C1, C2, C3}
	}
	return &generation{p: p, c: c, ops: ops, res: &Result{}}, nil
}

// stableTests lists the project's tests and runs the baseline that
// decides which are stable.
func (g *generation) stableTests(ctx context.Context) error {
	tests, err := g.p.Tests(ctx)
	if err != nil {
		return err
	}
	if len(tests) == 0 {
		return errors.New("mutate: the project has no tests")
	}
	g.res.Tests = tests
	return baseline(ctx, g.p, g.c.Runs, g.res)
}

// coveredFragments returns the fragments with a relevant test (a stable
// test whose coverage cov holds the fragment's lines), having checked that
// the project's tasks can be made.
func (g *generation) coveredFragments(cov []Lines) ([]covered, error) {
	p, res := g.p, g.res
	var frags []covered
	files, err := p.Sources()
	if err != nil {
		return nil, err
	}
	for _, file := range files {
		src, err := p.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("mutate: %w", err)
		}
		fs, err := Fragments(p.Lang(), src)
		if err != nil {
			return nil, fmt.Errorf("mutate: %s: %w", file, err)
		}
		for i := range fs {
			res.Fragments++
			f := &fs[i]
			if _, _, ok := enclosingFunc(f); !ok {
				continue
			}
			var rel []string
			for j, t := range res.Stable {
				if cov[j].covers(file, f.Line, f.EndLine) {
					rel = append(rel, t)
				}
			}
			if len(rel) > 0 {
				frags = append(frags, covered{file, f, rel})
			}
		}
	}
	res.Covered = len(frags)
	if len(frags) > 0 {
		// A workspace the tasks cannot have (a file the task format
		// cannot hold) fails now, not after every mutant was validated.
		var probe adapt.Task
		if err := p.Task(frags[0].file, &probe); err != nil {
			return nil, fmt.Errorf("mutate: the project's tasks cannot be made: %w", err)
		}
	}
	return frags, nil
}

// sample draws Options.Fragments of frags (all when 0), in their order.
func (g *generation) sample(frags []covered) []covered {
	g.rng = rand.New(rand.NewPCG(g.c.Seed, 0x6672616773))
	if n := g.c.Fragments; n > 0 && len(frags) > n {
		idx := g.rng.Perm(len(frags))[:n]
		slices.Sort(idx)
		sel := make([]covered, len(idx))
		for i, j := range idx {
			sel[i] = frags[j]
		}
		frags = sel
	}
	g.res.Sampled = len(frags)
	return frags
}

// drawCandidates makes the candidates of every fragment and level. A
// candidate's seed is its draw's number: the same as its index when every
// draw gives a candidate, so that a draw that finds no site that
// type-checks changes no other candidate.
func (g *generation) drawCandidates(ctx context.Context, frags []covered) error {
	c := &g.c
	usage := map[ComplexityLevel]map[string]int{}
	var draws uint64
	for _, fr := range frags {
		sites := map[*Operator][]Site{}
		var avail []*Operator
		for _, op := range g.ops {
			if s := op.Sites(fr.frag); len(s) > 0 {
				sites[op] = s
				avail = append(avail, op)
			}
		}
		table, err := selectSites(ctx, g.p, fr.file, sites, c.Policy)
		if err != nil {
			return err
		}
		fs := &fragmentSites{avail, sites, table}
		for _, lv := range c.Levels {
			var combos []draw
			if lv == L1 {
				for _, op := range avail {
					s := sites[op]
					for _, d := range drawSites(op, len(s), c.SitesPerOp, table, g.rng) {
						combos = append(combos, draw{[]sitePick{{op, s[d.site]}}, draws + uint64(d.slot)})
					}
					draws += uint64(min(c.SitesPerOp, len(s)))
				}
			} else {
				if usage[lv] == nil {
					usage[lv] = map[string]int{}
				}
				for range c.PerLevel {
					if picks := fs.drawCombo(lv, usage[lv], g.rng); picks != nil {
						combos = append(combos, draw{picks, draws})
						draws++
					}
				}
			}
			for _, d := range combos {
				cand, err := g.candidate(fr, lv, d)
				if err != nil {
					return err
				}
				g.res.Candidates = append(g.res.Candidates, cand)
			}
		}
	}
	return nil
}

// A draw is the picks of one candidate and its draw's number.
type draw struct {
	picks []sitePick
	n     uint64
}

// candidate applies the picks of d to fragment fr: the candidate of level
// lv, with the verdict applying gives (no edit, overlapping edits, a
// syntax error) and its compile policy.
func (g *generation) candidate(fr covered, lv ComplexityLevel, d draw) (*Candidate, error) {
	picks := d.picks
	cand := &Candidate{File: fr.file, Frag: fr.frag, Level: lv, Seed: g.c.Seed<<20 + d.n, Tests: fr.tests}
	for _, pk := range picks {
		cand.Ops = append(cand.Ops, pk.Op.Name)
	}
	comp, err := compose(picks, rand.New(rand.NewPCG(cand.Seed, 0x6d7574)))
	if err != nil {
		return nil, err
	}
	cand.Records, cand.Src = comp.Records, comp.Src
	switch comp.Fate {
	case FateNoEdit:
		cand.Reason = ReasonNoEdit
	case FateBadEdit:
		cand.Reason, cand.Src = ReasonOverlap, nil
	case FateSyntax:
		cand.Reason = ReasonParse
	}
	cand.Policy = RequireCompile
	for _, pk := range picks {
		if g.c.Policy(pk.Op) == AllowUnresolved {
			cand.Policy = AllowUnresolved
		}
	}
	return cand, nil
}

// constituents gives each combination its constituents alone
// (Candidate.Parts): an L1 candidate of the same change, or a new one
// checked with the L1 candidates. It returns the candidates to check
// first (the L1 ones and the new constituents, which extra marks), and
// the combinations.
func (g *generation) constituents() (first, combos []*Candidate, extra map[*Candidate]bool) {
	solo := map[string]*Candidate{}
	for _, cand := range g.res.Candidates {
		if cand.Level == L1 && cand.Src != nil {
			solo[changeKey(cand, cand.Records[0])] = cand
		}
	}
	extra = map[*Candidate]bool{}
	for _, cand := range g.res.Candidates {
		if cand.Level == L1 {
			first = append(first, cand)
			continue
		}
		combos = append(combos, cand)
		if cand.Reason != ReasonNone {
			continue
		}
		for _, r := range cand.Records {
			k := changeKey(cand, r)
			part := solo[k]
			if part == nil {
				part = soloCandidate(cand, r, g.ops, g.c.Policy)
				solo[k] = part
				extra[part] = true
				first = append(first, part)
			}
			cand.Parts = append(cand.Parts, part)
		}
	}
	return first, combos, extra
}

// validate checks the L1 candidates and constituents, then the
// combinations whose constituents are valid alone.
func (g *generation) validate(ctx context.Context, first, combos []*Candidate, extra map[*Candidate]bool) error {
	c, p, res := &g.c, g.p, g.res
	start := time.Now()
	isTask := func(cand *Candidate) bool { return cand.Valid() && !extra[cand] }
	progress := tracker.New(c.Progress, "validate", len(undecided(first))+len(undecided(combos)))
	progress.PassedAs = "valid" // candidates that became tasks
	var build, test time.Duration
	if pp, ok := p.(preparer); ok {
		// The combinations too, so that one schema holds them all;
		// those a constituent rules out are not checked.
		took, release, err := pp.Prepare(ctx, undecided(append(slices.Clone(first), combos...)))
		build += took
		if err != nil {
			return err
		}
		defer release()
	}
	k := &candidateCheck{p: p, o: c, progress: progress, isTask: isTask, stats: &res.Batches}
	b1, t1, err := k.run(ctx, first)
	if err != nil {
		return err
	}
	build, test = build+b1, test+t1
	for _, cand := range undecided(combos) {
		g.judgeByParts(cand, progress)
	}
	b2, t2, err := k.run(ctx, combos)
	if err != nil {
		return err
	}
	res.BuildTime, res.TestTime = build+b2, test+t2
	res.Total = time.Since(start)
	return nil
}

// judgeByParts discards a combination whose constituents rule it out
// before its tests run: one not valid alone, or, with
// Options.RequireEffective, one of an effective level below its level.
func (g *generation) judgeByParts(cand *Candidate, progress *tracker.Tracker) {
	for i, part := range cand.Parts {
		switch {
		case part.Reason == ReasonInfra:
			cand.Reason, cand.Detail = ReasonInfra, fmt.Sprintf("constituent %d (%s) alone: %s", i+1, cand.Ops[i], part.Detail)
		case part.Reason != ReasonNone && part.Reason != ReasonNoFailure && part.Reason != ReasonFlaky:
			cand.Reason, cand.Detail = ReasonConstituent, fmt.Sprintf("constituent %d (%s) alone: %s\n%s", i+1, cand.Ops[i], part.Reason, part.Detail)
		default:
			continue
		}
		progress.Done(false)
		break
	}
	if g.c.RequireEffective && cand.Reason == ReasonNone && cand.Effective() < cand.Level {
		cand.Reason, cand.Detail = ReasonEffective, fmt.Sprintf("effective level %s: %d of %d constituents detected alone", cand.Effective(), cand.detectedParts(), len(cand.Parts))
		progress.Done(false)
	}
}

// makeTasks counts every candidate in the funnel and makes the tasks of
// the valid ones, one per context level, sharing one copy of each base.
func (g *generation) makeTasks() error {
	res := g.res
	res.Funnel.Declare(StageSite, StageApplied, StageParsed, StageCompiled, StageUnresolved, StageDetected, StageEffective)
	bases := map[string]*adapt.Base{} // the tasks share one copy of each
	for _, cand := range res.Candidates {
		countCandidate(&res.Funnel, cand)
		if !cand.Valid() {
			continue
		}
		for _, cl := range g.c.Contexts {
			if cl == C1 && hidesRestoredName(cand) {
				continue // C1 would hide the very name to restore
			}
			t, err := newTask(g.p, cand, cl, g.c.Source)
			if err != nil {
				return err
			}
			if b := t.Base; b != nil {
				if have := bases[b.Digest()]; have != nil {
					t.Base = have
				} else {
					bases[b.Digest()] = b
				}
			}
			res.Tasks = append(res.Tasks, t)
			res.From = append(res.From, cand)
		}
	}
	if g.c.Repo != "" || g.c.Commit != "" {
		adapt.SetRevision(res.Tasks, g.c.Repo, g.c.Commit)
	}
	return nil
}
