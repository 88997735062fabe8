package adapt

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/adapt/report"
)

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
