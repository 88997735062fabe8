package exec_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/exec/internal/jobkit"
)

// reporterGlobals finds the reporter's module namespace from a class's
// functions, reached through object.__subclasses__() (no audit event).
const reporterGlobals = `def _reporter_globals():
    todo, seen = [object], set()
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        try:
            todo.extend(type.__subclasses__(c))
        except TypeError:
            pass
        for v in list(vars(c).values()):
            g = getattr(v, '__globals__', None)
            if isinstance(g, dict) and '_SEVERITY' in g and '_g_send' in g:
                return g
    return None
`

// severity rewrites the reporter's severity table so that failures rank
// below a pass.
const severity = reporterGlobals + `
def add(a, b):
    g = _reporter_globals()
    g['_SEVERITY'].update(passed=9)
    return a - b
`

// sinkFrame reads the results sink's frame with gc.get_referents from code
// compiled under a standard library file name (trusted by the guard): its
// descriptor, nonce and sequence number; then writes numbered passes and
// leaves by the reporter's own exit.
const sinkFrame = reporterGlobals + `
import gc, json, os, sys
_src = '''
def forge(g, names):
    gen = g['_g_send'].__self__
    refs = gc.get_referents(gen)
    j = [i for i, r in enumerate(refs) if r is refs[0]][1]
    loc = refs[j + 1:]
    fd, nonce, seq = loc[0], loc[1], loc[12]
    out = []
    for i, n in enumerate(names):
        if i:
            out.append({'e': 'start', 'test': n})
        out.append({'e': 'end', 'test': n, 'status': 'passed', 'message': '', 'duration': 0.0})
    out.append({'e': 'done', 'exit': 0})
    for e in out:
        e['k'], e['q'] = nonce, seq
        seq += 1
        os.write(fd, (json.dumps(e) + chr(10)).encode())
    g['_g_real_exit'](0)
'''
_ns = {'gc': gc, 'json': json, 'os': os}
exec(compile(_src, '/usr/lib/python3.11/functools.py', 'exec'), _ns)
def add(a, b):
    _ns['forge'](_reporter_globals(), NAMES)
    return a - b
`

// shadowResult finds the running TestResult through traceback.walk_stack
// (frames handed on by the standard library) and shadows its set method
// on the instance, so that no failure is recorded.
const shadowResult = `import traceback, unittest
def add(a, b):
    for f, _ in traceback.walk_stack(None):
        r = f.f_locals.get('result')
        if isinstance(r, unittest.TestResult):
            r.set = lambda *a, **k: None
            break
    return a - b
`

// cleanupReset finds the running test through logging.currentframe and
// appends a cleanup that resets the reporter's status after the test.
const cleanupReset = `import logging, unittest
def add(a, b):
    f = logging.currentframe()
    while f is not None:
        t, r = f.f_locals.get('self'), f.f_locals.get('result')
        if isinstance(t, unittest.TestCase) and isinstance(r, unittest.TestResult):
            def reset(r=r):
                r.status, r.msgs = 'passed', []
            t.addCleanup(reset)
            break
        f = f.f_back
    return a - b
`

// shouldStop raises unittest's private _ShouldStop in the test, which
// unittest swallows: the test passes.
const shouldStop = `import unittest.case
def add(a, b):
    raise unittest.case._ShouldStop()
`

// pluginState replaces the pytest plugin's per-test state, reached
// through pytest's import hook, with a map that forgets failures.
const pluginState = `import sys
class _Forget(dict):
    def pop(self, k, d=None):
        dict.pop(self, k, None)
        return ['passed', [], 0.0]
def add(a, b):
    for h in sys.meta_path:
        cfg = getattr(h, 'config', None)
        for p in (cfg.pluginmanager.get_plugins() if cfg else ()):
            if hasattr(p, 'state') and hasattr(p, 'planned'):
                p.state = _Forget()
    return a - b
`

// runIsolated is runTamper with TestSpec.Isolate set as asked and calc.py
// named as the answer.
func runIsolated(t *testing.T, r exec.Runner, framework, calc string, isolate bool) *exec.Suite {
	t.Helper()
	dir := tamperWorkspace(t, framework, calc)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := tamperDriver(framework).Test(ctx, r, exec.TestSpec{Dir: dir, Limits: exec.Limits{WallTime: 30 * time.Second},
		Answer: []string{"calc.py"}, Isolate: isolate})
	require.NoError(t, err)
	require.Nil(t, s.Compile, "the workspace imports")
	require.Len(t, s.Tests, 2, "both tests are reported: %+v\n%s\n%s\n%s %+v", s.Tests, s.Run.Stderr, s.Run.Detail, s.Run.Stdout, s.Run)
	assert.Equal(t, isolate, s.Isolated)
	return s
}

// TestIsolatedAnswerCannotForge: each forgery of the answer's files that
// reaches the reporter's objects from inside the tests' process (its
// namespace through object.__subclasses__ and __globals__, the results
// sink's frame through gc.get_referents from code compiled under a
// standard library name, the running test and result through
// traceback.walk_stack or logging.currentframe, pytest's plugin state)
// fails isolated, on both runners: the answer runs in a process where
// none of them is. In-process, the guard catches some and misses the
// others (missed): those pass as a wrong answer there.
func TestIsolatedAnswerCannotForge(t *testing.T) {
	names := map[string]string{
		"unittest": "['test_calc.T.test_add', 'test_calc.T.test_add_ones']",
		"pytest":   "['test_calc.py::test_add', 'test_calc.py::test_add_ones']",
	}
	attacks := []struct {
		name, framework, calc string
		missed                bool // in-process, a wrong answer passes with no evidence
	}{
		{"severity table", "unittest", severity, true},
		{"severity table", "pytest", severity, true},
		// Code the answer compiles under a standard library name is the
		// answer's (code identity): in-process, its gc reach is evidence.
		{"sink frame", "unittest", sinkFrame, false},
		{"sink frame", "pytest", sinkFrame, false},
		{"walk_stack shadow", "unittest", shadowResult, true},
		{"currentframe cleanup", "unittest", cleanupReset, true},
		{"plugin state", "pytest", pluginState, true},
		{"private exception", "unittest", shouldStop, true},
		{"channel write", "unittest", writeChannel, false},
		{"reporter call", "unittest", callReporter, false},
		{"gc reach", "unittest", gcReach, false},
		{"framework patch", "unittest", patchUnittest + wrongAdd, false},
		{"framework patch", "pytest", patchPytest + wrongAdd, false},
		{"reporter rebind", "pytest", rebindPytest, false},
		{"ctypes", "unittest", ctypesPeek, false},
		{"control", "unittest", wrongAdd, false},
		{"control", "pytest", wrongAdd, false},
	}
	for _, a := range attacks {
		t.Run(a.framework+"/"+a.name, func(t *testing.T) {
			exectest.RequirePython(t, a.framework == "pytest")
			calc := "NAMES = " + names[a.framework] + "\n" + a.calc
			bothPaths(t, func(t *testing.T, r exec.Runner) {
				s := runIsolated(t, r, a.framework, calc, true)
				assert.Equal(t, 2, s.Count(exec.TestFailed)+s.Count(exec.TestError), "isolated, the wrong answer fails: %+v", s.Tests)
				assert.False(t, passedAny(s), "isolated: %+v", s.Tests)
				t.Logf("isolated: %+v %s", s.Tests, tamperKinds(s))
				s = runIsolated(t, r, a.framework, calc, false)
				t.Logf("in-process: %+v %s", s.Tests, tamperKinds(s))
				assert.Equal(t, a.missed, passedAny(s), "in-process, missed=%v", a.missed)
			})
		})
	}
}

// probeHandles is an answer that is given a callback, the test object, a
// mock and the builtin vars by the tests, and tries to read through them:
// their attributes, and raw requests on the answer's end of the pipes
// (the answer's process holds a copy of the reporter's code). It returns
// what it could read.
const probeHandles = reporterGlobals + `
def probe(f, t, m, v):
    g = _reporter_globals()
    leaks = []
    for h, names in ((f, ['__globals__', '__code__', '__closure__', '__builtins__', '__self__', '__wrapped__']),
                     (t, ['secret', '_outcome', 'run', '__dict__', '__self__']),
                     (m, ['return_value', 'call_args', '_mock_children']),
                     (v, ['__self__', '__name__'])):
        for n in names:
            try:
                getattr(h, n)
                leaks.append('%s.%s' % (h, n))
            except Exception:
                pass
    call = g['_iso_child_call']
    for req in (('getattr', f, '__globals__'), ('getattr', t, 'secret'), ('op', 'repr', t),
                ('call', t, [], {}), ('call', v, [t], {}), ('call', f, [t], {}), ('next', t),
                ('import', 'os', [], '')):
        try:
            got = call(*req)
            if got is not None and 'S3CRET' in repr(got):
                leaks.append('%s: %r' % (req[0], got))
            elif req[0] != 'call' or req[1] is not f:
                leaks.append('%s answered: %r' % (req[0], got))
        except Exception:
            pass
    m()
    if f(41) != 42:
        leaks.append('the callback did not run')
    return leaks
`

const testProbe = `import unittest, unittest.mock
import calc

class T(unittest.TestCase):
    secret = 'S3CRET'

    def test_probe(self):
        m = unittest.mock.Mock()
        self.assertEqual(calc.probe(lambda x: x + 1, self, m, vars), [])
        m.assert_called_once()
`

// TestIsolatedHandlesAreCallOnly: what the tests hand the answer (a
// callback, the test object, a mock, a builtin) can be called from the
// answer's process, never read: no attribute of the tests' objects, their
// globals or builtins, by the stand-in or by raw requests on the pipes.
func TestIsolatedHandlesAreCallOnly(t *testing.T) {
	exectest.RequirePython(t, false)
	bothPaths(t, func(t *testing.T, r exec.Runner) {
		dir := exectest.Workspace(t)
		writeFiles(t, dir, map[string]string{"calc.py": probeHandles, "test_calc.py": testProbe})
		s := runSpec(t, r, exec.PythonUnittest{}, exec.TestSpec{Dir: dir, Answer: []string{"calc.py"}, Isolate: true})
		require.Len(t, s.Tests, 1)
		assert.Equal(t, exec.TestPassed, s.Tests[0].Status, "nothing leaked: %s", s.Tests[0].Message)
		assert.False(t, s.Forged(), tamperKinds(s))
	})
}

// TestIsolatedBadMessages: an oversized or malformed message from the
// answer's process, or its end, is the answer's failure (the test that
// waited for it errors, naming the answer's process), never the harness's.
func TestIsolatedBadMessages(t *testing.T) {
	exectest.RequirePython(t, false)
	bad := map[string]string{
		"oversized":    `os.write(w, b'\xff\xff\xff\xf0' + b'x' * 100)`,
		"over limit":   `os.write(w, struct.pack('>I', (32 << 20) + 1))`,
		"not json":     `os.write(w, struct.pack('>I', 5) + b'hello')`,
		"deep":         `os.write(w, struct.pack('>I', 200000) + b'[' * 200000)`,
		"bad value":    `g['_iso'].send(['a', rid(), ['zz', 1]])`,
		"bad class":    `g['_iso'].send(['e', rid(), [['n', 'os.system'], None, 'x', '']])`,
		"bad kind":     `g['_iso'].send([7])`,
		"short":        `os.write(w, struct.pack('>I', 50) + b'[1'); os.close(w)`,
		"process ends": `os._exit(3)`,
	}
	for name, code := range bad {
		t.Run(name, func(t *testing.T) {
			bothPaths(t, func(t *testing.T, r exec.Runner) {
				dir := exectest.Workspace(t)
				calc := reporterGlobals + "import os, struct, sys, time\n" +
					"def rid():\n    f = sys._getframe()\n    while f.f_code.co_name != '_iso_serve_one':\n        f = f.f_back\n    return f.f_locals['rid']\n" +
					"def add(a, b):\n    g = _reporter_globals()\n    w = g['_iso'].wfd\n    " +
					code + "\n    time.sleep(2)\n    return a + b\n"
				writeFiles(t, dir, map[string]string{"calc.py": calc, "test_calc.py": unittestOfAdd})
				s := runSpec(t, r, exec.PythonUnittest{}, exec.TestSpec{Dir: dir, Answer: []string{"calc.py"}, Isolate: true,
					Tests: []string{"test_calc.T.test_add"}})
				require.Len(t, s.Tests, 1)
				assert.Equal(t, exec.TestError, s.Tests[0].Status)
				assert.Contains(t, s.Tests[0].Message, "AnswerProcessError")
			})
		})
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
}

func runSpec(t *testing.T, r exec.Runner, d exec.Driver, spec exec.TestSpec) *exec.Suite {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	spec.Limits = exec.Limits{WallTime: 30 * time.Second}
	s, err := d.Test(ctx, r, spec)
	require.NoError(t, err)
	require.Nil(t, s.Compile, "the workspace imports")
	return s
}

// seekNonce is an answer that looks for the run's nonce everywhere the
// answer's process can look: its own memory (a copy of its parent's as
// it was at the fork), the tests' process's memory, descriptors and
// environment through /proc, and the tests' descriptors through
// pidfd_getfd. It prints what it found and what it could open.
const seekNonce = `import base64, ctypes, os, re, sys
# Patterns that match the nonce, raw or in base64, without holding it:
# the answer's own memory must not match for its search.
FORMS = (re.compile(rb'N[O]NCE-f[0]0d-7e[5]7'), re.compile(rb'Tk9[O]Q0UtZjA[w]ZC03ZTU3'))
def _self():
    # The process's own anonymous memory (where Python's objects live),
    # read with ctypes: no /proc/self/mem, which a process that is not
    # dumpable cannot open.
    found, size = [], 0
    for line in open('/proc/self/maps').read().splitlines():
        f = line.split()
        if not f[1].startswith('r') or (len(f) > 5 and f[5] not in ('[heap]', '[stack]')):
            continue
        lo, hi = (int(x, 16) for x in f[0].split('-'))
        data = ctypes.string_at(lo, hi - lo)
        size += hi - lo
        found += [x for x in FORMS if x.search(data)]
    return found, size
def _parent(pid):
    try:
        open('/proc/%s/mem' % pid, 'rb', buffering=0).read(1)
        return True
    except OSError:
        return False
def add(a, b):
    out = []
    found, size = _self()
    out.append('self:%d scanned:%d' % (len(found), size >> 20))
    ppid = os.getppid()
    out.append('parent-mem:%s' % ('open' if _parent(ppid) else 'denied'))
    fds = 0
    for n in range(64):
        try:
            os.open('/proc/%d/fd/%d' % (ppid, n), os.O_RDONLY | os.O_NONBLOCK)
            fds += 1
        except OSError:
            pass
    out.append('parent-fds:%d' % fds)
    try:
        open('/proc/%d/environ' % ppid, 'rb').read()
        out.append('parent-environ:open')
    except OSError:
        out.append('parent-environ:denied')
    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = libc.syscall(434, ppid, 0)  # pidfd_open
    got = 0
    if pidfd >= 0:
        for n in range(64):
            if libc.syscall(438, pidfd, n, 0) >= 0:  # pidfd_getfd
                got += 1
    out.append('pidfd-getfd:%d' % got)
    sys.__stdout__.write('SEEK ' + ' '.join(out) + '\n')
    sys.__stdout__.flush()
    return a + b
`

// TestIsolatedAnswerCannotReachNonce: the answer's process finds no copy
// of the nonce in its own memory (it was forked before the reporter read
// it, and the fork server keeps a job's stdin out of Python objects), and
// cannot read the tests' process (not dumpable): not its memory, its
// descriptors or its environment, not through pidfd_getfd. In-process,
// the same answer finds the nonce in its memory.
func TestIsolatedAnswerCannotReachNonce(t *testing.T) {
	exectest.RequirePython(t, false)
	bothPaths(t, func(t *testing.T, r exec.Runner) {
		for _, isolate := range []bool{true, false} {
			dir := exectest.Workspace(t)
			writeFiles(t, dir, map[string]string{"calc.py": seekNonce, "test_calc.py": unittestOfAdd})
			args := []string{exec.DefaultPython, "-s", "-B", "-c", jobkit.UnittestReporter, ".adaptbench-results.jsonl", "0", "test_calc.T.test_add"}
			env := []string{"PYTHONDONTWRITEBYTECODE=1"}
			if isolate {
				env = append(env, `ADAPTBENCH_ISOLATE=["calc.py"]`)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			res, err := r.Run(ctx, exec.Job{Dir: dir, Args: args, Env: env, Stdin: strings.NewReader("NONCE-f00d-7e57\n"),
				Limits: exec.Limits{WallTime: 30 * time.Second}})
			cancel()
			require.NoError(t, err)
			out := string(res.Stdout)
			t.Logf("isolate=%v: %s", isolate, out)
			require.Contains(t, out, "SEEK ", "the answer ran: %s", res.Stderr)
			var scanned int
			_, err = fmt.Sscanf(out[strings.Index(out, "scanned:"):], "scanned:%d", &scanned)
			require.NoError(t, err)
			assert.Greater(t, scanned, 4, "MiB of the answer's memory scanned")
			if isolate {
				assert.Contains(t, out, "self:0 ")
				assert.Contains(t, out, "parent-mem:denied")
				assert.Contains(t, out, "parent-fds:0 ")
				assert.Contains(t, out, "parent-environ:denied")
				assert.Contains(t, out, "pidfd-getfd:0")
			} else {
				assert.NotContains(t, out, "self:0 ", "in-process, the nonce is in the answer's memory")
			}
		}
	})
}

// TestIsolatedTimeout: a test whose answer loops is stopped by its time
// limit isolated as in-process, and the answer's process is interrupted
// too, so that the next test runs (and passes).
func TestIsolatedTimeout(t *testing.T) {
	exectest.RequirePython(t, false)
	calc := "def add(a, b):\n    if a == 2:\n        while True:\n            pass\n    return a + b\n"
	bothPaths(t, func(t *testing.T, r exec.Runner) {
		for _, isolate := range []bool{true, false} {
			dir := exectest.Workspace(t)
			writeFiles(t, dir, map[string]string{"calc.py": calc, "test_calc.py": unittestOfAdd})
			s := runSpec(t, r, exec.PythonUnittest{PerTestTimeout: time.Second}, exec.TestSpec{Dir: dir, Answer: []string{"calc.py"}, Isolate: isolate})
			checkOutcomes(t, s, []wantTest{{"test_calc.T.test_add", exec.TestTimedOut}, {"test_calc.T.test_add_ones", exec.TestPassed}})
			assert.Equal(t, isolate, s.Isolated)
		}
	})
}

// TestIsolatedHonestCode: the honest code of TestHonestCodeIsNoTampering
// (logging, warnings, threads, a subprocess, inspect, numpy and pandas
// where installed) passes isolated too, with no evidence, on both runners
// and with both drivers.
func TestIsolatedHonestCode(t *testing.T) {
	for _, framework := range []string{"unittest", "pytest"} {
		t.Run(framework, func(t *testing.T) {
			exectest.RequirePython(t, framework == "pytest")
			bothPaths(t, func(t *testing.T, r exec.Runner) {
				s := runIsolated(t, r, framework, honestCalc, true)
				assert.Equal(t, 2, s.Count(exec.TestPassed), "%+v", s.Tests)
				assert.False(t, s.Forged(), "%s", tamperKinds(s))
			})
		})
	}
}

// TestIsolatedThreads: a test whose threads call the answer at once, and
// an answer that prints from its own threads (its output goes where the
// test redirected the tests' stdout), get their answers isolated as
// in-process (the requests take turns on the pipes).
func TestIsolatedThreads(t *testing.T) {
	exectest.RequirePython(t, false)
	calc := "import threading\ndef add(a, b):\n    ts = [threading.Thread(target=print, args=('x' * 5000,)) for _ in range(4)]\n" +
		"    [t.start() for t in ts]\n    [t.join() for t in ts]\n    return a + b\n"
	test := `import contextlib, io, threading, unittest
import calc

class T(unittest.TestCase):
    def test_add(self):
        out = []
        def work(i):
            for j in range(20):
                out.append(calc.add(i, j) == i + j)
        ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        [t.start() for t in ts]
        [t.join() for t in ts]
        self.assertEqual(out, [True] * 80)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            calc.add(1, 2)
        self.assertEqual((buf.getvalue().count('x'), buf.getvalue().count('\n')), (20000, 4))
`
	bothPaths(t, func(t *testing.T, r exec.Runner) {
		dir := exectest.Workspace(t)
		writeFiles(t, dir, map[string]string{"calc.py": calc, "test_calc.py": test})
		s := runSpec(t, r, exec.PythonUnittest{}, exec.TestSpec{Dir: dir, Answer: []string{"calc.py"}, Isolate: true})
		checkOutcomes(t, s, []wantTest{{"test_calc.T.test_add", exec.TestPassed}})
	})
}

// TestIsolatedModuleAttributes: the stand-in of the answer's module
// answers what the import system probes for as the real module would: a
// star import takes the answer's __all__ when it has one and its public
// names when not, a module is not a package (no __path__), and a name the
// answer's module gains after its import is still read from it.
func TestIsolatedModuleAttributes(t *testing.T) {
	exectest.RequirePython(t, false)
	files := map[string]string{
		"calc.py":  "__all__ = ['add']\ndef add(a, b):\n    return a + b\ndef sub(a, b):\n    return a - b\ndef grow():\n    globals()['late'] = 7\n",
		"other.py": "def mul(a, b):\n    return a * b\n_hidden = 1\n",
		"test_calc.py": `import unittest
import calc, other

class T(unittest.TestCase):
    def test_star(self):
        ns = {}
        exec('from calc import *', ns)
        self.assertEqual(sorted(k for k in ns if k != '__builtins__'), ['add'])
        ns = {}
        exec('from other import *', ns)
        self.assertEqual(sorted(k for k in ns if k != '__builtins__'), ['mul'])
        self.assertEqual(ns['mul'](3, 4), 12)

    def test_probes(self):
        self.assertFalse(hasattr(calc, '__path__'))
        self.assertFalse(hasattr(other, '__all__'))
        self.assertEqual(calc.__all__, ['add'])
        self.assertFalse(hasattr(calc, 'late'))
        calc.grow()
        self.assertEqual(calc.late, 7)
`}
	for _, isolate := range []bool{false, true} {
		dir := exectest.Workspace(t)
		writeFiles(t, dir, files)
		s := runSpec(t, exectest.ForkServer(t), exec.PythonUnittest{}, exec.TestSpec{Dir: dir, Answer: []string{"calc.py", "other.py"}, Isolate: isolate})
		assert.Equal(t, isolate, s.Isolated)
		checkOutcomes(t, s, []wantTest{{"test_calc.T.test_probes", exec.TestPassed}, {"test_calc.T.test_star", exec.TestPassed}})
	}
}
