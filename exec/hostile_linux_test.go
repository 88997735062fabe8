package exec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
)

// bothPaths runs f once with the Sandbox and once with the ForkServer.
func bothPaths(t *testing.T, f func(t *testing.T, r exec.Runner)) {
	t.Run("sandbox", func(t *testing.T) { f(t, newSandbox(t)) })
	t.Run("forkserver", func(t *testing.T) { f(t, forkServer(t)) })
}

// unittestWorkspace writes a workspace whose test module runs attack when
// it is imported, with the driver's scratch directory in SCRATCH.
func unittestWorkspace(t *testing.T, attack string) string {
	t.Helper()
	dir := t.TempDir()
	src := "import glob, os, unittest\nSCRATCH = glob.glob('.adaptbench-*')[0]\n" + attack +
		"\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "test_x.py"), []byte(src), 0o644))
	return dir
}

// TestHostNeverFollowsJobPaths: a job replaces the results file the host
// reads after the run with a link to a root-only host file, to the host's
// own environment, to /dev/zero, or with a FIFO. The host reads none of
// them: the test is reported as not reported (the job's doing), nothing of
// the host leaks into the Suite, and the call ends at once.
func TestHostNeverFollowsJobPaths(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	secretDir := t.TempDir()
	secret := fmt.Sprintf("TOPSECRET-%d", time.Now().UnixNano())
	secretFile := filepath.Join(secretDir, "secret")
	require.NoError(t, os.WriteFile(secretFile, []byte(secret+"\n"), 0o600))
	t.Setenv("ADAPTBENCH_HOST_SECRET", secret)
	replace := func(body string) string {
		return "p = os.path.join(SCRATCH, 'results.jsonl')\nos.unlink(p)\n" + body
	}
	tests := []struct {
		name, attack, reason string
	}{
		{"root-only file", replace(fmt.Sprintf("os.symlink(%q, p)", secretFile)), "a link to a file only root reads"},
		{"host environ", replace("os.symlink('/proc/self/environ', p)"), "a link the host would resolve to its own environment"},
		{"dev zero", replace("os.symlink('/dev/zero', p)"), "a link to an endless device: the host would grow to out-of-memory"},
		{"fifo", replace("os.mkfifo(p)"), "a FIFO: the host's read would never end"},
		{"linked directory", "import shutil\nshutil.rmtree(SCRATCH)\nos.symlink(" + fmt.Sprintf("%q", secretDir) + ", SCRATCH)", "the scratch directory itself replaced by a link"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bothPaths(t, func(t *testing.T, r exec.Runner) {
				dir := unittestWorkspace(t, tc.attack)
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				start := time.Now()
				s, err := exec.PythonUnittest{}.Test(ctx, r, exec.TestSpec{Dir: dir, Tests: []string{"test_x.T.test_a"}, Limits: exec.Limits{WallTime: 20 * time.Second}})
				require.NoError(t, err, tc.reason)
				assert.Less(t, time.Since(start), 15*time.Second, "the host did not block on the job's file")
				b, _ := json.Marshal(s)
				assert.NotContains(t, string(b), secret, "%s: the host read it", tc.reason)
				for _, tr := range s.Tests {
					assert.NotEqual(t, exec.TestPassed, tr.Status, "%s: the results came from elsewhere", tc.reason)
				}
				assert.NotContains(t, string(s.Run.Stderr), "adaptbench reporter started", "the reporter's mark is taken off")
			})
		})
	}
}

func TestReadWorkspaceFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "ok"), []byte("fine"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big"), []byte(strings.Repeat("x", 100)), 0o644))
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(dir, "link")))
	require.NoError(t, os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "dirlink")))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero")))
	tests := []struct {
		name, rel string
		want      string
		err       error
		reason    string
	}{
		{"regular", "a/ok", "fine", nil, "a plain file"},
		{"link", "link", "", exec.ErrUnsafeFile, "a symbolic link is not followed"},
		{"link in the path", "dirlink/ok", "", exec.ErrUnsafeFile, "nor a link to a directory on the way"},
		{"device", "zero", "", exec.ErrUnsafeFile, "nor a link to a device"},
		{"escape", "../" + filepath.Base(dir) + "/a/ok", "", exec.ErrUnsafeFile, "nothing outside the workspace"},
		{"absolute", "/etc/passwd", "", exec.ErrUnsafeFile, "an absolute path"},
		{"directory", "a", "", exec.ErrUnsafeFile, "a directory is not a regular file"},
		{"missing", "nope", "", os.ErrNotExist, "a missing file"},
		{"too large", "big", strings.Repeat("x", 10), exec.ErrFileTooLarge, "the first limit bytes and an error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := exec.ReadWorkspaceFile(dir, tc.rel, 10)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err, tc.reason)
			} else {
				require.NoError(t, err, tc.reason)
			}
			assert.Equal(t, tc.want, string(b), tc.reason)
		})
	}
}

// TestForkServerJobCannotChooseItsVerdict: what a job leaves in its
// workspace or /tmp cannot make the server fail (StatusInternal, which adapt
// does not score), hang it past the limits, blow its memory up, forge a
// memory verdict or hide an output flood; the next job runs as usual.
func TestForkServerJobCannotChooseItsVerdict(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	fs := forkServer(t)
	tests := []struct {
		name, code, reason string
		want               exec.Status
		check              func(t *testing.T, r exec.Result)
	}{
		{"deep directories", "import os\nfor i in range(3000):\n    os.mkdir('d')\n    os.chdir('d')\nopen('f', 'w').write('x')",
			"3000 nested directories, past PATH_MAX: walked and wiped without recursion", exec.StatusOK, nil},
		{"fifo", "import os\nos.mkfifo('pipe')\nos.mkfifo('/tmp/pipe')", "a FIFO is not copied back, and nothing blocks on it", exec.StatusOK,
			func(t *testing.T, r exec.Result) {
				assert.Equal(t, 1, r.NotCopied, "the FIFO is named as not copied")
				assert.Equal(t, []string{"pipe"}, r.NotCopiedFiles)
			}},
		{"link to /dev/zero", "import os\nos.symlink('/dev/zero', 'zero')\nos.symlink('/dev/zero', '/tmp/zero')", "a link is never followed", exec.StatusOK,
			func(t *testing.T, r exec.Result) { assert.Equal(t, 1, r.NotCopied) }},
		{"forged memory", "import os\nos.makedirs('/tmp/.io', exist_ok=True)\nopen('/tmp/.io/memory', 'w').close()", "the server keeps no files in the job's reach", exec.StatusOK, nil},
		{"hidden flood", "import os, sys\nb = b'x' * (1 << 20)\nfor _ in range(20): os.write(1, b)\ntry: os.ftruncate(1, 0)\nexcept OSError: pass\nopen('/tmp/.io/out', 'w') if os.path.isdir('/tmp/.io') else None",
			"20 MiB to stdout cannot be taken back", exec.StatusOutput, nil},
		{"huge file", "open('big', 'wb').write(b'x' * (9 << 20))", "past the copy-back cap: named, not silent", exec.StatusOK,
			func(t *testing.T, r exec.Result) {
				assert.Equal(t, 1, r.NotCopied)
				assert.Equal(t, []string{"big"}, r.NotCopiedFiles)
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			start := time.Now()
			res, err := fs.Run(context.Background(), exec.Job{Dir: dir, Args: py(tc.code), Limits: exec.Limits{Output: 16 * exec.MiB, WallTime: 20 * time.Second}})
			require.NoError(t, err, "%s: not an internal error", tc.reason)
			assert.Equal(t, tc.want, res.Status, "%s: %s %s", tc.reason, res.Detail, res.Stderr)
			assert.Less(t, time.Since(start), 10*time.Second, tc.reason)
			if tc.check != nil {
				tc.check(t, res)
			}
			next, err := fs.Run(context.Background(), exec.Job{Args: py("import os; print(sorted(os.listdir('/tmp')), os.listdir('.'))")})
			require.NoError(t, err)
			assert.Equal(t, "['work'] []\n", string(next.Stdout), "the next job starts clean")
		})
	}
}
