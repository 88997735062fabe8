package report

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
