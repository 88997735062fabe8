package poll

import (
	"context"
	"errors"
	"testing"
	"time"
)

// within runs f and fails the test if it does not return within 2s.
func within(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(2 * time.Second):
		t.Fatal("PollUntil did not return")
	}
	return nil
}

func TestPollUntilImmediate(t *testing.T) {
	if err := PollUntil(context.Background(), time.Hour, func() bool { return true }); err != nil {
		t.Fatalf("err = %v, want nil", err)
	}
}

func TestPollUntilSignature(t *testing.T) {
	var f func(context.Context, time.Duration, func() bool) error = PollUntil
	_ = f
}

func TestPollUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // already done: PollUntil must not wait for check
	err := within(t, func() error { return PollUntil(ctx, time.Millisecond, func() bool { return false }) })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestPollUntilDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	err := within(t, func() error { return PollUntil(ctx, time.Millisecond, func() bool { return false }) })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
}

func TestPollUntilReturnsNil(t *testing.T) {
	calls := 0
	check := func() bool { calls++; return calls == 3 }
	if err := within(t, func() error { return PollUntil(context.Background(), time.Millisecond, check) }); err != nil || calls != 3 {
		t.Fatalf("err=%v calls=%d, want nil and 3 calls", err, calls)
	}
}

type job struct{ polls int } // done on the third poll

func (j *job) Done() bool { j.polls++; return j.polls > 2 }

func TestWaitReady(t *testing.T) {
	j := &job{}
	if err := within(t, func() error { return WaitReady(context.Background(), j) }); err != nil || j.polls != 3 {
		t.Fatalf("err=%v polls=%d, want nil and 3 polls", err, j.polls)
	}
}
