// Package ttlcache is a small in-memory cache whose entries expire.
package ttlcache

import (
	"sync"
	"time"
)

type entry struct {
	value   string
	expires time.Time
}

// Cache maps keys to values that expire ttl after they are set.
type Cache struct {
	mu    sync.Mutex
	items map[string]entry
	ttl   time.Duration
	now   func() time.Time
}

// New returns an empty cache; now is its clock (time.Now if nil).
func New(ttl time.Duration, now func() time.Time) *Cache {
	if now == nil {
		now = time.Now
	}
	return &Cache{items: make(map[string]entry), ttl: ttl, now: now}
}

// Set stores value under key.
func (c *Cache) Set(key, value string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[key] = entry{value: value, expires: c.now().Add(c.ttl)}
}

// Get returns the value stored under key, unless it has expired.
func (c *Cache) Get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		return "", false
	}
	if !c.now().Before(e.expires) {
		delete(c.items, key)
		return "", false
	}
	return e.value, true
}

// Len reports how many entries are stored, expired or not.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}
