package sandbox_test

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// parentsPrelude finds, from a fork-server job, its zygote (its parent)
// and its server (the zygote's parent), as a hostile answer would.
const parentsPrelude = `import ctypes, os, platform, resource, signal, sys
ZYG = os.getppid()
SRV = int(open('/proc/%d/stat' % ZYG).read().rsplit(')', 1)[1].split()[1])
libc = ctypes.CDLL(None, use_errno=True)
ARM = platform.machine() == 'aarch64'
IOPRIO_SET, IOPRIO_GET, CLONE = (30, 31, 220) if ARM else (251, 252, 56)
def vmdata(pid):
    for line in open('/proc/%d/status' % pid):
        if line.startswith('VmData:'):
            return int(line.split()[1]) << 10
def attempt(what, f, *a):
    try:
        f(*a)
        print(what, 'done')
    except OSError as e:
        print(what, 'refused', e.errno)
`

// inotifyBomb arms an inotify descriptor on /tmp to send SIGKILL to
// its owner, which the %s line makes the server, and leaves it in flight
// in a cycle of unix sockets, held by no process.
const inotifyBomb = `import array, fcntl, socket
ifd = libc.inotify_init1(0)
libc.inotify_add_watch(ifd, b'/tmp', 0x100)  # IN_CREATE
fcntl.fcntl(ifd, fcntl.F_SETFL, fcntl.fcntl(ifd, fcntl.F_GETFL) | os.O_ASYNC)
%s
attempt('signal', fcntl.fcntl, ifd, 10, signal.SIGKILL)  # F_SETSIG
a, b = socket.socketpair()
a.sendmsg([b'x'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', [ifd, a.fileno(), b.fileno()]))])
b.sendmsg([b'x'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', [a.fileno(), b.fileno()]))])
`

// ioprioGet prints the job's own I/O priority.
const ioprioGet = "print(libc.syscall(IOPRIO_GET, 1, 0))\n"

// afterHostile runs innocent on a fresh server, then hostile, then
// innocent again (then times more, for a time bomb) on the same server:
// each later verdict and output must be the fresh one's. lim is every
// job's limits (one server key, so that the three share a server).
func afterHostile(t *testing.T, hostile, innocent string, lim exec.Limits, times int) {
	t.Helper()
	fs, err := sandbox.NewForkServer(newSandbox(t), nil)
	require.NoError(t, err)
	t.Cleanup(func() { fs.Close() })
	run := func(code string) exec.Result {
		t.Helper()
		res, err := fs.Run(context.Background(), exec.Job{Args: py(parentsPrelude + code), Limits: lim})
		require.NoError(t, err, "%s %s", res.Detail, res.Stderr)
		return res
	}
	fresh := run(innocent)
	require.Equal(t, exec.StatusOK, fresh.Status, "the innocent job on a fresh server: %s %s", fresh.Detail, fresh.Stderr)
	h := run(hostile)
	t.Logf("hostile: %s %s %q", h.Status, h.Detail, h.Stdout)
	assert.NotEqual(t, exec.StatusInternal, h.Status, "the hostile job's own run: %s", h.Detail)
	for i := range times {
		got := run(innocent)
		if got.Status != fresh.Status || string(got.Stdout) != string(fresh.Stdout) {
			t.Fatalf("innocent job %d after the hostile one: %s %q (%s %q), on a fresh server %s %q",
				i+1, got.Status, got.Stdout, got.Detail, got.Stderr, fresh.Status, fresh.Stdout)
		}
	}
}

// TestForkServerJobCannotChangeItsParents: a job has its zygote's and its
// server's user; rlimits, scheduling, priority, affinity and I/O priority
// it sets on them (prlimit64, sched_*, setpriority, ioprio_set aimed at
// their pids, or at every process of the user) would reach every later
// job forked from them; a descriptor whose owner is the server would
// signal it later. An innocent job's verdict and output after each attack
// must be those it gets on a fresh server.
func TestForkServerJobCannotChangeItsParents(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	const inf = "resource.RLIM_INFINITY"
	tests := []struct {
		name, reason, hostile, innocent string
		times                           int
	}{
		{name: "zygote RLIMIT_DATA", reason: "later jobs would run out of memory",
			hostile:  "attempt('data', resource.prlimit, ZYG, resource.RLIMIT_DATA, (vmdata(ZYG) + (24 << 20), " + inf + "))",
			innocent: "b = bytearray(64 << 20)\nprint(len(b))"},
		{name: "zygote RLIMIT_NOFILE", reason: "later jobs could not set their own (exit 120)",
			hostile:  "attempt('nofile', resource.prlimit, ZYG, resource.RLIMIT_NOFILE, (8, 8))",
			innocent: "print('ok')"},
		{name: "zygote RLIMIT_STACK", reason: "later jobs would crash on a deep C stack",
			hostile:  "attempt('stack', resource.prlimit, ZYG, resource.RLIMIT_STACK, (16 << 10, " + inf + "))",
			innocent: "import json\nprint(len(json.dumps(eval('[' * 200 + ']' * 200))))\nprint(resource.getrlimit(resource.RLIMIT_STACK))"},
		{name: "server RLIMIT_NOFILE", reason: "the server could not open the next job's pipes",
			hostile:  "attempt('nofile', resource.prlimit, SRV, resource.RLIMIT_NOFILE, (10, 10))",
			innocent: "print('ok')"},
		{name: "server RLIMIT_CPU", reason: "a time bomb: the server dies of SIGXCPU some jobs later",
			hostile: "f = open('/proc/%d/stat' % SRV).read().rsplit(')', 1)[1].split()\n" +
				"cpu = (int(f[11]) + int(f[12])) // os.sysconf('SC_CLK_TCK')\n" +
				"attempt('cpu', resource.prlimit, SRV, resource.RLIMIT_CPU, (cpu + 1, cpu + 1))",
			innocent: "for i in range(2000):\n    open('f%d' % i, 'w').write('x')\nprint('ok')", times: 60},
		{name: "server as signal owner", reason: "an inotify descriptor kept in flight, owned by the server, " +
			"would kill it (F_SETSIG SIGKILL) when it makes the next job's /tmp/work",
			hostile: fmt.Sprintf(inotifyBomb, "attempt('owner', fcntl.fcntl, ifd, fcntl.F_SETOWN, SRV)"), innocent: "print('ok')"},
		{name: "zygote scheduler", reason: "SCHED_IDLE is inherited",
			hostile:  "attempt('sched', os.sched_setscheduler, ZYG, os.SCHED_IDLE, os.sched_param(0))",
			innocent: "print(os.sched_getscheduler(0))"},
		{name: "zygote nice", reason: "the nice value is inherited",
			hostile:  "attempt('nice', os.setpriority, os.PRIO_PROCESS, ZYG, 19)",
			innocent: "print(os.getpriority(os.PRIO_PROCESS, 0))"},
		{name: "user nice", reason: "PRIO_USER reaches every process of the uid, the zygote's too",
			hostile:  "attempt('nice', os.setpriority, os.PRIO_USER, 0, 19)",
			innocent: "print(os.getpriority(os.PRIO_PROCESS, 0))"},
		{name: "zygote affinity", reason: "the CPU affinity is inherited",
			hostile:  "attempt('affinity', os.sched_setaffinity, ZYG, {0})",
			innocent: "print(sorted(os.sched_getaffinity(0)))"},
		{name: "zygote I/O priority", reason: "the I/O priority is inherited",
			hostile:  "print(libc.syscall(IOPRIO_SET, 1, ZYG, 3 << 13), ctypes.get_errno())",
			innocent: ioprioGet},
		{name: "user I/O priority", reason: "IOPRIO_WHO_USER reaches every process of the uid",
			hostile:  "print(libc.syscall(IOPRIO_SET, 3, os.getuid(), 3 << 13), ctypes.get_errno())",
			innocent: ioprioGet},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Log(tc.reason)
			afterHostile(t, tc.hostile, tc.innocent, exec.Limits{}, max(tc.times, 1))
		})
	}
}

// TestForkServerJobLeavesNoChildToItsZygote: clone(CLONE_PARENT) makes
// the job's children the zygote's. Left unreaped, 100 of them would carry
// messages to later jobs in their names and use up later jobs' process
// budget. An innocent job that lists the processes' names and starts 30
// threads sees what it sees on a fresh server.
func TestForkServerJobLeavesNoChildToItsZygote(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	hostile := `
made = 0
for i in range(100):
    pid = libc.syscall(CLONE, 0x8000 | signal.SIGCHLD, 0, 0, 0, 0)  # CLONE_PARENT
    if pid == 0:
        libc.prctl(15, b'msg-%d' % i, 0, 0, 0)  # PR_SET_NAME
        os._exit(0)
    if pid < 0:
        break
    made += 1
print('made', made, ctypes.get_errno())
`
	innocent := `
import glob, threading
names = []
for p in glob.glob('/proc/[0-9]*/comm'):
    if p != '/proc/%d/comm' % os.getpid():
        try:
            names.append(open(p).read().strip())
        except OSError:
            pass
print(sorted(names))
ev = threading.Event()
ts = []
try:
    for _ in range(30):
        t = threading.Thread(target=ev.wait)
        t.start()
        ts.append(t)
except RuntimeError as e:
    print(e)
ev.set()
print(len(ts), 'threads')
`
	afterHostile(t, hostile, innocent, exec.Limits{Processes: 40}, 1)
}

// TestForkServerAnswerCannotFailItsRun: an answer that lowers its server's
// RLIMIT_DATA and leaves a 3 MiB file made the server's copy-back fail:
// an infrastructure error, leaving the wrong answer unscored. Whatever a
// job does, its own run has a verdict, and the next job runs. (The
// seccomp filter now refuses the prlimit; without it, the server's
// MemoryError after the job started is the job's memory verdict.)
func TestForkServerAnswerCannotFailItsRun(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	hostile := "attempt('data', resource.prlimit, SRV, resource.RLIMIT_DATA, (vmdata(SRV) + (1 << 20), resource.RLIM_INFINITY))\n" +
		"open('big', 'wb').write(os.urandom(3 << 20))\nsys.exit(1)"
	afterHostile(t, hostile, "print('ok')", exec.Limits{}, 1)
}

// TestForkServerCopyBackIsBounded: a job leaves 19,950 empty files under
// names of 4,000 bytes. Copying them back cost the caller 321 MiB; what
// the host allocates for a job's files is bounded by its output limit
// (which counts about 4 bytes for each byte of data, and 8 for each byte
// of a name): a small file is copied, a 3 MiB one and most names are
// not.
func TestForkServerCopyBackIsBounded(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	fs, err := sandbox.NewForkServer(newSandbox(t), nil)
	require.NoError(t, err)
	t.Cleanup(func() { fs.Close() })
	const output = 4 * exec.MiB
	spray := `import os
open('a-small', 'wb').write(b'x' * 100000)
open('big', 'wb').write(os.urandom(3 << 20))
d = os.path.join(*['d' * 250] * 15)
os.makedirs(d)
for i in range(19950):
    open(os.path.join(d, '%05d' % i + 'f' * 240), 'w').close()
print(len(os.path.join(d, 'x' * 245)))
`
	dir := exectest.Workspace(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := fs.Run(context.Background(), exec.Job{Dir: dir, Args: py(spray),
		Limits: exec.Limits{Output: output, CPUTime: 30 * time.Second, WallTime: time.Minute}})
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Equal(t, exec.StatusOK, res.Status, "%s %s", res.Detail, res.Stderr)
	alloc := exec.Size(after.TotalAlloc - before.TotalAlloc)
	t.Logf("host allocated %s for the job; %d files not copied", alloc, res.NotCopied)
	// The slack is for what other goroutines of this process allocate
	// meanwhile (the sandbox's pool of inits).
	assert.LessOrEqual(t, alloc, output+2*exec.MiB, "the host's allocations are bounded by the output limit")
	assert.Positive(t, res.NotCopied, "what did not fit is counted")
	small, err := os.ReadFile(filepath.Join(dir, "a-small"))
	assert.NoError(t, err, "a small file within the budget is copied back")
	assert.Len(t, small, 100000)
	assert.NoFileExists(t, filepath.Join(dir, "big"), "3 MiB of data costs the host more than 4 MiB")
}

// TestJobChangesItsOwnSettings: the filter that keeps a job from its
// parents still lets it change its own rlimits, nice value, scheduling,
// affinity and I/O priority the usual ways (pid 0, as the C library and
// Python name the caller), on both paths; aimed at its own pid by number
// the calls are refused, which the filter cannot tell from another pid.
func TestJobChangesItsOwnSettings(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	const own = `import ctypes, os, platform, resource, threading
libc = ctypes.CDLL(None, use_errno=True)
IOPRIO_SET = 30 if platform.machine() == 'aarch64' else 251
def attempt(what, f, *a):
    try:
        f(*a)
        print(what, 'done')
    except OSError as e:
        print(what, 'refused', e.errno)
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
attempt('setrlimit', resource.setrlimit, resource.RLIMIT_NOFILE, (soft - 1, hard))
attempt('prlimit 0', resource.prlimit, 0, resource.RLIMIT_NOFILE, (soft - 2, hard))
attempt('prlimit own pid', resource.prlimit, os.getpid(), resource.RLIMIT_NOFILE, (soft - 3, hard))
# Raising one's nice value needs no privilege, lowering it does: the
# targets are above where the job started (the tests may run under nice).
base = os.getpriority(os.PRIO_PROCESS, 0)
own_nice, group_nice = min(base + 3, 18), min(base + 4, 19)
attempt('nice', os.nice, 1)
attempt('setpriority 0', os.setpriority, os.PRIO_PROCESS, 0, own_nice)
attempt('setpriority group', os.setpriority, os.PRIO_PGRP, 0, group_nice)
attempt('affinity 0', os.sched_setaffinity, 0, {0})
attempt('scheduler 0', os.sched_setscheduler, 0, os.SCHED_BATCH, os.sched_param(0))
attempt('param 0', os.sched_setparam, 0, os.sched_param(0))
print('ioprio 0', libc.syscall(IOPRIO_SET, 1, 0, (2 << 13) | 7))
t = threading.Thread(target=print, args=('thread',))
t.start()
t.join()
print(resource.getrlimit(resource.RLIMIT_NOFILE)[0] == soft - 2, os.getpriority(os.PRIO_PROCESS, 0) == group_nice, sorted(os.sched_getaffinity(0)), os.sched_getscheduler(0) == os.SCHED_BATCH)
`
	want := "setrlimit done\nprlimit 0 done\nprlimit own pid refused 1\nnice done\nsetpriority 0 done\nsetpriority group done\n" +
		"affinity 0 done\nscheduler 0 done\nparam 0 done\nioprio 0 0\nthread\nTrue True [0] True\n"
	bothPaths(t, func(t *testing.T, r exec.Runner) {
		res, err := r.Run(context.Background(), exec.Job{Args: py(own)})
		require.NoError(t, err)
		require.Equal(t, exec.StatusOK, res.Status, "%s %s", res.Detail, res.Stderr)
		assert.Equal(t, want, string(res.Stdout))
	})
}

// TestForkServerPIDCounterCarriesNothing: consecutive jobs of one server
// share its PID namespace. A job that forks n times advanced the counter
// by n, and the next job read n back from its own PID: a covert channel.
// The server has its init reset the counter between jobs, so the next
// job's PID is the one it gets on a fresh server, whatever came before.
func TestForkServerPIDCounterCarriesNothing(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	fs, err := sandbox.NewForkServer(newSandbox(t), nil)
	require.NoError(t, err)
	t.Cleanup(func() { fs.Close() })
	pid := func() int {
		res, err := fs.Run(context.Background(), exec.Job{Args: py("import os; print(os.getpid())")})
		require.NoError(t, err)
		require.Equal(t, exec.StatusOK, res.Status, "%s %s", res.Detail, res.Stderr)
		n, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
		require.NoError(t, err)
		return n
	}
	fresh := pid()
	for _, n := range []int{150, 40} {
		send := fmt.Sprintf("import os\nfor _ in range(%d):\n    if os.fork() == 0:\n        os._exit(0)\n    os.wait()", n)
		res, err := fs.Run(context.Background(), exec.Job{Args: py(send)})
		require.NoError(t, err)
		require.Equal(t, exec.StatusOK, res.Status, "%s %s", res.Detail, res.Stderr)
		// The init may start a thread of its own meanwhile (a PID of
		// the namespace): a few off, not n.
		got := pid()
		assert.InDelta(t, fresh, got, 8, "after a job that forked %d times", n)
	}
}

// TestForkServerNoUnixSocketOutlivesItsJob: a job binds an abstract unix
// socket and leaves it in flight in a cycle of unix sockets, held by no
// process. It outlived the job: its name, listed in /proc/net/unix, was a
// message to the next job, which also found the name taken. The next job
// sees the namespace's sockets as on a fresh server.
func TestForkServerNoUnixSocketOutlivesItsJob(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	hostile := `import array, socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(b'\0msg-1234')
s.listen(1)
a, b = socket.socketpair()
a.sendmsg([b'x'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', [s.fileno(), a.fileno(), b.fileno()]))])
b.sendmsg([b'x'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', [a.fileno(), b.fileno()]))])
`
	innocent := `import socket
print(sorted(l.split()[-1] for l in open('/proc/net/unix').read().splitlines()[1:] if len(l.split()) > 7))
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(b'\0msg-1234')
print('bound')
`
	afterHostile(t, hostile, innocent, exec.Limits{}, 1)
}

// TestFilterKeepsNumpy: numpy and scipy, whose OpenBLAS starts threads of
// its own, still run under the filter on both paths.
func TestFilterKeepsNumpy(t *testing.T) {
	if err := osexec.Command(python, "-c", "import numpy, scipy.linalg").Run(); err != nil {
		exectest.SkipWithout(t, "numpy and scipy are not importable by %s: %v", python, err)
	}
	code := "import numpy as np, scipy.linalg\n" +
		"a = np.random.default_rng(1).random((300, 300)) + 300 * np.eye(300)\n" +
		"x = scipy.linalg.solve(a, np.ones(300))\nprint(np.allclose(a @ x, 1))"
	bothPaths(t, func(t *testing.T, r exec.Runner) {
		res, err := r.Run(context.Background(), exec.Job{Args: py(code), Env: []string{"OPENBLAS_NUM_THREADS=2"},
			Limits: exec.Limits{CPUTime: 20 * time.Second, WallTime: time.Minute}})
		require.NoError(t, err)
		require.Equal(t, exec.StatusOK, res.Status, "%s %s", res.Detail, res.Stderr)
		assert.Equal(t, "True\n", string(res.Stdout))
	})
}
