package adapt

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/adaptbench/adaptbench/adapt/report"
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
