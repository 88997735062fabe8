package adapt

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// generate asks the model for the completions of t's samples; it returns
// one per sample, with Err set on those that failed, and the number of
// requests made. A request that fails as a whole (an error, a panic, more
// completions than samples) is made again after a backoff, up to
// Attempts times. It returns false when ctx ended first.
func (e *evaluation) generate(ctx context.Context, t *Task, samples []int, render func() ([]Message, error), round int) ([]report.Completion, int, bool) {
	k := len(samples)
	out := make([]report.Completion, k)
	msgs, err := render()
	if err != nil {
		for i := range out {
			out[i] = report.Completion{Err: "adapt: render prompt: " + err.Error()}
		}
		return out, 0, true
	}
	s := e.o.Sampling
	s.N = k
	for attempt := 1; ; attempt++ {
		comps, err := complete(ctx, e.model, Request{Task: t, Messages: msgs, Sampling: s, Samples: samples, Round: round}, e.o.RequestTimeout)
		if err != nil && ctx.Err() != nil {
			// Stopped, not failed: an answer that came back is kept.
			return nil, attempt, false
		}
		if err == nil && len(comps) > k {
			err = fmt.Errorf("adapt: model %s returned %d completions for %d samples", e.model.Name(), len(comps), k)
		}
		e.modelAnswered(err)
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
		if attempt >= e.o.Attempts || errors.Is(err, ErrModelUnavailable) {
			// Asking again does not bring back an unavailable model.
			for i := range out {
				out[i] = report.Completion{Err: err.Error()}
			}
			return out, attempt, true
		}
		if !sleep(ctx, e.o.Backoff<<(attempt-1)) {
			return nil, attempt, false
		}
	}
}

// complete calls model.Complete in a goroutine of its own, turning a
// panic into an error, and returns when it does, when timeout (if not 0)
// passes (an error), or when ctx ends (ctx's error): a model that ignores
// its context is abandoned, not waited for.
func complete(ctx context.Context, model Model, req Request, timeout time.Duration) ([]report.Completion, error) {
	rctx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		rctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	type answer struct {
		comps []report.Completion
		err   error
	}
	done := make(chan answer, 1) // the abandoned call's answer goes nowhere
	go func() {
		comps, err := completeSafe(rctx, model, req)
		done <- answer{comps, err}
	}()
	select {
	case a := <-done:
		return a.comps, a.err
	case <-rctx.Done():
	}
	// An answer that comes with the end stands: a model that returns as
	// its context ends (or that ended it) is waited for a moment, so that
	// what it answered is journaled and not asked again; one that ignores
	// its context is abandoned after that.
	grace := time.NewTimer(time.Second)
	defer grace.Stop()
	select {
	case a := <-done:
		return a.comps, a.err
	case <-grace.C:
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("adapt: model %s gave no answer within %v (Options.RequestTimeout)", model.Name(), timeout)
}

// completeSafe calls model.Complete, turning a panic into an error.
func completeSafe(ctx context.Context, model Model, req Request) (comps []report.Completion, err error) {
	defer func() {
		if r := recover(); r != nil {
			comps, err = nil, fmt.Errorf("adapt: model %s panicked: %v", model.Name(), r)
		}
	}()
	return model.Complete(ctx, req)
}
