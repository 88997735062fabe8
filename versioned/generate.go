package versioned

import (
	"context"
	"fmt"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/internal/tracker"
)

// Options configures Generate. A nil *Options means the defaults.
type Options struct {
	// Environments provisions the environments the tasks name (a
	// *Provider). nil means the machine's default toolchain, against
	// which most version-conditioned references fail.
	Environments adapt.EnvProvider
	// Runner runs the references' tests; nil means a ForkServer over a
	// Sandbox that Generate makes and closes. Limits bounds every run.
	Runner exec.Runner
	Limits exec.Limits
	// Parallelism bounds the test runs in flight. 0 means
	// exec.DefaultParallelism().
	Parallelism int
	// Progress, if set, is called after each reference check (Phase
	// "reference").
	Progress func(report.Progress)
}

// Result is what Generate produced.
type Result struct {
	// Tasks are the tasks whose reference passes its tests in the
	// environment the task names, in problem order.
	Tasks []adapt.Task
	// Invalid lists the others with the reason, in problem order: an
	// environment that could not be provisioned or a reference that fails.
	Invalid []report.InvalidTask
	// Funnel counts the tasks of each library through the stages
	// "problems", "provisioned" and "reference passes".
	Funnel report.Funnel
}

// The stages of versioned's funnel.
const (
	StageProblems    = "problems"         // a problem of the dataset
	StageProvisioned = "provisioned"      // its environment was provisioned
	StagePasses      = "reference passes" // its reference passes its tests there
)

// Generate keeps the tasks (from Load or GoTasks) whose reference
// passes in the environment the task names: a benchmark that runs on this
// machine, with what could not run named. It is gold-first as
// adapt.Evaluate is, done once for a dataset before many evaluations.
func Generate(ctx context.Context, tasks []adapt.Task, opts *Options) (*Result, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	tasks = slices.Clone(tasks)
	runner, closeRunner, err := sandbox.Default(o.Runner)
	if err != nil {
		return nil, err
	}
	defer closeRunner()
	o.Runner = runner
	if o.Parallelism <= 0 {
		o.Parallelism = exec.DefaultParallelism()
	}
	progress := tracker.New(o.Progress, "reference", len(tasks))
	type verdict struct {
		provisioned bool
		reason      string
		result      *report.SampleResult
	}
	verdicts := make([]verdict, len(tasks))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(o.Parallelism)
	for i := range tasks {
		t := &tasks[i]
		g.Go(func() error {
			v := &verdicts[i]
			c := &adapt.Checker{Runner: o.Runner, Limits: o.Limits}
			if t.Env != nil && o.Environments != nil {
				run, err := o.Environments.Provide(gctx, *t.Env)
				if err != nil {
					if gctx.Err() != nil {
						return gctx.Err()
					}
					v.reason = "environment: " + err.Error()
					progress.Done(false)
					return nil
				}
				c.Environments = provided{run}
			}
			v.provisioned = true
			res, err := c.Check(gctx, t, adapt.Answer{Code: t.Reference})
			if err != nil && gctx.Err() != nil {
				return gctx.Err()
			}
			res.Code = ""
			if res.Outcome != report.OutcomePassed {
				v.reason = "reference " + res.Outcome.String()
				if res.Detail != "" {
					v.reason += ": " + firstLine(res.Detail)
				}
				v.result = &res
			}
			progress.Done(res.Outcome == report.OutcomePassed)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("versioned: generation stopped: %w", err)
	}
	res := &Result{}
	res.Funnel.Declare(StageProblems, StageProvisioned, StagePasses)
	for i, t := range tasks {
		v := verdicts[i]
		lib := t.Labels["library"]
		res.Funnel.Add(lib, StageProblems, 1)
		if v.provisioned {
			res.Funnel.Add(lib, StageProvisioned, 1)
		}
		if v.reason != "" {
			res.Invalid = append(res.Invalid, report.InvalidTask{TaskID: t.ID, Reason: v.reason, Result: v.result})
			continue
		}
		res.Funnel.Add(lib, StagePasses, 1)
		res.Tasks = append(res.Tasks, t)
	}
	return res, nil
}

// provided is an EnvProvider that gives one environment already made.
type provided struct{ run adapt.RunEnv }

func (p provided) Provide(context.Context, adapt.Environment) (adapt.RunEnv, error) {
	return p.run, nil
}
