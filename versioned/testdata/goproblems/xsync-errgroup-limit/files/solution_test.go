package solution

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// peak runs ProcessLimited over n items and returns the most calls that
// were in flight at once.
func peak(t *testing.T, n, limit int) int {
	var mu sync.Mutex
	inFlight, most := 0, 0
	err := ProcessLimited(make([]int, n), limit, func(int) error {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
		inFlight--
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatalf("ProcessLimited: %v", err)
	}
	return most
}

func TestVisibleProcessLimited(t *testing.T) {
	if got := peak(t, 12, 3); got > 3 {
		t.Fatalf("%d calls in flight with limit 3", got)
	}
}

func TestProcessLimitedOne(t *testing.T) {
	if got := peak(t, 6, 1); got != 1 {
		t.Fatalf("%d calls in flight with limit 1, want 1", got)
	}
}

func TestProcessLimitedError(t *testing.T) {
	bad := errors.New("item 4 is bad")
	var mu sync.Mutex
	seen := map[int]bool{}
	err := ProcessLimited([]int{1, 2, 3, 4, 5}, 2, func(i int) error {
		mu.Lock()
		seen[i] = true
		mu.Unlock()
		if i == 4 {
			return bad
		}
		return nil
	})
	if !errors.Is(err, bad) || len(seen) != 5 {
		t.Fatalf("ProcessLimited = %v after items %v, want %v after all 5", err, seen, bad)
	}
}
