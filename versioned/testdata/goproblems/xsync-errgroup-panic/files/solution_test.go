package solution

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

func TestVisibleRunAllPanic(t *testing.T) {
	err := RunAll([]func() error{
		func() error { return nil },
		func() error { panic("boom") },
	})
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("RunAll with a panicking task = %v, want an error holding %q", err, "boom")
	}
}

func TestRunAllErrors(t *testing.T) {
	var ran atomic.Int32
	bad := errors.New("bad input")
	err := RunAll([]func() error{
		func() error { ran.Add(1); return nil },
		func() error { ran.Add(1); return bad },
		func() error { ran.Add(1); return nil },
	})
	if !errors.Is(err, bad) || ran.Load() != 3 {
		t.Fatalf("RunAll = %v after %d tasks, want %v after 3", err, ran.Load(), bad)
	}
	if err := RunAll(nil); err != nil {
		t.Fatalf("RunAll(nil) = %v", err)
	}
}

func TestRunAllPanicError(t *testing.T) {
	cause := errors.New("disk on fire")
	err := RunAll([]func() error{func() error { panic(cause) }})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("RunAll with panic(error) = %v, want an error holding %q", err, cause)
	}
}
