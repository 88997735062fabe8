package gomod

import (
	"os"
	"sync"
)

// binCache keeps the test binaries of the last few builds of a Module
// made outside a schema (a mutant built alone, or a package unchanged), so
// that the runs confirming a mutant's failures (Options.Runs), which come
// right after its first check, run the binary that check built instead of
// building the same source again. A binary is removed when it falls out of
// the cache and no check is using it, or when the cache is closed.
type binCache struct {
	mu      sync.Mutex
	max     int
	entries map[string]*binEntry
	order   []string // least recently used first
}

// A binEntry is one build: ready is closed once bin (the binary, "" for a
// package without tests) or compile (the compiler's messages) is known, or
// err. users counts the checks between get and put.
type binEntry struct {
	ready        chan struct{}
	bin, compile string
	err          error
	users        int
	dropped      bool // out of the cache: removed by its last put
}

func newBinCache(max int) *binCache {
	return &binCache{max: max, entries: map[string]*binEntry{}}
}

// get returns the entry of key and whether the caller must build it (and
// then call built). The caller calls put when done with the binary.
func (c *binCache) get(key string) (e *binEntry, build bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e = c.entries[key]; e != nil {
		e.users++
		c.touch(key)
		return e, false
	}
	e = &binEntry{ready: make(chan struct{}), users: 1}
	c.entries[key] = e
	c.order = append(c.order, key)
	c.evict()
	return e, true
}

// built records the outcome of the build get asked for. A failed build
// (err) is not kept: the next check builds again.
func (c *binCache) built(key string, e *binEntry, bin, compile string, err error) {
	c.mu.Lock()
	e.bin, e.compile, e.err = bin, compile, err
	if err != nil && c.entries[key] == e {
		c.remove(key)
	}
	c.mu.Unlock()
	close(e.ready)
}

// put ends one use of e.
func (c *binCache) put(e *binEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.users--
	if e.users == 0 && e.dropped && e.bin != "" {
		os.Remove(e.bin)
	}
}

// close removes every binary not in use (a caller still using one removes
// it with put).
func (c *binCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.order) > 0 {
		c.remove(c.order[0])
	}
}

func (c *binCache) touch(key string) {
	for i, k := range c.order {
		if k == key {
			c.order = append(append(c.order[:i:i], c.order[i+1:]...), key)
			return
		}
	}
}

// evict drops the least recently used entries past max.
func (c *binCache) evict() {
	for len(c.order) > c.max {
		c.remove(c.order[0])
	}
}

// remove takes key out of the cache; its binary goes now, or with its
// last user.
func (c *binCache) remove(key string) {
	e := c.entries[key]
	delete(c.entries, key)
	for i, k := range c.order {
		if k == key {
			c.order = append(c.order[:i:i], c.order[i+1:]...)
			break
		}
	}
	e.dropped = true
	if e.users == 0 && e.bin != "" {
		os.Remove(e.bin)
	}
}
