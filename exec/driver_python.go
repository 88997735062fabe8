package exec

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/adaptbench/adaptbench/exec/internal/jobkit"
)

// DefaultPython is the interpreter the Python drivers use when theirs is
// empty: Debian's, which sees the python3-* packages (pytest among them)
// and which the sandbox user can read.
const DefaultPython = "/usr/bin/python3"

// The reporters (see package pyreport).
var (
	unittestReporter = jobkit.UnittestReporter
	pytestReporter   = jobkit.PytestReporter
)

// PythonUnittest runs tests with Python's unittest.
//
// TestSpec.Tests holds unittest names as "python -m unittest" takes them:
// "test_mod", "test_mod.TestX", "test_mod.TestX.test_y" or
// "pkg.test_mod...". Empty means discovering test*.py from the workspace
// root, as "python -m unittest discover" does. Results are named by test id
// ("test_mod.TestX.test_y"), which can be passed back in Tests.
//
// Outcomes: an assertion (the test's failureException) is TestFailed, any
// other exception TestError; a failing subtest makes the whole test fail
// and the messages name the subtests. An expected failure is TestSkipped,
// an unexpected success TestFailed. When setUpClass or setUpModule fails,
// the tests it covers are TestError (TestSkipped if it raised SkipTest);
// when tearDownClass or tearDownModule fails, an extra TestError entry
// named after the class ("test_mod.TestX") or module is reported. A test
// module that cannot be imported (SyntaxError, ImportError, any exception
// at import time) makes the Suite's Compile, and no test runs.
//
// The tests run in one process, "python3 -s -B -c <reporter>", in the
// workspace, with the workspace first on sys.path and
// PYTHONDONTWRITEBYTECODE=1. Their output is in Suite.Run's Stdout and
// Stderr. The outcomes come back on a channel the tests cannot reach by
// path, and what the code under test did to its verdict is in
// Suite.Tampered (see the trust boundary in the package doc).
type PythonUnittest struct {
	// Python is the interpreter's path in the sandbox. Empty means
	// DefaultPython.
	Python string
	// PerTestTimeout bounds each test, with its setUp and tearDown: a test
	// that runs longer is interrupted with an exception and is TestTimedOut,
	// and the next test runs. A test that does not stop within 2s after
	// that ends the run (the rest are TestError). Zero means no per-test
	// limit; the suite's limits still apply.
	PerTestTimeout time.Duration
}

// Test runs the tests. See Driver.
func (d PythonUnittest) Test(ctx context.Context, r Runner, spec TestSpec) (*Suite, error) {
	return pythonReporter{d.Python, unittestReporter, d.PerTestTimeout, "unittest"}.run(ctx, r, spec)
}

// Pytest runs tests with pytest, as "python3 -m pytest -q -p
// no:cacheprovider --rootdir=." would, honouring the workspace's pytest
// configuration and conftest.py files.
//
// TestSpec.Tests holds pytest node ids relative to the workspace
// ("test_x.py", "tests/", "test_x.py::TestX::test_y",
// "test_x.py::test_p[1-2]"); a name selects the tests whose id it equals or
// is a prefix of up to "::", "[" or "/". Empty means pytest's own
// collection. Results are named by node id, which can be passed back.
//
// Outcomes: a failing assert (or pytest.fail) in a test is TestFailed; any
// other exception in the test TestError, as unittest counts them (pytest
// itself calls both "failed"); an error in a fixture's setup or teardown is
// TestError. An xfail that fails is TestSkipped; an xpass is TestPassed,
// or TestFailed when strict. A collection error (a test module that does
// not import, a broken conftest.py) makes the Suite's Compile; no test
// runs then, as with pytest's default. When pytest finds no tests (its exit
// status 5) the Suite is empty, with no error.
type Pytest struct {
	// Python is the interpreter's path in the sandbox; it must have pytest.
	// Empty means DefaultPython.
	Python string
	// PerTestTimeout bounds each test (setup, call and teardown) as in
	// PythonUnittest. Zero means no per-test limit.
	PerTestTimeout time.Duration
}

// Test runs the tests. See Driver.
func (d Pytest) Test(ctx context.Context, r Runner, spec TestSpec) (*Suite, error) {
	return pythonReporter{d.Python, pytestReporter, d.PerTestTimeout, "pytest"}.run(ctx, r, spec)
}

// pythonEnv is the environment of the Python drivers' jobs; TestSpec.Env
// comes after it and wins.
var pythonEnv = []string{"PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1"}

// pythonReporter is a Python driver's run: the reporter program, which
// runs the tests of a framework under python (empty: DefaultPython) with
// a per-test limit (zero: none).
type pythonReporter struct {
	python, program string
	perTest         time.Duration
	framework       string
}

// run runs the tests of spec with the reporter in r.
func (p pythonReporter) run(ctx context.Context, r Runner, spec TestSpec) (*Suite, error) {
	python, program, perTest, framework := p.python, p.program, p.perTest, p.framework
	if err := checkNames(spec.Tests); err != nil {
		return nil, err
	}
	if python == "" {
		python = DefaultPython
	}
	if perTest < 0 {
		perTest = 0
	}
	sc, err := newScratch(spec.Dir)
	if err != nil {
		return nil, err
	}
	defer sc.remove()
	args := []string{python, "-s", "-B", "-c", program, sc.path("results.jsonl"),
		strconv.FormatFloat(perTest.Seconds(), 'f', -1, 64)}
	args = append(args, spec.Tests...)
	static := scanPython(spec.Dir, spec.Answer)
	ch, err := openChannel()
	if err != nil {
		return nil, err
	}
	defer ch.close()
	env := append(append([]string(nil), pythonEnv...), spec.Env...)
	iso, err := isolateEnv(spec)
	if err != nil {
		return nil, err
	}
	if iso != "" {
		env = append(env, iso)
	}
	job := Job{
		Dir:      spec.Dir,
		Args:     args,
		Env:      env,
		Limits:   spec.Limits,
		ReadOnly: spec.ReadOnly,
		Stdin:    strings.NewReader(reporterInput(ch.nonce, spec.Answer)),
		Results:  ch.w,
	}
	res, err := r.Run(ctx, job)
	suite := &Suite{Run: res, Isolated: iso != ""}
	if err != nil {
		return suite, runErr("run "+framework, res, err)
	}
	// The channel, or, from a runner that gave the job none, the file.
	stream := ch.wait()
	if err := firstFrame(stream, ch.nonce); err != nil {
		suite.Run.Status, suite.Run.Detail = StatusInternal, err.Error()
		return suite, err
	}
	if len(stream) == 0 {
		stream = sc.read("results.jsonl")
	}
	events, tampered := checkFrames(stream, ch.nonce)
	suite.Tampered = append(tampered, static...)
	tests, compile, done, err := assemble(assembly{events: events, run: res, needHello: true, markFirst: true, what: framework + " process"})
	suite.Run.Stderr = stripMark(suite.Run.Stderr)
	if err != nil {
		return suite, err
	}
	suite.Tests, suite.Compile = tests, compile
	if framework == "pytest" && done && compile == nil && len(tests) == 0 {
		// pytest stopped before collecting: a usage error from the
		// workspace's configuration or an unimportable conftest.py.
		if code := lastExit(events); code >= 2 && code <= 4 {
			out := strings.TrimSpace(tail(res.Stdout, maxCompile/2) + "\n" + tail(res.Stderr, maxCompile/2))
			suite.Compile = &CompileError{Output: fmt.Sprintf("pytest stopped with exit status %d before running tests:\n%s", code, out)}
		}
	}
	if suite.Compile != nil {
		suite.Tests = nil
	}
	return suite, nil
}

// reporterInput is the Python reporter's stdin: the run's nonce, and the
// answer's files as a JSON list when the spec names them (the guard then
// tells the answer's code from the trusted tests and context files).
func reporterInput(nonce string, answer []string) string {
	if len(answer) == 0 {
		return nonce + "\n"
	}
	b, _ := json.Marshal(answer)
	return nonce + "\n" + string(b) + "\n"
}

// firstFrame checks the first line on a results channel: the reporter's
// hello, sent before any code of the job is imported, so nothing but the
// reporter can have written it. A first line that is not a hello with the
// run's nonce is the harness's fault (the job's stdin, which carries the
// nonce, was lost on the way, or the channel was another's), never
// evidence against the code.
func firstFrame(stream []byte, nonce string) error {
	if len(stream) == 0 {
		return nil
	}
	line, _, _ := bytes.Cut(stream, []byte{'\n'})
	var w wireEvent
	if json.Unmarshal(line, &w) == nil && w.E == "hello" && w.K == nonce {
		return nil
	}
	if w.E == "hello" {
		return fmt.Errorf("exec: the reporter started without the run's nonce (its stdin was lost on the way): a harness fault, not the code's: %s", quoteShort(string(line)))
	}
	return fmt.Errorf("exec: the results channel did not start with the reporter's hello: a harness fault, not the code's: %s", quoteShort(string(line)))
}

func lastExit(events []event) int {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].kind == "done" {
			return events[i].exit
		}
	}
	return 0
}

// checkNames validates TestSpec.Tests.
func checkNames(names []string) error {
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, "\x00\n") {
			return fmt.Errorf("exec: bad test name %q in TestSpec.Tests", n)
		}
	}
	return nil
}

// isolateEnv is the variable that asks the reporter for the answer's
// process (isolate.py), naming the answer's Python files; "" when the spec
// does not ask for it or names none.
func isolateEnv(spec TestSpec) (string, error) {
	if !spec.Isolate {
		return "", nil
	}
	var files []string
	for _, f := range spec.Answer {
		clean := path.Clean(f)
		if f == "" || path.IsAbs(f) || clean == ".." || strings.HasPrefix(clean, "../") || strings.ContainsAny(f, "\x00\n") {
			return "", fmt.Errorf("exec: bad answer file %q in TestSpec.Answer: want a slash-separated path inside the workspace", f)
		}
		if strings.HasSuffix(clean, ".py") {
			files = append(files, clean)
		}
	}
	if len(files) == 0 {
		return "", nil
	}
	b, err := json.Marshal(files)
	if err != nil {
		return "", err
	}
	return "ADAPTBENCH_ISOLATE=" + string(b), nil
}
