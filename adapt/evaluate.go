package adapt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// ErrNothingScored is wrapped when an evaluation had samples to score and
// could score none of them (every check an infrastructure error, every
// request a model error): that is a failed run, not a score of 0.
var ErrNothingScored = errors.New("adapt: no sample could be scored")

// ErrModelUnavailable is wrapped by a model's error that no retry will
// fix while the run lasts: the endpoint refuses connections or has no
// such host, or it rejects the key (401, 403) or the model (404). Evaluate
// does not ask again after such an error, and stops after
// Options.MaxModelErrors of them in a row.
var ErrModelUnavailable = errors.New("adapt: the model is unavailable")

// Preflighter is implemented by a model that can check, with one cheap
// request, that it can answer at all (openai.Client does). Evaluate calls
// it before the run unless Options.NoPreflight.
type Preflighter interface {
	Preflight(ctx context.Context) error
}

// Evaluate asks model to adapt every task (of the selected shard) Samples
// times, checks each answer in the sandbox, and returns the report. Model
// requests and test runs overlap, each with its own concurrency bound.
//
// With a nil model it checks the references only, once each (the
// validity screening a generator's tasks need): the report says which
// tasks are valid (Valid, Invalid with each failing reference's result),
// names the run "references only", and holds no samples or scores. Its
// journal resumes like any other.
//
// The scoring rules are in the package documentation: a sample that could
// not be scored (a model or infrastructure error after Attempts tries) is
// left out of the scores and its task listed in Report.Unscored when that
// leaves it fewer than k scored samples. Evaluate returns an error when it
// cannot run at all, when no sample could be scored (ErrNothingScored),
// when the journal cannot be written, or when ctx ends (the error wraps
// ctx.Err() and says what the journal kept).
func Evaluate(ctx context.Context, tasks []Task, model Model, opts *Options) (*report.Report, error) {
	return evaluate(ctx, tasks, model, opts, false)
}

// referencesOnly is the model of Evaluate with none: it holds no sample
// of any task, so that only the references are checked.
type referencesOnly struct{}

func (referencesOnly) Name() string           { return "references only" }
func (referencesOnly) SampleCount(string) int { return 0 }
func (referencesOnly) PromptFree() bool       { return true }
func (referencesOnly) Complete(context.Context, Request) ([]report.Completion, error) {
	return nil, errors.New("adapt: the references-only run asks no model")
}

// Draw asks model for opts.Samples completions of every task (of the
// selected shard) and checks nothing: the sampling loop of Evaluate, with
// its journal, resume, shards, retries and model-error rules, for callers
// that ask a model for something other than an answer to test (a task
// generator's infill). opts.Template renders the prompts; Runner, Limits,
// NoGold, K and Environments are not used. The report holds every sample
// (its Completion, and OutcomeModelError for a sample the model failed;
// the others have OutcomeInvalid: not checked) and no scores.
func Draw(ctx context.Context, tasks []Task, model Model, opts *Options) (*report.Report, error) {
	return evaluate(ctx, tasks, model, opts, true)
}

func evaluate(ctx context.Context, tasks []Task, model Model, opts *Options, draw bool) (*report.Report, error) {
	refsOnly := model == nil && !draw
	model, opts, err := runModel(model, opts, draw)
	if err != nil {
		return nil, err
	}
	opts, perTask := sampleCounts(opts, model, tasks)
	o, info, err := resolve(opts, model)
	if err != nil {
		return nil, err
	}
	info.TaskSamples = perTask
	if a, ok := model.(Answerer); ok && o.Answer == nil {
		o.Answer = a.Answer
	}
	info.Draw = draw
	if draw {
		info.K = nil
	}
	all, hashes, err := checkTasks(tasks)
	if err != nil {
		return nil, err
	}
	info.TaskCount, info.TaskSet = len(all), taskSetDigest(hashes)
	describeRun(&info, &o, model, all, draw)
	var selected []*Task
	for _, t := range all {
		if o.Shard.has(t.ID) {
			selected = append(selected, t)
		}
	}
	if p, ok := model.(Preflighter); ok && !o.NoPreflight {
		if err := p.Preflight(ctx); err != nil {
			return nil, fmt.Errorf("adapt: model %s failed its preflight request, before any work (Options.NoPreflight skips it): %w", model.Name(), err)
		}
	}
	e := &evaluation{o: o, info: info, model: model, recs: newRecords(), hashes: hashes, start: time.Now(), draw: draw}
	runner := o.Runner
	if !draw && runner == nil {
		fs, err := sandbox.NewPythonRunner(&sandbox.ForkServerConfig{Preload: append(slices.Clone(sandbox.DefaultPreload), preload(selected)...)})
		if err != nil {
			return nil, err
		}
		defer fs.Close()
		runner = fs
	}
	if !draw {
		info.Manifest = manifestOf(ctx, runner, all) // the whole task set: a shard's says the same
		e.info.Manifest = info.Manifest
	}
	if o.Journal != "" {
		jnl, err := openJournal(o.Journal, info, o.Shard, hashes, e.recs, func(s string) { e.notices = append(e.notices, s) })
		if err != nil {
			return nil, err
		}
		defer jnl.close()
		e.jnl = jnl
	}
	e.recs.machines.use(info.Manifest) // the records filed from now are this machine's
	e.chk = &Checker{Runner: runner, Limits: o.Limits, Environments: o.Environments, Isolation: o.Isolation}
	e.refs = newRefCache(&o.Options, &info, runner)
	rctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	e.stop = stop
	err = e.run(rctx, selected)
	if e.firstErr != nil {
		return nil, e.firstErr // the journal failed
	}
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, e.canceled(ctx.Err())
		}
		return nil, err
	}
	rep := buildReport(info, o.Breakdown, selected, e.recs, nil)
	switch {
	case draw:
		return rep, nil
	case refsOnly:
		// No task has a sample: none is "unanswered", only the reference
		// checks that could not be made stay listed.
		rep.Unscored = slices.DeleteFunc(rep.Unscored, func(u report.UnscoredTask) bool { return u.Reason == unanswered })
		return rep, nil
	}
	if err := scoredAny(rep); err != nil {
		return nil, err
	}
	if p, ok := model.(Pricer); ok {
		if c, ok := p.Cost(rep.Usage); ok {
			rep.Cost = &c
		}
	}
	return rep, nil
}

// runModel returns the model and options a run uses: with no model, one
// that checks the references only; for a draw, options that skip the
// references, the repair rounds and every k but 1.
func runModel(model Model, opts *Options, draw bool) (Model, *Options, error) {
	refsOnly := model == nil && !draw
	switch {
	case model == nil && draw:
		return nil, nil, errors.New("adapt: Draw needs a model")
	case refsOnly && opts != nil && opts.NoGold:
		return nil, nil, errors.New("adapt: Evaluate with no model checks the references only, and Options.NoGold skips them: nothing to do")
	case refsOnly:
		model = referencesOnly{}
	}
	if draw {
		o := Options{}
		if opts != nil {
			o = *opts
		}
		o.NoGold, o.K, o.Repair = true, []int{1}, nil
		opts = &o
	}
	return model, opts, nil
}

// describeRun records in info what the report says of the run: the
// model's identity, the prompts' digest, and (unless a draw) the limits
// and the runner.
func describeRun(info *report.RunInfo, o *options, model Model, all []*Task, draw bool) {
	if id, ok := model.(Identifier); ok {
		info.ModelIdentity = id.Identity()
	}
	if o.template != nil {
		info.Prompts = promptDigest(o.template, all)
	}
	if !draw {
		lim := o.Limits.WithDefaults()
		info.Limits = &lim
		info.Runner = runnerName(o.Runner)
	}
}

// canceled is the error of an evaluation stopped by its context.
func (e *evaluation) canceled(cause error) error {
	if e.jnl == nil {
		return fmt.Errorf("adapt: evaluation stopped (no journal: nothing was kept): %w", cause)
	}
	return fmt.Errorf("adapt: evaluation stopped; the journal %s holds %d finished records: run again with the same settings to resume: %w",
		e.jnl.path, e.jnl.finished(), cause)
}

// checkTasks validates the tasks and returns them in input order with
// their content hashes by ID.
func checkTasks(tasks []Task) ([]*Task, map[string]string, error) {
	out := make([]*Task, len(tasks))
	hashes := make(map[string]string, len(tasks))
	for i := range tasks {
		t := &tasks[i]
		if err := t.Validate(); err != nil {
			return nil, nil, fmt.Errorf("adapt: task %d: %w", i, err)
		}
		if _, dup := hashes[t.ID]; dup {
			return nil, nil, fmt.Errorf("adapt: duplicate task id %q", t.ID)
		}
		hashes[t.ID] = taskHash(t)
		out[i] = t
	}
	return out, hashes, nil
}

type evaluation struct {
	o       options
	info    report.RunInfo
	model   Model
	jnl     *journal
	chk     *Checker
	refs    *refCache // nil: references are not cached
	start   time.Time
	notices []string
	draw    bool              // completions only
	hashes  map[string]string // task ID -> taskHash, computed once

	// The samples phase: the checkers' queue, the model requests' slots,
	// the group every goroutine runs in, and the repair rounds that may
	// still queue an answer.
	jobs     chan sampleJob
	modelSem chan struct{}
	group    *errgroup.Group
	pending  sync.WaitGroup

	mu       sync.Mutex
	recs     *records
	done     int
	total    int
	passed   int
	resumed  int
	ranHere  int
	phase    string
	firstErr error
	// down counts the model errors in a row that wrap ErrModelUnavailable,
	// and modelErrs every sample the model failed.
	down, modelErrs int
	// stop ends the run's context when the journal fails.
	stop context.CancelCauseFunc
}

// record files a final record in memory and in the journal.
// A journal that cannot be written stops the run: its work would be lost.
func (e *evaluation) record(rec journalRecord) {
	rec.TaskHash = e.hashes[rec.Task]
	rec = scrubText(rec)
	e.mu.Lock()
	e.recs.add(rec, e.hashes)
	e.mu.Unlock()
	if err := e.jnl.append(rec); err != nil {
		e.fail(err)
	}
}

// fail stops the run with err, the first failure being the one returned.
func (e *evaluation) fail(err error) {
	e.mu.Lock()
	if e.firstErr == nil {
		e.firstErr = err
	}
	e.mu.Unlock()
	e.stop(err)
}

// modelAnswered counts a request's outcome toward the circuit breaker:
// an error that wraps ErrModelUnavailable adds one to the errors in a row,
// anything else ends the row. At Options.MaxModelErrors in a row the run
// stops with that error.
func (e *evaluation) modelAnswered(err error) {
	e.mu.Lock()
	if !errors.Is(err, ErrModelUnavailable) {
		e.down = 0
		e.mu.Unlock()
		return
	}
	e.down++
	n, stop := e.down, e.o.MaxModelErrors > 0 && e.down >= e.o.MaxModelErrors
	done := e.done
	e.mu.Unlock()
	if stop {
		e.fail(fmt.Errorf("adapt: stopped after %d model errors in a row (Options.MaxModelErrors); %d checks are done and kept in the journal (if any): fix the model and run again to resume: %w", n, done, err))
	}
}

// progress counts a finished check (or a sample that ends without one),
// and one more check to come when a repair round follows.
func (e *evaluation) progress(passed, repair bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.done++
	if repair {
		e.total++
	}
	e.ranHere++
	if passed {
		e.passed++
	}
	e.report("")
}

// progressCached counts a check the reference cache answered: done, but
// not run here, so that the rate is of checks run.
func (e *evaluation) progressCached(passed bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.done++
	if passed {
		e.passed++
	}
	e.report("")
}

// progressModelError counts a sample that ends without a check: a model
// error (failed), or a draw's answer.
func (e *evaluation) progressModelError(failed bool) {
	if failed {
		e.mu.Lock()
		e.modelErrs++
		e.mu.Unlock()
	}
	e.progress(false, false)
}

// report calls the Progress callback; e.mu is held.
func (e *evaluation) report(notice string) {
	if e.o.Progress == nil {
		return
	}
	el := time.Since(e.start)
	p := report.Progress{Phase: e.phase, Done: e.done, Total: e.total, Passed: e.passed, Resumed: e.resumed, ModelErrors: e.modelErrs, Notice: notice, Elapsed: el, TestTime: e.chk.testTime()}
	if el > 0 {
		p.Rate = float64(e.ranHere) / el.Seconds()
	}
	if p.Rate > 0 {
		p.ETA = time.Duration(float64(e.total-e.done) / p.Rate * float64(time.Second))
	}
	e.o.Progress(p)
}

// final reports whether a journaled result ends its check: infrastructure
// errors are tried again unless KeepErrors.
func (e *evaluation) final(r report.SampleResult) bool {
	return r.Outcome != report.OutcomeInfraError || e.o.KeepErrors
}

// answered reports whether a journaled completion ends its model request:
// model errors are asked again unless KeepErrors.
func (e *evaluation) answered(c report.Completion) bool {
	return c.Err == "" || e.o.KeepErrors
}

func (e *evaluation) run(ctx context.Context, tasks []*Task) error {
	e.countResumed(tasks)
	if e.done == 0 && len(e.notices) == 0 {
		// Said before the first check, which can take minutes (a cold
		// build): a display shows what runs from the start.
		e.phase = "reference"
		if e.o.NoGold {
			e.phase = "samples"
		}
		e.mu.Lock()
		e.report("")
		e.mu.Unlock()
	}
	valid := tasks
	if !e.o.NoGold {
		var err error
		if valid, err = e.checkReferences(ctx, tasks); err != nil {
			return err
		}
	}
	e.phase = "samples"
	if err := e.runSamples(ctx, e.planSamples(valid)); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return e.firstErr
}

// countResumed sets the run's total and counts what the journal already
// holds as done, reporting a resume.
func (e *evaluation) countResumed(tasks []*Task) {
	for _, t := range tasks {
		e.total += samplesOf(e.info, t.ID)
	}
	if !e.o.NoGold {
		e.total += len(tasks)
	}
	for _, t := range tasks {
		n := samplesOf(e.info, t.ID)
		if g, ok := e.recs.gold[t.ID]; ok && !e.o.NoGold && e.final(g) {
			e.resumed++
			if g.Outcome == report.OutcomePassed {
				e.passed++
			}
		}
		for s := range n {
			st := e.state(t, s)
			e.resumed += st.checks
			e.passed += st.passes
			e.total += st.round // the repair rounds begun
			if st.done && (st.modelErr || st.drawn) {
				e.resumed++
			}
			if st.done && st.modelErr {
				e.modelErrs++
			}
		}
	}
	e.done = e.resumed
	if e.resumed > 0 || len(e.notices) > 0 {
		e.phase = "resume"
		e.mu.Lock()
		if len(e.notices) == 0 {
			e.report("")
		}
		for _, s := range e.notices {
			e.report(s)
		}
		e.mu.Unlock()
	}
}
