package ctxbug

import (
	"context"
	"slices"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// Options configures Generate. A nil *Options means the defaults.
type Options struct {
	// Rules are the perturbation rules. nil means Rules.
	Rules []*Rule
	// Samples is how many variants the model is asked for per job. 0
	// means 1 (the paper implies one).
	Samples int
	// Sampling holds the sampling settings; the zero value is temperature
	// 0, as in the paper.
	Sampling adapt.Sampling
	// Settings lists the benchmark variants Result.Tasks holds. nil means
	// WithCtxBugs and WithoutCtxBugs (IsoBugs are made from CtxBugs in a
	// second generation: see IsoJobs).
	Settings []Setting
	// Runner runs the tests; nil means a ForkServer over a Sandbox that
	// Generate makes and closes. Limits bounds every test run.
	Runner exec.Runner
	Limits exec.Limits
	// Parallelism bounds the test runs in flight. 0 means
	// exec.DefaultParallelism(). ModelConcurrency bounds the model
	// requests in flight. 0 means 4.
	Parallelism      int
	ModelConcurrency int
	// Journal, Attempts and KeepErrors are those of the model requests
	// (see DrawOptions): with a journal, a stopped generation resumes.
	Journal    string
	Attempts   int
	KeepErrors bool
	// Progress, if set, is called as the model answers (Phase "samples")
	// and as candidates are identified (Phase "identify").
	Progress func(adapt.Progress)
	// AllowEditsElsewhere skips identification's locality check (see
	// IdentifyOptions).
	AllowEditsElsewhere bool
}

// Result is what Generate produced.
type Result struct {
	// Tasks are the benchmark's tasks, setting by setting (Options.Settings)
	// and instance by instance.
	Tasks []adapt.Task
	// Instances are the CtxBugs identified; Candidates every variant the
	// model gave, with the stage identification dropped it at.
	Instances  []*Instance
	Candidates []*Candidate
	// Funnel counts the candidates through identification (the paper's
	// Fig. 5).
	Funnel adapt.Funnel
}

// Generate runs CtxBugGen on bases: it perturbs each base's method with
// the rules (Jobs), asks model to infill each perturbed, obfuscated
// template (Draw), identifies the variants that are context-adaptation
// bugs by tests and AST alignment (Identify), and makes the benchmark's
// tasks (Tasks). It is the composition of those calls, for callers that
// need no step in between.
func Generate(ctx context.Context, model adapt.Model, bases []*Base, opts *Options) (*Result, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Rules == nil {
		o.Rules = Rules
	}
	if o.Settings == nil {
		o.Settings = []Setting{WithCtxBugs, WithoutCtxBugs}
	}
	runner, closeRunner, err := sandbox.Default(o.Runner)
	if err != nil {
		return nil, err
	}
	defer closeRunner()
	o.Runner = runner
	jobs, err := Jobs(bases, o.Rules)
	if err != nil {
		return nil, err
	}
	cands, err := Draw(ctx, model, jobs, &DrawOptions{Samples: o.Samples, Sampling: o.Sampling, ModelConcurrency: o.ModelConcurrency,
		Journal: o.Journal, Attempts: o.Attempts, KeepErrors: o.KeepErrors, Progress: o.Progress})
	if err != nil {
		return nil, err
	}
	id, err := Identify(ctx, cands, &IdentifyOptions{Runner: o.Runner, Limits: o.Limits, Parallelism: o.Parallelism,
		Progress: o.Progress, AllowEditsElsewhere: o.AllowEditsElsewhere})
	if err != nil {
		return nil, err
	}
	res := &Result{Instances: id.Instances, Candidates: id.Candidates, Funnel: id.Funnel}
	byID := BaseMap(bases)
	for _, s := range o.Settings {
		ts, err := Tasks(byID, id.Instances, s)
		if err != nil {
			return nil, err
		}
		res.Tasks = append(res.Tasks, ts...)
	}
	res.Tasks = slices.Clip(res.Tasks)
	return res, nil
}
