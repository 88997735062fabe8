package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
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

var (
	fsOnce sync.Once
	fsrv   *sandbox.ForkServer
)

func forkServer(t testing.TB) *sandbox.ForkServer {
	sb := newSandbox(t)
	fsOnce.Do(func() {
		var err error
		fsrv, err = sandbox.NewForkServer(sb, nil)
		require.NoError(t, err)
	})
	return fsrv
}

func py(code string) []string { return []string{python, "-c", code} }

func TestForkServerVerdicts(t *testing.T) {
	fs := forkServer(t)
	mem := exec.StatusMemory
	tests := []struct {
		name, reason string
		args         func(m string) []string
		limits       exec.Limits
		stdin        string
		want         exec.Status
		check        func(t *testing.T, r exec.Result)
	}{
		{name: "ok", reason: "a plain program", args: func(m string) []string { return py("import sys; print('hi', sys.argv[1:], input())") },
			stdin: "typed\n", want: exec.StatusOK,
			check: func(t *testing.T, r exec.Result) { assert.Equal(t, "hi [] typed\n", string(r.Stdout)) }},
		{name: "exit code", reason: "SystemExit keeps its code", args: func(m string) []string { return py("raise SystemExit(3)") },
			want: exec.StatusExit, check: func(t *testing.T, r exec.Result) { assert.Equal(t, 3, r.ExitCode) }},
		{name: "exception", reason: "an uncaught exception exits 1 with its traceback", args: func(m string) []string { return py("1/0") },
			want: exec.StatusExit, check: func(t *testing.T, r exec.Result) { assert.Contains(t, string(r.Stderr), "ZeroDivisionError") }},
		{name: "syntax error", reason: "reported like python -c does", args: func(m string) []string { return py("def (:") },
			want: exec.StatusExit, check: func(t *testing.T, r exec.Result) { assert.Contains(t, string(r.Stderr), "SyntaxError") }},
		{name: "fork bomb", reason: "the server's pids cgroup bounds it; the CPU time of the whole tree ends it",
			args:   func(m string) []string { return py("import os\nwhile True:\n  try: os.fork()\n  except OSError: pass") },
			limits: exec.Limits{CPUTime: time.Second, WallTime: 30 * time.Second, Processes: 32}, want: exec.StatusCPUTime},
		{name: "memory bomb", reason: "RLIMIT_AS turns it into a MemoryError",
			args:   func(m string) []string { return py("x = []\nwhile True: x.append(bytearray(32 << 20))") },
			limits: exec.Limits{Memory: 256 * exec.MiB}, want: mem},
		{name: "infinite loop", reason: "CPU time", args: func(m string) []string { return py("while True: pass") },
			limits: exec.Limits{CPUTime: time.Second, WallTime: 30 * time.Second}, want: exec.StatusCPUTime},
		{name: "sleep", reason: "wall time", args: func(m string) []string { return py("import time; time.sleep(100)") },
			limits: exec.Limits{CPUTime: 5 * time.Second, WallTime: 500 * time.Millisecond}, want: exec.StatusWallTime},
		{name: "output flood", reason: "the output limit, with a capped capture",
			args: func(m string) []string {
				return py("import sys\nb = b'x' * (1 << 20)\nfor _ in range(100): sys.stdout.buffer.write(b)")
			},
			limits: exec.Limits{Output: 4 * exec.MiB}, want: exec.StatusOutput,
			check: func(t *testing.T, r exec.Result) { assert.LessOrEqual(t, len(r.Stdout), 64<<10+100) }},
		{name: "daemon", reason: "a double-forked child is killed when the job ends",
			args: func(m string) []string {
				return []string{python, "-c", "import os, time, sys\nif os.fork() == 0:\n  os.setsid()\n  if os.fork() == 0:\n    os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(100)', sys.argv[1]])\n  os._exit(0)\ntime.sleep(0.1)", m}
			}, want: exec.StatusOK},
		{name: "no network", reason: "the server's sandbox has only its own loopback",
			args: func(m string) []string {
				return py("import socket\nsocket.create_connection(('127.0.0.1', 22), timeout=1)")
			}, want: exec.StatusExit,
			check: func(t *testing.T, r exec.Result) { assert.Contains(t, string(r.Stderr), "Connection refused") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := marker(t)
			job := exec.Job{Args: tc.args(m), Limits: tc.limits}
			if tc.stdin != "" {
				job.Stdin = strings.NewReader(tc.stdin)
			}
			res, err := fs.Run(context.Background(), job)
			require.NoError(t, err)
			assert.Equal(t, tc.want, res.Status, "%s: %s; detail %q stderr %q", tc.name, tc.reason, res.Detail, res.Stderr)
			if tc.check != nil {
				tc.check(t, res)
			}
			assert.Empty(t, processesWith(m))
			// The next job runs normally.
			res, err = fs.Run(context.Background(), exec.Job{Args: py("print(42)")})
			require.NoError(t, err)
			assert.Equal(t, "42\n", string(res.Stdout))
		})
	}
}

func TestForkServerIsolatesJobs(t *testing.T) {
	fs := forkServer(t)
	run := func(code string) exec.Result {
		res, err := fs.Run(context.Background(), exec.Job{Args: py(code)})
		require.NoError(t, err)
		return res
	}
	res := run("open('/tmp/planted', 'w').write('x'); open('/dev/shm/planted', 'w').write('x'); open('here.txt', 'w').write('x'); import os; os.environ['LEAK'] = '1'; import json; json.dumps = None")
	require.Equal(t, exec.StatusOK, res.Status, "%s", res.Stderr)
	res = run("import os\nos.makedirs('/tmp/locked/inner')\nopen('/tmp/locked/inner/f', 'w').write('x')\nos.chmod('/tmp/locked/inner', 0)\nos.chmod('/tmp/locked', 0)")
	require.Equal(t, exec.StatusOK, res.Status, "%s", res.Stderr)
	res = run("import os, json; print(os.path.exists('/tmp/planted'), os.path.exists('/dev/shm/planted'), os.path.exists('here.txt'), 'LEAK' in os.environ, json.dumps is None, sorted(os.listdir('/tmp')))")
	assert.Equal(t, "False False False False False ['work']\n", string(res.Stdout), "nothing of one job reaches the next")

	t.Setenv("OPENAI_API_KEY", "sk-secret")
	res = run("import os; print(sorted(os.environ))")
	assert.NotContains(t, string(res.Stdout), "OPENAI_API_KEY")

	// The job's parent is the server's zygote; the server is its parent.
	res = run("import os, signal\nserver = int(open('/proc/%d/stat' % os.getppid()).read().rsplit(')', 1)[1].split()[1])\nos.kill(server, signal.SIGKILL)")
	assert.Equal(t, exec.StatusSignal, res.Status, "killing the server is a verdict: %s", res.Detail)
	res = run("print('after')")
	assert.Equal(t, "after\n", string(res.Stdout), "a new server takes over")
}

func TestForkServerWorkspace(t *testing.T) {
	fs := forkServer(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mod.py"), []byte("VALUE = 7\n"), 0o644))
	res, err := fs.Run(context.Background(), exec.Job{Dir: dir, Args: []string{python, "-s", "-B", "-c", "import os, mod; print(os.getcwd(), mod.VALUE); os.makedirs('out', exist_ok=True); open('out/r.txt', 'w').write('done')"}})
	require.NoError(t, err)
	require.Equal(t, exec.StatusOK, res.Status, "%s", res.Stderr)
	assert.Equal(t, exec.WorkDir+" 7\n", string(res.Stdout))
	b, err := os.ReadFile(filepath.Join(dir, "out", "r.txt"))
	require.NoError(t, err)
	assert.Equal(t, "done", string(b), "files the job wrote come back")
}

func TestForkServerDriverMatchesSandbox(t *testing.T) {
	sb := newSandbox(t)
	fs := forkServer(t)
	d := exec.PythonUnittest{PerTestTimeout: time.Second}
	var suites []*exec.Suite
	for _, r := range []exec.Runner{sb, fs} {
		s, err := d.Test(context.Background(), r, exec.TestSpec{Dir: driverFixture(t, "unittest")})
		require.NoError(t, err)
		suites = append(suites, s)
	}
	require.Equal(t, len(suites[0].Tests), len(suites[1].Tests))
	for i := range suites[0].Tests {
		assert.Equal(t, suites[0].Tests[i].Name, suites[1].Tests[i].Name)
		assert.Equal(t, suites[0].Tests[i].Status, suites[1].Tests[i].Status, suites[0].Tests[i].Name)
	}
}

// TestForkServerPytestMatchesSandbox: with pytest preloaded, the server
// defines the pytest reporter once; its verdicts are the Sandbox's.
func TestForkServerPytestMatchesSandbox(t *testing.T) {
	exectest.RequirePython(t, true)
	sb := newSandbox(t)
	fs, err := sandbox.NewForkServer(sb, &sandbox.ForkServerConfig{Preload: append(slices.Clone(sandbox.DefaultPreload), "pytest")})
	require.NoError(t, err)
	defer fs.Close()
	d := exec.Pytest{PerTestTimeout: time.Second}
	for _, fixture := range []string{"pytest", "pytest_broken"} {
		var suites []*exec.Suite
		for _, r := range []exec.Runner{sb, fs} {
			s, err := d.Test(context.Background(), r, exec.TestSpec{Dir: driverFixture(t, fixture)})
			require.NoError(t, err)
			suites = append(suites, s)
		}
		require.Equal(t, len(suites[0].Tests), len(suites[1].Tests), fixture)
		for i := range suites[0].Tests {
			assert.Equal(t, suites[0].Tests[i].Name, suites[1].Tests[i].Name)
			assert.Equal(t, suites[0].Tests[i].Status, suites[1].Tests[i].Status, suites[0].Tests[i].Name)
		}
		assert.Equal(t, suites[0].Compile == nil, suites[1].Compile == nil, fixture)
	}
	// The server imports pytest's default plugins once (pytest imports
	// them before its assertion-rewriting hook is in place); not
	// pytester_assertions, which a run that asks for pytester imports, so
	// that pytest rewrites its asserts: were it imported already, pytest
	// would warn, and this workspace turns warnings into errors.
	res, err := fs.Run(context.Background(), exec.Job{Args: py(
		"import sys; print(*(m in sys.modules for m in ('_pytest.junitxml', '_pytest.stepwise', '_pytest.pytester_assertions')))")})
	require.NoError(t, err)
	require.Equal(t, exec.StatusOK, res.Status, "%s", res.Stderr)
	assert.Equal(t, "True True False\n", string(res.Stdout))
	ws := t.TempDir()
	for name, src := range map[string]string{
		"pytest.ini":          "[pytest]\nfilterwarnings = error\n",
		"conftest.py":         "pytest_plugins = ['pytester']\n",
		"test_with_plugin.py": "def test_pytester(pytester):\n    assert pytester.path.is_dir()\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(ws, name), []byte(src), 0o644))
	}
	for _, r := range []exec.Runner{sb, fs} {
		s, err := d.Test(context.Background(), r, exec.TestSpec{Dir: ws})
		require.NoError(t, err)
		require.Nil(t, s.Compile, "%T", r)
		require.Len(t, s.Tests, 1, "%T", r)
		assert.Equal(t, exec.TestPassed, s.Tests[0].Status, "%T: %s", r, s.Tests[0].Message)
	}
}

func TestForkServerFallsBack(t *testing.T) {
	sb := newSandbox(t)
	fs, err := sandbox.NewForkServer(sb, &sandbox.ForkServerConfig{Python: "/usr/bin/python3-missing"})
	require.NoError(t, err)
	defer fs.Close()
	res, err := fs.Run(context.Background(), exec.Job{Args: []string{"/usr/bin/python3-missing", "-c", "pass"}})
	assert.Error(t, err, "the sandbox reports the missing interpreter")
	assert.Equal(t, exec.StatusInternal, res.Status)
	assert.Error(t, sandbox.Fallback(fs), "the server could not start")
	res, err = fs.Run(context.Background(), exec.Job{Args: []string{"sh", "-c", "echo other"}})
	require.NoError(t, err)
	assert.Equal(t, "other\n", string(res.Stdout), "other commands go through the sandbox")
}

// TestForkServerSysPath: a job sees the sys.path a plain python3 gives it in
// the sandbox, system packages included, with and without -S.
func TestForkServerSysPath(t *testing.T) {
	sb := newSandbox(t)
	fs := forkServer(t)
	for _, args := range [][]string{
		{python, "-c", "import sys; print(sys.path)"},
		{python, "-S", "-c", "import sys; print(sys.path)"},
		{python, "-s", "-B", "-c", "import sys; print(sys.path)"},
	} {
		var out []string
		for _, r := range []exec.Runner{sb, fs} {
			res, err := r.Run(context.Background(), exec.Job{Args: args})
			require.NoError(t, err)
			require.Equal(t, exec.StatusOK, res.Status, "%s", res.Stderr)
			out = append(out, string(res.Stdout))
		}
		assert.Equal(t, out[0], out[1], "sys.path of %q: sandbox vs fork server", args)
	}
}

// TestForkServerPreloadsNoThreading: the default server's jobs find the
// test drivers' modules loaded and threading not: a module that imports it
// (logging, unittest.mock) adds after-fork handlers and pages that every job
// forked from the server pays for.
func TestForkServerPreloadsNoThreading(t *testing.T) {
	fs := forkServer(t)
	res, err := fs.Run(context.Background(), exec.Job{Args: py(
		"import sys; print(*(m in sys.modules for m in ('unittest', 'json', 'threading', 'logging', 'asyncio')))")})
	require.NoError(t, err)
	require.Equal(t, exec.StatusOK, res.Status, "%s", res.Stderr)
	assert.Equal(t, "True True False False False\n", string(res.Stdout))
}

// TestForkServerDefinesReporterOnce: the default server makes the unittest
// reporter's functions and classes once, and a job only runs it; run as a
// program, the reporter is the job's __main__.
func TestForkServerDefinesReporterOnce(t *testing.T) {
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "test_where.py"), []byte(`import sys, unittest

class TestWhere(unittest.TestCase):
    def test_reporter_not_main(self):
        self.assertNotIn('Reporter', vars(sys.modules['__main__']))
`), 0o644))
	spec := exec.TestSpec{Dir: ws, Tests: []string{"test_where.TestWhere.test_reporter_not_main"}}
	for _, tc := range []struct {
		r    exec.Runner
		want exec.TestStatus
	}{{forkServer(t), exec.TestPassed}, {newSandbox(t), exec.TestFailed}} {
		s, err := exec.PythonUnittest{}.Test(context.Background(), tc.r, spec)
		require.NoError(t, err)
		require.Len(t, s.Tests, 1)
		assert.Equal(t, tc.want, s.Tests[0].Status, "%T: %s", tc.r, s.Tests[0].Message)
	}
}

// TestThreadsFitAlike: under a 256 MiB memory limit a job starts 100
// threads on both paths. (RLIMIT_AS, which the fork server bounds memory
// with, counts each thread's reserved malloc arena and stack: it held 3.)
func TestThreadsFitAlike(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	code := "import threading\nev = threading.Event()\nts = [threading.Thread(target=ev.wait) for i in range(100)]\nfor th in ts:\n    th.start()\nev.set()\nprint('started', len(ts))"
	for name, r := range map[string]exec.Runner{"sandbox": newSandbox(t), "forkserver": forkServer(t)} {
		res, err := r.Run(context.Background(), exec.Job{Args: py(code), Limits: exec.Limits{Memory: 256 * exec.MiB}})
		require.NoError(t, err)
		assert.Equal(t, "started 100\n", string(res.Stdout), "%s: %s %s", name, res.Status, res.Stderr)
	}
}

// TestNewPythonRunner: the default Python runner runs jobs through its
// fork server, and its Close stops the Sandbox it made as well (the leak
// check of TestMain would find its inits and cgroups otherwise).
func TestNewPythonRunner(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	r, err := sandbox.NewPythonRunner(nil)
	require.NoError(t, err)
	res, err := r.Run(context.Background(), exec.Job{Args: py("print('hi')")})
	require.NoError(t, err)
	assert.Equal(t, "hi\n", string(res.Stdout))
	require.NoError(t, r.Close())

	// Default: a runner given is kept (and not closed); none gives
	// a new one that its function closes.
	sb := exectest.Sandbox(t)
	got, done, err := sandbox.Default(sb)
	require.NoError(t, err)
	assert.Same(t, sb, got)
	done()
	res, err = sb.Run(context.Background(), exec.Job{Args: py("print('still open')")})
	require.NoError(t, err)
	assert.Equal(t, "still open\n", string(res.Stdout))
	made, done, err := sandbox.Default(nil)
	require.NoError(t, err)
	res, err = made.Run(context.Background(), exec.Job{Args: py("print('made')")})
	require.NoError(t, err)
	assert.Equal(t, "made\n", string(res.Stdout))
	done()
}

// TestForkServerEnv: ForkServerConfig.Env is the servers' environment while
// they preload (zoneinfo reads PYTHONTZPATH when imported), not the jobs'.
func TestForkServerEnv(t *testing.T) {
	fs, err := sandbox.NewForkServer(newSandbox(t), &sandbox.ForkServerConfig{
		Preload: append(slices.Clone(sandbox.DefaultPreload), "zoneinfo"),
		Env:     []string{"PYTHONTZPATH=/adaptbench-tz"},
	})
	require.NoError(t, err)
	t.Cleanup(func() { fs.Close() })
	code := "import os, zoneinfo; print(zoneinfo.TZPATH, os.environ.get('PYTHONTZPATH'))"
	res, err := fs.Run(context.Background(), exec.Job{Args: py(code)})
	require.NoError(t, err)
	require.Equal(t, exec.StatusOK, res.Status, "%s", res.Stderr)
	assert.Equal(t, "('/adaptbench-tz',) None\n", string(res.Stdout), "preloaded under the server's Env; the job's environment is its own")
	res, err = fs.Run(context.Background(), exec.Job{Args: py(code), Env: []string{"PYTHONTZPATH=/job-tz"}})
	require.NoError(t, err)
	assert.Equal(t, "('/adaptbench-tz',) /job-tz\n", string(res.Stdout), "what a preloaded module read at import stays")
	res, err = forkServer(t).Run(context.Background(), exec.Job{Args: py(code)})
	require.NoError(t, err)
	assert.NotContains(t, string(res.Stdout), "adaptbench-tz", "another fork server")
}
