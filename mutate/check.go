package mutate

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/internal/tracker"
)

// CheckCandidates runs the compile and test steps of the pipeline on the
// candidates that are still undecided (Reason is ReasonNone and
// neither Unresolved nor Failing is set), at most opts.Parallelism at once
// (reporting to opts.Progress), and
// sets their verdicts. It returns the wall time spent building and in
// test processes, summed over the checks. The error is for a canceled
// ctx; a harness failure on one mutant is its ReasonInfra.
func CheckCandidates(ctx context.Context, p Project, cands []*Candidate, opts *Options) (build, test time.Duration, err error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Runs = cmpOr(o.Runs, 3)
	progress := tracker.New(o.Progress, "validate", len(undecided(cands)))
	progress.PassedAs = "valid" // candidates that became tasks
	k := &candidateCheck{p: p, o: &o, progress: progress, isTask: (*Candidate).Valid, stats: new(BatchStats)}
	return k.run(ctx, cands)
}

// undecided returns the candidates CheckCandidates checks.
func undecided(cands []*Candidate) []*Candidate {
	var todo []*Candidate
	for _, cand := range cands {
		if cand.Reason == ReasonNone && !cand.Unresolved && cand.Failing == nil {
			todo = append(todo, cand)
		}
	}
	return todo
}

// candidateCheck is the compile-and-test step of the pipeline over one
// project: Generate runs it twice (the L1 candidates, then the
// combinations), CheckCandidates once.
type candidateCheck struct {
	p        Project
	o        *Options
	progress *tracker.Tracker      // told of each candidate decided
	isTask   func(*Candidate) bool // which decided candidates count as passed
	stats    *BatchStats           // how a batchChecker's batches went
}

// run is CheckCandidates with k's progress, isTask and stats.
func (k *candidateCheck) run(ctx context.Context, cands []*Candidate) (build, test time.Duration, err error) {
	p, o, progress, isTask := k.p, k.o, k.progress, k.isTask
	if pp, ok := p.(preparer); ok {
		took, release, err := pp.Prepare(ctx, undecided(cands))
		build += took
		if err != nil {
			return build, test, err
		}
		defer release()
	}
	if bc, ok := p.(batchChecker); ok {
		b, t, err := k.batched(ctx, bc, cands)
		return build + b, test + t, err
	}
	var mu sync.Mutex
	g := &errgroup.Group{}
	g.SetLimit(cmpOr(o.Parallelism, exec.DefaultParallelism()))
	for _, cand := range undecided(cands) {
		g.Go(func() error {
			out, err := p.Check(ctx, cand.File, cand.Src, cand.Tests)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				cand.Reason, cand.Detail = ReasonInfra, err.Error()
				progress.Done(false)
				return nil
			}
			mu.Lock()
			build += out.BuildTime
			test += out.TestTime
			mu.Unlock()
			judgeCandidate(cand, out, p.Lang())
			if err := confirmFailures(ctx, p, cand, o.Runs, func(out *TestRun) {
				mu.Lock()
				build += out.BuildTime
				test += out.TestTime
				mu.Unlock()
			}); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				cand.Reason, cand.Detail = ReasonInfra, err.Error()
			}
			progress.Done(isTask(cand))
			return nil
		})
	}
	err = g.Wait()
	return build, test, err
}

func cmpOr(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// coverage returns the lines each test covers, in one run when p is a
// batchCoverage.
func coverage(ctx context.Context, p Project, tests []string, parallelism int) ([]Lines, error) {
	if b, ok := p.(batchCoverage); ok {
		if len(tests) == 0 {
			return nil, nil
		}
		cov, err := b.CoverageAll(ctx, tests)
		if err == nil && len(cov) != len(tests) {
			err = fmt.Errorf("mutate: coverage of %d tests returned %d", len(tests), len(cov))
		}
		return cov, err
	}
	cov := make([]Lines, len(tests))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(parallelism)
	for i, t := range tests {
		g.Go(func() error {
			l, err := p.Coverage(gctx, t)
			cov[i] = l
			return err
		})
	}
	return cov, g.Wait()
}

// baseline runs every test runs times on the unmodified project.
func baseline(ctx context.Context, p Project, runs int, res *Result) error {
	passes := map[string]int{}
	for i := range runs {
		out, err := p.Check(ctx, "", nil, res.Tests)
		if err != nil {
			return fmt.Errorf("mutate: baseline run %d: %w", i+1, err)
		}
		if out.Compile != "" {
			return fmt.Errorf("mutate: baseline run %d: the project does not compile:\n%s", i+1, out.Compile)
		}
		for _, t := range out.Passed {
			passes[t]++
		}
	}
	for _, t := range res.Tests {
		switch passes[t] {
		case runs:
			res.Stable = append(res.Stable, t)
		case 0:
		default:
			res.Flaky = append(res.Flaky, t)
		}
	}
	return nil
}

var (
	goUndefinedRE   = regexp.MustCompile(`^(\S+\.go):(\d+):\d+: (undefined: .*|.* undefined \(type .*)$`)
	goLineRE        = regexp.MustCompile(`^(\S+\.go):(\d+):\d+: `)
	javaErrorRE     = regexp.MustCompile(`^([^:\s]+\.java):(\d+): error: (.*)$`)
	javaUndefinedRE = regexp.MustCompile(`^cannot find symbol`)
)

// confirmFailures runs the tests that failed on a candidate again, runs-1
// times (Options.Runs, the runs that also decide the stable tests): a
// test is a failure only if it fails every time. A mutant that some test
// catches only now and then (uuid's getTime with "<" for "<=" fails only
// when two calls share a clock tick) would otherwise be valid in one run
// and not in the next, and its tasks would pass unchanged code now and
// then. A mutant whose failures all come and go is dropped as
// ReasonFlaky. Timed-out runs are not repeated (each would cost the whole
// time limit again). account is told of every run's times.
func confirmFailures(ctx context.Context, p Project, c *Candidate, runs int, account func(*TestRun)) error {
	for r := 1; r < runs && needsConfirming(c); r++ {
		out, err := p.Check(ctx, c.File, c.Src, c.Failing)
		if err != nil {
			return err
		}
		account(out)
		if err := confirm(c, out, r); err != nil {
			return err
		}
	}
	return nil
}

// needsConfirming reports whether c's failing tests are to be run again.
func needsConfirming(c *Candidate) bool {
	return c.Reason == ReasonNone && !c.Unresolved && !c.TimedOut && len(c.Failing) > 0
}

// confirm applies out, run r+1 of c's failing tests, to c: the tests that
// passed this time are no longer failing, and a candidate left with none
// is flaky.
func confirm(c *Candidate, out *TestRun, r int) error {
	if out.Compile != "" {
		return fmt.Errorf("mutate: %s:%d: compiled once, then not: %s", c.File, c.Frag.Line, out.Compile)
	}
	if out.TimedOut {
		return nil // a limit stopped it: keep what the first run found
	}
	failed := map[string]bool{}
	for _, t := range out.Failed {
		failed[t] = true
	}
	var still []string
	for _, t := range c.Failing {
		if failed[t] {
			still = append(still, t)
		}
	}
	if len(still) < len(c.Failing) {
		c.Detail = strings.TrimSpace(c.Detail + fmt.Sprintf("\nrun %d: %d of %d failing tests passed again", r+1, len(c.Failing)-len(still), len(c.Failing)))
	}
	c.Failing = still
	if len(still) == 0 {
		c.Reason = ReasonFlaky
	}
	return nil
}

// batched is run for a batchChecker: the first runs of
// every candidate in one batch, then each further run of the failing
// tests of those still to confirm in one batch, with the same verdicts as
// one check at a time. A check the batch did not decide is made alone;
// stats counts them, and says why a batch failed as a whole.
func (k *candidateCheck) batched(ctx context.Context, bc batchChecker, cands []*Candidate) (build, test time.Duration, err error) {
	p, o, progress, isTask, stats := k.p, k.o, k.progress, k.isTask, k.stats
	todo := undecided(cands)
	failed := map[*Candidate]bool{} // a harness failure, already counted
	run := func(cs []*Candidate, tests func(*Candidate) []string) ([]*TestRun, error) {
		reqs := make([]CheckRequest, len(cs))
		for i, c := range cs {
			reqs[i] = CheckRequest{File: c.File, Src: c.Src, Tests: tests(c)}
		}
		outs, err := bc.CheckBatch(ctx, reqs)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			stats.Errors = append(stats.Errors, err.Error())
		}
		if len(outs) != len(cs) {
			outs = make([]*TestRun, len(cs))
		}
		stats.Checks += len(cs)
		for i, c := range cs {
			if outs[i] == nil {
				stats.Alone++
				out, err := p.Check(ctx, c.File, c.Src, reqs[i].Tests)
				if err != nil {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					c.Reason, c.Detail = ReasonInfra, err.Error()
					failed[c] = true
					progress.Done(false)
					continue
				}
				outs[i] = out
			}
			build += outs[i].BuildTime
			test += outs[i].TestTime
		}
		return outs, nil
	}
	outs, err := run(todo, func(c *Candidate) []string { return c.Tests })
	if err != nil {
		return build, test, err
	}
	for i, c := range todo {
		if !failed[c] {
			judgeCandidate(c, outs[i], p.Lang())
		}
	}
	for r := 1; r < o.Runs; r++ {
		var again []*Candidate
		for _, c := range todo {
			if !failed[c] && needsConfirming(c) {
				again = append(again, c)
			}
		}
		if len(again) == 0 {
			break
		}
		outs, err := run(again, func(c *Candidate) []string { return c.Failing })
		if err != nil {
			return build, test, err
		}
		for i, c := range again {
			if failed[c] {
				continue
			}
			if err := confirm(c, outs[i], r); err != nil {
				c.Reason, c.Detail = ReasonInfra, err.Error()
			}
		}
	}
	for _, c := range todo {
		if !failed[c] {
			progress.Done(isTask(c))
		}
	}
	return build, test, nil
}

// judgeCandidate sets the verdict of a checked candidate.
func judgeCandidate(c *Candidate, out *TestRun, lang Lang) {
	if out.Compile != "" {
		if c.Policy == AllowUnresolved && onlyUnresolved(out.Compile, c, lang) {
			c.Unresolved = true
			c.Detail = out.Compile
			return
		}
		c.Reason, c.Detail = ReasonCompile, out.Compile
		return
	}
	c.Failing, c.TimedOut = out.Failed, out.TimedOut
	if len(out.Failed) == 0 {
		c.Reason = ReasonNoFailure
	}
}

// onlyUnresolved reports whether every compile error is an unresolved
// name on a line the candidate changed.
func onlyUnresolved(msg string, c *Candidate, lang Lang) bool {
	lines := map[int]bool{}
	for _, r := range c.Records {
		for _, ch := range r.Changes {
			from := 1 + strings.Count(string(c.Src[:ch.Mut.Start]), "\n")
			to := from + strings.Count(ch.New, "\n")
			for l := from; l <= to; l++ {
				lines[l] = true
			}
		}
	}
	n := 0
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		switch lang {
		case Go:
			if !goLineRE.MatchString(l) {
				continue
			}
			m := goUndefinedRE.FindStringSubmatch(l)
			if m == nil || !lines[atoi(m[2])] {
				return false
			}
			n++
		case Java:
			m := javaErrorRE.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			if !javaUndefinedRE.MatchString(m[3]) || !lines[atoi(m[2])] {
				return false
			}
			n++
		}
	}
	return n > 0
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}
