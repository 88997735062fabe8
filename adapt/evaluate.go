package adapt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
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
	// it finishes; running again with the same journal resumes. "" means
	// none.
	Journal string
	// Shard runs only the tasks of one shard. The zero value runs all.
	Shard Shard
	// K lists the k of the pass@k to report. nil means 1 and Samples.
	K []int
	// Progress, if set, is called after every finished check, from one
	// goroutine at a time.
	Progress func(Progress)
	// Environments provisions the environments tasks name. nil means the
	// default toolchain for every task.
	Environments EnvProvider
}

// Shard selects the tasks of shard Index of Count (0 <= Index < Count) by a
// stable hash of the task ID, so that separate processes each run one shard
// and their journals merge into the report of a single run. Count 0 or 1
// means every task.
type Shard struct {
	Index int
	Count int
}

// Has reports whether the task with this ID belongs to the shard.
func (s Shard) Has(id string) bool {
	if s.Count <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32()%uint32(s.Count)) == s.Index
}

// Progress reports how far an evaluation is.
type Progress struct {
	Phase   string        // "reference" or "samples"
	Done    int           // checks finished, including those found in the journal
	Total   int           // checks in all
	Passed  int           // checks that passed so far
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
	info := RunInfo{Model: model.Name(), Template: o.template.Name, Samples: o.Samples, Sampling: o.Sampling, K: k, Gold: !o.NoGold}
	return o, info, nil
}

func fingerprint(info RunInfo) string {
	b, _ := json.Marshal(info)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Evaluate asks model to adapt every task (of the selected shard) Samples
// times, checks each answer in the sandbox, and returns the report. Model
// requests and test runs overlap, each with its own concurrency bound. A
// failure of one sample (a model error, no code, an infrastructure error) is
// recorded in the report and does not stop the others; Evaluate returns an
// error only when it cannot run at all, or when ctx ends (what finished is
// in the journal).
func Evaluate(ctx context.Context, tasks []Task, model Model, opts *Options) (*Report, error) {
	if model == nil {
		return nil, errors.New("adapt: Evaluate needs a model")
	}
	o, info, err := resolve(opts, model)
	if err != nil {
		return nil, err
	}
	selected, err := selectTasks(tasks, o.Shard)
	if err != nil {
		return nil, err
	}
	hashes := make(map[string]string, len(selected))
	for _, t := range selected {
		hashes[t.ID] = taskHash(t)
	}
	fp := fingerprint(info)
	recs := newRecords()
	var jnl *journal
	if o.Journal != "" {
		if _, err := readJournal(o.Journal, fp, hashes, recs); err != nil {
			return nil, err
		}
		if jnl, err = openJournal(o.Journal, fp, info); err != nil {
			return nil, err
		}
		defer jnl.close()
	}
	runner := o.Runner
	if runner == nil {
		sb, err := exec.NewSandbox(nil)
		if err != nil {
			return nil, err
		}
		defer sb.Close()
		fs, err := exec.NewForkServer(sb, nil)
		if err != nil {
			return nil, err
		}
		defer fs.Close()
		runner = fs
	}
	e := &evaluation{
		o: o, model: model, jnl: jnl, recs: recs, hashes: hashes,
		chk:   &checker{runner: runner, limits: o.Limits, envs: o.Environments},
		start: time.Now(),
	}
	if err := e.run(ctx, selected); err != nil {
		return nil, err
	}
	rep := buildReport(info, selected, recs)
	if p, ok := model.(Pricer); ok {
		if c, ok := p.Cost(rep.Usage); ok {
			rep.Cost = &c
		}
	}
	return rep, nil
}

// selectTasks validates the tasks and keeps the shard's, in input order.
func selectTasks(tasks []Task, shard Shard) ([]*Task, error) {
	seen := map[string]bool{}
	var out []*Task
	for i := range tasks {
		t := &tasks[i]
		if err := t.Validate(); err != nil {
			return nil, fmt.Errorf("adapt: task %d: %w", i, err)
		}
		if seen[t.ID] {
			return nil, fmt.Errorf("adapt: duplicate task id %q", t.ID)
		}
		seen[t.ID] = true
		if shard.Has(t.ID) {
			out = append(out, t)
		}
	}
	return out, nil
}

type evaluation struct {
	o      options
	model  Model
	jnl    *journal
	chk    *checker
	hashes map[string]string
	start  time.Time

	mu       sync.Mutex
	recs     *records
	done     int
	total    int
	passed   int
	ranHere  int
	phase    string
	firstErr error
	testTime time.Duration
}

func (e *evaluation) record(rec journalRecord) {
	rec.TaskHash = e.hashes[rec.Task]
	e.mu.Lock()
	e.recs.add(rec, e.hashes)
	e.mu.Unlock()
	// Infrastructure errors and model errors are not journaled: they are
	// not finished work, and a rerun tries them again.
	if rec.Result != nil && (rec.Result.Outcome == OutcomeInfraError || rec.Result.Outcome == OutcomeModelError) {
		return
	}
	if rec.Completion != nil && rec.Completion.Err != "" {
		return
	}
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
	if e.o.Progress == nil {
		return
	}
	el := time.Since(e.start)
	p := Progress{Phase: e.phase, Done: e.done, Total: e.total, Passed: e.passed, Elapsed: el, TestTime: e.chk.testTime()}
	if el > 0 {
		p.Rate = float64(e.ranHere) / el.Seconds()
	}
	if p.Rate > 0 {
		p.ETA = time.Duration(float64(e.total-e.done) / p.Rate * float64(time.Second))
	}
	e.o.Progress(p)
}

func (e *evaluation) run(ctx context.Context, tasks []*Task) error {
	n := e.o.Samples
	e.total = len(tasks) * n
	if !e.o.NoGold {
		e.total += len(tasks)
	}
	// What the journal already holds counts as done.
	for _, t := range tasks {
		if _, ok := e.recs.gold[t.ID]; ok && !e.o.NoGold {
			e.done++
		}
		for s := range n {
			if r, ok := e.recs.results[sampleKey{t.ID, s}]; ok {
				e.done++
				if r.Outcome == OutcomePassed {
					e.passed++
				}
			}
		}
	}
	valid := tasks
	if !e.o.NoGold {
		e.phase = "reference"
		g := errgroup.Group{}
		g.SetLimit(e.o.ExecConcurrency)
		var todo []*Task
		for _, t := range tasks {
			if _, ok := e.recs.gold[t.ID]; !ok {
				todo = append(todo, t)
			}
		}
		for _, t := range todo {
			g.Go(func() error {
				res, err := e.chk.checkAnswer(ctx, t, Answer{Code: t.Reference})
				if ctx.Err() != nil {
					return ctx.Err()
				}
				_ = err // recorded in res as an infrastructure error
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
				// An invalid task's samples are not drawn.
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
	}
	// Plan from what the journal holds before any worker writes to it.
	type plan struct {
		t     *Task
		need  []int
		ready []job
	}
	var plans []plan
	for _, t := range valid {
		p := plan{t: t}
		for s := range n {
			k := sampleKey{t.ID, s}
			if _, ok := e.recs.results[k]; ok {
				continue
			}
			if c, ok := e.recs.completions[k]; ok {
				p.ready = append(p.ready, job{t, s, c})
			} else {
				p.need = append(p.need, s)
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
			t, need, ready := p.t, p.need, p.ready
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
				comps := e.generate(gctx, t, need)
				for i, s := range need {
					e.record(journalRecord{Kind: "completion", Task: t.ID, Sample: s, Completion: &comps[i]})
				}
				for i, s := range need {
					select {
					case jobs <- job{t, s, comps[i]}:
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
				var res SampleResult
				if j.comp.Err != "" {
					res = SampleResult{Outcome: OutcomeModelError, Detail: j.comp.Err}
				} else {
					var err error
					res, err = e.chk.checkCompletion(gctx, j.t, j.comp.Text)
					if gctx.Err() != nil {
						return gctx.Err()
					}
					_ = err // recorded in res as an infrastructure error
				}
				res.Sample = j.sample
				res.Usage = j.comp.Usage
				e.record(journalRecord{Kind: "result", Task: j.t.ID, Sample: j.sample, Result: &res})
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

// generate asks the model for k completions of t; it always returns k, with
// Err set on those that failed.
func (e *evaluation) generate(ctx context.Context, t *Task, samples []int) []Completion {
	k := len(samples)
	out := make([]Completion, k)
	msgs, err := e.o.template.Render(t)
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		s := e.o.Sampling
		s.N = k
		var comps []Completion
		comps, err = e.model.Complete(ctx, Request{Task: t, Messages: msgs, Sampling: s, Samples: samples})
		for i := range out {
			if i < len(comps) {
				out[i] = comps[i]
			} else if err == nil {
				out[i].Err = fmt.Sprintf("the model returned %d completions for %d samples", len(comps), k)
			}
		}
	}
	if err != nil {
		for i := range out {
			out[i] = Completion{Err: err.Error()}
		}
	}
	return out
}
