package adapt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/adaptbench/adaptbench/adapt/report"

	"github.com/adaptbench/adaptbench/exec"
)

// refResults holds the reference checks made in this process, by cache
// key: every evaluation of a task set pays for each reference once, the
// second model's run none.
var refResults sync.Map // string -> SampleResult

// refCache finds and keeps the reference checks of one evaluation. A
// check is the same when the task (its content digest), the runner (its
// kind and its account of its isolation), the limits, the environment
// provider and the machine (the manifest: kernel, toolchains, Python's
// packages) are: its key digests them all. A runner that gives no
// account of itself (no Isolation method: a function, a test double) is
// not cached, as two of them may do anything.
type refCache struct {
	dir  string // Options.ReferenceCache; "" for the process's only
	base string // the digest of all but the task
}

// newRefCache returns the cache of an evaluation run by runner on the
// machine m, or nil when its checks cannot be told apart.
func newRefCache(o *Options, info *report.RunInfo, runner exec.Runner) *refCache {
	iso, ok := runner.(interface{ Isolation() string })
	if !ok || info.Manifest == nil {
		return nil
	}
	man, err := json.Marshal(info.Manifest)
	if err != nil {
		return nil
	}
	h := sha256.New()
	// The answer's isolation decides which process the reference ran in.
	fmt.Fprintf(h, "reference check v1\nrunner %T %s\nlimits %+v\nenvironments %T\nmanifest %s\nanswer isolation %q\n",
		runner, iso.Isolation(), o.Limits.WithDefaults(), o.Environments, man, o.Isolation.name())
	return &refCache{dir: o.ReferenceCache, base: hex.EncodeToString(h.Sum(nil))}
}

func (c *refCache) key(t *Task) string {
	b, _ := json.Marshal(t)
	sum := sha256.Sum256(append([]byte(c.base+"\n"), b...))
	return hex.EncodeToString(sum[:])
}

// cacheable reports whether a reference's result may stand for its next
// check: not an infrastructure error (never a verdict) nor a timeout (a
// busy machine's verdict as much as the code's), which are checked again.
func cacheable(r report.SampleResult) bool {
	return r.Outcome != report.OutcomeInfraError && r.Outcome != report.OutcomeInvalid && r.Outcome != report.OutcomeTimeout && r.Attempts == 0
}

// refEntry is a cache file: the key it answers and the result, with the
// result's digest, so that a torn or edited file is not trusted.
type refEntry struct {
	Key    string          `json:"key"`
	Result json.RawMessage `json:"result"`
	SHA256 string          `json:"sha256"`
}

// get returns the cached result of t's reference check.
func (c *refCache) get(t *Task) (report.SampleResult, bool) {
	if c == nil {
		return report.SampleResult{}, false
	}
	k := c.key(t)
	if v, ok := refResults.Load(k); ok {
		return v.(report.SampleResult), true
	}
	if c.dir == "" {
		return report.SampleResult{}, false
	}
	b, err := os.ReadFile(filepath.Join(c.dir, k+".json"))
	if err != nil {
		return report.SampleResult{}, false
	}
	// Anything but a whole entry for this key whose digest holds is
	// ignored: the check is made again and the entry rewritten.
	var e refEntry
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if d.Decode(&e) != nil || e.Key != k || e.SHA256 != digestHex(e.Result) {
		return report.SampleResult{}, false
	}
	var r report.SampleResult
	if json.Unmarshal(e.Result, &r) != nil || !cacheable(r) || r.Sample != -1 {
		return report.SampleResult{}, false
	}
	refResults.Store(k, r)
	return r, true
}

// put keeps t's reference result, in the process and, with a directory,
// in a file written whole and renamed into place, so that processes
// writing the same entry at once each leave a whole one. A file that
// cannot be written costs the next process a check, not a number.
func (c *refCache) put(t *Task, r report.SampleResult) {
	if c == nil || !cacheable(r) {
		return
	}
	k := c.key(t)
	refResults.Store(k, r)
	if c.dir == "" {
		return
	}
	res, err := json.Marshal(r)
	if err != nil {
		return
	}
	b, err := json.Marshal(refEntry{Key: k, Result: res, SHA256: digestHex(res)})
	if err != nil || os.MkdirAll(c.dir, 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(c.dir, ".tmp-"+k[:16]+"-*")
	if err != nil {
		return
	}
	_, werr := f.Write(append(b, '\n'))
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), filepath.Join(c.dir, k+".json")) != nil {
		os.Remove(f.Name())
	}
}

func digestHex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
