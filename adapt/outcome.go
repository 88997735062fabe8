package adapt

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/internal/textkit"
)

// Outcome is the verdict on one sample (or on a task's reference).
type Outcome uint8

const (
	// OutcomeInvalid is the zero value: never set.
	OutcomeInvalid Outcome = iota
	// OutcomePassed: every test of the task passed.
	OutcomePassed
	// OutcomeFailed: the code ran and at least one test did not pass.
	OutcomeFailed
	// OutcomeNoCode: the completion held no usable code.
	OutcomeNoCode
	// OutcomeCompileError: the code did not compile or import.
	OutcomeCompileError
	// OutcomeTimeout: the tests hit the CPU or wall time limit.
	OutcomeTimeout
	// OutcomeMemory: the tests hit the memory limit.
	OutcomeMemory
	// OutcomeOutput: the tests wrote more than the output limit.
	OutcomeOutput
	// OutcomeCrashed: the test process was killed by a signal.
	OutcomeCrashed
	// OutcomeModelError: the model returned an error for this sample.
	OutcomeModelError
	// OutcomeInfraError: the harness or sandbox failed; says nothing about
	// the model and is left out of its scores.
	OutcomeInfraError
	// OutcomeWrongName: the completion does not define the target function
	// but defines the snippet's function under its old name: the model did
	// not rename it (see ErrWrongName). No test ran; every test counts as
	// failed.
	OutcomeWrongName
	// OutcomeTampered: the code under test reached for its own verdict
	// (exec.Suite.Forged); scored as a failure and listed in the report
	// with the evidence.
	OutcomeTampered
)

var outcomeNames = [...]string{
	OutcomeInvalid:      "invalid",
	OutcomePassed:       "passed",
	OutcomeFailed:       "failed",
	OutcomeNoCode:       "no-code",
	OutcomeCompileError: "compile-error",
	OutcomeTimeout:      "timeout",
	OutcomeMemory:       "memory",
	OutcomeOutput:       "output",
	OutcomeCrashed:      "crashed",
	OutcomeModelError:   "model-error",
	OutcomeInfraError:   "infra-error",
	OutcomeWrongName:    "wrong-name",
	OutcomeTampered:     "tampered",
}

// Outcomes lists every outcome but OutcomeInvalid, in a stable order.
var Outcomes = []Outcome{OutcomePassed, OutcomeFailed, OutcomeNoCode, OutcomeCompileError, OutcomeTimeout, OutcomeMemory, OutcomeOutput, OutcomeCrashed, OutcomeModelError, OutcomeInfraError, OutcomeWrongName, OutcomeTampered}

func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// MarshalText implements encoding.TextMarshaler.
func (o Outcome) MarshalText() ([]byte, error) {
	if int(o) >= len(outcomeNames) {
		return nil, fmt.Errorf("adapt: cannot marshal unknown outcome %d", o)
	}
	return []byte(outcomeNames[o]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (o *Outcome) UnmarshalText(b []byte) error {
	for i, n := range outcomeNames {
		if string(b) == n {
			*o = Outcome(i)
			return nil
		}
	}
	return fmt.Errorf("adapt: unknown outcome %q (want one of %s)", b, strings.Join(outcomeNames[:], ", "))
}

// SampleResult is what one sample (or the reference, Sample -1) achieved.
type SampleResult struct {
	Sample  int           `json:"sample"`
	Outcome Outcome       `json:"outcome"`
	Tests   []TestOutcome `json:"tests,omitempty"`
	// Detail explains the outcome in words: the compiler's message, the
	// sandbox verdict, the extraction failure, a failed sample's first
	// failing test and its message.
	Detail string `json:"detail,omitempty"`
	// Usage is the sample's token usage.
	Usage Usage `json:"usage"`
	// Attempts is how often the model was asked (a model error) or the
	// check was run (an infrastructure error) before the failure was
	// final; 0 for a sample that was scored.
	Attempts int `json:"attempts,omitempty"`
	// Completion is the model's answer the outcome is about; nil for the
	// reference check.
	Completion *Completion `json:"completion,omitempty"`
	// Code is the answer's code that was spliced into the target and
	// tested (Answer.Code): what Options.Answer took from the completion.
	// Empty when no answer could be taken from it.
	Code string `json:"code,omitempty"`
	// Rounds are the sample's earlier answers when it went through repair
	// rounds (see Repair), first answer first; the fields above are the
	// last round's.
	Rounds []SampleResult `json:"rounds,omitempty"`
	// Isolation is "process" when the answer ran in a process of its own
	// and "in-process" when it ran in the tests' (see Isolation); empty
	// when the check did not isolate Python answers or the task is not
	// Python.
	Isolation string `json:"isolation,omitempty"`
	// Allowed, on a reference's result, lists the evidence kinds
	// (exec.Tamper.Kind) its run produced: the reference is trusted, so
	// they are what the task needs, and neither its run nor its samples'
	// runs are tampered for them.
	Allowed []string `json:"allowed,omitempty"`
}

// Scored reports whether the sample counts in the scores: every outcome
// but a model or infrastructure error (and the invalid zero value).
func (r *SampleResult) Scored() bool {
	return r.Outcome != OutcomeInfraError && r.Outcome != OutcomeModelError && r.Outcome != OutcomeInvalid
}

// TestOutcome is one test's result in one sample.
type TestOutcome struct {
	Name    string          `json:"name"`
	Status  exec.TestStatus `json:"status"`
	Message string          `json:"message,omitempty"`
	// ErrorType names what made a test that ran not pass: the class of the
	// exception its message's Python traceback ends with, without its
	// module ("AssertionError", "NameError"), "TimeoutError" for a test a
	// time limit stopped, or "AssertionError" for a failure with no
	// traceback. It is empty for tests that passed or were skipped, and
	// for tests that did not run because the code did not compile.
	ErrorType string `json:"error_type,omitempty"`
}

// Passed reports whether the named test passed.
func (r *SampleResult) Passed(test string) bool {
	for _, t := range r.Tests {
		if t.Name == test {
			return t.Status == exec.TestPassed
		}
	}
	return false
}

const maxDetail = 4 << 10

// notReported is the message of a test the task names that the run did
// not report: most often a name with a typo, or a test that was renamed.
const notReported = "not reported by the test run"

func clip(s string) string {
	if len(s) <= maxDetail {
		return s
	}
	return s[:maxDetail/2] + "\n...\n" + s[len(s)-maxDetail/2:]
}

// judge turns what a test driver reported for t's workspace into a sample
// result: passed when every test of t passed (under t's PassRule);
// otherwise the outcome names the first of a compile error, an
// infrastructure error, a limit (time, memory, output) or a crash, else a
// failure. A test t names that the run did not report counts as an error;
// with pytest, a name the run did not report exactly stands for the tests
// it selects as a node id prefix (up to "::", "[" or "/"), and its status
// is the worst of theirs.
//
// Evidence of the kinds allowed (those the task's reference produced) is
// not evidence against the sample.
func judge(t *Task, s *exec.Suite, allowed []string) SampleResult {
	res := SampleResult{Outcome: OutcomeFailed}
	evidence := s.Tampered
	if len(allowed) > 0 {
		evidence = slices.DeleteFunc(slices.Clone(evidence), func(tp exec.Tamper) bool { return slices.Contains(allowed, tp.Kind) })
	}
	forged := (&exec.Suite{Tampered: evidence}).Forged()
	byName := map[string]exec.TestResult{}
	for _, tr := range s.Tests {
		byName[tr.Name] = tr
	}
	allPassed := true
	for _, tc := range t.Tests {
		tr, ok := byName[tc.Name]
		if !ok && t.FrameworkOrDefault() == FrameworkPytest {
			tr, ok = selectedTests(tc.Name, s.Tests, t.PassRule)
		}
		if !ok {
			tr = exec.TestResult{Name: tc.Name, Status: exec.TestError, Message: notReported}
		}
		if s.Compile != nil {
			tr.Status, tr.Message = exec.TestError, "did not compile"
		}
		if tr.Status == exec.TestSkipped && t.PassRule == PassExitStatus {
			tr.Status, tr.Message = exec.TestPassed, strings.TrimSpace("skipped, a pass under the exit-status rule: "+tr.Message)
		}
		if tr.Status != exec.TestPassed {
			allPassed = false
		}
		to := TestOutcome{Name: tc.Name, Status: tr.Status, Message: clip(tr.Message)}
		if s.Compile == nil {
			to.ErrorType = testErrorType(tr.Status, tr.Message)
		}
		res.Tests = append(res.Tests, to)
	}
	switch {
	case s.Compile != nil:
		res.Outcome, res.Detail = OutcomeCompileError, clip(s.Compile.Output)
	case forged:
		// Before the infrastructure case: a job that tampered with its
		// channel must not make its run unscored. No test of it passed,
		// whatever it reported (adaptation-level scores count tests).
		res.Outcome, res.Detail = OutcomeTampered, clip(tamperDetail(evidence))
		for i := range res.Tests {
			if res.Tests[i].Status == exec.TestPassed {
				res.Tests[i].Status, res.Tests[i].Message = exec.TestError, "reported passed by a run that tampered with its verdict"
			}
		}
	case s.Run.Status == exec.StatusInternal || s.Run.Status == exec.StatusInvalid:
		res.Outcome, res.Detail = OutcomeInfraError, clip(s.Run.Detail)
	case s.Run.Status.TimedOut():
		res.Outcome, res.Detail = OutcomeTimeout, s.Run.Detail
	case s.Run.Status == exec.StatusMemory:
		res.Outcome, res.Detail = OutcomeMemory, s.Run.Detail
	case s.Run.Status == exec.StatusOutput:
		res.Outcome, res.Detail = OutcomeOutput, s.Run.Detail
	case s.Run.Status == exec.StatusSignal:
		res.Outcome, res.Detail = OutcomeCrashed, s.Run.Detail
	case allPassed:
		res.Outcome = OutcomePassed
	case ranOutOfMemory(res.Tests):
		// Under an address-space limit Python raises MemoryError, which a
		// test framework reports as a test error: it is a memory verdict.
		res.Outcome, res.Detail = OutcomeMemory, "a test ran out of memory (MemoryError)"
	default:
		res.Detail = firstFailure(res.Tests)
	}
	return res
}

// firstFailure is a failed sample's Detail: the first failing test and
// its message, so that every failed sample says why as a compile error
// does.
func firstFailure(tests []TestOutcome) string {
	for _, t := range tests {
		if t.Status == exec.TestPassed {
			continue
		}
		if t.Message == "" {
			return fmt.Sprintf("%s: %s", t.Name, t.Status)
		}
		return t.Name + ": " + t.Message
	}
	return ""
}

// evidenceKinds lists the kinds of the run evidence among ts (not the
// static kind, which never makes a run tampered), each once, sorted.
func evidenceKinds(ts []exec.Tamper) []string {
	var kinds []string
	for _, tp := range ts {
		if !tp.Static && !slices.Contains(kinds, tp.Kind) {
			kinds = append(kinds, tp.Kind)
		}
	}
	slices.Sort(kinds)
	return kinds
}

// tamperDetail lists the evidence of a tampered run, one item a line.
func tamperDetail(ts []exec.Tamper) string {
	var b strings.Builder
	for _, t := range ts {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(t.Kind)
		if t.Static {
			b.WriteString(" (static)")
		}
		if t.Detail != "" {
			b.WriteString(": " + t.Detail)
		}
	}
	return b.String()
}

// selectedTests gathers the reported pytest tests that name selects (a
// node id prefix, as exec.Pytest selects them) into one result: the worst
// status among them (a skipped test counting as passed under
// PassExitStatus), with the messages of those that did not pass, each
// after its node id. It reports false when name selects none.
func selectedTests(name string, tests []exec.TestResult, rule string) (exec.TestResult, bool) {
	name = strings.TrimSuffix(strings.TrimPrefix(name, "./"), "/")
	out := exec.TestResult{Name: name, Status: exec.TestPassed}
	var msgs []string
	n, skipped := 0, 0
	for _, tr := range tests {
		rest, ok := strings.CutPrefix(tr.Name, name)
		if !ok || rest == "" || !strings.HasPrefix(rest, "::") && !strings.HasPrefix(rest, "[") && !strings.HasPrefix(rest, "/") {
			continue
		}
		n++
		st := tr.Status
		if st == exec.TestSkipped {
			skipped++
			if rule == PassExitStatus {
				continue
			}
		}
		if st != exec.TestPassed {
			msgs = append(msgs, tr.Name+" "+st.String()+": "+strings.TrimSpace(tr.Message))
		}
		if statusRank(st) > statusRank(out.Status) {
			out.Status = st
		}
	}
	if n == 0 {
		return out, false
	}
	if skipped > 0 && rule == PassExitStatus {
		msgs = append(msgs, fmt.Sprintf("%d of %d tests skipped, which passes under the exit-status rule", skipped, n))
	}
	out.Message = strings.Join(msgs, "\n")
	return out, true
}

// statusRank orders test statuses from best to worst, as exec orders
// the outcomes one test reports.
func statusRank(s exec.TestStatus) int {
	switch s {
	case exec.TestPassed:
		return 1
	case exec.TestSkipped:
		return 2
	case exec.TestFailed:
		return 3
	case exec.TestError:
		return 4
	case exec.TestTimedOut:
		return 5
	}
	return 0
}

func ranOutOfMemory(tests []TestOutcome) bool {
	for _, t := range tests {
		if t.Status != exec.TestError {
			continue
		}
		msg := strings.TrimSpace(t.Message)
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		if msg == "MemoryError" || strings.HasPrefix(msg, "MemoryError:") {
			return true
		}
	}
	return false
}

// testErrorType is TestOutcome.ErrorType for a test that ran.
func testErrorType(st exec.TestStatus, message string) string {
	switch st {
	case exec.TestPassed, exec.TestSkipped, exec.TestInvalid:
		return ""
	case exec.TestTimedOut:
		return "TimeoutError"
	}
	if e := textkit.ExceptionType(message); e != "" {
		return e
	}
	if st == exec.TestFailed {
		return "AssertionError"
	}
	return ""
}
