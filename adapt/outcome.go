package adapt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/exec"
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
}

// Outcomes lists every outcome but OutcomeInvalid, in a stable order.
var Outcomes = []Outcome{OutcomePassed, OutcomeFailed, OutcomeNoCode, OutcomeCompileError, OutcomeTimeout, OutcomeMemory, OutcomeOutput, OutcomeCrashed, OutcomeModelError, OutcomeInfraError}

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
	// sandbox verdict, the extraction failure.
	Detail string `json:"detail,omitempty"`
	// Usage is the sample's token usage.
	Usage Usage `json:"usage"`
}

// TestOutcome is one test's result in one sample.
type TestOutcome struct {
	Name    string          `json:"name"`
	Status  exec.TestStatus `json:"status"`
	Message string          `json:"message,omitempty"`
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

func clip(s string) string {
	if len(s) <= maxDetail {
		return s
	}
	return s[:maxDetail/2] + "\n...\n" + s[len(s)-maxDetail/2:]
}

// judge turns a test suite's result into a sample result.
func judge(t *Task, s *exec.Suite) SampleResult {
	res := SampleResult{Outcome: OutcomeFailed}
	byName := map[string]exec.TestResult{}
	for _, tr := range s.Tests {
		byName[tr.Name] = tr
	}
	allPassed := true
	for _, tc := range t.Tests {
		tr, ok := byName[tc.Name]
		if !ok {
			tr = exec.TestResult{Name: tc.Name, Status: exec.TestError, Message: "not reported by the test run"}
		}
		if s.Compile != nil {
			tr.Status, tr.Message = exec.TestError, "did not compile"
		}
		if tr.Status != exec.TestPassed {
			allPassed = false
		}
		res.Tests = append(res.Tests, TestOutcome{Name: tc.Name, Status: tr.Status, Message: clip(tr.Message)})
	}
	switch {
	case s.Compile != nil:
		res.Outcome, res.Detail = OutcomeCompileError, clip(s.Compile.Output)
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
	}
	return res
}
