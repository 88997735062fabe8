package ctxbug

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/adapt"
)

// GenerateOptions configures Generate. A nil *GenerateOptions means the
// defaults.
type GenerateOptions struct {
	// Samples is how many variants to draw per job. 0 means 1 (the paper
	// implies one).
	Samples int
	// Sampling holds the sampling settings; its N is set from Samples.
	// The zero value is temperature 0, as in the paper.
	Sampling adapt.Sampling
	// Concurrency bounds the model requests in flight. 0 means 4.
	Concurrency int
}

// Candidate is one variant a generator returned for a job, and what
// identification found.
type Candidate struct {
	Job *Job
	// Generator is the model's name.
	Generator string
	// Sample is the index of the variant among the job's samples.
	Sample int
	// Completion is what the model returned.
	Completion adapt.Completion
	// Variant is the deobfuscated method taken from the completion, set
	// by Identify (empty for an empty output).
	Variant string
	// Stage is where Identify dropped the candidate, or StageKept.
	Stage Stage
	// Reason says why it was dropped.
	Reason string
	// Failing lists the tests that did not pass with the variant in place.
	Failing []string
	// Bugs are the perturbed nodes where the variant differs from the
	// solution: the CtxBug (or IsoBug) locations.
	Bugs []Bug
}

// Generate asks model for opts.Samples variants of every job and returns
// the candidates, job by job and sample by sample. The request carries a
// task whose ID is the job's ID (so an adapt.Replay model answers from a
// file keyed by job ID) and whose Code is the obfuscated template. A model
// error fails that job's samples (their Completion.Err is set), never the
// run; Generate returns an error only when ctx ends.
func Generate(ctx context.Context, model adapt.Model, jobs []*Job, opts *GenerateOptions) ([]*Candidate, error) {
	var o GenerateOptions
	if opts != nil {
		o = *opts
	}
	if o.Samples <= 0 {
		o.Samples = 1
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	o.Sampling.N = o.Samples
	out := make([]*Candidate, len(jobs)*o.Samples)
	var g errgroup.Group
	g.SetLimit(o.Concurrency)
	for i, j := range jobs {
		g.Go(func() error {
			comps := complete(ctx, model, j, o)
			for s := range o.Samples {
				out[i*o.Samples+s] = &Candidate{Job: j, Generator: model.Name(), Sample: s, Completion: comps[s]}
			}
			return nil
		})
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// JobTask is the task a generator request carries for job j: the base's
// task with the job's ID and the obfuscated code.
func JobTask(j *Job) *adapt.Task {
	t := j.Base.Task
	t.ID = j.ID
	t.Code = j.Obfuscated.Code
	return &t
}

// complete returns exactly o.Samples completions for j.
func complete(ctx context.Context, model adapt.Model, j *Job, o GenerateOptions) []adapt.Completion {
	out := make([]adapt.Completion, o.Samples)
	samples := make([]int, o.Samples)
	for i := range samples {
		samples[i] = i
	}
	msgs := []adapt.Message{{Role: "system", Content: "You are a helpful assistant."}, {Role: "user", Content: InfillPrompt(j)}}
	comps, err := model.Complete(ctx, adapt.Request{Task: JobTask(j), Messages: msgs, Sampling: o.Sampling, Samples: samples})
	for i := range out {
		switch {
		case err != nil:
			out[i] = adapt.Completion{Err: err.Error()}
		case i < len(comps):
			out[i] = comps[i]
		default:
			out[i] = adapt.Completion{Err: fmt.Sprintf("the model returned %d completions for %d samples", len(comps), o.Samples)}
		}
	}
	return out
}
