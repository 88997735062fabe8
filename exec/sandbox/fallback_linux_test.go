package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

const fallbackTests = `import unittest
import calc

class T(unittest.TestCase):
    def test_add(self):
        self.assertEqual(calc.add(2, 3), 5)

    def test_add_ones(self):
        self.assertEqual(calc.add(1, 1), 2)
`

// fallbackSuite runs an honest answer's tests on f with lim, after prep
// changed the workspace or the server.
func fallbackSuite(t *testing.T, f *sandbox.ForkServer, lim exec.Limits, prep func(dir string)) *exec.Suite {
	t.Helper()
	dir := exectest.Workspace(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "calc.py"), []byte("def add(a, b):\n    return a + b\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "test_calc.py"), []byte(fallbackTests), 0o644))
	if prep != nil {
		prep(dir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := exec.PythonUnittest{}.Test(ctx, f, exec.TestSpec{Dir: dir, Limits: lim, Answer: []string{"calc.py"}})
	require.NoError(t, err)
	return s
}

// TestForkServerFallbacksKeepTheVerdict: every way a job the fork server
// was asked to run ends up in its Sandbox (a workspace over the server's
// limit, a limit the server cannot set, a server that died between jobs)
// gives the job its whole stdin, so an honest answer's tests pass with no
// evidence. The server read the stdin away before falling back, and the
// reporter, without its nonce, looked forged.
func TestForkServerFallbacksKeepTheVerdict(t *testing.T) {
	exectest.RequirePython(t, false)
	f, err := sandbox.NewForkServer(newSandbox(t), nil)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	big := func(dir string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "data.bin"), []byte(strings.Repeat("x", 9<<20)), 0o644))
	}
	cases := []struct {
		name string
		lim  exec.Limits
		prep func(dir string)
	}{
		{"served", exec.Limits{}, nil},
		{"workspace over the server's limit", exec.Limits{}, big},
		{"more open files than the server allows", exec.Limits{OpenFiles: 4096}, nil},
		{"server gone between jobs", exec.Limits{}, func(string) {
			require.Positive(t, sandbox.KillIdleServers(f), "a server from the job before is idle")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fallbackSuite(t, f, c.lim, c.prep)
			assert.Equal(t, 2, s.Count(exec.TestPassed), "%+v\nstderr %s", s.Tests, s.Run.Stderr)
			assert.Empty(t, s.Tampered)
		})
	}
	// The stdin of a plain job that falls back is whole too.
	dir := exectest.Workspace(t)
	big(dir)
	res, err := f.Run(context.Background(), exec.Job{Dir: dir, Args: []string{exec.DefaultPython, "-c", "import sys; print(sys.stdin.read())"},
		Stdin: strings.NewReader("all of it\n")})
	require.NoError(t, err)
	assert.Equal(t, "all of it\n\n", string(res.Stdout))
}
