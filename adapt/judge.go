package adapt

import (
	"fmt"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/internal/textkit"
)

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
func judge(t *Task, s *exec.Suite, allowed []string) report.SampleResult {
	res := report.SampleResult{Outcome: report.OutcomeFailed}
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
		to := report.TestOutcome{Name: tc.Name, Status: tr.Status, Message: clip(tr.Message)}
		if s.Compile == nil {
			to.ErrorType = testErrorType(tr.Status, tr.Message)
		}
		res.Tests = append(res.Tests, to)
	}
	switch {
	case s.Compile != nil:
		res.Outcome, res.Detail = report.OutcomeCompileError, clip(s.Compile.Output)
	case forged:
		// Before the infrastructure case: a job that tampered with its
		// channel must not make its run unscored. No test of it passed,
		// whatever it reported (adaptation-level scores count tests).
		res.Outcome, res.Detail = report.OutcomeTampered, clip(tamperDetail(evidence))
		for i := range res.Tests {
			if res.Tests[i].Status == exec.TestPassed {
				res.Tests[i].Status, res.Tests[i].Message = exec.TestError, "reported passed by a run that tampered with its verdict"
			}
		}
	case s.Run.Status == exec.StatusInternal || s.Run.Status == exec.StatusInvalid:
		res.Outcome, res.Detail = report.OutcomeInfraError, clip(s.Run.Detail)
	case s.Run.Status.TimedOut():
		res.Outcome, res.Detail = report.OutcomeTimeout, s.Run.Detail
	case s.Run.Status == exec.StatusMemory:
		res.Outcome, res.Detail = report.OutcomeMemory, s.Run.Detail
	case s.Run.Status == exec.StatusOutput:
		res.Outcome, res.Detail = report.OutcomeOutput, s.Run.Detail
	case s.Run.Status == exec.StatusSignal:
		res.Outcome, res.Detail = report.OutcomeCrashed, s.Run.Detail
	case allPassed:
		res.Outcome = report.OutcomePassed
	case ranOutOfMemory(res.Tests):
		// Under an address-space limit Python raises MemoryError, which a
		// test framework reports as a test error: it is a memory verdict.
		res.Outcome, res.Detail = report.OutcomeMemory, "a test ran out of memory (MemoryError)"
	default:
		res.Detail = firstFailure(res.Tests)
	}
	return res
}

// firstFailure is a failed sample's Detail: the first failing test and
// its message, so that every failed sample says why as a compile error
// does.
func firstFailure(tests []report.TestOutcome) string {
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

func ranOutOfMemory(tests []report.TestOutcome) bool {
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
