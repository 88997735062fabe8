package openai

import (
	"context"
	"sync"
	"time"
)

// A bucket is a token bucket that refills at perMinute/60 a second and
// holds at most a second's worth (at least 1), so that requests are spread
// evenly over the minute instead of bursting at its start. A taker asking
// for more than the bucket holds waits until it is full and then drives it
// into debt, which later takers wait out: the long-run rate is kept however
// large single takes are. Tokens can be given back or charged after the
// fact (adjust), which is how estimated token counts are corrected by the
// usage the server reports.
//
// The buckets are written here (forty lines) rather than taken from
// golang.org/x/time/rate, because that limiter refuses any single take
// larger than its burst (a long prompt, or a correction after the fact,
// would have to be cut up) and waits on the wall clock, which would make
// the tests of the limits slow; take here gets its clock from the Client.
type bucket struct {
	mu    sync.Mutex
	rate  float64 // per second
	cap   float64
	level float64
	last  time.Time
}

func newBucket(perMinute int, now time.Time) *bucket {
	if perMinute <= 0 {
		return nil
	}
	rate := float64(perMinute) / 60
	c := max(rate, 1)
	return &bucket{rate: rate, cap: c, level: c, last: now}
}

func (b *bucket) refill(now time.Time) {
	if d := now.Sub(b.last); d > 0 {
		b.level = min(b.cap, b.level+d.Seconds()*b.rate)
		b.last = now
	}
}

// take waits until n can be taken and takes it. A nil bucket takes at once.
func (b *bucket) take(ctx context.Context, n float64, now func() time.Time, sleep func(context.Context, time.Duration) error) error {
	if b == nil {
		return nil
	}
	for {
		b.mu.Lock()
		b.refill(now())
		need := min(n, b.cap)
		if b.level >= need {
			b.level -= n
			b.mu.Unlock()
			return nil
		}
		wait := time.Duration((need - b.level) / b.rate * float64(time.Second))
		b.mu.Unlock()
		if err := sleep(ctx, max(wait, time.Millisecond)); err != nil {
			return err
		}
	}
}

// adjust takes n more (or gives -n back) without waiting.
func (b *bucket) adjust(n float64, now time.Time) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill(now)
	b.level = min(b.cap, b.level-n)
}
