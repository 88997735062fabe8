package sandbox_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// The limits hold for a job, not for each of its processes, whatever the
// machine gives the sandbox: cgroups, or rlimits and the job's processes
// read from its PID namespace's /proc (an ordinary user with no delegated
// cgroup: TestAsOrdinaryUser reruns these). And the kernel's per-user
// budgets are a job's own share, not the caller's whole.

// TestJobMemoryAcrossProcesses: six children each touch 100 MiB under a
// 128 MiB limit (RLIMIT_AS alone let each one through), and make
// themselves non-dumpable first (so that their memory is not readable by
// their user without privilege); the job is stopped while it runs, with
// the memory verdict, and its processes' total as its peak. (A memory
// cgroup kills a child instead: its parent then stops.)
func TestJobMemoryAcrossProcesses(t *testing.T) {
	exectest.RequirePython(t, false)
	sb := newSandbox(t)
	prog := `import ctypes, os, sys, time
readies = []
for i in range(6):
    r, w = os.pipe()
    if os.fork() == 0:
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE
        b = bytes([1]) * (100 << 20)
        os.write(w, b"x")
        time.sleep(60)
        os._exit(0)
    os.close(w)
    readies.append(r)
for r in readies:
    if os.read(r, 1) != b"x":
        sys.exit("a child was killed")
print("all six hold 100 MiB", flush=True)
time.sleep(60)
`
	res, err := sb.Run(context.Background(), exec.Job{Args: []string{python, "-c", prog},
		Limits: exec.Limits{Memory: 128 * exec.MiB, CPUTime: time.Minute, WallTime: 30 * time.Second}})
	require.NoError(t, err)
	t.Logf("%s: %s; peak %s, CPU %s, wall %s (%s)", res.Status, res.Detail, res.PeakMemory, res.CPUTime, res.WallTime, sb.Isolation())
	assert.Equal(t, exec.StatusMemory, res.Status, "%s: %s", res.Detail, res.Stderr)
	assert.Less(t, res.WallTime, 30*time.Second, "stopped while it ran, not at its wall time")
	assert.NotContains(t, string(res.Stdout), "all six", "stopped before all six held their memory")
	if sandbox.CgroupVersion(sb) == 0 {
		assert.Greater(t, res.PeakMemory, 128*exec.MiB, "the peak is the job's processes' total")
	}
}

// TestJobMemorySharedCountedOnce is the honest counterpart: a parent
// holding 70 MiB forks six children that only read it (each one's resident
// set is 70 MiB: 490 MiB together) and runs short subprocesses (vfork: the
// child runs in its parent's memory until it executes): well under a 128
// MiB limit, it is not stopped.
func TestJobMemorySharedCountedOnce(t *testing.T) {
	exectest.RequirePython(t, false)
	sb := newSandbox(t)
	prog := `import os, subprocess, time
b = bytes([1]) * (70 << 20)
kids = []
for i in range(6):
    pid = os.fork()
    if pid == 0:
        time.sleep(1.5)
        os._exit(0 if b[12345] == 1 else 1)
    kids.append(pid)
for i in range(60):
    subprocess.run(["/bin/true"], check=True)
for pid in kids:
    _, st = os.waitpid(pid, 0)
    assert st == 0
print("ok")
`
	res, err := sb.Run(context.Background(), exec.Job{Args: []string{python, "-c", prog},
		Limits: exec.Limits{Memory: 128 * exec.MiB, CPUTime: time.Minute, WallTime: 100 * time.Second}})
	require.NoError(t, err)
	t.Logf("%s: %s; peak %s, CPU %s, wall %s", res.Status, res.Detail, res.PeakMemory, res.CPUTime, res.WallTime)
	require.Equal(t, exec.StatusOK, res.Status, "%s: %s", res.Detail, res.Stderr)
	assert.Equal(t, "ok\n", string(res.Stdout))
	assert.Greater(t, res.PeakMemory, 64*exec.MiB, "the parent's 70 MiB")
	assert.LessOrEqual(t, res.PeakMemory, 128*exec.MiB, "shared pages counted once")
}

// TestJobMemoryVforkCountedOnce: a vfork child runs in its parent's
// memory until it executes; held there for 2 s (posix_spawn's child
// opening a FIFO no one writes to yet), the 80 MiB they share are counted
// once, under a 128 MiB limit.
func TestJobMemoryVforkCountedOnce(t *testing.T) {
	exectest.RequirePython(t, false)
	sb := newSandbox(t)
	prog := `import os, time
b = bytes([1]) * (80 << 20)
os.mkfifo("fifo")
if os.fork() == 0:
    time.sleep(2)
    os.close(os.open("fifo", os.O_WRONLY))
    os._exit(0)
pid = os.posix_spawn("/bin/true", ["true"], {}, file_actions=[(os.POSIX_SPAWN_OPEN, 0, "fifo", os.O_RDONLY, 0)])
_, st = os.waitpid(pid, 0)
print("ok", st, b[12345])
`
	res, err := sb.Run(context.Background(), exec.Job{Dir: t.TempDir(), Args: []string{python, "-c", prog},
		Limits: exec.Limits{Memory: 128 * exec.MiB, CPUTime: time.Minute, WallTime: 100 * time.Second}})
	require.NoError(t, err)
	t.Logf("%s: %s; peak %s, CPU %s, wall %s", res.Status, res.Detail, res.PeakMemory, res.CPUTime, res.WallTime)
	require.Equal(t, exec.StatusOK, res.Status, "%s: %s", res.Detail, res.Stderr)
	assert.Equal(t, "ok 0 1\n", string(res.Stdout))
	assert.LessOrEqual(t, res.PeakMemory, 128*exec.MiB, "the vfork child's memory is its parent's")
}

// TestJobCPUHiddenDeep: two spinners at the bottom of a chain of 70
// processes (below the depth a walk of the process tree stopped at) are
// counted from the start: the job is stopped at its 1 s of CPU time, not
// later. The spinners write their own CPU time to the workspace as they
// go: what they used is measured apart from the sandbox's figure.
func TestJobCPUHiddenDeep(t *testing.T) {
	sb := newSandbox(t)
	chain := `n=$1
if [ "$n" -gt 0 ]; then
	/bin/sh -c "$CHAIN" sh $((n - 1))
else
	spin='i=0; while :; do i=$((i + 1)); if [ $((i % 2000)) = 0 ]; then times >cpu.$$.new; mv cpu.$$.new cpu.$$; fi; done'
	/bin/sh -c "$spin" &
	/bin/sh -c "$spin" &
	wait
fi`
	const limit = time.Second
	dir := t.TempDir()
	res, err := sb.Run(context.Background(), exec.Job{Dir: dir, Args: []string{"/bin/sh", "-c", chain, "sh", "70"},
		Env: []string{"CHAIN=" + chain}, Limits: exec.Limits{CPUTime: limit, WallTime: 60 * time.Second}})
	require.NoError(t, err)
	used, spinners := spinnersCPU(t, dir)
	t.Logf("%s: %s; CPU %s (%d spinners' own: %s), wall %s (%s)", res.Status, res.Detail, res.CPUTime, spinners, used, res.WallTime, sb.Isolation())
	assert.Equal(t, exec.StatusCPUTime, res.Status, "%s: %s", res.Detail, res.Stderr)
	assert.GreaterOrEqual(t, res.CPUTime, limit)
	assert.LessOrEqual(t, res.CPUTime, limit*3/2, "the sandbox's figure")
	assert.LessOrEqual(t, used, limit*3/2, "the CPU time the spinners say they used")
}

// spinnersCPU sums the CPU times the spinners of TestJobCPUHiddenDeep
// wrote (dash's times: "0m1.230000s 0m0.010000s" for user and system).
func spinnersCPU(t *testing.T, dir string) (time.Duration, int) {
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var total time.Duration
	n := 0
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), "cpu.") || strings.HasSuffix(e.Name(), ".new") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		first, _, _ := strings.Cut(string(b), "\n")
		for _, f := range strings.Fields(first) {
			m, s, ok := strings.Cut(strings.TrimSuffix(f, "s"), "m")
			require.True(t, ok, "%s: %q", e.Name(), b)
			mins, err1 := strconv.Atoi(m)
			secs, err2 := strconv.ParseFloat(s, 64)
			require.NoError(t, errors.Join(err1, err2), "%s: %q", e.Name(), b)
			total += time.Duration(mins)*time.Minute + time.Duration(secs*float64(time.Second))
		}
		n++
	}
	return total, n
}

// inotifyProg makes inotify instances until it cannot or has argv[1] of
// them, says how many and why it stopped, and holds them argv[2] seconds.
const inotifyProg = `import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
fds = []
while len(fds) < int(sys.argv[1]):
    fd = libc.inotify_init1(0)
    if fd < 0:
        break
    fds.append(fd)
print(len(fds), os.strerror(ctypes.get_errno()) if len(fds) < int(sys.argv[1]) else "", flush=True)
time.sleep(float(sys.argv[2]))
`

// TestJobKernelBudgets: a job that takes every inotify instance it can
// (the kernel counts them per user, and jobs run as the caller's uid when
// it is not root) leaves one to a concurrent job and to the caller.
func TestJobKernelBudgets(t *testing.T) {
	exectest.RequirePython(t, false)
	sb := newSandbox(t)
	lim := exec.Limits{OpenFiles: 4096, WallTime: 100 * time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	type ran struct {
		res exec.Result
		err error
	}
	done := make(chan ran, 1)
	go func() {
		res, err := sb.Run(ctx, exec.Job{Args: []string{python, "-c", inotifyProg, "100000", "90"}, Stdout: outW, Limits: lim})
		outW.Close()
		done <- ran{res, err}
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	go io.Copy(io.Discard, outR)
	require.NoError(t, err, "the hog's report")
	t.Logf("the hog holds %s instances (%s)", strings.TrimSpace(line), sb.Isolation())
	n, err := strconv.Atoi(strings.Fields(line)[0])
	require.NoError(t, err, "%q", line)
	assert.Positive(t, n)

	res, err := sb.Run(context.Background(), exec.Job{Args: []string{python, "-c", inotifyProg, "1", "0"}, Limits: lim})
	require.NoError(t, err)
	assert.Equal(t, exec.StatusOK, res.Status, "%s: %s", res.Detail, res.Stderr)
	assert.Equal(t, "1", strings.TrimSpace(string(res.Stdout)), "a concurrent job's inotify_init1: %s", res.Stdout)

	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
	if assert.NoError(t, err, "the caller's own inotify_init1") {
		syscall.Close(fd)
	}

	cancel()
	r := <-done
	assert.ErrorIs(t, r.err, context.Canceled)
	assert.Equal(t, exec.StatusCanceled, r.res.Status, "%s: %s", r.res.Detail, r.res.Stderr)
}
