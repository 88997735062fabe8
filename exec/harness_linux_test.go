package exec_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

// TestLostNonceIsAHarnessFault: a runner that loses the job's stdin (as
// the fork server's fallback did) starts the reporter without the run's
// nonce. Nothing of the job ran before its hello, so that is the
// harness's fault: an error with StatusInternal (adapt retries it, then
// leaves it unscored), never evidence against an honest answer.
func TestLostNonceIsAHarnessFault(t *testing.T) {
	for _, framework := range []string{"unittest", "pytest"} {
		t.Run(framework, func(t *testing.T) {
			exectest.RequirePython(t, framework == "pytest")
			bothPaths(t, func(t *testing.T, r exec.Runner) {
				lossy := exec.RunnerFunc(func(ctx context.Context, j exec.Job) (exec.Result, error) {
					j.Stdin = nil
					return r.Run(ctx, j)
				})
				dir := tamperWorkspace(t, framework, "def add(a, b):\n    return a + b\n")
				s, err := tamperDriver(framework).Test(context.Background(), lossy, exec.TestSpec{Dir: dir, Answer: []string{"calc.py"}})
				require.Error(t, err)
				assert.Contains(t, err.Error(), "without the run's nonce")
				require.NotNil(t, s)
				assert.Equal(t, exec.StatusInternal, s.Run.Status)
				assert.False(t, s.Forged(), "%s", tamperKinds(s))
			})
		})
	}
}

// TestLimitBeforeTheReporterIsAHarnessFault: a limit that stops the
// Python process before its reporter started (here a memory limit too
// small for the interpreter) stopped no code of the job: an error (the
// run is retried, then unscored), never a verdict on the code. (The fork
// server's jobs start from an interpreter already running, so only the
// Sandbox's can be stopped this early.)
func TestLimitBeforeTheReporterIsAHarnessFault(t *testing.T) {
	exectest.RequirePython(t, false)
	func(t *testing.T, r exec.Runner) {
		dir := tamperWorkspace(t, "unittest", "def add(a, b):\n    return a + b\n")
		s, err := exec.PythonUnittest{}.Test(context.Background(), r, exec.TestSpec{Dir: dir, Answer: []string{"calc.py"},
			Limits: exec.Limits{Memory: 4 * exec.MiB}})
		require.Error(t, err, "suite %+v", s)
		assert.Contains(t, err.Error(), "before any code of the job ran")
	}(t, exectest.Sandbox(t))
}

// TestGoLostKeyIsAHarnessFault: a runner that loses the job's stdin keeps
// the key from the test binary, whose reporter then signs nothing the host
// can verify, not even its hello (sent before any package of the module
// initializes). Tests that ran without it are a harness fault, an error,
// never evidence against honest code nor its verdict.
func TestGoLostKeyIsAHarnessFault(t *testing.T) {
	requireGo(t)
	bothPaths(t, func(t *testing.T, r exec.Runner) {
		lossy := exec.RunnerFunc(func(ctx context.Context, j exec.Job) (exec.Result, error) {
			j.Stdin = nil
			return r.Run(ctx, j)
		})
		ws := goWorkspace(t, map[string]string{"x.go": "package x\n\nfunc Add(a, b int) int { return a + b }\n", "x_test.go": forgeGoTest})
		s, err := exec.GoTest{}.Test(context.Background(), lossy, exec.TestSpec{Dir: ws, Answer: []string{"x.go"}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "harness fault")
		require.NotNil(t, s)
		assert.Equal(t, exec.StatusInternal, s.Run.Status)
		assert.False(t, s.Forged(), "%+v", s.Tampered)

		// The same answer through the runner itself passes.
		s, err = exec.GoTest{}.Test(context.Background(), r, exec.TestSpec{Dir: ws, Answer: []string{"x.go"}})
		require.NoError(t, err)
		assert.Equal(t, 2, s.Count(exec.TestPassed), "%+v", s.Tests)
		assert.False(t, s.Forged(), "%+v", s.Tampered)
	})
}
