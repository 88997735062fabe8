// Package poll waits for background jobs to reach a state.
package poll

import (
	"context"
	"time"
)

// DefaultInterval is how often WaitReady checks a job.
const DefaultInterval = 10 * time.Millisecond

// PollUntil calls check every interval until it reports true. It gives up
// with ctx.Err() when ctx is done first.
func PollUntil(ctx context.Context, interval time.Duration, check func() bool) error {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for !check() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ticker.C:
		}
	}
	return nil
}

// Job is a background job.
type Job interface {
	Done() bool
}

// WaitReady waits until job is done or ctx ends.
func WaitReady(ctx context.Context, job Job) error {
	return PollUntil(ctx, DefaultInterval, job.Done)
}
