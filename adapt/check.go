package adapt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
)

// EnvProvider turns the Environment a task names into what its test run
// needs. The versioned package implements it; Evaluate uses the machine's
// default toolchain when none is given.
type EnvProvider interface {
	Provide(ctx context.Context, env Environment) (RunEnv, error)
}

// RunEnv is a provisioned environment.
type RunEnv struct {
	// Python is the interpreter to run Python tests with; "" means the
	// driver's default.
	Python string
	// Env holds extra KEY=VALUE entries for the test process.
	Env []string
	// BuildEnv holds extra KEY=VALUE entries for a compiled language's
	// build step, which runs on the host before the tests run in the
	// sandbox (exec.GoTest's "go test -c"): GOMODCACHE=DIR, say, to build
	// from a module cache the provider filled.
	BuildEnv []string
	// ReadOnly names host paths the tests must read inside the sandbox
	// (the environment's interpreter and packages when they live outside
	// /usr), as in exec.Job.ReadOnly.
	ReadOnly []string
}

// Checker checks answers against tasks: it writes the task's workspace
// with the answer in its target file, provisions the environment the task
// names, runs the tests of the task's framework through Runner and judges
// them. It is the check of one sample in Evaluate, exported for callers
// that check code a model did not write through Evaluate (a generator
// validating its variants, a search testing its programs). The zero value
// is not usable: set Runner. A Checker is safe for concurrent use.
type Checker struct {
	// Runner runs the tests (a sandbox.ForkServer, a sandbox.Sandbox).
	Runner exec.Runner
	// Limits bounds every test run; zero fields take exec's defaults.
	Limits exec.Limits
	// Environments provisions the environments tasks name; nil means the
	// default toolchain for every task.
	Environments EnvProvider
	// Isolation says whether Python answers run in a process of their
	// own (see Isolation). The zero value runs them in the tests' process.
	Isolation Isolation

	mu     sync.Mutex
	tested time.Duration // time spent in test drivers
	// isoCache holds the isolation decision of each task (see isolation).
	isoCache map[string]*isoEntry
	// allowed holds, by task ID, the evidence kinds the task's reference
	// run produced (SampleResult.Allowed): what the task needs, never
	// evidence against its samples.
	allowed map[string][]string
	// alone is held for reading by every test run and for writing by a
	// rerun of a starved one, which so runs with no other of this
	// Checker's (see Test).
	alone sync.RWMutex
}

// testTime is the time spent running tests (building and running them
// through the test drivers), summed over every check so far.
func (c *Checker) testTime() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tested
}

// checkCompletion extracts the answer from a completion (see Extract) and
// checks it. A completion without usable code is OutcomeNoCode (or
// OutcomeWrongName), with no test run.
func (c *Checker) checkCompletion(ctx context.Context, t *Task, completion string) (report.SampleResult, error) {
	a, err := Extract(t, completion)
	if err != nil {
		return noAnswer(err), nil
	}
	return c.Check(ctx, t, a)
}

// noAnswer is the result of a completion no answer could be taken from.
func noAnswer(err error) report.SampleResult {
	if errors.Is(err, ErrWrongName) {
		return report.SampleResult{Outcome: report.OutcomeWrongName, Detail: err.Error()}
	}
	return report.SampleResult{Outcome: report.OutcomeNoCode, Detail: err.Error()}
}

// Check splices a into t's target (see Splice) and runs t's tests. The
// result's Code is a.Code. The error is non-nil for an infrastructure
// error (the result says OutcomeInfraError too: it is never a score) and
// when ctx ends; a test failure, a compile error or a limit is an outcome,
// not an error.
func (c *Checker) Check(ctx context.Context, t *Task, a Answer) (report.SampleResult, error) {
	src, err := Splice(t, a)
	if src == "" && err != nil {
		return report.SampleResult{Outcome: report.OutcomeNoCode, Detail: err.Error(), Code: a.Code}, nil
	}
	suite, err := c.Test(ctx, t, src)
	if err != nil {
		if ctx.Err() != nil {
			return report.SampleResult{Code: a.Code}, ctx.Err()
		}
		return report.SampleResult{Outcome: report.OutcomeInfraError, Detail: err.Error(), Code: a.Code}, err
	}
	c.mu.Lock()
	allowed := c.allowed[t.ID]
	c.mu.Unlock()
	res := judge(t, suite, allowed)
	res.Code = a.Code
	res.Isolation = c.isolationOf(t, suite)
	return res, nil
}

// checkReference checks t's reference. The reference is trusted: the
// evidence kinds its run produces are what the task needs, so its run is
// judged without them (never tampered) and its result lists them in
// Allowed; allow then makes them no evidence against t's samples.
func (c *Checker) checkReference(ctx context.Context, t *Task) (report.SampleResult, error) {
	src, err := Splice(t, Answer{Code: t.Reference})
	if src == "" && err != nil {
		return report.SampleResult{Outcome: report.OutcomeNoCode, Detail: err.Error()}, nil
	}
	suite, err := c.Test(ctx, t, src)
	if err != nil {
		if ctx.Err() != nil {
			return report.SampleResult{}, ctx.Err()
		}
		return report.SampleResult{Outcome: report.OutcomeInfraError, Detail: err.Error()}, err
	}
	kinds := evidenceKinds(suite.Tampered)
	res := judge(t, suite, kinds)
	res.Allowed = kinds
	return res, nil
}

// allow sets the evidence kinds t's samples may produce (its reference's).
func (c *Checker) allow(taskID string, kinds []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.allowed == nil {
		c.allowed = map[string][]string{}
	}
	c.allowed[taskID] = kinds
}

// Test runs t's tests with t's target file's content set to src, and
// returns what the test driver reported; judge turns it into a result.
// The workspace is t's base (if any), t's files over it and the target
// file, in a fresh directory removed afterwards; the driver is the one of t's framework, with the
// environment t names. The error is for a run that could not happen (the
// workspace, the environment, the sandbox, ctx).
//
// A wall-time verdict for a run that used a fraction of its CPU limit
// measures the machine, not the code, when the machine is busy: such a
// run is not final. It is run once more from a fresh workspace, alone (no
// other test of this Checker runs meanwhile; the Evaluate that owns the
// Checker waits), with the wall-time limit scaled by the machine's load
// (the 1-minute load average per CPU, between 1 and 4), and that run is
// the verdict. A run that used almost no CPU for its wall time (a test
// that hangs or sleeps) was not starved and is final at once.
func (c *Checker) Test(ctx context.Context, t *Task, src string) (*exec.Suite, error) {
	c.alone.RLock()
	suite, err := c.test(ctx, t, src, c.Limits)
	c.alone.RUnlock()
	if err != nil || !starved(suite, c.Limits) {
		return suite, err
	}
	c.alone.Lock()
	defer c.alone.Unlock()
	lim := c.Limits
	lim.WallTime = time.Duration(float64(c.Limits.WithDefaults().WallTime) * loadFactor())
	return c.test(ctx, t, src, lim)
}

// starved reports whether a suite's run ended at its wall-time limit
// having used less than half its CPU limit, but not almost none of its
// wall time: under load, a CPU-bound run gets a share of a CPU, and even
// at 25 runnable jobs per CPU that is 4%; a run below 2% was waiting on
// something else.
func starved(s *exec.Suite, l exec.Limits) bool {
	if s == nil || s.Run.Status != exec.StatusWallTime {
		return false
	}
	l = l.WithDefaults()
	cpu := s.Run.CPUTime
	return l.CPUTime > 0 && cpu < l.CPUTime/2 && cpu >= l.WallTime/50
}

// loadFactor is the machine's 1-minute load average per CPU, between 1
// and 4 (1 where it cannot be read).
func loadFactor() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 1
	}
	var load float64
	if _, err := fmt.Sscan(string(b), &load); err != nil {
		return 1
	}
	return min(max(load/float64(runtime.NumCPU()), 1), 4)
}

// test is one run of Test with the limits lim.
func (c *Checker) test(ctx context.Context, t *Task, src string, lim exec.Limits) (*exec.Suite, error) {
	if c.Runner == nil {
		return nil, errors.New("adapt: Checker has no Runner")
	}
	iso, err := c.isolation(ctx, t, lim)
	if err != nil {
		return nil, err
	}
	return c.run(ctx, t, src, lim, iso)
}

// run is test with the answer isolated or not.
func (c *Checker) run(ctx context.Context, t *Task, src string, lim exec.Limits, isolate bool) (*exec.Suite, error) {
	dir, err := os.MkdirTemp(stagingDir(), "adaptbench-task-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	write := func(p, content string) error {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		return os.WriteFile(full, []byte(content), 0o644)
	}
	if t.Base != nil {
		if !t.Base.resolved {
			return nil, fmt.Errorf("%w: task %q: base %s is not loaded", ErrBase, t.ID, t.Base.digest)
		}
		for _, f := range t.Base.files {
			if f.Path == t.Target.Path {
				continue
			}
			if err := write(f.Path, f.Content); err != nil {
				return nil, err
			}
		}
	}
	for _, f := range t.Files {
		if err := write(f.Path, f.Content); err != nil {
			return nil, err
		}
	}
	if err := write(t.Target.Path, src); err != nil {
		return nil, err
	}
	var run RunEnv
	if t.Env != nil && c.Environments != nil {
		if run, err = c.Environments.Provide(ctx, *t.Env); err != nil {
			return nil, fmt.Errorf("adapt: task %q: environment: %w", t.ID, err)
		}
	}
	driver, err := driverFor(t, run)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(t.Tests))
	for i, tc := range t.Tests {
		names[i] = tc.Name
	}
	start := time.Now()
	suite, err := driver.Test(ctx, c.Runner, exec.TestSpec{Dir: dir, Tests: names, Limits: lim, Env: run.Env, ReadOnly: run.ReadOnly,
		Answer: []string{t.Target.Path}, Isolate: isolate})
	c.mu.Lock()
	c.tested += time.Since(start)
	c.mu.Unlock()
	return suite, err
}

// stagingDir is where workspaces are written before a run: memory-backed
// /dev/shm where there is one (a workspace lives for one check), else the
// system's temporary directory.
var stagingDir = sync.OnceValue(func() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "adaptbench-probe-"); err == nil {
			os.Remove(d)
			return "/dev/shm"
		}
	}
	return os.TempDir()
})

// ErrUnsupported is wrapped when a task needs something this machine or
// package cannot give (a framework, a toolchain).
var ErrUnsupported = errors.New("adapt: unsupported")

func driverFor(t *Task, env RunEnv) (exec.Driver, error) {
	switch t.FrameworkOrDefault() {
	case FrameworkUnittest:
		return exec.PythonUnittest{Python: env.Python}, nil
	case FrameworkPytest:
		return exec.Pytest{Python: env.Python}, nil
	case FrameworkGo:
		// The tests are those of the target file's package.
		return exec.GoTest{Package: path.Dir(t.Target.Path), BuildEnv: env.BuildEnv}, nil
	case FrameworkJUnit:
		return exec.JUnit{}, nil
	}
	return nil, fmt.Errorf("%w: framework %q", ErrUnsupported, t.Framework)
}
