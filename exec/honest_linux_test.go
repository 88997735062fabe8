package exec_test

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
)

// honestHelper is a task's context file (trusted): what a project's own
// helpers do, each of which the guard watches when the answer does it.
const honestHelper = `import ctypes, ctypes.util, gc, importlib, inspect, os, signal, sys, threading, warnings

def caller_name():
    # A logging helper: the name of its caller's function.
    return sys._getframe(1).f_code.co_name + ':' + inspect.stack()[1].function

def traced(f, *a):
    seen = []
    sys.settrace(lambda frame, event, arg: seen.append(event))
    sys.setprofile(lambda frame, event, arg: None)
    try:
        return f(*a)
    finally:
        sys.settrace(None)
        sys.setprofile(None)

def libc_abs(x):
    return ctypes.CDLL(ctypes.util.find_library('c')).abs(x)

def collect():
    gc.collect()
    return len(gc.get_objects()) > 0

def threads_and_signals():
    got = []
    old = signal.signal(signal.SIGUSR1, lambda *a: got.append('signal'))
    os.kill(os.getpid(), signal.SIGUSR1)
    signal.signal(signal.SIGUSR1, old)
    t = threading.Thread(target=got.append, args=('thread',))
    t.start()
    t.join()
    return sorted(got)

def child_exits():
    pid = os.fork()
    if pid == 0:
        os._exit(3)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])

def reload_calc():
    import calc
    return importlib.reload(calc).add

def caught_warning():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        warnings.warn('careful')
    return len(w)
`

// honestTests is a test file (trusted) that uses the helpers, sets
// MagicMock's name and patches unittest's helpers, as test suites do.
const honestTests = `import unittest
from unittest import mock
import calc, helper

mock.MagicMock.__name__ = 'MagicMock'
unittest.TestCase.assertItemsEqual = unittest.TestCase.assertCountEqual

def _assert_close(self, a, b):
    self.assertLess(abs(a - b), 1e-9)

unittest.TestCase.assertClose = _assert_close

class T(unittest.TestCase):
    def test_patterns(self):
        self.assertTrue(helper.caller_name().startswith('test_patterns'))
        self.assertEqual(helper.traced(calc.add, 2, 3), 5)
        self.assertEqual(helper.libc_abs(-3), 3)
        self.assertTrue(helper.collect())
        self.assertEqual(helper.threads_and_signals(), ['signal', 'thread'])
        self.assertEqual(helper.child_exits(), 3)
        self.assertEqual(helper.reload_calc()(1, 1), 2)
        self.assertEqual(helper.caught_warning(), 1)
        m = mock.MagicMock(return_value=4)
        m.__name__ = 'm'
        self.assertItemsEqual([m(), 1], [1, 4])
        self.assertClose(calc.add(0.1, 0.2), 0.3)

    def test_add(self):
        self.assertEqual(calc.add(2, 3), 5)
`

// TestTrustedCodeIsNoEvidence: the tests and the task's context files are
// trusted. Using every pattern the guard watches in the answer's code (the
// frames, tracing, ctypes, the collector, signals, an exit in a child, a
// reload, warnings, MagicMock's name, unittest's helpers patched) they give
// no evidence when the answer's file is named, on both runners, and the
// same workspace with no answer named still does (the old rule, where
// every workspace file is the answer's).
func TestTrustedCodeIsNoEvidence(t *testing.T) {
	for _, framework := range []string{"unittest", "pytest"} {
		t.Run(framework, func(t *testing.T) { trustedCodeIsNoEvidence(t, framework) })
	}
}

func trustedCodeIsNoEvidence(t *testing.T, framework string) {
	exectest.RequirePython(t, framework == "pytest")
	d := tamperDriver(framework)
	bothPaths(t, func(t *testing.T, r exec.Runner) {
		dir := exectest.Workspace(t)
		for name, src := range map[string]string{"calc.py": "def add(a, b):\n    return a + b\n", "helper.py": honestHelper, "test_calc.py": honestTests} {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		s, err := d.Test(ctx, r, exec.TestSpec{Dir: dir, Answer: []string{"calc.py"}, Limits: exec.Limits{WallTime: 30 * time.Second}})
		require.NoError(t, err)
		require.Nil(t, s.Compile)
		assert.Equal(t, 2, s.Count(exec.TestPassed), "%+v\n%s", s.Tests, s.Run.Stderr)
		assert.Empty(t, s.Tampered, "not even static evidence: the answer's file holds none")
		s, err = d.Test(ctx, r, exec.TestSpec{Dir: dir, Limits: exec.Limits{WallTime: 30 * time.Second}})
		require.NoError(t, err)
		assert.True(t, s.Forged(), "with no answer named, the workspace's files are the answer's")
	})
}

// disguisedReporterCall is callReporter compiled by the answer under a
// standard library file's name, then run through exec.
const disguisedReporterCall = `NAMES = ['test_calc.T.test_add', 'test_calc.T.test_add_ones']
SRC = '''
import sys, os
def add(a, b):
    f = sys._getframe()
    while f is not None and 'emit' not in f.f_globals:
        f = f.f_back
    emit = f.f_globals['emit']
    for n in NAMES:
        emit(e='end', test=n, status='passed')
    emit(e='done', exit=0)
    os._exit(0)
'''
ns = {'NAMES': NAMES}
exec(compile(SRC, '/usr/lib/python3.11/functools.py', 'exec'), ns)
add = ns['add']
`

// disguisedFunction makes the same function from the compiled code object
// alone, with no exec: its code is the answer's by the name it compiled
// under, which no code loaded from a file of that name shares.
const disguisedFunction = `import types
NAMES = ['test_calc.T.test_add', 'test_calc.T.test_add_ones']
SRC = '''
def add(a, b):
    import sys, os
    f = sys._getframe()
    while f is not None and 'emit' not in f.f_globals:
        f = f.f_back
    emit = f.f_globals['emit']
    for n in NAMES:
        emit(e='end', test=n, status='passed')
    emit(e='done', exit=0)
    os._exit(0)
'''
code = [c for c in compile(SRC, '/usr/lib/python3.11/inspect.py', 'exec').co_consts if hasattr(c, 'co_code')][0]
add = types.FunctionType(code, {'NAMES': NAMES, '__builtins__': __builtins__})
`

// TestAnswerCannotDisguiseItsCode: code the answer compiles itself is the
// answer's whatever file name it gives it (a standard library module's
// here): calling the reporter from it is evidence, and nothing passes.
func TestAnswerCannotDisguiseItsCode(t *testing.T) {
	exectest.RequirePython(t, false)
	for name, calc := range map[string]string{"exec": disguisedReporterCall, "function": disguisedFunction} {
		t.Run(name, func(t *testing.T) {
			bothPaths(t, func(t *testing.T, r exec.Runner) {
				s := runTamperAnswer(t, r, "unittest", calc, []string{"calc.py"})
				assert.False(t, passedAny(s), "%+v", s.Tests)
				assert.True(t, s.Forged(), "no evidence: %+v", s.Tests)
				t.Logf("evidence:\n%s", tamperKinds(s))
			})
		})
	}
}

// writtenModule is the answer writing the reporter call into a module of
// its own (a workspace file, or one in /tmp) and importing it: a file
// written during the run is the answer's, whatever its name.
const writtenModule = `import importlib, os, sys
NAMES = ['test_calc.T.test_add', 'test_calc.T.test_add_ones']
SRC = '''
import sys, os
def add(a, b):
    f = sys._getframe()
    while f is not None and 'emit' not in f.f_globals:
        f = f.f_back
    emit = f.f_globals['emit']
    for n in NAMES:
        emit(e='end', test=n, status='passed')
    emit(e='done', exit=0)
    os._exit(0)
'''
DIR = 'WHERE'
with open(os.path.join(DIR, 'helper_mod.py'), 'w') as f:
    f.write('NAMES = %r\n' % NAMES + SRC)
sys.path.insert(0, DIR)
importlib.invalidate_caches()
from helper_mod import add
`

// TestAnswerCannotLaunderThroughAFile: a module the answer writes during
// the run (in the workspace or in /tmp) and imports is the answer's code.
func TestAnswerCannotLaunderThroughAFile(t *testing.T) {
	exectest.RequirePython(t, false)
	for _, where := range []string{".", "/tmp"} {
		t.Run(where, func(t *testing.T) {
			bothPaths(t, func(t *testing.T, r exec.Runner) {
				s := runTamperAnswer(t, r, "unittest", strings.Replace(writtenModule, "WHERE", where, 1), []string{"calc.py"})
				assert.False(t, passedAny(s), "%+v", s.Tests)
				assert.True(t, s.Forged(), "no evidence: %+v", s.Tests)
				t.Logf("evidence:\n%s", tamperKinds(s))
			})
		})
	}
}
