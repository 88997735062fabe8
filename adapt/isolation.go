package adapt

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
)

// Isolation says whether a Python task's answers run in a process of their
// own (exec.TestSpec.Isolate), out of the reach of the tests' process and
// its reporter: the answer can then not choose its verdict by reaching the
// reporter's objects, which in-process it can (see exec's trust boundary).
type Isolation int

const (
	// IsolationOff runs every answer in the tests' process.
	IsolationOff Isolation = iota
	// IsolationAuto runs a task's answers isolated when its reference
	// gives the same verdicts isolated as in-process (checked once per
	// task and Checker), else in-process. Tests that patch names inside
	// the answer's module, or hand it objects it must read, are the usual
	// reasons a task cannot. Each sample records which it was
	// (SampleResult.Isolation).
	IsolationAuto
	// IsolationRequired is IsolationAuto where a task that cannot run
	// isolated is not run: its check is an error wrapping ErrUnsupported
	// that says why.
	IsolationRequired
)

// name is the Isolation in RunInfo: "" for IsolationOff.
func (i Isolation) name() string {
	switch i {
	case IsolationAuto:
		return "auto"
	case IsolationRequired:
		return "required"
	case IsolationOff:
		return ""
	}
	return fmt.Sprintf("isolation(%d)", int(i))
}

// Sample isolations (SampleResult.Isolation).
const (
	isolatedProcess = "process"
	isolatedNot     = "in-process"
)

// isoEntry is the decision for one task, made once.
type isoEntry struct {
	mu   sync.Mutex
	done bool
	ok   bool
	why  string
}

// isolation decides whether t's answers run isolated (see Isolation).
func (c *Checker) isolation(ctx context.Context, t *Task, lim exec.Limits) (bool, error) {
	if c.Isolation == IsolationOff {
		return false, nil
	}
	if fw := t.FrameworkOrDefault(); fw != FrameworkUnittest && fw != FrameworkPytest {
		return false, nil
	}
	e := c.isoEntry(t)
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.done {
		ok, why, err := c.isoDecide(ctx, t, lim)
		if err != nil {
			return false, err // an infrastructure error: decided again next time
		}
		e.done, e.ok, e.why = true, ok, why
	}
	if !e.ok && c.Isolation == IsolationRequired {
		return false, fmt.Errorf("%w: task %q cannot run its answers in a process of their own: %s", ErrUnsupported, t.ID, e.why)
	}
	return e.ok, nil
}

func (c *Checker) isoEntry(t *Task) *isoEntry {
	h := sha256.New()
	fmt.Fprintf(h, "%q %q %q %q %q", t.ID, t.Target.Path, t.Target.Content, t.Reference, t.Framework)
	for _, f := range t.Files {
		fmt.Fprintf(h, " %q %q", f.Path, f.Content)
	}
	for _, tc := range t.Tests {
		fmt.Fprintf(h, " %q", tc.Name)
	}
	key := string(h.Sum(nil))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.isoCache == nil {
		c.isoCache = map[string]*isoEntry{}
	}
	e := c.isoCache[key]
	if e == nil {
		e = &isoEntry{}
		c.isoCache[key] = e
	}
	return e
}

// isoDecide runs t's reference in-process and isolated: the task runs
// isolated when both give the same outcome and the same status for every
// test, each judged with the evidence kinds it gave allowed.
func (c *Checker) isoDecide(ctx context.Context, t *Task, lim exec.Limits) (bool, string, error) {
	if t.Reference == "" {
		return false, "the task has no reference to compare the two ways with", nil
	}
	src, err := Splice(t, Answer{Code: t.Reference})
	if src == "" && err != nil {
		return false, "its reference does not splice: " + err.Error(), nil
	}
	var res [2]report.SampleResult
	for i, iso := range []bool{false, true} {
		s, err := c.run(ctx, t, src, lim, iso)
		if err != nil {
			return false, "", err
		}
		// The reference is trusted: the evidence kinds its own runs
		// give are what the task needs (its baseline), not a reason to
		// keep its answers in the tests' process.
		res[i] = judge(t, s, evidenceKinds(s.Tampered))
	}
	return sameVerdicts(res[0], res[1])
}

// sameVerdicts compares the in-process result a with the isolated b.
func sameVerdicts(a, b report.SampleResult) (bool, string, error) {
	if a.Outcome != b.Outcome {
		return false, fmt.Sprintf("its reference is %s in-process and %s isolated", a.Outcome, b.Outcome), nil
	}
	if len(a.Tests) != len(b.Tests) {
		return false, fmt.Sprintf("its reference runs %d tests in-process and %d isolated", len(a.Tests), len(b.Tests)), nil
	}
	for i, x := range a.Tests {
		y := b.Tests[i]
		if x.Name != y.Name || x.Status != y.Status {
			return false, fmt.Sprintf("its reference's test %s is %s in-process and %s isolated", x.Name, x.Status, y.Status), nil
		}
	}
	return true, "", nil
}

// isolationOf is what a sample records: "" where the Checker does not
// isolate or the task's framework has no such mode.
func (c *Checker) isolationOf(t *Task, s *exec.Suite) string {
	if c.Isolation == IsolationOff {
		return ""
	}
	if fw := t.FrameworkOrDefault(); fw != FrameworkUnittest && fw != FrameworkPytest {
		return ""
	}
	if s.Isolated {
		return isolatedProcess
	}
	return isolatedNot
}
