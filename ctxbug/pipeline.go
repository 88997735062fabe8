package ctxbug

import (
	"context"
	"slices"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// Options configures Generate and its steps, Draw and Identify; each
// step reads the fields it needs. A nil *Options means the defaults.
type Options struct {
	// Rules are the perturbation rules (Generate). nil means Rules.
	Rules []*Rule

	// Samples is how many variants Draw asks the model for per job, at
	// temperature 0 as in the paper. 0 means 1 (the paper implies one).
	Samples int
	// ModelConcurrency bounds the model requests in flight: 0, so 4.
	ModelConcurrency int
	// Journal and KeepErrors are passed to adapt.Draw, which asks the
	// model: with a journal, a stopped generation resumes where it
	// stopped, and model errors are retried (adapt.Draw's default
	// attempts) and journaled as adapt.Evaluate's are.
	Journal    string
	KeepErrors bool

	// Runner runs Identify's tests. nil means a ForkServer over a Sandbox
	// that Identify (or Generate) makes and closes. Limits bounds every
	// test run; zero fields take exec's defaults.
	Runner exec.Runner
	Limits exec.Limits
	// Parallelism bounds the test runs in flight: 0, so
	// exec.DefaultParallelism() (the generators' common option).
	Parallelism int
	// AllowEditsElsewhere skips Identify's locality check: a variant that
	// differs at a perturbed node is kept even if it also changes other
	// code (the paper's stated criteria, which never reject such edits).
	AllowEditsElsewhere bool

	// Progress, if set, is called as the model answers (Draw, Phase
	// "samples") and after each candidate is checked (Identify, Phase
	// "identify"; Total counts the candidates of bases whose solution
	// passes, Passed those still in the running after the locality
	// check), from one goroutine at a time.
	Progress func(report.Progress)
}

// Result is what Generate (or Identify, without Tasks) produced.
type Result struct {
	// Tasks are the benchmark's tasks, setting by setting (WithCtxBugs,
	// then WithoutCtxBugs) and instance by instance.
	Tasks []adapt.Task
	// Instances are the CtxBugs identified; candidates every variant the
	// model gave, with the stage identification dropped it at.
	Instances  []*Instance
	candidates []*Candidate
	// Funnel counts the candidates through identification (the paper's
	// Fig. 5).
	Funnel report.Funnel
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
	cands, err := Draw(ctx, model, jobs, &o)
	if err != nil {
		return nil, err
	}
	id, err := Identify(ctx, cands, &o)
	if err != nil {
		return nil, err
	}
	res := &Result{Instances: id.Instances, candidates: id.candidates, Funnel: id.Funnel}
	byID := BaseMap(bases)
	// The IsoBugs variant is made from CtxBugs in a second generation
	// (IsoJobs), so a generation holds these two.
	for _, s := range []Setting{WithCtxBugs, WithoutCtxBugs} {
		ts, err := Tasks(byID, id.Instances, s)
		if err != nil {
			return nil, err
		}
		res.Tasks = append(res.Tasks, ts...)
	}
	res.Tasks = slices.Clip(res.Tasks)
	return res, nil
}
