package adapt_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// stuckModel answers with the reference, except for task t01, whose
// request blocks until release closes, whatever its context says.
func stuckModel(release chan struct{}) adapt.Model {
	return adapt.ModelFunc("stuck", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
		if req.Task.ID == "t01" {
			<-release
		}
		return adapt.Reference.Complete(context.Background(), req)
	})
}

// evaluateWithin runs Evaluate and fails the test when it has not
// returned within limit.
func evaluateWithin(t *testing.T, limit time.Duration, ctx context.Context, tasks []adapt.Task, m adapt.Model, o *adapt.Options) (*report.Report, error) {
	t.Helper()
	type result struct {
		rep *report.Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := adapt.Evaluate(ctx, tasks, m, o)
		done <- result{rep, err}
	}()
	select {
	case r := <-done:
		return r.rep, r.err
	case <-time.After(limit):
		t.Fatalf("Evaluate still waits for a model that ignores its context after %v", limit)
		return nil, nil
	}
}

// TestModelThatIgnoresItsContext: a Go Model that ignores its context
// holds Evaluate neither past Options.RequestTimeout (its samples are
// model errors) nor past ctx's deadline.
func TestModelThatIgnoresItsContext(t *testing.T) {
	tasks := pyTasks(3)
	release := make(chan struct{})
	defer close(release)
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := evaluateWithin(t, 30*time.Second, ctx, tasks, stuckModel(release), &adapt.Options{Runner: runner(t)})
		require.ErrorIs(t, err, context.DeadlineExceeded)
	})
	t.Run("request timeout", func(t *testing.T) {
		rep, err := evaluateWithin(t, 30*time.Second, context.Background(), tasks, stuckModel(release),
			&adapt.Options{Runner: runner(t), RequestTimeout: 100 * time.Millisecond, Attempts: 2, Backoff: time.Millisecond})
		require.NoError(t, err)
		s := rep.PerTask[1].Samples[0]
		assert.Equal(t, report.OutcomeModelError, s.Outcome)
		assert.Equal(t, "adapt: model stuck gave no answer within 100ms (Options.RequestTimeout)", s.Detail)
		assert.Equal(t, 2, s.Attempts)
		p1, _ := rep.Score(1)
		assert.Equal(t, 1.0, p1, "the other tasks are scored")
		assert.Equal(t, 2, rep.PerTask[0].N+rep.PerTask[2].N)
	})
}
