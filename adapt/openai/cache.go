package openai

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// Cache configures the response cache: one JSON file per request and sample
// under Dir, so that a rerun or a resumed evaluation never pays for the same
// completion twice. Each file is written to a temporary file and renamed
// into place, so that a crash leaves no torn entry. A cached completion
// keeps the usage it had, so that the report of a rerun is the report of
// the run; Client.Stats shows what was paid.
type Cache struct {
	// Dir is the cache directory, created if missing. It must not be "".
	Dir string
	// Sampled caches requests with a temperature above 0 too. By default
	// only greedy requests (Temperature 0) are cached, since drawing a
	// sample again is usually meant to give a new one.
	Sampled bool
}

// cacheKeyVersion changes when the meaning of a cached entry does: a change
// makes old entries misses, never wrong hits.
const cacheKeyVersion = 1

// cacheKey is everything a completion depends on. The base URL and API key
// are not part of it: the model name says which model answered. N is not
// either: sample i is the same whether it was asked for alone or with
// others.
type cacheKey struct {
	V        int             `json:"v"`
	Model    string          `json:"model"`
	Messages []adapt.Message `json:"messages"`
	Sampling report.Sampling `json:"sampling"`
	Sample   int             `json:"sample"`
}

type cacheEntry struct {
	Key        json.RawMessage   `json:"key"`
	Completion report.Completion `json:"completion"`
}

type diskCache struct {
	dir     string
	sampled bool
}

func newDiskCache(c *Cache) (*diskCache, error) {
	if c.Dir == "" {
		return nil, fmt.Errorf("openai: Cache.Dir is empty")
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("openai: cache: %w", err)
	}
	return &diskCache{dir: c.Dir, sampled: c.Sampled}, nil
}

// keys returns the encoded key of each sample, or nil when the request is
// not to be cached. samples holds each sample's index: Request.Samples[i],
// or i when Samples is nil.
func (d *diskCache) keys(model string, req adapt.Request, samples []int) [][]byte {
	if d == nil || (req.Sampling.Temperature != 0 && !d.sampled) {
		return nil
	}
	s := req.Sampling
	s.N = 0
	if len(s.Stop) == 0 {
		s.Stop = nil
	}
	out := make([][]byte, len(samples))
	for i, sample := range samples {
		b, err := json.Marshal(cacheKey{V: cacheKeyVersion, Model: model, Messages: req.Messages, Sampling: s, Sample: sample})
		if err != nil {
			return nil // cannot happen: the key holds only strings and numbers
		}
		out[i] = b
	}
	return out
}

func (d *diskCache) path(key []byte) string {
	sum := sha256.Sum256(key)
	h := hex.EncodeToString(sum[:])
	return filepath.Join(d.dir, h[:2], h+".json")
}

// load returns the completion cached under key. An unreadable or
// mismatched entry is a miss; the next store replaces it.
func (d *diskCache) load(key []byte) (report.Completion, bool) {
	b, err := os.ReadFile(d.path(key))
	if err != nil {
		return report.Completion{}, false
	}
	var e cacheEntry
	if json.Unmarshal(b, &e) != nil || !bytes.Equal(e.Key, key) || e.Completion.Err != "" {
		return report.Completion{}, false
	}
	return e.Completion, true
}

// store writes an entry atomically: to a temporary file in the same
// directory, then renamed into place.
func (d *diskCache) store(key []byte, c report.Completion) error {
	p := d.path(key)
	b, err := json.Marshal(cacheEntry{Key: key, Completion: c})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
