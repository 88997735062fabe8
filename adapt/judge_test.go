package adapt_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
)

// TestJudgeLimitVerdicts: each limit the sandbox reports is its own
// outcome, whatever the tests that ran before it said, and a MemoryError
// a test framework reports as an error is a memory verdict too.
func TestJudgeLimitVerdicts(t *testing.T) {
	task := &adapt.Task{ID: "t", Language: adapt.Python, Tests: []adapt.Test{{Name: "test_m.T.test_a"}, {Name: "test_m.T.test_b"}}}
	passedA := exec.TestResult{Name: "test_m.T.test_a", Status: exec.TestPassed}
	for _, c := range []struct {
		name   string
		run    exec.Result
		tests  []exec.TestResult
		want   report.Outcome
		detail string
	}{
		{"memory limit", exec.Result{Status: exec.StatusMemory, Detail: "memory limit 1GiB exceeded"}, []exec.TestResult{passedA}, report.OutcomeMemory, "memory limit 1GiB exceeded"},
		{"output limit", exec.Result{Status: exec.StatusOutput, Detail: "output limit 16MiB exceeded"}, []exec.TestResult{passedA}, report.OutcomeOutput, "output limit 16MiB exceeded"},
		{"crash", exec.Result{Status: exec.StatusSignal, Detail: "killed by signal SIGSEGV"}, []exec.TestResult{passedA}, report.OutcomeCrashed, "killed by signal SIGSEGV"},
		{"cpu time", exec.Result{Status: exec.StatusCPUTime, Detail: "CPU time limit 10s"}, nil, report.OutcomeTimeout, "CPU time limit 10s"},
		{"MemoryError in a test", exec.Result{Status: exec.StatusExit}, []exec.TestResult{passedA,
			{Name: "test_m.T.test_b", Status: exec.TestError, Message: "Traceback (most recent call last):\nMemoryError"}}, report.OutcomeMemory, "a test ran out of memory (MemoryError)"},
		{"a plain failure", exec.Result{Status: exec.StatusExit}, []exec.TestResult{passedA,
			{Name: "test_m.T.test_b", Status: exec.TestFailed, Message: "AssertionError: 1 != 2"}}, report.OutcomeFailed, "test_m.T.test_b: AssertionError: 1 != 2"},
		{"all passed", exec.Result{Status: exec.StatusOK}, []exec.TestResult{passedA, {Name: "test_m.T.test_b", Status: exec.TestPassed}}, report.OutcomePassed, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := adapt.Judge(task, &exec.Suite{Run: c.run, Tests: c.tests})
			assert.Equal(t, c.want, r.Outcome)
			assert.Equal(t, c.detail, r.Detail)
			assert.Len(t, r.Tests, 2, "every test the task names is reported")
		})
	}
}

// TestJudgeTampered: evidence from the run that the code reached for its
// own verdict is a tampered outcome, before a limit or an infrastructure
// verdict and whatever the tests say; static evidence alone is not.
func TestJudgeTampered(t *testing.T) {
	task := &adapt.Task{ID: "t", Language: adapt.Python, Tests: []adapt.Test{{Name: "test_m.T.test_a"}}}
	passed := []exec.TestResult{{Name: "test_m.T.test_a", Status: exec.TestPassed}}
	forged := exec.Tamper{Kind: "results-write", Detail: "wrote the results channel"}
	static := exec.Tamper{Kind: "static", Detail: "names .adaptbench-", Static: true}
	r := adapt.Judge(task, &exec.Suite{Run: exec.Result{Status: exec.StatusOK}, Tests: passed, Tampered: []exec.Tamper{static, forged}})
	assert.Equal(t, report.OutcomeTampered, r.Outcome)
	assert.Equal(t, "static (static): names .adaptbench-\nresults-write: wrote the results channel", r.Detail)
	r = adapt.Judge(task, &exec.Suite{Run: exec.Result{Status: exec.StatusInternal}, Tests: passed, Tampered: []exec.Tamper{forged}})
	assert.Equal(t, report.OutcomeTampered, r.Outcome, "a job that tampered is not left unscored")
	assert.True(t, r.Scored())
	r = adapt.Judge(task, &exec.Suite{Run: exec.Result{Status: exec.StatusOK}, Tests: passed, Tampered: []exec.Tamper{static}})
	assert.Equal(t, report.OutcomePassed, r.Outcome, "static evidence is listed, never a verdict")
}
