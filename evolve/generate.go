package evolve

import (
	"context"
	"iter"
	"slices"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/internal/tracker"
)

// Result is what [Generate] returns.
type Result struct {
	// Evolutions holds one Evolution per subject, in subject order.
	Evolutions []*Evolution
	// Tasks are the adaptation tasks ([Adaptation]) of the evolved
	// subjects made from tasks, in subject order.
	Tasks []adapt.Task
	// Funnel counts the offspring of every run through the search's
	// checks: group "offspring", stages made, transformed, new, readable
	// and accepted. Summary counts the subjects.
	Funnel report.Funnel
}

// The stages of evolve's funnel.
const (
	stageMade        = "made"        // offspring made and examined (Evaluations)
	stageTransformed = "transformed" // the transform worked and the result parses
	stageNew         = "new"         // not a duplicate
	stageReadable    = "readable"    // no readability metric reached its threshold
	stageAccepted    = "accepted"    // passed the original tests: in the population
)

// All yields the results in subject order.
func (r *Result) All() iter.Seq[*Evolution] { return slices.Values(r.Evolutions) }

// Evolved yields the results of the subjects that were evolved (their
// original passed its tests and the run did not fail).
func (r *Result) Evolved() iter.Seq[*Evolution] {
	return func(yield func(*Evolution) bool) {
		for _, res := range r.Evolutions {
			if res.Err == nil && len(res.Population) > 0 && !yield(res) {
				return
			}
		}
	}
}

// Generate evolves each subject in turn with [Evolve] and the same options (each
// subject's stream is seeded from Options.Seed and its ID, so a subject's
// result does not depend on the others). A subject that cannot be evolved
// gets an Evolution with Err set (wrapping ErrOriginalFails when its original
// fails); only ctx ending or a bad Options stops the whole call, which then
// returns the results so far with the error. With a nil Options.Tester one
// tester, and its cache, serves every subject.
func Generate(ctx context.Context, subjects []*Subject, opts *Options) (*Result, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if _, err := resolve(&o); err != nil {
		return nil, err
	}
	if o.Tester == nil {
		t, closeFn, err := DefaultTester()
		if err != nil {
			return nil, err
		}
		defer closeFn()
		o.Tester = t
	}
	rep := &Result{}
	progress := tracker.New(o.Progress, "evolve", len(subjects))
	defer rep.count()
	for _, s := range subjects {
		res, err := Evolve(ctx, s, &o)
		if ctx.Err() != nil {
			if res != nil {
				res.Err = ctx.Err()
				rep.Evolutions = append(rep.Evolutions, res)
			}
			return rep, ctx.Err()
		}
		if res == nil {
			res = &Evolution{Subject: s.ID, Seed: o.Seed}
		}
		res.Err = err
		rep.Evolutions = append(rep.Evolutions, res)
		if err == nil && res.Best != 0 && s.Task != nil {
			// A subject whose task cannot be made is an error in the
			// summary, not a silent gap in Tasks.
			if t, err := Adaptation(s, res); err != nil {
				res.Err = err
			} else {
				rep.Tasks = append(rep.Tasks, t)
			}
		}
		progress.Done(err == nil && res.Best != 0)
	}
	return rep, nil
}

// count fills in the funnel from the evolutions.
func (r *Result) count() {
	f := &r.Funnel
	f.Declare(stageMade, stageTransformed, stageNew, stageReadable, stageAccepted)
	made, rej := 0, Rejections{}
	for _, e := range r.Evolutions {
		made += e.Evaluations
		rej.Failed += e.Rejected.Failed
		rej.Duplicate += e.Rejected.Duplicate
		rej.Unreadable += e.Rejected.Unreadable
		rej.Tests += e.Rejected.Tests
	}
	left := made
	f.Add("offspring", stageMade, left)
	for _, st := range []struct {
		stage string
		n     int
	}{{stageTransformed, rej.Failed}, {stageNew, rej.Duplicate}, {stageReadable, rej.Unreadable}, {stageAccepted, rej.Tests}} {
		left -= st.n
		f.Add("offspring", st.stage, left)
	}
}
