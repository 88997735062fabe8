package adapt

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/adaptbench/adaptbench/adapt/internal/store"
	"github.com/adaptbench/adaptbench/adapt/report"

	"github.com/adaptbench/adaptbench/exec"
)

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

// get returns the cached result of t's reference check.
func (c *refCache) get(t *Task) (report.SampleResult, bool) {
	if c == nil {
		return report.SampleResult{}, false
	}
	return store.GetReference(c.dir, c.key(t))
}

// put keeps t's reference result (see store.PutReference).
func (c *refCache) put(t *Task, r report.SampleResult) {
	if c != nil {
		store.PutReference(c.dir, c.key(t), r)
	}
}
