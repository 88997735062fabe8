package adapt_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
)

// TestJudgeSelectorsAndPassRule judges pytest results against tests named
// by a file (a node id prefix), under both pass rules.
func TestJudgeSelectorsAndPassRule(t *testing.T) {
	suite := &exec.Suite{Run: exec.Result{Status: exec.StatusOK}, Tests: []exec.TestResult{
		{Name: "test_all_skip.py::test_a", Status: exec.TestSkipped, Message: "needs gpu"},
		{Name: "test_all_skip.py::test_b", Status: exec.TestSkipped, Message: "needs gpu"},
		{Name: "test_mixed.py::T::test_a", Status: exec.TestPassed},
		{Name: "test_mixed.py::T::test_b", Status: exec.TestSkipped, Message: "old python"},
		{Name: "test_fail.py::test_a[1]", Status: exec.TestPassed},
		{Name: "test_fail.py::test_a[2]", Status: exec.TestFailed, Message: "assert 1 == 2"},
		{Name: "test_pass.py::test_a", Status: exec.TestPassed},
		{Name: "test_passX.py::test_a", Status: exec.TestFailed, Message: "not selected by test_pass.py"},
	}}
	task := func(rule string, names ...string) *adapt.Task {
		tk := &adapt.Task{ID: "t", Language: adapt.Python, Framework: adapt.FrameworkPytest, PassRule: rule}
		for _, n := range names {
			tk.Tests = append(tk.Tests, adapt.Test{Name: n})
		}
		return tk
	}
	status := func(r report.SampleResult, name string) exec.TestStatus {
		for _, to := range r.Tests {
			if to.Name == name {
				return to.Status
			}
		}
		return exec.TestInvalid
	}
	tests := []struct {
		rule, name string
		want       exec.TestStatus
		why        string
	}{
		{adapt.PassEveryTest, "test_all_skip.py", exec.TestSkipped, "every-test rule: skipped tests did not pass"},
		{adapt.PassExitStatus, "test_all_skip.py", exec.TestPassed, "exit-status rule: pytest exits 0 when every test skips"},
		{adapt.PassEveryTest, "test_mixed.py", exec.TestSkipped, "one skipped test fails the file under the every-test rule"},
		{adapt.PassExitStatus, "test_mixed.py::T", exec.TestPassed, "a class prefix selects its tests"},
		{adapt.PassExitStatus, "test_fail.py", exec.TestFailed, "a failure fails the file under both rules"},
		{adapt.PassEveryTest, "test_pass.py", exec.TestPassed, "test_passX.py is not selected by test_pass.py"},
		{adapt.PassExitStatus, "test_none.py", exec.TestError, "a name selecting no test fails, as pytest exits 5"},
		{adapt.PassExitStatus, "test_all_skip.py::test_a", exec.TestPassed, "an exact skipped test passes under the exit-status rule"},
		{adapt.PassEveryTest, "test_all_skip.py::test_a", exec.TestSkipped, "an exact skipped test does not pass by default"},
	}
	for _, tc := range tests {
		r := adapt.Judge(task(tc.rule, tc.name), suite)
		assert.Equal(t, tc.want, status(r, tc.name), "%q %s: %s", tc.rule, tc.name, tc.why)
		assert.Equal(t, tc.want == exec.TestPassed, r.Outcome == report.OutcomePassed, "%q %s: outcome %s", tc.rule, tc.name, r.Outcome)
		assert.Equal(t, tc.want == exec.TestPassed, r.Passed(tc.name), "%q %s: Passed", tc.rule, tc.name)
	}
	r := adapt.Judge(task(adapt.PassExitStatus, "test_all_skip.py"), suite)
	assert.Contains(t, r.Tests[0].Message, "2 of 2 tests skipped", "the judged test says that it skipped")
	r = adapt.Judge(task(adapt.PassEveryTest, "test_fail.py"), suite)
	assert.Contains(t, r.Tests[0].Message, "test_fail.py::test_a[2] failed: assert 1 == 2", "the message names the failing node")

	// A unittest task's names are exact: no prefix selection.
	ut := task(adapt.PassEveryTest, "test_pass")
	ut.Framework = adapt.FrameworkUnittest
	assert.Equal(t, exec.TestError, status(adapt.Judge(ut, suite), "test_pass"))

	bad := task("pytest-ish", "test_pass.py")
	bad.Target = adapt.Target{Path: "m.py"}
	require.ErrorContains(t, bad.Validate(), `unknown pass rule "pytest-ish"`)
}

// TestPassRuleWithPytest runs real pytest: a file whose tests all skip
// passes under the exit-status rule and fails under the default rule; a
// file with no tests fails under both.
func TestPassRuleWithPytest(t *testing.T) {
	chk := &adapt.Checker{Runner: runner(t)}
	mk := func(rule, test string) *adapt.Task {
		return &adapt.Task{
			ID: "skip", Language: adapt.Python, Framework: adapt.FrameworkPytest, PassRule: rule,
			Target: adapt.Target{Path: "m.py", Content: "X = 1\n"},
			Files:  []adapt.File{{Path: "test_m.py", Content: test}},
			Tests:  []adapt.Test{{Name: "test_m.py", File: "test_m.py"}},
		}
	}
	allSkip := "import pytest\nfrom m import X\n\n@pytest.mark.skip(reason='not here')\ndef test_a():\n    assert X == 2\n\ndef test_b():\n    pytest.skip('nor here')\n"
	noTests := "from m import X\n"
	for _, tc := range []struct {
		rule, test string
		want       report.Outcome
	}{
		{adapt.PassExitStatus, allSkip, report.OutcomePassed},
		{adapt.PassEveryTest, allSkip, report.OutcomeFailed},
		{adapt.PassExitStatus, noTests, report.OutcomeFailed},
		{adapt.PassEveryTest, noTests, report.OutcomeFailed},
	} {
		tk := mk(tc.rule, tc.test)
		require.NoError(t, tk.Validate())
		res, err := chk.Check(context.Background(), tk, adapt.Answer{Code: "X = 1\n"})
		require.NoError(t, err)
		assert.Equal(t, tc.want, res.Outcome, "rule %q, test file %q: %+v", tc.rule, strings.SplitN(tc.test, "\n", 3)[1], res.Tests)
	}
}
