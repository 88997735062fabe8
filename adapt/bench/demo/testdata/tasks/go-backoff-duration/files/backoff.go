// Package retry retries operations that fail transiently.
package retry

import (
	"context"
	"time"
)

// Backoff returns how long to wait after failed attempt number attempt
// (0-based): base doubled attempt times, but never more than maxDelay.
func Backoff(attempt int, base, maxDelay time.Duration) time.Duration {
	d := base
	for i := 0; i < attempt; i++ {
		if d >= maxDelay/2 {
			return maxDelay
		}
		d *= 2
	}
	if d > maxDelay {
		return maxDelay
	}
	return d
}

// Do calls op until it succeeds, at most attempts times, waiting
// Backoff(i, base, maxDelay) after failure i. It returns op's last error, or
// ctx.Err() if ctx ends while waiting.
func Do(ctx context.Context, attempts int, base, maxDelay time.Duration, op func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = op(); err == nil || i == attempts-1 {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(Backoff(i, base, maxDelay)):
		}
	}
	return err
}
