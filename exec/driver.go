package exec

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A Driver runs the tests of a workspace and reports one outcome per test.
//
// Test returns a non-nil error only when the harness failed: the runner
// failed (its Result has StatusInternal), ctx ended (StatusCanceled), a tool
// the driver runs on the host is missing, or the spec is invalid. Tests that
// fail, code that does not compile and test processes that hit a limit are
// outcomes, reported in the Suite with a nil error. When the error is
// non-nil the Suite may still be non-nil and hold what is known.
//
// The drivers in this package are PythonUnittest, Pytest, GoTest and JUnit.
// Each is a struct whose zero value is ready to use and safe for concurrent
// use on different workspaces. A driver writes its scratch files into a
// hidden directory of the workspace named ".adaptbench-*" and removes it
// before returning; the workspace must be writable and should not be used
// by another job while the driver runs.
type Driver interface {
	Test(ctx context.Context, r Runner, spec TestSpec) (*Suite, error)
}

// TestSpec says which tests of which workspace a Driver runs.
type TestSpec struct {
	// Dir is the workspace on the host. It must exist.
	Dir string
	// Tests selects the tests to run; empty means every test the driver
	// discovers. The form of a name is driver specific and documented on
	// each driver; a name that selects nothing yields a TestResult with
	// TestError and the message "not found" where the driver can tell.
	Tests []string
	// Limits bounds the test process, and each build step a driver runs in
	// the sandbox, as in Job.Limits. A suite-level time limit is
	// Limits.CPUTime and Limits.WallTime.
	Limits Limits
	// Env holds extra KEY=VALUE entries for every job the driver runs in the
	// sandbox, as in Job.Env.
	Env []string
	// ReadOnly names host paths every job of the driver may read, as in
	// Job.ReadOnly.
	ReadOnly []string
	// Answer names the workspace files (slash-separated, relative to Dir)
	// that hold the code under test: the answer. Every other file of the
	// workspace (tests, context files) is trusted, like the framework and
	// the installed libraries. Empty means the driver cannot tell, and
	// treats every file of the workspace as the answer's.
	Answer []string
	// Isolate runs the answer in a process of its own, where the drivers
	// can: the Python drivers import a stand-in for each module of Answer
	// that forwards every use to a second process, forked before the run
	// has any secret, which imports the real one (see the trust boundary
	// in the package doc). Suite.Isolated says whether the run did. Tests
	// that reach into the answer's module (patching its names, handing it
	// objects it must read) may give other verdicts isolated: run the
	// reference both ways first, as package adapt does.
	Isolate bool
}

// Suite is what a Driver reports for one run of a workspace's tests.
type Suite struct {
	// Tests holds one entry per test, sorted by Name (byte-wise), so that
	// two runs of the same suite compare entry by entry even when tests run
	// in parallel. It is empty when Compile is set.
	Tests []TestResult `json:"tests"`
	// Compile is set when the code did not compile or, for Python, when a
	// test module could not be imported (SyntaxError, ImportError, an
	// exception at import time) or pytest could not collect the tests. No
	// test ran then. It is an outcome about the code under test, not a
	// harness failure.
	Compile *CompileError `json:"compile,omitempty"`
	// Build is the result of the build step, when the driver has one: the
	// sandboxed javac of JUnit's Javac build, or GoTest's "go test -c",
	// which runs on the host (without a sandbox; see GoTest). Nil for the
	// Python drivers.
	Build *Result `json:"build,omitempty"`
	// Run is the sandbox result of the test process. Its Status tells
	// whether the suite hit a limit (time, memory, output). It is the zero
	// Result, with StatusInvalid, when no test process ran because the
	// build failed.
	Run Result `json:"run"`
	// Coverage is the execution data of a JUnit run with JUnit.Coverage
	// set (see JaCoCo), nil otherwise or when the JVM wrote none.
	Coverage []byte `json:"coverage,omitempty"`
	// Tampered is the evidence that the code under test reached for its
	// own verdict (the results channel, the framework's or the reporter's
	// classes, an exit before the run's end); see the trust boundary in
	// the package doc. A suite with any evidence that is not Static is not
	// a pass, whatever its tests say.
	Tampered []Tamper `json:"tampered,omitempty"`
	// Isolated is set when the answer ran in a process of its own
	// (TestSpec.Isolate), out of the tests' and the reporter's reach.
	Isolated bool `json:"isolated,omitempty"`
}

// Tamper is one piece of evidence that the code under test tried to choose
// its own verdict.
type Tamper struct {
	// Kind names the form, such as "results-write" or "reporter-patch".
	Kind string `json:"kind"`
	// Detail says what was seen, and where.
	Detail string `json:"detail,omitempty"`
	// Static is set for evidence from reading the answer's source rather
	// than from the run: it is listed, never a verdict by itself.
	Static bool `json:"static,omitempty"`
}

// Forged reports whether the suite holds evidence from the run itself (not
// only Static evidence) that the code under test tampered with its verdict.
func (s *Suite) Forged() bool {
	for _, t := range s.Tampered {
		if !t.Static {
			return true
		}
	}
	return false
}

// Count returns how many tests have status st.
func (s *Suite) Count(st TestStatus) int {
	n := 0
	for _, t := range s.Tests {
		if t.Status == st {
			n++
		}
	}
	return n
}

// Lookup returns the result of the test with the given name.
func (s *Suite) Lookup(name string) (TestResult, bool) {
	i, ok := slices.BinarySearchFunc(s.Tests, name, func(t TestResult, name string) int { return strings.Compare(t.Name, name) })
	if !ok {
		return TestResult{}, false
	}
	return s.Tests[i], true
}

// CompileError carries what the compiler (or Python, for an import
// failure) said when the code under test did not build.
//
// It deliberately does not implement error: it is an outcome about the code
// under test, reported in a Suite, never a failure of the harness, and a
// nil *CompileError stored in an error variable would not compare equal to
// nil.
type CompileError struct {
	// Output is the compiler's message, with workspace paths made relative
	// where the driver can. Drivers keep at most 64KiB of it.
	Output string `json:"output"`
}

// String returns the output.
func (c *CompileError) String() string {
	if c == nil {
		return "<nil>"
	}
	return c.Output
}

// TestResult is the outcome of one test.
type TestResult struct {
	// Name identifies the test in the driver's naming scheme; see each
	// driver. It can be passed back in TestSpec.Tests where the driver says
	// so.
	Name string `json:"name"`
	// Status is the outcome.
	Status TestStatus `json:"status"`
	// Message says why: the assertion or traceback for TestFailed and
	// TestError, the reason for TestSkipped, the verdict for tests a limit
	// stopped. Its text is for people and is not stable. It is cut to 16KiB.
	Message string `json:"message,omitempty"`
	// Duration is how long the test ran, as measured by the test framework;
	// zero when unknown.
	Duration time.Duration `json:"duration,omitempty"`
}

// TestStatus is the outcome of one test. Its zero value, TestInvalid, marks
// a TestResult that was never set. The text forms (String, MarshalText) are
// stable.
type TestStatus uint8

const (
	// TestInvalid is the zero value: no outcome was set.
	TestInvalid TestStatus = iota
	// TestPassed: the test ran and passed.
	TestPassed
	// TestFailed: an assertion of the test failed.
	TestFailed
	// TestError: the test raised an unexpected exception (or panicked), a
	// fixture failed, the test process died or hit a memory or output limit
	// while the test ran, or the test was not run because of that.
	TestError
	// TestSkipped: the test was skipped, or is an expected failure that
	// failed as expected.
	TestSkipped
	// TestTimedOut: the test hit its own time limit, or the suite hit its
	// time limit while the test ran or before it could start.
	TestTimedOut
)

var testStatusNames = [...]string{
	TestInvalid:  "invalid",
	TestPassed:   "passed",
	TestFailed:   "failed",
	TestError:    "error",
	TestSkipped:  "skipped",
	TestTimedOut: "timeout",
}

// String returns the stable text form, such as "passed".
func (s TestStatus) String() string {
	if int(s) < len(testStatusNames) {
		return testStatusNames[s]
	}
	return "TestStatus(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText implements encoding.TextMarshaler.
func (s TestStatus) MarshalText() ([]byte, error) {
	if int(s) >= len(testStatusNames) {
		return nil, fmt.Errorf("exec: cannot marshal unknown test status %d", s)
	}
	return []byte(testStatusNames[s]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler. It rejects unknown and
// empty names.
func (s *TestStatus) UnmarshalText(b []byte) error {
	for i, n := range testStatusNames {
		if string(b) == n {
			*s = TestStatus(i)
			return nil
		}
	}
	return fmt.Errorf("exec: unknown test status %q (want one of %s)", b, strings.Join(testStatusNames[:], ", "))
}

// severity orders outcomes when a test reports more than one (a failing
// test body and a failing teardown): the worst wins.
func (s TestStatus) severity() int {
	switch s {
	case TestPassed:
		return 1
	case TestSkipped:
		return 2
	case TestFailed:
		return 3
	case TestError:
		return 4
	case TestTimedOut:
		return 5
	}
	return 0
}

// Messages the drivers give tests that a limit or a crash stopped.
const (
	msgNotRunTime = "not run: the suite hit its time limit"
	msgNotFound   = "not found"
	maxMessage    = 16 << 10
	maxCompile    = 64 << 10
)

// event is one step of a test run, as the reporters in this package stream
// it (one JSON object a line; see parseEvents) or as converted from
// test2json.
type event struct {
	kind     string // hello, plan, start, end, compile, missing, done; round, round-end, round-timeout, stop; tamper, over
	name     string
	names    []string // plan
	status   TestStatus
	message  string
	duration time.Duration
	exit     int // done: the framework's exit code, where it has one
	round    int // round, round-end, round-timeout: the round's number
}

// reporterMark is what a reporter writes first on stderr, before any code
// of the job runs; stripMark takes it off the captured stderr.
const reporterMark = "\x1eadaptbench reporter started\n"

// stripMark returns stderr without the reporter's mark.
func stripMark(stderr []byte) []byte {
	if rest, ok := bytes.CutPrefix(stderr, []byte(reporterMark)); ok {
		if len(rest) == 0 {
			return nil
		}
		return rest
	}
	return stderr
}

// assembly is what assemble needs besides the events.
type assembly struct {
	events []event
	run    Result
	// needHello says the stream must start with a hello event; without one
	// the reporter did not start, which is a harness failure unless a limit
	// explains it, or the reporter's mark on stderr says it did start (the
	// job then deleted or replaced the results: its tests did not report).
	needHello bool
	// markFirst says the reporter sends its hello and marks its start
	// before any code of the job runs (the Python reporters): a stream
	// without either is then the harness's fault even under a limit,
	// which stopped the process before the job's code could run.
	markFirst bool
	// what names the test process in messages ("the test process").
	what string
}

// assemble turns a stream of events and the result of the process that
// wrote it into per-test outcomes. Tests that started and did not end, and
// planned tests that never started, get an outcome from the process's
// verdict: TestTimedOut for a time limit, TestError otherwise.
func assemble(a assembly) (tests []TestResult, compile *CompileError, done bool, err error) {
	type state struct {
		res     TestResult
		started bool
		ended   bool
	}
	byName := map[string]*state{}
	get := func(name string) *state {
		s, ok := byName[name]
		if !ok {
			s = &state{res: TestResult{Name: name}}
			byName[name] = s
		}
		return s
	}
	var (
		hello    bool
		compiles []string
	)
	for _, e := range a.events {
		switch e.kind {
		case "hello":
			hello = true
		case "plan":
			for _, n := range e.names {
				get(n) // a planned test has an entry before it starts
			}
		case "start":
			get(e.name).started = true
		case "end":
			s := get(e.name)
			if !s.ended || e.status.severity() > s.res.Status.severity() {
				msg := e.message
				if s.ended && s.res.Message != "" && msg != s.res.Message {
					msg = s.res.Message + "\n" + msg
				}
				s.res.Status, s.res.Message = e.status, msg
			}
			s.res.Duration += e.duration
			s.started, s.ended = true, true
		case "missing":
			s := get(e.name)
			s.res.Status, s.res.Message, s.ended = TestError, msgNotFound, true
		case "compile":
			compiles = append(compiles, e.message)
		case "done":
			done = true
		case "over":
			// The results were more than the host keeps: what did not
			// end did so for want of room, as under an output limit.
			a.run = Result{Status: StatusOutput, Detail: "the test results are more than the host keeps"}
		}
	}
	if a.needHello && !hello && (a.markFirst || !limitStatus(a.run.Status)) && !bytes.HasPrefix(a.run.Stderr, []byte(reporterMark)) {
		return nil, nil, false, fmt.Errorf("exec: the %s did not start (%s), before any code of the job ran: %s", a.what, a.run.Detail, tail(a.run.Stderr, 2048))
	}
	if len(compiles) > 0 {
		return nil, &CompileError{Output: cut(strings.Join(compiles, "\n"), maxCompile)}, done, nil
	}
	// Outcomes for tests the process did not finish.
	running, notRun := unfinished(a.run, a.what, done)
	for _, s := range byName {
		if s.ended {
			continue
		}
		if s.started {
			s.res.Status, s.res.Message = running.status, running.message
		} else {
			s.res.Status, s.res.Message = notRun.status, notRun.message
		}
	}
	tests = make([]TestResult, 0, len(byName))
	for _, s := range byName {
		s.res.Message = cut(s.res.Message, maxMessage)
		tests = append(tests, s.res)
	}
	slices.SortFunc(tests, func(x, y TestResult) int { return strings.Compare(x.Name, y.Name) })
	return tests, nil, done, nil
}

type outcome struct {
	status  TestStatus
	message string
}

// unfinished says what happens to a test that was running, and to one that
// never started, when the process ended with run.
func unfinished(run Result, what string, done bool) (running, notRun outcome) {
	switch {
	case run.Status.TimedOut():
		return outcome{TestTimedOut, "the suite hit its time limit while this test ran: " + run.Detail},
			outcome{TestTimedOut, msgNotRunTime}
	case run.Status == StatusMemory || run.Status == StatusOutput:
		return outcome{TestError, "the " + what + " was stopped while this test ran: " + run.Detail},
			outcome{TestError, "not run: the " + what + " was stopped: " + run.Detail}
	case done:
		// The framework finished but never ran or ended this test.
		return outcome{TestError, "the test did not finish"}, outcome{TestError, "not run"}
	default:
		d := run.Detail
		if d == "" {
			d = "exit code 0"
		}
		return outcome{TestError, "the " + what + " died while this test ran (" + d + ")"},
			outcome{TestError, "not run: the " + what + " died first (" + d + ")"}
	}
}

// limitStatus reports whether the verdict is a limit that can stop a
// process before it says anything.
func limitStatus(s Status) bool {
	return s.TimedOut() || s == StatusMemory || s == StatusOutput
}

// cut shortens s to at most n bytes, keeping its head and tail.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const marker = "\n... [%d bytes omitted] ...\n"
	half := n / 2
	return s[:half] + fmt.Sprintf(marker, len(s)-2*half) + s[len(s)-half:]
}

func tail(b []byte, n int) string {
	s := strings.TrimSpace(string(b))
	if len(s) > n {
		s = "..." + s[len(s)-n:]
	}
	return s
}

// scratch is a driver's private directory inside a workspace.
type scratch struct {
	root string // the workspace, absolute
	host string // absolute host path
	rel  string // path relative to the workspace, which is the job's cwd
}

// newScratch makes a fresh hidden directory in the workspace dir.
func newScratch(dir string) (scratch, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return scratch{}, fmt.Errorf("exec: workspace: %w", err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return scratch{}, fmt.Errorf("exec: workspace %s is not a directory", dir)
	}
	var b [6]byte
	rand.Read(b[:])
	rel := ".adaptbench-" + hex.EncodeToString(b[:])
	host := filepath.Join(abs, rel)
	if err := os.Mkdir(host, 0o755); err != nil {
		return scratch{}, fmt.Errorf("exec: make scratch directory: %w", err)
	}
	return scratch{root: abs, host: host, rel: rel}, nil
}

// maxReport bounds what a driver reads of a file the job wrote.
const maxReport = 32 * MiB

// read reads a file the job wrote in s, as ReadWorkspaceFile does: a
// missing file is no data; a file the job replaced by a link, a FIFO or a
// device is no data either (the tests then did not report: a verdict about
// the code, never a host read of something else); a file past maxReport
// gives its first maxReport bytes.
func (s scratch) read(name string) []byte {
	b, _ := ReadWorkspaceFile(s.root, s.rel+"/"+name, maxReport)
	return b
}

// readLimited reads a file the job wrote in s as read does, at most the
// job's output limit (l's, or maxReport when unlimited): a file past it
// makes run's verdict StatusOutput, when no other limit stopped the job.
func (s scratch) readLimited(name string, l Limits, run *Result) []byte {
	limit := l.WithDefaults().Output
	if !limit.set() {
		limit = maxReport
	}
	b, err := ReadWorkspaceFile(s.root, s.rel+"/"+name, limit)
	if errors.Is(err, errFileTooLarge) && !limitStatus(run.Status) {
		run.Status, run.Detail = StatusOutput, fmt.Sprintf("the test results are over the output limit (%s)", limit)
	}
	return b
}

func (s scratch) remove() { os.RemoveAll(s.host) }

// path returns the job-side (workspace-relative) path of a file in s.
func (s scratch) path(name string) string { return s.rel + "/" + name }

// runErr wraps an error from a Runner so that the Suite still carries the
// result.
func runErr(what string, res Result, err error) error {
	if res.Status == StatusCanceled || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("exec: %s: %w", what, err)
}
