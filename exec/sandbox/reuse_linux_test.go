package sandbox_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// onReusedInit runs leave and then look, with the same limits, until look
// runs in the init that ran leave (the same network namespace: an init
// reused for the next job of its shape), and returns both results with the
// namespace line taken off their stdout. It fails when the sandbox never
// reuses an init: the tests below would prove nothing. With mayRetire, an
// init that does not take look (it retired) ends the search at once.
func onReusedInit(t *testing.T, sb *sandbox.Sandbox, leave, look string, lim exec.Limits, mayRetire bool) (exec.Result, exec.Result) {
	t.Helper()
	const ns = "import os\nprint(os.readlink('/proc/self/ns/net'), flush=True)\n"
	split := func(res exec.Result) (string, exec.Result) {
		first, rest, _ := strings.Cut(string(res.Stdout), "\n")
		res.Stdout = []byte(rest)
		return first, res
	}
	for range 20 {
		a, err := sb.Run(context.Background(), exec.Job{Args: py(ns + leave), Limits: lim})
		require.NoError(t, err)
		// The init gets ready for the next job once it has reported.
		time.Sleep(50 * time.Millisecond)
		b, err := sb.Run(context.Background(), exec.Job{Args: py(ns + look), Limits: lim})
		require.NoError(t, err)
		nsA, a := split(a)
		nsB, b := split(b)
		if nsA != "" && (nsA == nsB || mayRetire) {
			return a, b
		}
	}
	t.Fatal("the sandbox never ran two jobs of one shape in the same init")
	return exec.Result{}, exec.Result{}
}

// reuseCases are what TestReusedInitKeepsNothing has one job leave and
// the next look for.
var reuseCases = []struct {
	name        string
	leave, look string
	lim         exec.Limits
	mayRetire   bool
	// The stdout of each job, when set; check looks at the rest.
	wantLeft, wantLooked string
	check                func(t *testing.T, left, looked exec.Result)
}{
	{
		name:       "files in /tmp, /dev/shm and the workspace",
		leave:      "for p in ('/tmp/left', '/dev/shm/left', '/tmp/work/left'):\n    open(p, 'w').write('x')\nprint('left')",
		look:       "import os\nfor d in ('/tmp', '/dev/shm', '/tmp/work'):\n    print(d, sorted(os.listdir(d)))",
		wantLooked: "/tmp ['work']\n/dev/shm []\n/tmp/work []\n",
	},
	{
		name: "SysV shared memory, message queues and semaphores",
		leave: "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n" +
			"assert libc.shmget(0x5ad, 1 << 20, 0o1666) >= 0\nassert libc.msgget(0x5ae, 0o1666) >= 0\n" +
			"assert libc.semget(0x5af, 1, 0o1666) >= 0\nprint('left')",
		look:       "for k in ('shm', 'msg', 'sem'):\n    print(k, len(open('/proc/sysvipc/' + k).read().splitlines()) - 1)",
		wantLooked: "shm 0\nmsg 0\nsem 0\n",
	},
	{
		name:  "an abstract unix socket",
		leave: "import socket\ns = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\ns.bind('\\0adaptbench-left')\ns.listen()\nprint('left')",
		look: "import socket\nc = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\ntry:\n    c.connect('\\0adaptbench-left')\n    print('reached')\n" +
			"except OSError as e:\n    print(e.errno)",
		wantLeft:   "left\n",
		wantLooked: "111\n", // ECONNREFUSED
	},
	{
		// The kernel collects such a socket some time after its last
		// process is gone; until then it keeps its name, and the init
		// retires rather than be reused.
		name:      "unix sockets in flight in a cycle of their own",
		mayRetire: true,
		leave: "import array, socket\n" +
			"s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\ns.bind('\\0adaptbench-left')\ns.listen()\n" +
			"d = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\nd.bind('\\0adaptbench-left-dgram')\n" +
			"d.sendmsg([b'x'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', [d.fileno(), s.fileno()]))], 0, '\\0adaptbench-left-dgram')\n" +
			"print('left')",
		look: "import socket\nfor name, kind in (('left', socket.SOCK_STREAM), ('left-dgram', socket.SOCK_DGRAM)):\n" +
			"    c = socket.socket(socket.AF_UNIX, kind)\n    try:\n        c.connect('\\0adaptbench-' + name)\n        print(name, 'reached')\n" +
			"    except OSError as e:\n        print(name, e.errno)\nprint(len(open('/proc/net/unix').read().splitlines()) - 1)",
		wantLeft: "left\n",
		// ECONNREFUSED: no such name; only look's own socket.
		wantLooked: "left 111\nleft-dgram 111\n1\n",
	},
	{
		name:       "a background process",
		leave:      "import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        time.sleep(60)\n    os._exit(0)\nos.wait()\nprint('left')",
		look:       "import os\nprint(sorted(int(p) for p in os.listdir('/proc') if p.isdigit() and int(p) != os.getpid()))",
		wantLeft:   "left\n",
		wantLooked: "[1]\n",
	},
	{
		name:  "the PID counter",
		leave: "import os\nfor _ in range(50):\n    if os.fork() == 0:\n        os._exit(0)\n    os.wait()\nprint(os.getpid())",
		look:  "import os\nprint(os.getpid())",
		check: func(t *testing.T, left, looked exec.Result) {
			// The job's PID follows the init's own threads only.
			var a, b int
			_, err := fmt.Sscan(string(left.Stdout), &a)
			require.NoError(t, err, "%s", left.Stderr)
			_, err = fmt.Sscan(string(looked.Stdout), &b)
			require.NoError(t, err, "%s", looked.Stderr)
			assert.Less(t, a, 10)
			assert.Less(t, b, 10, "the next job's PID counts the last job's processes")
		},
	},
	{
		name:  "CPU time and peak memory",
		leave: "import time\nb = bytearray(96 << 20)\nfor i in range(0, len(b), 4096):\n    b[i] = 1\nt = time.process_time()\nwhile time.process_time() - t < 0.3:\n    pass\nprint('left')",
		look:  "print('looked')",
		check: func(t *testing.T, left, looked exec.Result) {
			assert.GreaterOrEqual(t, left.CPUTime, 300*time.Millisecond)
			assert.GreaterOrEqual(t, left.PeakMemory, 96*exec.MiB)
			assert.Less(t, looked.CPUTime, 150*time.Millisecond)
			assert.Less(t, looked.PeakMemory, 48*exec.MiB)
		},
	},
	{
		// The memory of a detached /tmp that something still held
		// would count against the next job.
		name:  "the memory of files in /tmp",
		leave: "open('/tmp/big', 'wb').write(bytes(48 << 20))\nprint('left')",
		look:  "print('looked')",
		check: func(t *testing.T, left, looked exec.Result) {
			assert.Equal(t, "left\n", string(left.Stdout), "%s", left.Stderr)
			assert.GreaterOrEqual(t, left.PeakMemory, 48*exec.MiB)
			assert.Less(t, looked.PeakMemory, 32*exec.MiB)
		},
	},
	{
		name:  "an OOM kill",
		leave: "b = bytearray(256 << 20)\nfor i in range(0, len(b), 4096):\n    b[i] = 1",
		look:  "print('looked')",
		lim:   exec.Limits{Memory: 96 * exec.MiB},
		check: func(t *testing.T, left, looked exec.Result) {
			assert.Equal(t, exec.StatusMemory, left.Status, "%s", left.Stderr)
			assert.Equal(t, exec.StatusOK, looked.Status, "%s %s", looked.Detail, looked.Stderr)
		},
	},
	{
		name:  "the process limit",
		leave: "import os, time\nfor _ in range(10):\n    try:\n        os.fork() or time.sleep(5)\n    except OSError:\n        break\nprint('left')",
		look:  "print('looked')",
		lim:   exec.Limits{Processes: 4},
		check: func(t *testing.T, left, looked exec.Result) {
			assert.Contains(t, left.Detail, "process limit reached")
			assert.NotContains(t, looked.Detail, "process limit reached")
		},
	},
	{
		name:       "the host name",
		leave:      "import socket\ntry:\n    socket.sethostname('left')\nexcept OSError as e:\n    print(e.errno)",
		look:       "import socket\nprint(socket.gethostname())",
		wantLeft:   "1\n", // EPERM
		wantLooked: "sandbox\n",
	},
}

// TestReusedInitKeepsNothing: an init reused for another job of the same
// shape keeps nothing of the last job that the next could read or feel:
// each thing a job can leave in its namespaces is tried by one job and
// looked for by the next in the same init.
func TestReusedInitKeepsNothing(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	sb := newSandbox(t)
	for _, tc := range reuseCases {
		t.Run(tc.name, func(t *testing.T) {
			left, looked := onReusedInit(t, sb, tc.leave, tc.look, tc.lim, tc.mayRetire)
			if tc.wantLeft != "" {
				assert.Equal(t, tc.wantLeft, string(left.Stdout), "%s", left.Stderr)
			}
			if tc.wantLooked != "" {
				assert.Equal(t, tc.wantLooked, string(looked.Stdout), "%s", looked.Stderr)
			}
			if tc.check != nil {
				tc.check(t, left, looked)
			}
		})
	}
}

// TestFewOpenFiles: jobs allowed few descriptors (12: fewer leave the init
// none for ForkExec, as before inits were reused) run one after another
// (RLIMIT_NOFILE is the init's too, and a reused init receives the next
// job's descriptors).
func TestFewOpenFiles(t *testing.T) {
	sb := newSandbox(t)
	for _, n := range []int{12, 16, 24, 32} {
		for i := range 3 {
			res, err := sb.Run(context.Background(), exec.Job{Args: []string{"/bin/true"}, Limits: exec.Limits{OpenFiles: n}})
			require.NoError(t, err, "OpenFiles %d, job %d", n, i)
			require.Equal(t, exec.StatusOK, res.Status, "OpenFiles %d, job %d: %s", n, i, res.Detail)
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// TestReusedInitsConcurrently: short jobs run four at a time, with a
// workspace that takes a while to copy back, so that an init is reused by
// one job while the job before it is still finishing; each job gets its
// own output, whole.
func TestReusedInitsConcurrently(t *testing.T) {
	sb := newSandbox(t)
	const n = 200
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big"), make([]byte, 8<<20), 0o644))
	var wg sync.WaitGroup
	errs := make(chan string, n)
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				want := fmt.Sprintf("job %d", i)
				res, err := sb.Run(context.Background(), exec.Job{Dir: dir, Args: []string{"/bin/echo", want}})
				if err != nil || res.Status != exec.StatusOK || string(res.Stdout) != want+"\n" {
					errs <- fmt.Sprintf("%s: %v %s %q %s", want, err, res.Status, res.Stdout, res.Detail)
				}
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
