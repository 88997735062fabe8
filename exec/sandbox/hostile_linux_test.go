package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
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

// bothPaths runs f once with the Sandbox and once with the ForkServer.
func bothPaths(t *testing.T, f func(t *testing.T, r exec.Runner)) {
	t.Run("sandbox", func(t *testing.T) { f(t, newSandbox(t)) })
	t.Run("forkserver", func(t *testing.T) { f(t, forkServer(t)) })
}

// unittestWorkspace writes a workspace whose test module runs attack when
// it is imported, with the driver's scratch directory in SCRATCH.
func unittestWorkspace(t *testing.T, attack string) string {
	t.Helper()
	dir := exectest.Workspace(t)
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
		exectest.SkipWithout(t, "no /usr/bin/python3")
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
				// The results travel on a channel no path reaches: whatever
				// the job leaves at the file's path, a test it passes is
				// one it passed, and opening the scratch directory is
				// evidence.
				for _, tr := range s.Tests {
					assert.True(t, tr.Status != exec.TestPassed || s.Forged(), "%s: the results came from elsewhere", tc.reason)
				}
				assert.NotContains(t, string(s.Run.Stderr), "adaptbench reporter started", "the reporter's mark is taken off")
			})
		})
	}
}

// TestForkServerJobCannotChooseItsVerdict: what a job leaves in its
// workspace or /tmp cannot make the server fail (StatusInternal, which adapt
// does not score), hang it past the limits, blow its memory up, forge a
// memory verdict or hide an output flood; the next job runs as usual.
func TestForkServerJobCannotChooseItsVerdict(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
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
			dir := exectest.Workspace(t)
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

// kernelProbe tries, from inside a job, the kernel surface the seccomp
// filter denies, and prints one "name result" line each: "ok" or the
// errno's name.
const kernelProbe = `
import ctypes, errno, os, socket
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
buf = ctypes.create_string_buffer(4096)
def sc(nr, *args):
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *args)
    return 'ok' if r >= 0 else errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))
def sock(*args):
    try:
        socket.socket(*args).close()
        return 'ok'
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))
KEY_SPEC_SESSION, KEY_SPEC_USER = ctypes.c_long(-3), ctypes.c_long(-4)
out = {
    'keyctl': sc(250, ctypes.c_long(0), KEY_SPEC_SESSION, ctypes.c_long(0)),
    'add_key': sc(248, b'user', b'adaptbench-probe', b'v', ctypes.c_long(1), KEY_SPEC_USER),
    'request_key': sc(249, b'user', b'adaptbench-host-key', None, ctypes.c_long(0)),
    'io_uring_setup': sc(425, ctypes.c_long(4), buf),
    'userfaultfd': sc(323, ctypes.c_long(0)),
    'perf_event_open': sc(298, buf, ctypes.c_long(0), ctypes.c_long(-1), ctypes.c_long(-1), ctypes.c_long(0)),
    'bpf': sc(321, ctypes.c_long(0), buf, ctypes.c_long(64)),
    'modify_ldt': sc(154, ctypes.c_long(0), buf, ctypes.c_long(16)),
    'unshare_user': sc(272, ctypes.c_long(0x10000000)),
    'unshare_mount': sc(272, ctypes.c_long(0x00020000)),
    'mount_tmpfs': sc(165, b'none', b'/tmp', b'tmpfs', ctypes.c_long(0), None),
    'chroot': sc(161, b'/tmp'),
    'mq_open': sc(240, b'/adaptbench-q', ctypes.c_long(os.O_CREAT | os.O_RDWR), ctypes.c_long(0o600), None),
    'ptrace': sc(101, ctypes.c_long(16), ctypes.c_long(1), None, None),
    'af_vsock': sock(40, socket.SOCK_STREAM),
    'af_packet': sock(17, socket.SOCK_RAW),
    'netlink_audit': sock(16, socket.SOCK_RAW, 9),
    'netlink_uevent': sock(16, socket.SOCK_RAW, 15),
    'netlink_route': sock(16, socket.SOCK_RAW, 0),
    'clone3': sc(435, None, ctypes.c_long(0)),
}
pid = os.fork()
if pid == 0:
    os._exit(0)
os.waitpid(pid, 0)
out['fork'] = 'ok'
for k in sorted(out):
    print(k, out[k])
`

// TestJobKernelSurface: the calls a job could use to get out of its
// sandbox or to reach another job (nested namespaces, mounts, the key
// store, io_uring, userfaultfd, perf, bpf, message queues, sockets past the
// network namespace) are denied on both paths; fork and route netlink
// (getaddrinfo) still work.
func TestJobKernelSurface(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	want := map[string]string{
		"keyctl": "EPERM", "add_key": "EPERM", "request_key": "EPERM",
		"io_uring_setup": "EPERM", "userfaultfd": "EPERM", "perf_event_open": "EPERM", "bpf": "EPERM", "modify_ldt": "EPERM",
		"unshare_user": "EPERM", "unshare_mount": "EPERM", "mount_tmpfs": "EPERM", "chroot": "EPERM",
		"mq_open": "EPERM", "ptrace": "EPERM",
		"af_vsock": "EPERM", "af_packet": "EPERM", "netlink_audit": "EPERM", "netlink_uevent": "EPERM",
		"netlink_route": "ok", "clone3": "ENOSYS", "fork": "ok",
	}
	// A key in the caller's session keyring, readable by its possessor:
	// without the filter and a fresh session keyring, request_key finds it.
	id, err := unix.AddKey("user", "adaptbench-host-key", []byte("host-secret"), unix.KEY_SPEC_SESSION_KEYRING)
	if err == nil {
		defer unix.KeyctlInt(unix.KEYCTL_UNLINK, id, unix.KEY_SPEC_SESSION_KEYRING, 0, 0)
	}
	bothPaths(t, func(t *testing.T, r exec.Runner) {
		res, err := r.Run(context.Background(), exec.Job{Args: py(kernelProbe)})
		require.NoError(t, err)
		require.Equal(t, exec.StatusOK, res.Status, "%s", res.Stderr)
		got := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(res.Stdout)), "\n") {
			k, v, _ := strings.Cut(line, " ")
			got[k] = v
		}
		assert.Equal(t, want, got)
	})
}

// TestNothingKeptBetweenJobs: SysV shared memory, message queues and
// semaphores one job leaves are gone for the next (the fork server removes
// them; the Sandbox gives each job its own IPC namespace).
func TestNothingKeptBetweenJobs(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	const leave = `
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
shm = libc.shmget(0x5ad, 64 << 20, 0o1666)
assert shm >= 0, ctypes.get_errno()
addr = libc.shmat(shm, None, 0)
ctypes.memset(addr, 1, 64 << 20)
assert libc.msgget(0x5ae, 0o1666) >= 0
assert libc.semget(0x5af, 1, 0o1666) >= 0
print('left')
`
	const look = "import glob\nfor k in ('shm', 'msg', 'sem'):\n    print(k, len(open('/proc/sysvipc/' + k).read().splitlines()) - 1)"
	bothPaths(t, func(t *testing.T, r exec.Runner) {
		res, err := r.Run(context.Background(), exec.Job{Args: py(leave)})
		require.NoError(t, err)
		require.Equal(t, "left\n", string(res.Stdout), "%s %s", res.Status, res.Stderr)
		res, err = r.Run(context.Background(), exec.Job{Args: py(look)})
		require.NoError(t, err)
		assert.Equal(t, "shm 0\nmsg 0\nsem 0\n", string(res.Stdout), "%s", res.Stderr)
	})
}

// TestForkServerJobNearItsCPULimitSleeps: a job that uses most of its CPU
// limit (0.8 s of 1 s: past the three quarters of the rule for a job that
// stops its server, short of where RLIMIT_CPU's count, 10-15% above the
// cgroup's under load, kills it) and then sleeps is not judged by that
// rule: its server is not stopped, and answers when it ends.
func TestForkServerJobNearItsCPULimitSleeps(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	fs := forkServer(t)
	burn := "import time\nwhile time.process_time() < 0.8: pass\ntime.sleep(1.5)\nprint('slept')"
	res, err := fs.Run(context.Background(), exec.Job{Args: py(burn),
		Limits: exec.Limits{CPUTime: time.Second, WallTime: 3 * time.Minute}})
	require.NoError(t, err)
	assert.Equal(t, exec.StatusOK, res.Status, res.Detail)
	assert.Equal(t, "slept\n", string(res.Stdout))
}

// TestForkServerJobStopsItsServer: a job that stops its server (SIGSTOP,
// it has the server's user) and burns CPU still gets its CPU verdict,
// measured from Go through the server's cgroup; the next job runs.
func TestForkServerJobStopsItsServer(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	fs := forkServer(t)
	start := time.Now()
	// The job's parent is the zygote; the server is the zygote's parent.
	stopServer := "import os, signal\nserver = int(open('/proc/%d/stat' % os.getppid()).read().rsplit(')', 1)[1].split()[1])\nos.kill(server, signal.SIGSTOP)\nwhile True: pass"
	// The wall limit is far above the CPU limit: on a machine loaded
	// twenty-fold (a load average of 30 on 2 cores) a second of CPU takes
	// tens of seconds of wall time, and the verdict must still be CPU.
	const wall = 3 * time.Minute
	res, err := fs.Run(context.Background(), exec.Job{Args: py(stopServer),
		Limits: exec.Limits{CPUTime: time.Second, WallTime: wall}})
	require.NoError(t, err)
	assert.Equal(t, exec.StatusCPUTime, res.Status, res.Detail)
	assert.GreaterOrEqual(t, res.CPUTime, 750*time.Millisecond, "about the limit (RLIMIT_CPU and the cgroup do not count alike: under load the cgroup shows 10-15% less)")
	assert.Less(t, res.CPUTime, 3*time.Second, "stopped near the limit, not at the wall limit")
	assert.Less(t, time.Since(start), wall)
	next, err := fs.Run(context.Background(), exec.Job{Args: py("print('next')")})
	require.NoError(t, err)
	assert.Equal(t, "next\n", string(next.Stdout))
}

// TestForkServerOOMIsMemory: a child the memory cgroup kills is a memory
// verdict, not "signal", though the server's OOM counter already counts
// earlier kills.
func TestForkServerOOMIsMemory(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	if strings.Contains(sandbox.Cgroups(newSandbox(t)), "no usable memory cgroup") {
		t.Skip("no memory cgroup")
	}
	fs := forkServer(t)
	// Files in the private /tmp are memory of the server's cgroup but not
	// of the child's address space: only the cgroup stops them, and the
	// kernel kills the child.
	fill := "i = 0\nwhile True:\n    open('/tmp/f%d' % i, 'wb').write(b'x' * (16 << 20))\n    i += 1"
	for i := range 2 {
		res, err := fs.Run(context.Background(), exec.Job{Args: py(fill), Limits: exec.Limits{Memory: 128 * exec.MiB, TmpSize: 4 * exec.GiB}})
		require.NoError(t, err)
		assert.Equal(t, exec.StatusMemory, res.Status, "run %d: %s", i, res.Detail)
	}
	next, err := fs.Run(context.Background(), exec.Job{Args: py("print('next')")})
	require.NoError(t, err)
	assert.Equal(t, "next\n", string(next.Stdout))
}

// TestJobSeesAMinimalRoot: a job sees /usr, /etc and the links beside them,
// a /dev of six devices and its own ptys, its /tmp and /proc: no host
// socket it could connect to (a docker.sock, D-Bus), no other user's or
// project's files, no /sys; and paths the caller names, read-only.
func TestJobSeesAMinimalRoot(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	host := t.TempDir()
	require.NoError(t, os.Chmod(host, 0o755))
	sock := filepath.Join(host, "docker.sock")
	ln, err := net.Listen("unix", sock)
	require.NoError(t, err)
	defer ln.Close()
	require.NoError(t, os.Chmod(sock, 0o777))
	require.NoError(t, os.WriteFile(filepath.Join(host, "public.txt"), []byte("world-readable"), 0o644))
	shared := t.TempDir()
	require.NoError(t, os.Chmod(shared, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(shared, "lib.txt"), []byte("shared"), 0o644))
	probe := fmt.Sprintf(`
import os, socket
def try_(f):
    try:
        return f()
    except OSError as e:
        return type(e).__name__
def connect():
    s = socket.socket(socket.AF_UNIX)
    s.connect(%q)
    return 'connected'
print('socket', try_(connect))
print('file', try_(lambda: open(%q).read()))
print('shared', try_(lambda: open(%q).read()))
print('shared write', try_(lambda: open(%q, 'w').write('x')))
print('root', sorted(os.listdir('/')))
print('dev', sorted(os.listdir('/dev')))
print('pts', try_(lambda: os.close(os.open('/dev/ptmx', os.O_RDWR)) or 'ok'))
print('sys', [r for r, ds, fs in os.walk('/sys') if not ds])
print('devices', try_(lambda: open('/dev/null', 'w').write('x') and len(open('/dev/urandom', 'rb').read(8)) + len(open('/dev/zero', 'rb').read(8))))
`, sock, filepath.Join(host, "public.txt"), filepath.Join(shared, "lib.txt"), filepath.Join(shared, "lib.txt"))
	sb, err := sandbox.New(&sandbox.Config{ReadOnly: []string{shared}})
	require.NoError(t, err)
	defer sb.Close()
	fs, err := sandbox.NewForkServer(sb, nil)
	require.NoError(t, err)
	defer fs.Close()
	for name, r := range map[string]exec.Runner{"sandbox": sb, "forkserver": fs} {
		t.Run(name, func(t *testing.T) {
			res, err := r.Run(context.Background(), exec.Job{Args: py(probe)})
			require.NoError(t, err)
			require.Equal(t, exec.StatusOK, res.Status, "%s", res.Stderr)
			got := string(res.Stdout)
			assert.Contains(t, got, "socket FileNotFoundError\n", "the host's socket is not there")
			assert.Contains(t, got, "file FileNotFoundError\n", "nor the host's files")
			assert.Contains(t, got, "shared shared\n", "a path the caller names is there")
			assert.Contains(t, got, "shared write OSError\n", "read-only")
			rootList := strings.SplitN(strings.SplitN(got, "root ", 2)[1], "\n", 2)[0]
			for _, gone := range []string{"'run'", "'home'", "'root'", "'var'", "'opt'", "'work'"} {
				assert.NotContains(t, rootList, gone)
			}
			sys := strings.SplitN(strings.SplitN(got, "sys ", 2)[1], "\n", 2)[0]
			assert.Equal(t, "[]", sys, "no /sys")
			assert.Contains(t, got, "dev ['fd', 'full', 'null', 'ptmx', 'pts', 'random', 'shm', 'stderr', 'stdin', 'stdout', 'tty', 'urandom', 'zero']\n")
			assert.Contains(t, got, "pts ok\n", "a pty namespace of its own")
			assert.Contains(t, got, "devices 16\n", "the devices work: /dev/null takes writes, urandom and zero read")
		})
	}
}

// blockingReader never returns.
type blockingReader struct{}

func (blockingReader) Read([]byte) (int, error) { select {} }

// TestForkServerStdin: a stdin that never ends cannot hold the caller past
// its context, and a stdin larger than the server takes goes whole to the
// Sandbox.
func TestForkServerStdin(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	fs := forkServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := fs.Run(ctx, exec.Job{Args: py("print(1)"), Stdin: blockingReader{}})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, exec.StatusCanceled, res.Status)
	assert.Less(t, time.Since(start), 5*time.Second)

	big := strings.Repeat("0123456789", 10_000) // 100 kB
	res, err = fs.Run(context.Background(), exec.Job{Args: py("import sys; print(len(sys.stdin.read()))"), Stdin: strings.NewReader(big)})
	require.NoError(t, err)
	assert.Equal(t, "100000\n", string(res.Stdout), "nothing of stdin lost on the way to the Sandbox")
}

// TestWorkspaceIsTheCallersAfterwards: what a Sandbox job wrote in its
// workspace is the caller's again when Run returns, so nothing is left
// owned by the job's user for another job of that user to change.
func TestWorkspaceIsTheCallersAfterwards(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	if os.Geteuid() != 0 {
		t.Skip("jobs run as the caller's own uid when it is not root")
	}
	dir := exectest.Workspace(t)
	res, err := newSandbox(t).Run(context.Background(), exec.Job{Dir: dir, Args: py("import os\nos.makedirs('a/b')\nopen('a/b/f', 'w').write('x')\nos.symlink('/etc/passwd', 'l')")})
	require.NoError(t, err)
	require.Equal(t, exec.StatusOK, res.Status, "%s", res.Stderr)
	for _, p := range []string{".", "a", "a/b", "a/b/f", "l"} {
		fi, err := os.Lstat(filepath.Join(dir, p))
		require.NoError(t, err)
		assert.Equal(t, uint32(os.Getuid()), fi.Sys().(*syscall.Stat_t).Uid, "%s is the caller's", p)
	}
	fi, err := os.Stat("/etc/passwd")
	require.NoError(t, err)
	assert.Equal(t, uint32(0), fi.Sys().(*syscall.Stat_t).Uid, "the link was not followed")
}

// TestForkServerJobCannotReadEarlierJobs: a job scans every readable page
// of its own address space for what an earlier job of the same server ran,
// printed, wrote to stderr and left in its workspace. A child forked from
// the server itself would find all of it (the server's code cache, its
// output buffers, the files it copied); a child of a zygote that never saw
// a job finds none.
func TestForkServerJobCannotReadEarlierJobs(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	fs, err := sandbox.NewForkServer(newSandbox(t), nil) // one server: the same one runs both jobs
	require.NoError(t, err)
	t.Cleanup(func() { fs.Close() })
	secrets := map[string]string{"code": "c0dE7e11a1e", "stdout": "0u7pu7d4b2", "stderr": "e22f1e1d9c", "file": "f11ec0n7e", "stdin": "57d1nb4b3"}
	dir := exectest.Workspace(t)
	first := fmt.Sprintf("import os, sys\nx = '%s'\ninput()\nprint('%s' * 50)\nprint('%s' * 50, file=sys.stderr)\nopen('out.txt', 'w').write('%s' * 50)",
		secrets["code"], secrets["stdout"], secrets["stderr"], secrets["file"])
	res, err := fs.Run(context.Background(), exec.Job{Dir: dir, Args: py(first), Stdin: strings.NewReader(secrets["stdin"] + "\n")})
	require.NoError(t, err)
	require.Equal(t, exec.StatusOK, res.Status, "%s %s", res.Detail, res.Stderr)
	// The scanner looks for each secret with a regular expression of
	// escaped bytes (\x63\x30...), so that no copy of a secret is made in
	// its own memory: the compiled pattern holds one code word per byte.
	var hexes []string
	for name, s := range secrets {
		var esc strings.Builder
		for _, c := range []byte(s) {
			fmt.Fprintf(&esc, `\x%02x`, c)
		}
		hexes = append(hexes, fmt.Sprintf("%q: re.compile(rb'%s')", name, esc.String()))
	}
	scan := `
import re
want = {` + strings.Join(hexes, ", ") + `}
found = set()
import ctypes
ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE: /proc/self/mem is ours again
mem = open('/proc/self/mem', 'rb', 0)
for line in open('/proc/self/maps'):
    f = line.split()
    if 'r' not in f[1] or (len(f) > 5 and f[5] in ('[vvar]', '[vsyscall]')):
        continue
    lo, hi = (int(x, 16) for x in f[0].split('-'))
    try:
        mem.seek(lo)
        data = mem.read(hi - lo)
    except (OSError, ValueError, OverflowError):
        continue
    for name, w in want.items():
        if w.search(data):
            found.add(name)
print('found', sorted(found))
`
	res, err = fs.Run(context.Background(), exec.Job{Args: py(scan), Limits: exec.Limits{CPUTime: 20 * time.Second}})
	require.NoError(t, err)
	require.Equal(t, exec.StatusOK, res.Status, "%s %s", res.Detail, res.Stderr)
	assert.Equal(t, "found []\n", string(res.Stdout), "an earlier job's data is readable in a later job's memory")
}

// TestForkServerJobKillsOrStopsItsZygote: the job's parent is the zygote,
// which runs as the job's user. A job that kills it, or stops it, still
// gets its own verdict and output, and the next job runs on a clean
// server.
func TestForkServerJobKillsOrStopsItsZygote(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	fs, err := sandbox.NewForkServer(newSandbox(t), nil)
	require.NoError(t, err)
	t.Cleanup(func() { fs.Close() })
	for _, sig := range []string{"SIGKILL", "SIGSTOP", "SIGTERM"} {
		t.Run(sig, func(t *testing.T) {
			start := time.Now()
			res, err := fs.Run(context.Background(), exec.Job{Args: py("import os, signal, sys\nos.kill(os.getppid(), signal." + sig + ")\nprint('done')\nsys.exit(3)")})
			require.NoError(t, err)
			assert.Equal(t, exec.StatusExit, res.Status, "%s %s", res.Detail, res.Stderr)
			assert.Equal(t, 3, res.ExitCode)
			assert.Equal(t, "done\n", string(res.Stdout))
			assert.Less(t, time.Since(start), 5*time.Second)
			next, err := fs.Run(context.Background(), exec.Job{Args: py("print('next')")})
			require.NoError(t, err)
			assert.Equal(t, exec.StatusOK, next.Status, "%s %s", next.Detail, next.Stderr)
			assert.Equal(t, "next\n", string(next.Stdout))
		})
	}
}

// TestConcurrentJobsShareNoUserBudget: one job takes every inotify instance
// the kernel lets a user have and holds them; a job running beside it still
// gets one. The kernel charges them to the job's user and to the owner of
// its user namespace: both must be the job's own.
func TestConcurrentJobsShareNoUserBudget(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	if os.Geteuid() != 0 {
		t.Skip("jobs get host users of their own only when the caller is root")
	}
	sb := newSandbox(t)
	const hog = `
import ctypes, sys, time
libc = ctypes.CDLL(None, use_errno=True)
held = []
while len(held) < 100000:
    fd = libc.inotify_init1(0)
    if fd < 0:
        break
    held.append(fd)
print('held', len(held), 'errno', ctypes.get_errno(), flush=True)
time.sleep(3)
`
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	done := make(chan exec.Result, 1)
	go func() {
		res, _ := sb.Run(context.Background(), exec.Job{Args: py(hog), Stdout: w, Limits: exec.Limits{OpenFiles: 1024}})
		w.Close()
		done <- res
	}()
	line := make([]byte, 200)
	n, _ := r.Read(line)
	require.Contains(t, string(line[:n]), "held", "the hog never started")
	t.Logf("first job: %s", strings.TrimSpace(string(line[:n])))
	res, err := sb.Run(context.Background(), exec.Job{Args: py("import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nfd = libc.inotify_init1(0)\nprint('fd' if fd >= 0 else 'errno %d' % ctypes.get_errno())")})
	require.NoError(t, err)
	assert.Equal(t, "fd\n", string(res.Stdout), "a concurrent job's inotify instances left none for this one: %s", res.Stderr)
	<-done
}

// TestJobHasNoPrivilege: the job's process has no capability in any set,
// no_new_privs, a seccomp filter, and is nobody in its namespace.
func TestJobHasNoPrivilege(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	const look = "import os\nfor l in open('/proc/self/status'):\n    k = l.split(':')[0]\n    if k in ('Uid', 'Gid', 'CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb', 'NoNewPrivs', 'Seccomp'):\n        print(k, ' '.join(l.split()[1:]))"
	bothPaths(t, func(t *testing.T, r exec.Runner) {
		res, err := r.Run(context.Background(), exec.Job{Args: py(look)})
		require.NoError(t, err)
		require.Equal(t, exec.StatusOK, res.Status, "%s %s", res.Detail, res.Stderr)
		got := string(res.Stdout)
		for _, want := range []string{"CapInh 0000000000000000", "CapPrm 0000000000000000", "CapEff 0000000000000000",
			"CapBnd 0000000000000000", "CapAmb 0000000000000000", "NoNewPrivs 1", "Seccomp 2"} {
			assert.Contains(t, got, want+"\n")
		}
		if os.Geteuid() == 0 {
			assert.Contains(t, got, "Uid 65534 65534 65534 65534\n")
		}
	})
}

// TestWorkspaceDiskQuota: a job that writes far more than Limits.Disk to
// its workspace, or more files than Limits.DiskFiles, under a smaller
// memory limit, ends with its own verdict, fast, and the host keeps at
// most the quota.
func TestWorkspaceDiskQuota(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	if os.Geteuid() != 0 {
		t.Skip("the workspace quota needs a root caller")
	}
	const bytesBomb = "with open('big', 'wb') as f:\n    for i in range(600):\n        f.write(b'x' * (1 << 20))"
	const filesBomb = "import os\nos.mkdir('d')\nfor i in range(100000):\n    open('d/%d' % i, 'w').close()"
	lim := exec.Limits{Memory: 128 * exec.MiB, Disk: 32 * exec.MiB, DiskFiles: 2000, FileSize: exec.GiB, CPUTime: 20 * time.Second}
	bothPaths(t, func(t *testing.T, r exec.Runner) {
		for name, code := range map[string]string{"bytes": bytesBomb, "files": filesBomb} {
			dir := exectest.Workspace(t)
			start := time.Now()
			res, err := r.Run(context.Background(), exec.Job{Dir: dir, Args: py(code), Limits: lim})
			require.NoError(t, err)
			assert.Equal(t, exec.StatusOutput, res.Status, "%s: %s %s", name, res.Detail, res.Stderr)
			assert.Contains(t, res.Detail, "filled its", name)
			assert.Less(t, time.Since(start), 15*time.Second, name)
			var total int64
			var n int
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if fi, err := d.Info(); err == nil {
					total += fi.Size()
					n++
				}
				return nil
			})
			assert.LessOrEqual(t, total, int64(64*exec.MiB), "%s: the host keeps no more than the quota", name)
			assert.LessOrEqual(t, n, 4000, name)
		}
	})
}

// TestDiskWorkspaceCopyBack: with its workspace on a tmpfs, a job's
// changes reach the caller's directory as they would through a bind: new,
// changed and removed files, new directories and links (never followed);
// a FIFO is named as not copied; a link the caller left cannot be used to
// write outside the workspace.
func TestDiskWorkspaceCopyBack(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	if os.Geteuid() != 0 {
		t.Skip("the workspace quota needs a root caller")
	}
	sb := newSandbox(t)
	dir := exectest.Workspace(t)
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("keep"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "change.txt"), []byte("old"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "remove.txt"), []byte("x"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "olddir"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "olddir", "f"), []byte("x"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "lib")))
	code := `
import os, shutil
open('change.txt', 'w').write('new')
os.remove('remove.txt')
shutil.rmtree('olddir')
os.makedirs('new/sub')
open('new/sub/f.txt', 'w').write('made')
os.symlink('/etc/shadow', 'link')
os.mkfifo('fifo')
os.remove('lib')
os.mkdir('lib')
open('lib/planted', 'w').write('x')
print(open('keep.txt').read())
`
	res, err := sb.Run(context.Background(), exec.Job{Dir: dir, Args: py(code)})
	require.NoError(t, err)
	require.Equal(t, exec.StatusOK, res.Status, "%s %s", res.Detail, res.Stderr)
	assert.Equal(t, "keep\n", string(res.Stdout))
	read := func(rel string) string { b, _ := os.ReadFile(filepath.Join(dir, rel)); return string(b) }
	assert.Equal(t, "keep", read("keep.txt"))
	assert.Equal(t, "new", read("change.txt"))
	assert.Equal(t, "made", read("new/sub/f.txt"))
	assert.NoFileExists(t, filepath.Join(dir, "remove.txt"))
	assert.NoDirExists(t, filepath.Join(dir, "olddir"))
	target, err := os.Readlink(filepath.Join(dir, "link"))
	require.NoError(t, err)
	assert.Equal(t, "/etc/shadow", target)
	assert.NoFileExists(t, filepath.Join(outside, "planted"), "written through the caller's link")
	assert.FileExists(t, filepath.Join(dir, "lib", "planted"))
	assert.Equal(t, 1, res.NotCopied)
	assert.Equal(t, []string{"fifo"}, res.NotCopiedFiles)
}

// TestWorkspaceExecutableUnderLoad: a job executes a program from its
// workspace (a Go test binary) while other jobs start beside it. The copy
// of the workspace must never be held open for writing by a process
// forked meanwhile ("text file busy").
func TestWorkspaceExecutableUnderLoad(t *testing.T) {
	sb := newSandbox(t)
	const n = 120
	errs := make(chan string, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 6)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			dir := t.TempDir()
			// A large executable: the copy takes long enough to meet forks.
			script := "#!/bin/sh\necho ran\nexit 0\n" + strings.Repeat("#"+strings.Repeat("x", 1023)+"\n", 2048)
			if err := os.WriteFile(filepath.Join(dir, "prog"), []byte(script), 0o755); err != nil {
				errs <- err.Error()
				return
			}
			res, err := sb.Run(context.Background(), exec.Job{Dir: dir, Args: []string{"./prog"}})
			if err != nil || res.Status != exec.StatusOK || string(res.Stdout) != "ran\n" {
				errs <- fmt.Sprintf("run %d: %v %s %s %s", i, err, res.Status, res.Stdout, res.Stderr)
			}
		}()
	}
	wg.Wait()
	close(errs)
	var failed []string
	for e := range errs {
		failed = append(failed, e)
	}
	assert.Empty(t, failed)
}
