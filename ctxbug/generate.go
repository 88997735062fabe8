package ctxbug

import (
	"context"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// Candidate is one variant a generator returned for a job, and what
// identification found.
type Candidate struct {
	Job *Job
	// Generator is the model's name.
	Generator string
	// Sample is the index of the variant among the job's samples.
	Sample int
	// Completion is what the model returned.
	Completion report.Completion
	// variant is the deobfuscated method taken from the completion, set
	// by Identify (empty for an empty output).
	variant string
	// reason is why Identify dropped the candidate, or reasonKept.
	reason reason
	// detail says what made it drop the candidate.
	detail string
	// failing lists the tests that did not pass with the variant in place.
	failing []string
	// bugs are the perturbed nodes where the variant differs from the
	// solution: the CtxBug (or IsoBug) locations.
	bugs []Bug
}

// Draw asks model for opts.Samples variants of every job and returns
// the candidates, job by job and sample by sample. It is built on
// adapt.Draw (the sampling loop of adapt.Evaluate: journal, resume,
// retries): the request carries a task whose ID is the job's ID (so an
// adapt.Replay model answers from a file keyed by job ID) and whose Code is
// the obfuscated template. A model error fails that sample (its
// Completion.Err is set), never the run; Generate returns an error when
// ctx ends or the journal cannot be used.
func Draw(ctx context.Context, model adapt.Model, jobs []*Job, opts *Options) ([]*Candidate, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Samples <= 0 {
		o.Samples = 1
	}
	byID := make(map[string]*Job, len(jobs))
	tasks := make([]adapt.Task, len(jobs))
	for i, j := range jobs {
		byID[j.ID] = j
		tasks[i] = *jobTask(j)
	}
	rep, err := adapt.Draw(ctx, tasks, model, &adapt.Options{
		Samples: o.Samples, ModelConcurrency: o.ModelConcurrency,
		Template: &adapt.Template{Name: "ctxbug-infill", Doc: "CtxBugGen's infill prompt", Render: func(t *adapt.Task) ([]adapt.Message, error) {
			return []adapt.Message{{Role: "system", Content: "You are a helpful assistant."}, {Role: "user", Content: infillPrompt(byID[t.ID])}}, nil
		}},
		Journal: o.Journal, KeepErrors: o.KeepErrors, Progress: o.Progress,
	})
	if err != nil {
		return nil, err
	}
	out := make([]*Candidate, 0, len(jobs)*o.Samples)
	for i, tr := range rep.PerTask {
		for s, sr := range tr.Samples {
			c := &Candidate{Job: jobs[i], Generator: model.Name(), Sample: s}
			if sr.Completion != nil {
				c.Completion = *sr.Completion
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// jobTask is the task a generator request carries for job j: the base's
// task with the job's ID and the obfuscated code.
func jobTask(j *Job) *adapt.Task {
	t := j.Base.Task
	t.ID = j.ID
	t.Code = j.Obfuscated.Code
	return &t
}
