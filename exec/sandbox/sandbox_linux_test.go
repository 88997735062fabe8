package sandbox_test

import (
	"context"
	"fmt"
	"net"
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

const python = "/usr/bin/python3"

// newSandbox returns the shared sandbox, or skips the test on a kernel that
// does not allow it (CI machines do).
func newSandbox(t testing.TB) *sandbox.Sandbox { return exectest.Sandbox(t) }

// marker returns a string unique to the test, to find leftover processes by
// their command line.
func marker(t testing.TB) string {
	return fmt.Sprintf("adaptbench-marker-%d-%d", os.Getpid(), time.Now().UnixNano())
}

// processesWith lists host processes whose command line contains s.
func processesWith(s string) []string {
	var found []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), s) {
			found = append(found, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return found
}

func TestMain(m *testing.M) {
	exectest.Main(m, func() {
		if fsrv != nil {
			fsrv.Close()
		}
	})
}

func TestSandboxAdversarial(t *testing.T) {
	sb := newSandbox(t)
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	mem := exec.StatusMemory
	if strings.Contains(sandbox.Cgroups(sb), "no usable memory cgroup") {
		mem = exec.StatusExit // RLIMIT_AS: Python raises MemoryError
	}
	tests := []struct {
		name   string
		reason string
		args   func(mark string) []string
		limits exec.Limits
		want   exec.Status
		check  func(t *testing.T, r exec.Result)
	}{
		{
			name:   "fork bomb",
			reason: "the pids limit stops the forks; the time limit ends the job",
			args: func(m string) []string {
				return []string{python, "-c", "import os\nwhile True:\n  try: os.fork()\n  except OSError: pass", m}
			},
			limits: exec.Limits{CPUTime: 2 * time.Second, WallTime: 30 * time.Second, Processes: 32},
			want:   exec.StatusCPUTime,
		},
		{
			name:   "memory bomb",
			reason: "the memory cgroup kills the job",
			args: func(m string) []string {
				return []string{python, "-c", "x = []\nwhile True: x.append(bytearray(32 << 20))", m}
			},
			limits: exec.Limits{Memory: 256 * exec.MiB},
			want:   mem,
		},
		{
			name:   "infinite loop",
			reason: "CPU time, not wall time, ends a busy loop",
			args:   func(m string) []string { return []string{python, "-c", "while True: pass", m} },
			limits: exec.Limits{CPUTime: time.Second, WallTime: 30 * time.Second},
			want:   exec.StatusCPUTime,
		},
		{
			name:   "sleep forever",
			reason: "an idle job uses no CPU; the wall clock ends it",
			args: func(m string) []string {
				return []string{python, "-c", "import time\ntime.sleep(1000)", m}
			},
			limits: exec.Limits{CPUTime: 5 * time.Second, WallTime: time.Second},
			want:   exec.StatusWallTime,
		},
		{
			name:   "100 MB to stdout",
			reason: "the output limit stops the job and the capture stays small",
			args: func(m string) []string {
				return []string{python, "-c", "import sys\nb = b'x' * (1 << 20)\nfor _ in range(100): sys.stdout.buffer.write(b)", m}
			},
			limits: exec.Limits{},
			want:   exec.StatusOutput,
			check: func(t *testing.T, r exec.Result) {
				assert.LessOrEqual(t, len(r.Stdout), 64<<10+100, "captured stdout is capped")
				assert.Contains(t, string(r.Stdout), "bytes omitted")
			},
		},
		{
			name:   "write outside the workspace",
			reason: "the system trees are read-only; /tmp is private",
			args: func(m string) []string {
				return []string{"sh", "-c", "echo x > /etc/" + m + " || exit 3; echo ok", m}
			},
			want: exec.StatusExit,
			check: func(t *testing.T, r exec.Result) {
				assert.Equal(t, 3, r.ExitCode)
				assert.Contains(t, string(r.Stderr), "Read-only file system")
			},
		},
		{
			name:   "double fork ignoring SIGTERM",
			reason: "a daemon that outlives the command is killed with the namespace",
			args: func(m string) []string {
				return []string{python, "-c", `
import os, signal, time, sys
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(1000)", sys.argv[1]])
    os._exit(0)
time.sleep(0.2)
print("parent done")
`, m}
			},
			want: exec.StatusOK,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := marker(t)
			start := time.Now()
			res, err := sb.Run(context.Background(), exec.Job{Args: tc.args(m), Limits: tc.limits})
			require.NoError(t, err)
			assert.Equal(t, tc.want, res.Status, "%s (%s); detail %q; stderr %q", tc.name, tc.reason, res.Detail, res.Stderr)
			assert.Less(t, time.Since(start), 15*time.Second)
			if tc.check != nil {
				tc.check(t, res)
			}
			assert.Empty(t, processesWith(m), "processes left behind")
			_, statErr := os.Stat("/etc/" + m)
			assert.True(t, os.IsNotExist(statErr), "nothing written to the host")
		})
	}
}

func TestSandboxNoNetwork(t *testing.T) {
	sb := newSandbox(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	prog := fmt.Sprintf("import socket\ns = socket.create_connection(('127.0.0.1', %d), timeout=2)\nprint('connected')", port)
	res, err := sb.Run(context.Background(), exec.Job{Args: []string{python, "-c", prog}})
	require.NoError(t, err)
	assert.Equal(t, exec.StatusExit, res.Status)
	assert.NotContains(t, string(res.Stdout), "connected")
	assert.Contains(t, string(res.Stderr), "Connection refused", "the job's own loopback, not the host's")
	select {
	case <-accepted:
		t.Fatal("the sandboxed job reached the host's loopback")
	case <-time.After(100 * time.Millisecond):
	}
}

func TestSandboxEnvironmentAllowList(t *testing.T) {
	sb := newSandbox(t)
	t.Setenv("ADAPTBENCH_TEST_SECRET", "s3cret-value")
	t.Setenv("OPENAI_API_KEY", "sk-should-not-leak")
	res, err := sb.Run(context.Background(), exec.Job{Args: []string{"env"}, Env: []string{"FOO=bar"}})
	require.NoError(t, err)
	require.Equal(t, exec.StatusOK, res.Status)
	out := string(res.Stdout)
	assert.NotContains(t, out, "s3cret-value")
	assert.NotContains(t, out, "sk-should-not-leak")
	assert.Contains(t, out, "FOO=bar")

	passing, err := sandbox.New(&sandbox.Config{PassEnv: []string{"ADAPTBENCH_TEST_SECRET"}})
	require.NoError(t, err)
	defer passing.Close()
	res, err = passing.Run(context.Background(), exec.Job{Args: []string{"env"}})
	require.NoError(t, err)
	assert.Contains(t, string(res.Stdout), "ADAPTBENCH_TEST_SECRET=s3cret-value", "named on purpose")
	assert.NotContains(t, string(res.Stdout), "sk-should-not-leak")
}

func TestSandboxWorkspace(t *testing.T) {
	sb := newSandbox(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in.txt"), []byte("hello\n"), 0o644))
	res, err := sb.Run(context.Background(), exec.Job{
		Dir:   dir,
		Args:  []string{"sh", "-c", "pwd; cat in.txt; echo made > out.txt; echo tmp > /tmp/t && cat /tmp/t; id -u"},
		Stdin: strings.NewReader("ignored"),
	})
	require.NoError(t, err)
	require.Equal(t, exec.StatusOK, res.Status, "stderr: %s", res.Stderr)
	uid := "65534" // nobody of the namespace, a host uid of its own
	if os.Geteuid() != 0 {
		uid = "0" // the caller, with no capability: one uid can be mapped
	}
	assert.Equal(t, exec.WorkDir+"\nhello\ntmp\n"+uid+"\n", string(res.Stdout))
	b, err := os.ReadFile(filepath.Join(dir, "out.txt"))
	require.NoError(t, err)
	assert.Equal(t, "made\n", string(b))
}

func TestSandboxStdinAndExitCode(t *testing.T) {
	sb := newSandbox(t)
	res, err := sb.Run(context.Background(), exec.Job{Args: []string{"sh", "-c", "cat; exit 7"}, Stdin: strings.NewReader("abc")})
	require.NoError(t, err)
	assert.Equal(t, exec.StatusExit, res.Status)
	assert.Equal(t, 7, res.ExitCode)
	assert.Equal(t, "abc", string(res.Stdout))
}

func TestSandboxCommandNotFound(t *testing.T) {
	sb := newSandbox(t)
	res, err := sb.Run(context.Background(), exec.Job{Args: []string{"no-such-command-xyz"}})
	require.Error(t, err)
	assert.Equal(t, exec.StatusInternal, res.Status, "a missing command is the harness's fault")
	assert.Contains(t, err.Error(), "no-such-command-xyz")
}

func TestSandboxCancel(t *testing.T) {
	sb := newSandbox(t)
	m := marker(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	sleeper := "import time; time.sleep(1000)"
	res, err := sb.Run(ctx, exec.Job{Args: []string{"sh", "-c", python + " -c '" + sleeper + "' " + m + " & " + python + " -c '" + sleeper + "' " + m}})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, exec.StatusCanceled, res.Status)
	assert.Less(t, time.Since(start), 3*time.Second)
	assert.Empty(t, processesWith(m))
}

func TestUnsandboxedKillsBackground(t *testing.T) {
	r := sandbox.NewUnsandboxed(nil)
	defer r.Close()
	m := marker(t)
	res, err := r.Run(context.Background(), exec.Job{Args: []string{"sh", "-c", "(setsid " + python + " -c 'import time; time.sleep(1000)' " + m + " &) ; echo started"}})
	require.NoError(t, err)
	assert.Equal(t, exec.StatusOK, res.Status)
	assert.Equal(t, "started\n", string(res.Stdout))
	assert.Empty(t, processesWith(m), "the subreaper init kills re-parented processes")
}

// TestUnsandboxedZeroValue runs a job on a zero Unsandboxed, which once
// dereferenced a nil runner.
func TestUnsandboxedZeroValue(t *testing.T) {
	var r sandbox.Unsandboxed
	defer r.Close()
	res, err := r.Run(context.Background(), exec.Job{Args: []string{"sh", "-c", "echo ok"}})
	require.NoError(t, err)
	assert.Equal(t, exec.StatusOK, res.Status)
	assert.Equal(t, "ok\n", string(res.Stdout))
}

func TestUnsandboxedLimits(t *testing.T) {
	r := sandbox.NewUnsandboxed(nil)
	defer r.Close()
	res, err := r.Run(context.Background(), exec.Job{Args: []string{python, "-c", "while True: pass"}, Limits: exec.Limits{CPUTime: time.Second, WallTime: 30 * time.Second}})
	require.NoError(t, err)
	assert.Equal(t, exec.StatusCPUTime, res.Status)
}
