package gomod

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBinCache: a build is made once and reused while it is in the cache;
// a binary leaves the disk when it leaves the cache, not before its last
// user is done with it; a failed build is not kept.
func TestBinCache(t *testing.T) {
	dir := t.TempDir()
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	c := newBinCache(2)
	build := func(key string) (*binEntry, string) {
		e, must := c.get(key)
		require.True(t, must, "%s: first get builds", key)
		bin := filepath.Join(dir, key)
		require.NoError(t, os.WriteFile(bin, []byte(key), 0o666))
		c.built(key, e, bin, "", nil)
		return e, bin
	}

	a, binA := build("a")
	c.put(a)
	again, must := c.get("a")
	assert.False(t, must, "a second get reuses the build")
	assert.Equal(t, binA, again.bin)

	// "a" is in use while b and c push it out: its binary stays until put.
	b, binB := build("b")
	c.put(b)
	cc, binC := build("c")
	c.put(cc)
	assert.True(t, exists(binA), "a binary in use is kept after its eviction")
	c.put(again)
	assert.False(t, exists(binA), "the last put of an evicted build removes its binary")
	assert.True(t, exists(binB) && exists(binC))

	// A failed build is not kept: the next get builds again.
	e, _ := c.get("bad")
	c.built("bad", e, "", "", errors.New("go: failed"))
	c.put(e)
	_, must = c.get("bad")
	assert.True(t, must, "a failed build is not reused")

	c.close()
	assert.False(t, exists(binB) || exists(binC), "close removes what is not in use")
}

// TestBinCacheConcurrent: of the checks that ask for one build at once, one
// builds and the others wait for its binary.
func TestBinCacheConcurrent(t *testing.T) {
	c := newBinCache(4)
	var builds, mu = 0, sync.Mutex{}
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, must := c.get("k")
			defer c.put(e)
			if must {
				mu.Lock()
				builds++
				mu.Unlock()
				c.built("k", e, "/nonexistent/k.test", "", nil)
			}
			<-e.ready
			got[i] = e.bin
		}()
	}
	wg.Wait()
	assert.Equal(t, 1, builds)
	for _, b := range got {
		assert.Equal(t, "/nonexistent/k.test", b)
	}
}
