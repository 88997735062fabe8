package ttlcache

import (
	"testing"
	"time"
)

// newCache returns a cache with a 10s TTL whose clock reads *clk, a manual
// clock that starts in the year 2000, long before time.Now().
func newCache() (*Cache, *time.Time) {
	clk := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	return New(10*time.Second, func() time.Time { return clk }), &clk
}

func expect(t *testing.T, c *Cache, key, want string, wantOK bool) {
	t.Helper()
	if got, ok := c.Get(key); got != want || ok != wantOK {
		t.Errorf("Get(%q) = %q, %v; want %q, %v", key, got, ok, want, wantOK)
	}
}

func TestGetIsMethod(t *testing.T) {
	var _ func(*Cache, string) (string, bool) = (*Cache).Get
	c := New(time.Minute, nil)
	c.Set("a", "1")
	expect(t, c, "a", "1", true)
}

func TestGetUsesClock(t *testing.T) {
	c, _ := newCache()
	c.Set("k", "v") // expires 10s after 2000-01-01 on the cache's clock
	expect(t, c, "k", "v", true)
}

func TestGetExpiresAtDeadline(t *testing.T) {
	c, clk := newCache()
	c.Set("k", "v")
	*clk = clk.Add(10*time.Second - time.Nanosecond)
	expect(t, c, "k", "v", true)
	*clk = clk.Add(time.Nanosecond)
	expect(t, c, "k", "", false)
}

func TestGetDeletesExpired(t *testing.T) {
	c, clk := newCache()
	c.Set("old", "1")
	*clk = clk.Add(time.Minute)
	c.Set("new", "2")
	expect(t, c, "old", "", false)
	if n := c.Len(); n != 1 {
		t.Errorf("Len() = %d after reading an expired entry, want 1", n)
	}
}

func TestGetMissing(t *testing.T) {
	c, _ := newCache()
	expect(t, c, "nope", "", false)
}

func TestCacheRoundTrip(t *testing.T) {
	c, clk := newCache()
	c.Set("a", "1")
	*clk = clk.Add(5 * time.Second)
	c.Set("b", "2")
	*clk = clk.Add(6 * time.Second)
	expect(t, c, "a", "", false)
	expect(t, c, "b", "2", true)
}
