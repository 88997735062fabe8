package adapt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sync"
	"time"

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

// checker runs a task's tests against candidate code.
type checker struct {
	runner exec.Runner
	limits exec.Limits
	envs   EnvProvider

	mu     sync.Mutex
	tested time.Duration // time spent in test drivers
}

func (c *checker) testTime() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tested
}

// checkCompletion extracts, splices and tests one completion.
func (c *checker) checkCompletion(ctx context.Context, t *Task, completion string) (SampleResult, error) {
	a, err := Extract(t, completion)
	if errors.Is(err, ErrWrongName) {
		return SampleResult{Outcome: OutcomeWrongName, Detail: err.Error()}, nil
	}
	if err != nil {
		return SampleResult{Outcome: OutcomeNoCode, Detail: err.Error()}, nil
	}
	return c.checkAnswer(ctx, t, a)
}

func (c *checker) checkAnswer(ctx context.Context, t *Task, a Answer) (SampleResult, error) {
	src, err := Splice(t, a)
	if src == "" && err != nil {
		return SampleResult{Outcome: OutcomeNoCode, Detail: err.Error()}, nil
	}
	return c.checkTarget(ctx, t, src)
}

// checkTarget runs the task's tests with the target file's content set to
// src.
func (c *checker) checkTarget(ctx context.Context, t *Task, src string) (SampleResult, error) {
	dir, err := os.MkdirTemp(stagingDir(), "adaptbench-task-")
	if err != nil {
		return SampleResult{Outcome: OutcomeInfraError, Detail: err.Error()}, err
	}
	defer os.RemoveAll(dir)
	write := func(p, content string) error {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		return os.WriteFile(full, []byte(content), 0o644)
	}
	for _, f := range t.Files {
		if err := write(f.Path, f.Content); err != nil {
			return SampleResult{Outcome: OutcomeInfraError, Detail: err.Error()}, err
		}
	}
	if err := write(t.Target.Path, src); err != nil {
		return SampleResult{Outcome: OutcomeInfraError, Detail: err.Error()}, err
	}
	var run RunEnv
	if t.Env != nil && c.envs != nil {
		if run, err = c.envs.Provide(ctx, *t.Env); err != nil {
			err = fmt.Errorf("adapt: task %q: environment: %w", t.ID, err)
			return SampleResult{Outcome: OutcomeInfraError, Detail: err.Error()}, err
		}
	}
	driver, err := driverFor(t, run)
	if err != nil {
		return SampleResult{Outcome: OutcomeInfraError, Detail: err.Error()}, err
	}
	names := make([]string, len(t.Tests))
	for i, tc := range t.Tests {
		names[i] = tc.Name
	}
	start := time.Now()
	suite, err := driver.Test(ctx, c.runner, exec.TestSpec{Dir: dir, Tests: names, Limits: c.limits, Env: run.Env, ReadOnly: run.ReadOnly})
	c.mu.Lock()
	c.tested += time.Since(start)
	c.mu.Unlock()
	if err != nil {
		if ctx.Err() != nil {
			return SampleResult{}, ctx.Err()
		}
		return SampleResult{Outcome: OutcomeInfraError, Detail: err.Error()}, err
	}
	return judge(t, suite), nil
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
