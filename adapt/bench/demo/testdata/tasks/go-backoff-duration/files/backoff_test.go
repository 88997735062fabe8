package retry

import (
	"context"
	"errors"
	"testing"
	"time"
)

const ms = time.Millisecond

func expect(t *testing.T, attempt int, base, maxDelay, want time.Duration) {
	t.Helper()
	if got := Backoff(attempt, base, maxDelay); got != want {
		t.Errorf("Backoff(%d, %v, %v) = %v, want %v", attempt, base, maxDelay, got, want)
	}
}

func TestBackoffFirstAttempt(t *testing.T) { expect(t, 0, 100*ms, time.Second, 100*ms) }

func TestBackoffUsesBase(t *testing.T) {
	expect(t, 0, 10*ms, time.Second, 10*ms)
	expect(t, 3, 10*ms, time.Second, 80*ms)
	expect(t, 2, time.Second, time.Hour, 4*time.Second)
}

func TestBackoffReturnsDuration(t *testing.T) {
	var f func(int, time.Duration, time.Duration) time.Duration = Backoff
	if got := f(1, 250*time.Microsecond, time.Second); got != 500*time.Microsecond {
		t.Errorf("Backoff(1, 250µs, 1s) = %v, want 500µs", got)
	}
}

func TestBackoffCapped(t *testing.T) {
	expect(t, 4, 100*ms, time.Second, time.Second)
	expect(t, 0, 2*time.Second, time.Second, time.Second)
}

func TestBackoffHugeAttempt(t *testing.T) {
	expect(t, 70, time.Second, time.Minute, time.Minute)
	expect(t, 1<<20, time.Second, time.Hour, time.Hour)
}

func TestDoRetries(t *testing.T) {
	calls := 0
	err := Do(context.Background(), 5, ms, 2*ms, func() error {
		if calls++; calls < 3 {
			return errors.New("transient")
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("Do = %v after %d calls, want nil after 3", err, calls)
	}
}

func TestDoGivesUp(t *testing.T) {
	calls, boom := 0, errors.New("boom")
	err := Do(context.Background(), 3, ms, ms, func() error { calls++; return boom })
	if !errors.Is(err, boom) || calls != 3 {
		t.Fatalf("Do = %v after %d calls, want boom after 3", err, calls)
	}
}
