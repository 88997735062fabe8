package adapt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/exec"
)

// Options configures Evaluate. A nil *Options means the defaults.
type Options struct {
	// Samples is how many completions to draw per task. 0 means 1.
	Samples int
	// Sampling holds the sampling settings; its N is set from Samples.
	Sampling Sampling
	// Template renders the prompts. nil means AdaptationLevel.
	Template *Template
	// Runner runs the tests. nil means a ForkServer over a Sandbox that
	// Evaluate makes and closes: Python tests run in a warmed, sandboxed
	// interpreter that forks per check, everything else in the Sandbox.
	// Pass an *exec.Sandbox to start a fresh interpreter for every check.
	Runner exec.Runner
	// Limits bounds every test run; zero fields take exec's defaults.
	Limits exec.Limits
	// ModelConcurrency bounds the model requests in flight. 0 means 4.
	ModelConcurrency int
	// ExecConcurrency bounds the test runs in flight. 0 means
	// exec.DefaultParallelism().
	ExecConcurrency int
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
	// KeepErrors makes a resumed run keep, as final, the model errors and
	// infrastructure errors its journal holds, so that resuming a finished
	// run gives the same report byte for byte. By default a resumed run
	// tries those samples again (up to Attempts times each).
	KeepErrors bool
	// Progress, if set, is called after every finished check, from one
	// goroutine at a time, and once before any work when the journal
	// already held some (Phase "resume").
	Progress func(Progress)
	// Environments provisions the environments tasks name. nil means the
	// default toolchain for every task.
	Environments EnvProvider
	// Breakdown lists the task label keys (Task.Labels) the report breaks
	// scores down by, in that order, after the adaptation category and
	// type: Report.Breakdowns gets a row "label:<key>" per value. nil
	// means none. It is not part of RunInfo nor of the journal's
	// fingerprint: it changes no score, only which rows the report shows,
	// so a journal resumes (and shards merge) under any Breakdown.
	Breakdown []string
}

// Progress reports how far an evaluation is.
type Progress struct {
	Phase string // "resume", "reference" or "samples"
	// Done counts the checks finished, Passed those that passed; both
	// include the Resumed checks the journal already held.
	Done    int
	Total   int // checks in all
	Passed  int
	Resumed int
	// Notice, when set, tells the caller something about the run itself
	// (a torn journal line that was cut off).
	Notice  string
	Elapsed time.Duration // since Evaluate started
	Rate    float64       // checks per second in this run
	ETA     time.Duration // estimated time left
	// TestTime is the time spent running tests (building and running them
	// through the test drivers), summed over the checks of this run; the
	// rest of Elapsed is the harness's own work and waiting for the model.
	TestTime time.Duration
}

// RunInfo describes an evaluation in its report and journal header.
type RunInfo struct {
	Model    string   `json:"model"`
	Template string   `json:"template"`
	Samples  int      `json:"samples"`
	Sampling Sampling `json:"sampling"`
	K        []int    `json:"k"`
	Gold     bool     `json:"gold"`
	// Draw marks a run of Draw: completions only, no checks.
	Draw bool `json:"draw,omitempty"`
	// TaskCount and TaskSet identify the task set (all shards' tasks): its
	// size and a digest of every task's ID and content.
	TaskCount int    `json:"task_count"`
	TaskSet   string `json:"task_set"`
}

type options struct {
	Options
	template *Template
}

func resolve(opts *Options, model Model) (options, RunInfo, error) {
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
		return o, RunInfo{}, errors.New("adapt: template has no Render function")
	}
	if o.ModelConcurrency <= 0 {
		o.ModelConcurrency = 4
	}
	if o.ExecConcurrency <= 0 {
		o.ExecConcurrency = exec.DefaultParallelism()
	}
	if o.Attempts <= 0 {
		o.Attempts = 3
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
			return o, RunInfo{}, fmt.Errorf("adapt: pass@%d needs 1 <= k <= Samples (%d)", x, o.Samples)
		}
	}
	if o.Shard.Count > 1 && (o.Shard.Index < 0 || o.Shard.Index >= o.Shard.Count) {
		return o, RunInfo{}, fmt.Errorf("adapt: shard index %d out of range [0, %d)", o.Shard.Index, o.Shard.Count)
	}
	if o.Shard.Count <= 1 {
		o.Shard = Shard{}
	}
	info := RunInfo{Model: model.Name(), Template: o.template.Name, Samples: o.Samples, Sampling: o.Sampling, K: k, Gold: !o.NoGold}
	return o, info, nil
}

func fingerprint(info RunInfo) string {
	b, _ := json.Marshal(info)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// ErrNothingScored is wrapped when an evaluation had samples to score and
// could score none of them (every check an infrastructure error, every
// request a model error): that is a failed run, not a score of 0.
var ErrNothingScored = errors.New("adapt: no sample could be scored")

// Evaluate asks model to adapt every task (of the selected shard) Samples
// times, checks each answer in the sandbox, and returns the report. Model
// requests and test runs overlap, each with its own concurrency bound.
//
// The scoring rules are in the package documentation: a sample that could
// not be scored (a model or infrastructure error after Attempts tries) is
// left out of the scores and its task listed in Report.Unscored when that
// leaves it fewer than k scored samples. Evaluate returns an error when it
// cannot run at all, when no sample could be scored (ErrNothingScored),
// when the journal cannot be written, or when ctx ends (the error wraps
// ctx.Err() and says what the journal kept).
func Evaluate(ctx context.Context, tasks []Task, model Model, opts *Options) (*Report, error) {
	return evaluate(ctx, tasks, model, opts, false)
}

// Draw asks model for opts.Samples completions of every task (of the
// selected shard) and checks nothing: the sampling loop of Evaluate, with
// its journal, resume, shards, retries and model-error rules, for callers
// that ask a model for something other than an answer to test (a task
// generator's infill). opts.Template renders the prompts; Runner, Limits,
// NoGold, K and Environments are not used. The report holds every sample
// (its Completion, and OutcomeModelError for a sample the model failed;
// the others have OutcomeInvalid: not checked) and no scores.
func Draw(ctx context.Context, tasks []Task, model Model, opts *Options) (*Report, error) {
	return evaluate(ctx, tasks, model, opts, true)
}

func evaluate(ctx context.Context, tasks []Task, model Model, opts *Options, draw bool) (*Report, error) {
	if model == nil {
		return nil, errors.New("adapt: Evaluate needs a model")
	}
	if draw {
		o := Options{}
		if opts != nil {
			o = *opts
		}
		o.NoGold, o.K = true, []int{1}
		opts = &o
	}
	o, info, err := resolve(opts, model)
	if err != nil {
		return nil, err
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
	var selected []*Task
	for _, t := range all {
		if o.Shard.Has(t.ID) {
			selected = append(selected, t)
		}
	}
	e := &evaluation{o: o, model: model, recs: newRecords(), hashes: hashes, start: time.Now(), draw: draw}
	if o.Journal != "" {
		jnl, err := openJournal(o.Journal, info, o.Shard, hashes, e.recs, func(s string) { e.notices = append(e.notices, s) })
		if err != nil {
			return nil, err
		}
		defer jnl.close()
		e.jnl = jnl
	}
	runner := o.Runner
	if runner == nil && !draw {
		fs, err := exec.NewPythonRunner(nil)
		if err != nil {
			return nil, err
		}
		defer fs.Close()
		runner = fs
	}
	e.chk = &checker{runner: runner, limits: o.Limits, envs: o.Environments}
	if err := e.run(ctx, selected); err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, e.canceled(ctx.Err())
		}
		return nil, err
	}
	rep := buildReport(info, o.Breakdown, selected, e.recs, nil)
	if draw {
		return rep, nil
	}
	if err := rep.scoredAny(); err != nil {
		return nil, err
	}
	if p, ok := model.(Pricer); ok {
		if c, ok := p.Cost(rep.Usage); ok {
			rep.Cost = &c
		}
	}
	return rep, nil
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
	model   Model
	jnl     *journal
	chk     *checker
	start   time.Time
	notices []string
	draw    bool              // completions only
	hashes  map[string]string // task ID -> taskHash, computed once

	mu       sync.Mutex
	recs     *records
	done     int
	total    int
	passed   int
	resumed  int
	ranHere  int
	phase    string
	firstErr error
}

// record files a final record in memory and in the journal.
func (e *evaluation) record(rec journalRecord) {
	rec.TaskHash = e.hashes[rec.Task]
	e.mu.Lock()
	e.recs.add(rec, e.hashes)
	e.mu.Unlock()
	if err := e.jnl.append(rec); err != nil {
		e.mu.Lock()
		if e.firstErr == nil {
			e.firstErr = err
		}
		e.mu.Unlock()
	}
}

func (e *evaluation) progress(passed bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.done++
	e.ranHere++
	if passed {
		e.passed++
	}
	e.report("")
}

// report calls the Progress callback; e.mu is held.
func (e *evaluation) report(notice string) {
	if e.o.Progress == nil {
		return
	}
	el := time.Since(e.start)
	p := Progress{Phase: e.phase, Done: e.done, Total: e.total, Passed: e.passed, Resumed: e.resumed, Notice: notice, Elapsed: el, TestTime: e.chk.testTime()}
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
func (e *evaluation) final(r SampleResult) bool {
	return r.Outcome != OutcomeInfraError || e.o.KeepErrors
}

// answered reports whether a journaled completion ends its model request:
// model errors are asked again unless KeepErrors.
func (e *evaluation) answered(c Completion) bool {
	return c.Err == "" || e.o.KeepErrors
}

func (e *evaluation) run(ctx context.Context, tasks []*Task) error {
	n := e.o.Samples
	e.total = len(tasks) * n
	if !e.o.NoGold {
		e.total += len(tasks)
	}
	// What the journal already holds counts as done.
	for _, t := range tasks {
		if g, ok := e.recs.gold[t.ID]; ok && !e.o.NoGold && e.final(g) {
			e.resumed++
			if g.Outcome == OutcomePassed {
				e.passed++
			}
		}
		for s := range n {
			k := sampleKey{t.ID, s}
			if r, ok := e.recs.results[k]; ok && e.final(r) {
				e.resumed++
				if r.Outcome == OutcomePassed {
					e.passed++
				}
			} else if c, ok := e.recs.completions[k]; ok && (e.draw || c.Err != "") && e.answered(c) {
				e.resumed++
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
	valid := tasks
	if !e.o.NoGold {
		e.phase = "reference"
		g := errgroup.Group{}
		g.SetLimit(e.o.ExecConcurrency)
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
			g.Go(func() error {
				res, ok := e.check(ctx, prev, func() (SampleResult, error) {
					return e.chk.checkAnswer(ctx, t, Answer{Code: t.Reference})
				})
				if !ok {
					return ctx.Err()
				}
				res.Sample = -1
				e.record(journalRecord{Kind: "gold", Task: t.ID, Sample: -1, Result: &res})
				e.progress(res.Outcome == OutcomePassed)
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
		valid = nil
		for _, t := range tasks {
			if r := e.recs.gold[t.ID]; r.Outcome == OutcomePassed {
				valid = append(valid, t)
			} else {
				// An invalid (or unchecked) task's samples are not drawn.
				e.mu.Lock()
				e.total -= n
				e.mu.Unlock()
			}
		}
	}
	e.phase = "samples"
	type job struct {
		t      *Task
		sample int
		comp   Completion
		prev   int // attempts of earlier runs
	}
	// Plan from what the journal holds before any worker writes to it.
	type plan struct {
		t     *Task
		need  []int
		prev  int // attempts of earlier runs
		ready []job
	}
	var plans []plan
	for _, t := range valid {
		p := plan{t: t}
		for s := range n {
			k := sampleKey{t.ID, s}
			if r, ok := e.recs.results[k]; ok && e.final(r) {
				continue
			}
			c, ok := e.recs.completions[k]
			switch {
			case ok && c.Err == "" && e.draw:
				// Drawn: nothing to check.
			case ok && c.Err == "":
				p.ready = append(p.ready, job{t, s, c, e.recs.results[k].Attempts})
			case ok && e.answered(c):
				// A model error kept as final.
			default:
				p.need = append(p.need, s)
				p.prev = max(p.prev, e.recs.compAttempts[k])
			}
		}
		if len(p.need)+len(p.ready) > 0 {
			plans = append(plans, p)
		}
	}
	jobs := make(chan job, 2*e.o.ExecConcurrency)
	gen, gctx := errgroup.WithContext(ctx)
	gen.SetLimit(e.o.ModelConcurrency + 1)
	gen.Go(func() error {
		defer close(jobs)
		var inner errgroup.Group
		inner.SetLimit(e.o.ModelConcurrency)
		for _, p := range plans {
			t, need, ready, prev := p.t, p.need, p.ready, p.prev
			inner.Go(func() error {
				for _, j := range ready {
					select {
					case jobs <- j:
					case <-gctx.Done():
						return gctx.Err()
					}
				}
				if len(need) == 0 {
					return nil
				}
				comps, attempts, ok := e.generate(gctx, t, need)
				if !ok {
					return gctx.Err()
				}
				for i, s := range need {
					c := comps[i]
					e.record(journalRecord{Kind: "completion", Task: t.ID, Sample: s, Attempts: prev + attempts, Completion: &c})
				}
				for i, s := range need {
					if comps[i].Err != "" || e.draw {
						// A model error, or a draw: nothing to check.
						e.progress(false)
						continue
					}
					select {
					case jobs <- job{t, s, comps[i], 0}:
					case <-gctx.Done():
						return gctx.Err()
					}
				}
				return nil
			})
		}
		return inner.Wait()
	})
	for range e.o.ExecConcurrency {
		gen.Go(func() error {
			for j := range jobs {
				res, ok := e.check(gctx, j.prev, func() (SampleResult, error) {
					return e.chk.checkCompletion(gctx, j.t, j.comp.Text)
				})
				if !ok {
					return gctx.Err()
				}
				res.Sample = j.sample
				e.record(journalRecord{Kind: "result", Task: j.t.ID, Sample: j.sample, Attempts: res.Attempts, Result: &res})
				e.progress(res.Outcome == OutcomePassed)
			}
			return nil
		})
	}
	if err := gen.Wait(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return e.firstErr
}

// check runs one check, again after a backoff while it ends in an
// infrastructure error, up to Attempts times. prev is the attempts an
// earlier run made. It returns false when ctx ended first.
func (e *evaluation) check(ctx context.Context, prev int, run func() (SampleResult, error)) (SampleResult, bool) {
	for attempt := 1; ; attempt++ {
		res, _ := run() // an error is recorded in res as an infrastructure error
		if ctx.Err() != nil {
			return res, false
		}
		if res.Outcome != OutcomeInfraError {
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
func (e *evaluation) generate(ctx context.Context, t *Task, samples []int) ([]Completion, int, bool) {
	k := len(samples)
	out := make([]Completion, k)
	msgs, err := e.o.template.Render(t)
	if err != nil {
		for i := range out {
			out[i] = Completion{Err: "adapt: render prompt: " + err.Error()}
		}
		return out, 0, true
	}
	s := e.o.Sampling
	s.N = k
	for attempt := 1; ; attempt++ {
		comps, err := complete(ctx, e.model, Request{Task: t, Messages: msgs, Sampling: s, Samples: samples})
		if err != nil && ctx.Err() != nil {
			// Stopped, not failed: an answer that came back is kept.
			return nil, attempt, false
		}
		if err == nil && len(comps) > k {
			err = fmt.Errorf("adapt: model %s returned %d completions for %d samples", e.model.Name(), len(comps), k)
		}
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
		if attempt >= e.o.Attempts {
			for i := range out {
				out[i] = Completion{Err: err.Error()}
			}
			return out, attempt, true
		}
		if !sleep(ctx, e.o.Backoff<<(attempt-1)) {
			return nil, attempt, false
		}
	}
}

// complete calls model.Complete, turning a panic into an error.
func complete(ctx context.Context, model Model, req Request) (comps []Completion, err error) {
	defer func() {
		if r := recover(); r != nil {
			comps, err = nil, fmt.Errorf("adapt: model %s panicked: %v", model.Name(), r)
		}
	}()
	return model.Complete(ctx, req)
}
