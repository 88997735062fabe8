package adapt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/adaptbench/adaptbench/adapt/report"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// Options configures Evaluate. A nil *Options means the defaults.
type Options struct {
	// Name labels the run in its report and in comparisons
	// (WriteComparison, Compare), so that two runs of one model can be
	// told apart. "" means the model's name. It changes no score and is
	// not part of the journal's fingerprint: a run renamed between a
	// crash and its resume still resumes, and its report shows the new
	// name.
	Name string
	// Samples is how many completions to draw per task. 0 means 1, or,
	// for a model that says how many answers it holds for each task (a
	// SampleCounter, such as Replay), that many for each task. With such
	// a model a non-zero Samples caps each task's count.
	Samples int
	// Sampling holds the sampling settings; its N is set from Samples.
	Sampling report.Sampling
	// Template renders the prompts. nil means AdaptationLevel. A model
	// that reads no prompt (a PromptFree one: Replay, Reference,
	// Identity) gets none: no template is rendered for it and its report
	// names none.
	Template *Template
	// Runner runs the tests. nil means a ForkServer over a Sandbox that
	// Evaluate makes and closes: Python tests run in a warmed, sandboxed
	// interpreter that forks per check, everything else in the Sandbox.
	// Its servers import sandbox.DefaultPreload and the modules the tasks'
	// code imports at its top level (the 64 most imported) once, before
	// the first check.
	// Pass a *sandbox.Sandbox to start a fresh interpreter for every check.
	Runner exec.Runner
	// Limits bounds every test run; zero fields take exec's defaults.
	Limits exec.Limits
	// ModelConcurrency bounds the model requests in flight. 0 means 4.
	ModelConcurrency int
	// Parallelism bounds the test runs in flight. 0 means
	// exec.DefaultParallelism().
	Parallelism int
	// NoGold skips the reference check. By default each task's reference
	// runs first, and a task whose reference fails is reported invalid and
	// left out of the scores.
	NoGold bool
	// Journal is a file that every completion and result is appended to as
	// it becomes final; running again with the same journal resumes. The
	// run holds an exclusive lock on it. "" means none.
	Journal string
	// Shard runs only the tasks of one shard. The zero value runs all.
	Shard Shard
	// K lists the k of the pass@k to report. nil means 1 and Samples.
	K []int
	// Attempts bounds how often one thing is tried in a run before its
	// failure is final: a model request that fails as a whole (an error,
	// a panic, more completions than asked for) is asked again, and a
	// check that ends in an infrastructure error runs again. 0 means 3; 1
	// means no second try.
	Attempts int
	// Backoff is the wait before a second attempt, doubled before each
	// later one. 0 means 500ms.
	Backoff time.Duration
	// RequestTimeout bounds each model request (one Complete call): a
	// request with no answer by then is a model error of its samples,
	// asked again as Attempts says. 0 means no bound but ctx's. Complete
	// runs in a goroutine of its own, so that a Model that ignores its
	// context holds Evaluate past neither this timeout nor ctx's end: the
	// call is abandoned, its answer dropped when it comes.
	RequestTimeout time.Duration
	// KeepErrors makes a resumed run keep, as final, the model errors and
	// infrastructure errors its journal holds, so that resuming a finished
	// run gives the same report byte for byte. By default a resumed run
	// tries those samples again (up to Attempts times each).
	KeepErrors bool
	// MaxModelErrors stops the run after that many model errors in a row
	// that wrap ErrModelUnavailable (an endpoint that refuses connections,
	// a key or a model it does not know): the run returns that error and
	// its journal keeps what was done. 0 means 3; a negative value never
	// stops.
	MaxModelErrors int
	// NoPreflight skips the request a Preflighter model is sent before the
	// run, which finds a dead endpoint, a bad key or an unknown model in
	// seconds, before any reference runs.
	NoPreflight bool
	// Progress, if set, is called after every finished check, from one
	// goroutine at a time, and once before any work: Phase "resume" when
	// the journal already held some, else the first phase with Done 0.
	Progress func(report.Progress)
	// Environments provisions the environments tasks name. nil means the
	// default toolchain for every task.
	Environments EnvProvider
	// Isolation says whether Python answers run in a process of their
	// own (see Isolation); each sample records whether it did, and the
	// report gives the share. The zero value runs them in the tests'
	// process.
	Isolation Isolation
	// Repair, if set, asks again for the samples whose answers fail, with
	// the test output, up to Repair.Rounds times (see Repair).
	Repair *Repair
	// Answer takes the answer to test out of a completion. nil means
	// Extract on the completion's text. A generator whose tasks want an
	// answer in another form sets it (mutate splices a snippet answer into
	// its function, ctxbug maps obfuscated names back). An error makes the
	// sample OutcomeNoCode (OutcomeWrongName when it wraps ErrWrongName),
	// with no test run. It is called from many goroutines at once. A
	// resumed run must use the same Answer: results in the journal are
	// not checked again.
	Answer func(t *Task, c report.Completion) (Answer, error)
	// ReferenceCache is a directory that keeps reference checks across
	// processes. Within a process every evaluation shares them anyway: a
	// task's reference is checked once for all the models evaluated on
	// it, given the same task content, runner, limits, environment
	// provider and machine (its Manifest). A cached infrastructure error
	// or timeout does not exist (they are checked again), and a torn or
	// altered cache file is ignored and rewritten. "" means no directory.
	ReferenceCache string
	// Breakdown lists the task label keys (Task.Labels) the report breaks
	// scores down by, in that order, after the adaptation category and
	// type: Report.Breakdowns gets a row "label:<key>" per value. nil
	// means none. It is not part of RunInfo nor of the journal's
	// fingerprint: it changes no score, only which rows the report shows,
	// so a journal resumes (and shards merge) under any Breakdown.
	Breakdown []string
}

// Identifier is implemented by a model whose name does not say all of
// what it is: Identity says the rest (the endpoint and the model a client
// asks, a digest of a replay's answers), with no secret in it. Evaluate
// keeps it in RunInfo.ModelIdentity and the journal's fingerprint, so that
// a journal is neither resumed nor merged under another model that has
// the same name.
type Identifier interface {
	Identity() string
}

// samplesOf returns how many samples the run draws of a task: its entry
// in TaskSamples, or Samples.
func samplesOf(ri report.RunInfo, task string) int {
	if n, ok := ri.TaskSamples[task]; ok {
		return n
	}
	return ri.Samples
}

// SampleCounter is implemented by a model whose answers are fixed in
// advance (Replay): SampleCount says how many samples it holds for a task.
// Evaluate and Draw draw exactly that many of each task (capped by a
// non-zero Options.Samples), so that a task with fewer answers than
// another is never padded with model errors: a task with fewer samples
// than a k gets no pass@k and is listed in Report.Unscored, and a task
// with none is reported unanswered.
type SampleCounter interface {
	SampleCount(task string) int
}

// sampleCounts applies a SampleCounter model's per-task counts to opts:
// the Samples of the run (the largest count, or the cap opts.Samples sets)
// and the tasks that have fewer. It returns opts unchanged for any other
// model.
func sampleCounts(opts *Options, model Model, tasks []Task) (*Options, map[string]int) {
	sc, ok := model.(SampleCounter)
	if !ok {
		return opts, nil
	}
	o := Options{}
	if opts != nil {
		o = *opts
	}
	limit := o.Samples
	counts := make(map[string]int, len(tasks))
	most := 0
	for i := range tasks {
		n := max(sc.SampleCount(tasks[i].ID), 0)
		if limit > 0 {
			n = min(n, limit)
		}
		counts[tasks[i].ID] = n
		most = max(most, n)
	}
	if limit <= 0 {
		o.Samples = max(most, 1)
	}
	var differ map[string]int
	for id, n := range counts {
		if n != o.Samples {
			if differ == nil {
				differ = map[string]int{}
			}
			differ[id] = n
		}
	}
	return &o, differ
}

type options struct {
	Options
	template *Template // nil for a PromptFree model: no prompt is rendered
}

func resolve(opts *Options, model Model) (options, report.RunInfo, error) {
	var o options
	if opts != nil {
		o.Options = *opts
	}
	if o.Samples <= 0 {
		o.Samples = 1
	}
	o.Sampling.N = o.Samples
	o.Sampling.Stop = append([]string(nil), o.Sampling.Stop...)
	o.template = o.Template
	if o.template == nil {
		o.template = AdaptationLevel
	}
	if o.template.Render == nil {
		return o, report.RunInfo{}, errors.New("adapt: template has no Render function")
	}
	if o.ModelConcurrency <= 0 {
		o.ModelConcurrency = 4
	}
	if o.Parallelism <= 0 {
		o.Parallelism = exec.DefaultParallelism()
	}
	if o.Attempts <= 0 {
		o.Attempts = 3
	}
	if o.MaxModelErrors == 0 {
		o.MaxModelErrors = 3
	}
	if o.Backoff <= 0 {
		o.Backoff = 500 * time.Millisecond
	}
	k := append([]int(nil), o.K...)
	if len(k) == 0 {
		k = []int{1}
		if o.Samples > 1 {
			k = append(k, o.Samples)
		}
	}
	for _, x := range k {
		if x < 1 || x > o.Samples {
			return o, report.RunInfo{}, fmt.Errorf("adapt: pass@%d needs 1 <= k <= Samples (%d)", x, o.Samples)
		}
	}
	if o.Shard.Count > 1 && (o.Shard.Index < 0 || o.Shard.Index >= o.Shard.Count) {
		return o, report.RunInfo{}, fmt.Errorf("adapt: shard index %d out of range [0, %d)", o.Shard.Index, o.Shard.Count)
	}
	if o.Shard.Count <= 1 {
		o.Shard = Shard{}
	}
	if o.Isolation < IsolationOff || o.Isolation > IsolationRequired {
		return o, report.RunInfo{}, fmt.Errorf("adapt: Options.Isolation %d is not one of IsolationOff, IsolationAuto, IsolationRequired", int(o.Isolation))
	}
	if o.Repair != nil {
		if err := o.Repair.validate(); err != nil {
			return o, report.RunInfo{}, err
		}
		if o.Repair.Rounds == 0 {
			o.Repair = nil
		}
	}
	info := report.RunInfo{Name: o.Name, Model: model.Name(), Template: o.template.Name, Samples: o.Samples, Sampling: o.Sampling, K: k, Gold: !o.NoGold, Repair: o.Repair.id(),
		Isolation: o.Isolation.name()}
	if info.Name == "" {
		info.Name = info.Model
	}
	if promptFree(model) {
		info.Template = ""
		o.template = nil
	}
	return o, info, nil
}

// fingerprint identifies an evaluation by the settings that change its
// records: every field of info but the Name, so that a renamed run
// resumes its journal (and journals written before runs had names keep
// their fingerprint).
func fingerprint(info report.RunInfo) string {
	info.Name, info.Manifest = "", nil
	b, _ := json.Marshal(info)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// promptDigest is a short hash of the prompts tmpl renders for tasks, in
// ID order (a render error or panic counts as its message).
func promptDigest(tmpl *Template, tasks []*Task) string {
	sorted := slices.Clone(tasks)
	slices.SortFunc(sorted, func(a, b *Task) int { return strings.Compare(a.ID, b.ID) })
	h := sha256.New()
	for _, t := range sorted {
		msgs, err := renderSafe(tmpl, t)
		b, _ := json.Marshal(msgs)
		if err != nil {
			b = []byte("error: " + err.Error())
		}
		fmt.Fprintf(h, "%s\x00%d\x00%s\n", t.ID, len(b), b)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

func renderSafe(tmpl *Template, t *Task) (msgs []Message, err error) {
	defer func() {
		if r := recover(); r != nil {
			msgs, err = nil, fmt.Errorf("template %s panicked: %v", tmpl.Name, r)
		}
	}()
	return tmpl.Render(t)
}

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

// checkReferences checks each task's reference the journal does not hold
// a final result of, and returns the tasks whose reference passed.
func (e *evaluation) checkReferences(ctx context.Context, tasks []*Task) ([]*Task, error) {
	e.phase = "reference"
	g := errgroup.Group{}
	g.SetLimit(e.o.Parallelism)
	var todo []*Task
	for _, t := range tasks {
		if r, ok := e.recs.gold[t.ID]; !ok || !e.final(r) {
			todo = append(todo, t)
		}
	}
	prevs := make([]int, len(todo))
	for i, t := range todo {
		prevs[i] = e.recs.gold[t.ID].Attempts
	}
	for i, t := range todo {
		prev := prevs[i]
		if res, ok := e.refs.get(t); ok {
			e.record(journalRecord{Kind: "gold", Task: t.ID, Sample: -1, Result: &res})
			e.progressCached(res.Outcome == report.OutcomePassed)
			continue
		}
		g.Go(func() error {
			res, ok := e.check(ctx, prev, func() (report.SampleResult, error) {
				return e.chk.checkReference(ctx, t)
			})
			res.Code = "" // the task's Reference
			if !ok {
				return ctx.Err()
			}
			res.Sample = -1
			e.refs.put(t, res)
			e.record(journalRecord{Kind: "gold", Task: t.ID, Sample: -1, Result: &res})
			e.progress(res.Outcome == report.OutcomePassed, false)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var valid []*Task
	for _, t := range tasks {
		if r := e.recs.gold[t.ID]; r.Outcome == report.OutcomePassed {
			valid = append(valid, t)
			e.chk.allow(t.ID, r.Allowed)
		} else {
			// An invalid (or unchecked) task's samples are not drawn.
			e.mu.Lock()
			e.total -= samplesOf(e.info, t.ID)
			e.mu.Unlock()
		}
	}
	return valid, nil
}

// samplePlan is what is left to do of one task's samples.
type samplePlan struct {
	t       *Task
	need    []int // samples whose first answer is to be asked for
	prev    int   // attempts of earlier runs
	ready   []sampleJob
	repairs []sampleJob // samples whose next repair round is to be asked for
}

// planSamples plans from what the journal holds, before any worker
// writes to it.
func (e *evaluation) planSamples(valid []*Task) []samplePlan {
	var plans []samplePlan
	for _, t := range valid {
		p := samplePlan{t: t}
		for s := range samplesOf(e.info, t.ID) {
			st := e.state(t, s)
			switch {
			case st.done:
			case st.comp != nil:
				p.ready = append(p.ready, sampleJob{t: t, sample: s, round: st.round, comp: *st.comp, prev: st.resAttempts})
			case st.round == 0:
				p.need = append(p.need, s)
				p.prev = max(p.prev, st.compAttempts)
			default:
				p.repairs = append(p.repairs, sampleJob{t: t, sample: s, round: st.round, prev: st.compAttempts, last: st.last})
			}
		}
		if len(p.need)+len(p.ready)+len(p.repairs) > 0 {
			plans = append(plans, p)
		}
	}
	return plans
}

// runSamples asks the model for the planned samples and checks the
// answers: one goroutine queues jobs (answers asked for at most
// ModelConcurrency at a time), Parallelism workers check them.
func (e *evaluation) runSamples(ctx context.Context, plans []samplePlan) error {
	e.jobs = make(chan sampleJob, 2*e.o.Parallelism)
	e.modelSem = make(chan struct{}, e.o.ModelConcurrency)
	gen, gctx := errgroup.WithContext(ctx)
	e.group = gen
	gen.Go(func() error { return e.queueSamples(gctx, plans) })
	for range e.o.Parallelism {
		gen.Go(func() error {
			for {
				select {
				case j, ok := <-e.jobs:
					if !ok {
						return nil
					}
					if err := e.checkSample(gctx, j); err != nil {
						return err
					}
				case <-gctx.Done():
					return gctx.Err()
				}
			}
		})
	}
	err := gen.Wait()
	// Jobs left queued when ctx ended give back their count, so that the
	// closer's wait in queueSamples ends.
	for drained := false; !drained; {
		select {
		case _, ok := <-e.jobs:
			if ok {
				e.pending.Done()
			} else {
				drained = true
			}
		default:
			drained = true
		}
	}
	return err
}

// queueSamples queues the planned samples' jobs: the answers the journal
// holds, then those the model gives; it starts the repair rounds due.
func (e *evaluation) queueSamples(gctx context.Context, plans []samplePlan) error {
	defer func() {
		// Repair rounds queue answers too: the queue closes when no
		// job and no repair round can queue another (e.pending). When
		// ctx ends first it stays open: everyone stops on ctx.
		idle := make(chan struct{})
		go func() { e.pending.Wait(); close(idle) }()
		select {
		case <-idle:
			close(e.jobs)
		case <-gctx.Done():
		}
	}()
	var inner errgroup.Group
	inner.SetLimit(e.o.ModelConcurrency)
	for _, p := range plans {
		for _, j := range p.repairs {
			e.repair(gctx, j)
		}
		inner.Go(func() error { return e.askPlanned(gctx, p) })
	}
	return inner.Wait()
}

// askPlanned queues a task's answered samples, then asks the model for
// the samples that need a first answer and queues them.
func (e *evaluation) askPlanned(gctx context.Context, p samplePlan) error {
	t, need := p.t, p.need
	for _, j := range p.ready {
		e.pending.Add(1)
		if !e.send(gctx, j) {
			return gctx.Err()
		}
	}
	if len(need) == 0 {
		return nil
	}
	if !acquire(gctx, e.modelSem) {
		return gctx.Err()
	}
	comps, attempts, ok := e.generate(gctx, t, need, e.prompt(t), 0)
	<-e.modelSem
	if !ok {
		return gctx.Err()
	}
	for i, s := range need {
		c := comps[i]
		e.record(journalRecord{Kind: "completion", Task: t.ID, Sample: s, Attempts: p.prev + attempts, Completion: &c})
	}
	for i, s := range need {
		if comps[i].Err != "" || e.draw {
			// A model error, or a draw: nothing to check.
			e.progressModelError(comps[i].Err != "")
			continue
		}
		e.pending.Add(1)
		if !e.send(gctx, sampleJob{t: t, sample: s, comp: comps[i]}) {
			return gctx.Err()
		}
	}
	return nil
}

// sampleJob is one round of one sample: its completion to check, or, for
// a repair round not yet asked for, the last round's result.
type sampleJob struct {
	t      *Task
	sample int
	round  int
	comp   report.Completion
	prev   int                  // attempts of earlier runs
	last   *report.SampleResult // the previous round's result, with its completion
}

// send queues j for the checkers. Every queued job holds one count of
// e.pending, taken by the caller and given back by the checker (or here,
// when ctx ends first), so that the queue closes only when no job and no
// repair round can queue another.
func (e *evaluation) send(ctx context.Context, j sampleJob) bool {
	select {
	case e.jobs <- j:
		return true
	case <-ctx.Done():
		e.pending.Done()
		return false
	}
}

// checkSample checks one round's answer, journals the result, and starts
// the next repair round when the result asks for one.
func (e *evaluation) checkSample(ctx context.Context, j sampleJob) error {
	defer e.pending.Done()
	res, ok := e.check(ctx, j.prev, func() (report.SampleResult, error) {
		return e.checkCompletion(ctx, j.t, j.comp)
	})
	if !ok {
		return ctx.Err()
	}
	res.Sample = j.sample
	more := !e.draw && e.o.Repair.wants(j.t, j.round, res)
	e.record(journalRecord{Kind: "result", Task: j.t.ID, Sample: j.sample, Round: j.round, Repair: more, Attempts: res.Attempts, Result: &res})
	e.progress(res.Outcome == report.OutcomePassed, more)
	if more {
		last := res
		c := j.comp
		last.Completion = &c
		e.repair(ctx, sampleJob{t: j.t, sample: j.sample, round: j.round + 1, last: &last})
	}
	return nil
}

// repair asks, in a goroutine of its own, for the answer of repair round
// j.round of a sample and queues it for checking. It holds a count of
// e.pending from the call until the answer is queued.
func (e *evaluation) repair(ctx context.Context, j sampleJob) {
	e.pending.Add(1)
	e.group.Go(func() error {
		if !acquire(ctx, e.modelSem) {
			e.pending.Done()
			return ctx.Err()
		}
		comps, attempts, ok := e.generate(ctx, j.t, []int{j.sample}, func() ([]Message, error) {
			return e.o.Repair.Render(j.t, *j.last)
		}, j.round)
		<-e.modelSem
		if !ok {
			e.pending.Done()
			return ctx.Err()
		}
		c := comps[0]
		e.record(journalRecord{Kind: "completion", Task: j.t.ID, Sample: j.sample, Round: j.round, Attempts: j.prev + attempts, Completion: &c})
		if c.Err != "" {
			e.progressModelError(true)
			e.pending.Done()
			return nil
		}
		j.comp, j.prev = c, 0
		if !e.send(ctx, j) {
			return ctx.Err()
		}
		return nil
	})
}

func acquire(ctx context.Context, sem chan struct{}) bool {
	select {
	case sem <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// sampleState is where one sample stands in what the journal holds.
type sampleState struct {
	round    int  // the round to work on
	done     bool // nothing is left to do
	modelErr bool // done: the round's answer is a model error kept as final
	drawn    bool // done: a Draw's answer
	checks   int  // final checks the journal holds for the sample
	passes   int  // of which passed
	// comp is the round's answer when it is journaled and is to be
	// checked, with the attempts of its earlier checks.
	comp        *report.Completion
	resAttempts int
	// compAttempts is the attempts of the round's model request so far.
	compAttempts int
	// last is the previous round's result, for a repair round.
	last *report.SampleResult
}

func (e *evaluation) state(t *Task, s int) sampleState {
	var st sampleState
	for r := 0; ; r++ {
		k := sampleKey{t.ID, s, r}
		st.round = r
		if res, ok := e.recs.results[k]; ok && e.final(res) {
			st.checks++
			if res.Outcome == report.OutcomePassed {
				st.passes++
			}
			if e.recs.repair[k] && e.o.Repair != nil && r < e.o.Repair.Rounds {
				last := res
				c := e.recs.completions[k]
				last.Completion = &c
				st.last = &last
				continue
			}
			st.done = true
			return st
		}
		c, ok := e.recs.completions[k]
		switch {
		case ok && c.Err == "" && e.draw:
			st.done, st.drawn = true, true
		case ok && c.Err == "":
			st.comp, st.resAttempts = &c, e.recs.results[k].Attempts
		case ok && e.answered(c):
			st.done, st.modelErr = true, true
		default:
			st.compAttempts = e.recs.compAttempts[k]
		}
		return st
	}
}

// checkCompletion takes the answer out of a completion with the Answer
// option (or Extract) and checks it.
func (e *evaluation) checkCompletion(ctx context.Context, t *Task, c report.Completion) (report.SampleResult, error) {
	if e.o.Answer == nil {
		return e.chk.checkCompletion(ctx, t, c.Text)
	}
	a, panicked, err := answerOf(e.o.Answer, t, c)
	if panicked {
		// The caller's code failed, not the model: never a score.
		return report.SampleResult{Outcome: report.OutcomeInfraError, Detail: err.Error()}, err
	}
	if err != nil {
		return noAnswer(err), nil
	}
	return e.chk.Check(ctx, t, a)
}

// answerOf calls an Answer function, turning a panic into an error.
func answerOf(f func(*Task, report.Completion) (Answer, error), t *Task, c report.Completion) (a Answer, panicked bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			a, panicked, err = Answer{}, true, fmt.Errorf("adapt: task %q: Answer panicked: %v", t.ID, r)
		}
	}()
	a, err = f(t, c)
	return a, false, err
}

// check runs one check, again after a backoff while it ends in an
// infrastructure error, up to Attempts times. prev is the attempts an
// earlier run made. It returns false when ctx ended first.
func (e *evaluation) check(ctx context.Context, prev int, run func() (report.SampleResult, error)) (report.SampleResult, bool) {
	for attempt := 1; ; attempt++ {
		res, _ := run() // an error is recorded in res as an infrastructure error
		if ctx.Err() != nil {
			return res, false
		}
		if res.Outcome != report.OutcomeInfraError {
			return res, true
		}
		if attempt >= e.o.Attempts {
			res.Attempts = prev + attempt
			return res, true
		}
		if !sleep(ctx, e.o.Backoff<<(attempt-1)) {
			return res, false
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// generate asks the model for the completions of t's samples; it returns
// one per sample, with Err set on those that failed, and the number of
// requests made. A request that fails as a whole (an error, a panic, more
// completions than samples) is made again after a backoff, up to
// Attempts times. It returns false when ctx ended first.
func (e *evaluation) generate(ctx context.Context, t *Task, samples []int, render func() ([]Message, error), round int) ([]report.Completion, int, bool) {
	k := len(samples)
	out := make([]report.Completion, k)
	msgs, err := render()
	if err != nil {
		for i := range out {
			out[i] = report.Completion{Err: "adapt: render prompt: " + err.Error()}
		}
		return out, 0, true
	}
	s := e.o.Sampling
	s.N = k
	for attempt := 1; ; attempt++ {
		comps, err := complete(ctx, e.model, Request{Task: t, Messages: msgs, Sampling: s, Samples: samples, Round: round}, e.o.RequestTimeout)
		if err != nil && ctx.Err() != nil {
			// Stopped, not failed: an answer that came back is kept.
			return nil, attempt, false
		}
		if err == nil && len(comps) > k {
			err = fmt.Errorf("adapt: model %s returned %d completions for %d samples", e.model.Name(), len(comps), k)
		}
		e.modelAnswered(err)
		if err == nil {
			for i := range out {
				if i < len(comps) {
					out[i] = comps[i]
				} else {
					out[i].Err = fmt.Sprintf("adapt: model %s returned %d completions for %d samples", e.model.Name(), len(comps), k)
				}
			}
			return out, attempt, true
		}
		if attempt >= e.o.Attempts || errors.Is(err, ErrModelUnavailable) {
			// Asking again does not bring back an unavailable model.
			for i := range out {
				out[i] = report.Completion{Err: err.Error()}
			}
			return out, attempt, true
		}
		if !sleep(ctx, e.o.Backoff<<(attempt-1)) {
			return nil, attempt, false
		}
	}
}

// complete calls model.Complete in a goroutine of its own, turning a
// panic into an error, and returns when it does, when timeout (if not 0)
// passes (an error), or when ctx ends (ctx's error): a model that ignores
// its context is abandoned, not waited for.
func complete(ctx context.Context, model Model, req Request, timeout time.Duration) ([]report.Completion, error) {
	rctx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		rctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	type answer struct {
		comps []report.Completion
		err   error
	}
	done := make(chan answer, 1) // the abandoned call's answer goes nowhere
	go func() {
		comps, err := completeSafe(rctx, model, req)
		done <- answer{comps, err}
	}()
	select {
	case a := <-done:
		return a.comps, a.err
	case <-rctx.Done():
	}
	// An answer that comes with the end stands: a model that returns as
	// its context ends (or that ended it) is waited for a moment, so that
	// what it answered is journaled and not asked again; one that ignores
	// its context is abandoned after that.
	grace := time.NewTimer(time.Second)
	defer grace.Stop()
	select {
	case a := <-done:
		return a.comps, a.err
	case <-grace.C:
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("adapt: model %s gave no answer within %v (Options.RequestTimeout)", model.Name(), timeout)
}

// completeSafe calls model.Complete, turning a panic into an error.
func completeSafe(ctx context.Context, model Model, req Request) (comps []report.Completion, err error) {
	defer func() {
		if r := recover(); r != nil {
			comps, err = nil, fmt.Errorf("adapt: model %s panicked: %v", model.Name(), r)
		}
	}()
	return model.Complete(ctx, req)
}

// formerNames are the names the sandbox's runners had, as exec's types,
// when journal format 3 began recording a run's runner type: a journal
// written then still resumes, and a report's bytes do not change with
// the package the type lives in.
var formerNames = map[string]string{
	"*sandbox.Sandbox":     "*exec.Sandbox",
	"*sandbox.ForkServer":  "*exec.ForkServer",
	"*sandbox.Unsandboxed": "*exec.Unsandboxed",
}

// runnerName is the kind of runner r is, as the run's fingerprint records
// it; nil is the default, a fork server.
func runnerName(r exec.Runner) string {
	name := fmt.Sprintf("%T", r)
	if r == nil {
		name = fmt.Sprintf("%T", (*sandbox.ForkServer)(nil))
	}
	if former, ok := formerNames[name]; ok {
		return former
	}
	return name
}
