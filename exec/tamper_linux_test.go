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
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// A wrong answer: add subtracts. Each attack below is this answer plus a
// trick that reaches for the verdict; the control is the answer alone.
const wrongAdd = "def add(a, b):\n    return a - b\n"

// forgeResults is the results-file forgery: at the first call, read the
// planned test names from the driver's results file, append a passing end
// for each and a clean done, and leave before the test can fail.
const forgeResults = `import glob, json, os
_add = add
def add(a, b):
    for p in glob.glob('.adaptbench-*/results.jsonl'):
        names = []
        with open(p) as f:
            for line in f:
                try:
                    ev = json.loads(line)
                except ValueError:
                    continue
                if ev.get('e') == 'plan':
                    names += ev['tests']
        with open(p, 'a') as f:
            for n in names:
                f.write(json.dumps({'e': 'end', 'test': n, 'status': 'passed'}) + '\n')
            f.write(json.dumps({'e': 'done', 'exit': 0}) + '\n')
        os._exit(0)
    return _add(a, b)
`

// patchUnittest silences failures by patching the result classes at import.
const patchUnittest = `import unittest
for c in unittest.TestResult.__subclasses__():
    c.addFailure = c.addError = lambda *a, **k: None
`

// patchPytest makes every report look like a pass at import.
const patchPytest = `from _pytest.reports import TestReport
TestReport.failed = property(lambda self: False)
`

// createResults writes the forged results into a results file of its own
// in the driver's scratch directory.
const createResults = `import glob, json, os
def add(a, b):
    for d in glob.glob('.adaptbench-*'):
        with open(os.path.join(d, 'results.jsonl'), 'a') as f:
            f.write(json.dumps({'e': 'hello', 'v': 1}) + '\n')
            f.write(json.dumps({'e': 'plan', 'tests': NAMES}) + '\n')
            for n in NAMES:
                f.write(json.dumps({'e': 'end', 'test': n, 'status': 'passed'}) + '\n')
            f.write(json.dumps({'e': 'done', 'exit': 0}) + '\n')
    os._exit(0)
`

// writeChannel writes forged events to every pipe the process holds but
// its stdio: the results channel among them.
const writeChannel = `import json, os, stat
def add(a, b):
    forged = ''.join(json.dumps({'e': 'end', 'test': n, 'status': 'passed'}) + '\n' for n in NAMES)
    forged += json.dumps({'e': 'done', 'exit': 0}) + '\n'
    for fd in range(3, 256):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, forged.encode())
        except OSError:
            pass
    os._exit(0)
`

// callReporter finds the reporter's emit by walking the stack and calls it.
const callReporter = `import sys, os
def add(a, b):
    f = sys._getframe()
    while f is not None and 'emit' not in f.f_globals:
        f = f.f_back
    emit = f.f_globals['emit']
    for n in NAMES:
        emit(e='end', test=n, status='passed')
    emit(e='done', exit=0)
    os._exit(0)
`

// gcReach finds the reporter's emit among the collector's objects.
const gcReach = `import gc, os
def add(a, b):
    for o in gc.get_objects():
        if callable(o) and getattr(o, '__name__', '') == 'emit':
            for n in NAMES:
                o(e='end', test=n, status='passed')
            o(e='done', exit=0)
            os._exit(0)
    return a - b
`

// ctypesPeek reads the process's memory with ctypes.
const ctypesPeek = `import ctypes
def add(a, b):
    ctypes.string_at(id(add), 16)
    return a - b
`

// killSelf ends its own process with a signal in the middle of a test.
const killSelf = `import os, signal
def add(a, b):
    os.kill(os.getpid(), signal.SIGKILL)
`

// rebindUnittest reaches the reporter's namespace through its class
// (no audited call), turns its snapshot check off and silences failures.
const rebindUnittest = `import unittest
def add(a, b):
    for c in unittest.TestResult.__subclasses__():
        ns = getattr(vars(c).get('stopTest'), '__globals__', {})
        if '_snap_check' in ns:
            ns['_snap_check'] = lambda: None
            c.addFailure = c.addError = lambda *a, **k: None
    return a - b
`

// rebindPytest does the same through pytest's import hook, which holds
// the config and so the plugin manager.
const rebindPytest = `import sys
from _pytest.reports import TestReport
def add(a, b):
    for h in sys.meta_path:
        cfg = getattr(h, 'config', None)
        for p in (cfg.pluginmanager.get_plugins() if cfg else ()):
            ns = getattr(getattr(type(p), 'end', None), '__globals__', {})
            if '_snap_check' in ns:
                ns['_snap_check'] = lambda: None
    TestReport.failed = property(lambda self: False)
    return a - b
`

// exitMidTest leaves in the middle of the first test.
const exitMidTest = `import os
def add(a, b):
    os._exit(0)
`

// skipTest skips, as an honest answer may.
const skipTest = `import unittest
def add(a, b):
    raise unittest.SkipTest('not today')
`

const unittestOfAdd = `import unittest
import calc

class T(unittest.TestCase):
    def test_add(self):
        self.assertEqual(calc.add(2, 3), 5)

    def test_add_ones(self):
        self.assertEqual(calc.add(1, 1), 2)
`

const pytestOfAdd = `import calc

def test_add():
    assert calc.add(2, 3) == 5

def test_add_ones():
    assert calc.add(1, 1) == 2
`

// tamperWorkspace writes calc.py and the framework's test file.
func tamperWorkspace(t *testing.T, framework, calc string) string {
	t.Helper()
	dir := exectest.Workspace(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "calc.py"), []byte(calc), 0o644))
	name, src := "test_calc.py", unittestOfAdd
	if framework == "pytest" {
		src = pytestOfAdd
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	return dir
}

func tamperDriver(framework string) exec.Driver {
	if framework == "pytest" {
		return exec.Pytest{}
	}
	return exec.PythonUnittest{}
}

// runTamper runs the workspace's tests with the framework's driver on r,
// with no answer named (every workspace file is the answer's).
func runTamper(t *testing.T, r exec.Runner, framework, calc string) *exec.Suite {
	t.Helper()
	return runTamperAnswer(t, r, framework, calc, nil)
}

// runTamperAnswer is runTamper with TestSpec.Answer set to answer.
func runTamperAnswer(t *testing.T, r exec.Runner, framework, calc string, answer []string) *exec.Suite {
	t.Helper()
	dir := tamperWorkspace(t, framework, calc)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := tamperDriver(framework).Test(ctx, r, exec.TestSpec{Dir: dir, Limits: exec.Limits{WallTime: 30 * time.Second}, Answer: answer})
	require.NoError(t, err)
	require.Nil(t, s.Compile, "the workspace imports")
	require.Len(t, s.Tests, 2, "both tests are reported: %+v", s.Tests)
	return s
}

// passedAny reports whether a suite would score as a pass for any test:
// a test passed and the suite holds no evidence of tampering.
func passedAny(s *exec.Suite) bool {
	if s.Forged() {
		return false
	}
	for _, tr := range s.Tests {
		if tr.Status == exec.TestPassed {
			return true
		}
	}
	return false
}

func tamperKinds(s *exec.Suite) string {
	var k []string
	for _, tp := range s.Tampered {
		k = append(k, tp.Kind+": "+tp.Detail)
	}
	return strings.Join(k, "\n")
}

// TestWrongAnswerCannotChooseItsVerdict: a wrong answer that forges the
// results (by the results file, or by patching the framework's result
// classes) is never scored as a pass, on both runners and with both
// Python drivers; the same answer without the trick fails.
func TestWrongAnswerCannotChooseItsVerdict(t *testing.T) {
	for _, framework := range []string{"unittest", "pytest"} {
		t.Run(framework, func(t *testing.T) {
			exectest.RequirePython(t, framework == "pytest")
			patch, rebind := patchUnittest, rebindUnittest
			if framework == "pytest" {
				patch, rebind = patchPytest, rebindPytest
			}
			names := "['test_calc.T.test_add', 'test_calc.T.test_add_ones']"
			if framework == "pytest" {
				names = "['test_calc.py::test_add', 'test_calc.py::test_add_ones']"
			}
			named := func(src string) string { return "NAMES = " + names + "\n" + src }
			attacks := []struct {
				name, calc, reason string
				forged             bool // the run must hold evidence
			}{
				{"control", wrongAdd, "the wrong answer alone fails", false},
				{"results file", wrongAdd + forgeResults, "forged end and done events appended to the results, then os._exit(0)", false},
				{"results file of its own", named(createResults), "a results file written where the driver's was", true},
				{"channel write", named(writeChannel), "forged events written to every pipe", true},
				{"reporter call", named(callReporter), "the reporter's emit reached through the stack and called", true},
				{"framework patch", patch + wrongAdd, "the framework's result classes patched at import", true},
				{"reporter rebind", rebind, "the reporter's own check rebound in its namespace, then the framework patched", true},
				{"gc reach", named(gcReach), "the reporter's emit found through gc and called", true},
				{"ctypes", ctypesPeek, "ctypes reading the process's memory", true},
				{"kill self", killSelf, "a kill of its own process during a test", true},
				{"exit mid-test", exitMidTest, "os._exit(0) in the middle of a test", true},
			}
			for _, a := range attacks {
				for _, answer := range [][]string{nil, {"calc.py"}} {
					name := a.name
					if answer != nil {
						name += " (answer named)"
					}
					t.Run(name, func(t *testing.T) {
						bothPaths(t, func(t *testing.T, r exec.Runner) {
							s := runTamperAnswer(t, r, framework, a.calc, answer)
							assert.False(t, passedAny(s), "%s: scored as a pass: %+v", a.reason, s.Tests)
							if a.forged {
								assert.True(t, s.Forged(), "%s: no evidence", a.reason)
							}
							switch a.name {
							case "control":
								assert.Empty(t, s.Tampered, "an honest failure is no tampering")
								assert.Equal(t, 2, s.Count(exec.TestFailed), "%+v", s.Tests)
							case "exit mid-test":
								assert.Equal(t, 2, s.Count(exec.TestError), "an exit mid-test is an error: %+v", s.Tests)
							}
							t.Logf("tests %+v\nevidence:\n%s", s.Tests, tamperKinds(s))
						})
					})
				}
			}
		})
	}
}

// TestSkipIsNoTampering: an answer that skips its tests is skipped, with no
// evidence, on both runners and with both drivers.
func TestSkipIsNoTampering(t *testing.T) {
	for _, framework := range []string{"unittest", "pytest"} {
		t.Run(framework, func(t *testing.T) {
			exectest.RequirePython(t, framework == "pytest")
			bothPaths(t, func(t *testing.T, r exec.Runner) {
				s := runTamper(t, r, framework, skipTest)
				assert.Equal(t, 2, s.Count(exec.TestSkipped), "%+v", s.Tests)
				assert.Empty(t, s.Tampered)
			})
		})
	}
}

// TestPythonDriversWithoutChannel: a runner of the caller's own that builds
// its jobs anew (and so gives them no results channel) still gets the
// results, through the workspace file, with the framing checked there too
// (the trust boundary says what that file does not protect).
func TestPythonDriversWithoutChannel(t *testing.T) {
	exectest.RequirePython(t, false)
	sb := exectest.Sandbox(t)
	foreign := exec.RunnerFunc(func(ctx context.Context, j exec.Job) (exec.Result, error) {
		return sb.Run(ctx, exec.Job{Dir: j.Dir, Args: j.Args, Env: j.Env, Stdin: j.Stdin, Limits: j.Limits, ReadOnly: j.ReadOnly})
	})
	s := runTamper(t, foreign, "unittest", wrongAdd)
	assert.Equal(t, 2, s.Count(exec.TestFailed), "%+v", s.Tests)
	assert.Empty(t, s.Tampered)
	s = runTamper(t, foreign, "unittest", "def add(a, b):\n    return a + b\n")
	assert.Equal(t, 2, s.Count(exec.TestPassed), "%+v", s.Tests)
	assert.Empty(t, s.Tampered)
}

// TestUnsandboxedPythonChannel: the Unsandboxed runner gives the job its
// results channel too (its init takes descriptors as the Sandbox's does).
func TestUnsandboxedPythonChannel(t *testing.T) {
	exectest.RequirePython(t, false)
	r := sandbox.NewUnsandboxed(nil)
	defer r.Close()
	s := runTamper(t, r, "unittest", "def add(a, b):\n    return a + b\n")
	assert.Equal(t, 2, s.Count(exec.TestPassed), "%+v", s.Tests)
	assert.Empty(t, s.Tampered)
	s = runTamper(t, r, "unittest", "NAMES = ['test_calc.T.test_add', 'test_calc.T.test_add_ones']\n"+writeChannel)
	assert.False(t, passedAny(s), "%+v", s.Tests)
	assert.True(t, s.Forged(), "forged lines on the channel are evidence: %+v", s.Tampered)
}

// TestGuardNeverRaises: the audit hook runs inside audited operations (a
// library's import, a class's attribute write): whatever it meets, it
// raises nothing there. A class without __module__ renamed at import made
// it raise into the code (and a native module's import abort).
func TestGuardNeverRaises(t *testing.T) {
	exectest.RequirePython(t, false)
	// A class made where globals have no __name__ has no __module__.
	calc := "ns = {'__builtins__': __builtins__}\nexec(\"X = type('X', (), {})\", ns)\nns['X'].__name__ = 'Y'\n\ndef add(a, b):\n    return a + b\n"
	bothPaths(t, func(t *testing.T, r exec.Runner) {
		s := runTamper(t, r, "unittest", calc)
		assert.Equal(t, 2, s.Count(exec.TestPassed), "%+v", s.Tests)
		assert.False(t, s.Forged(), "%+v", s.Tampered)
	})
}

// honestCalc uses what honest answers and their libraries use: logging
// and warnings (frames inside the standard library), namedtuple, enum and
// typing (sys._getframe for module names), tracebacks, inspect's
// signatures, a subprocess, threads, and numpy, pandas, scipy and
// scikit-learn when they are installed (their imports load ctypes and
// native modules).
const honestCalc = `import collections, enum, inspect, logging, subprocess, sys, threading, traceback, typing, warnings
logging.basicConfig(level=logging.INFO)
Point = collections.namedtuple('Point', 'x y')
Color = enum.Enum('Color', 'RED GREEN')
T = typing.TypeVar('T')
try:
    import numpy, pandas, scipy.stats, sklearn.linear_model
    HAVE = True
except ImportError:
    HAVE = False

def add(a, b):
    logging.info('adding %s and %s', a, b)
    warnings.warn('careful')
    try:
        1 / 0
    except ZeroDivisionError:
        traceback.format_exc()
    inspect.signature(add)
    t = threading.Thread(target=lambda: None)
    t.start()
    t.join()
    subprocess.run([sys.executable, '-c', 'pass'], check=True)
    if HAVE:
        x = numpy.arange(4.0)
        pandas.DataFrame({'x': x}).describe()
        scipy.stats.describe(x)
        sklearn.linear_model.LinearRegression().fit(x.reshape(-1, 1), x)
    return Point(a, b).x + Point(a, b).y
`

// TestHonestCodeIsNoTampering: honest code with common libraries gives no
// evidence, on both runners and with both drivers.
func TestHonestCodeIsNoTampering(t *testing.T) {
	for _, framework := range []string{"unittest", "pytest"} {
		t.Run(framework, func(t *testing.T) {
			exectest.RequirePython(t, framework == "pytest")
			bothPaths(t, func(t *testing.T, r exec.Runner) {
				s := runTamper(t, r, framework, honestCalc)
				assert.Equal(t, 2, s.Count(exec.TestPassed), "%+v", s.Tests)
				assert.False(t, s.Forged(), "%s", tamperKinds(s))
			})
		})
	}
}
