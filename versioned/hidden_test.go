package versioned_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/versioned"
)

// cheat passes medianProblem's visible test and fails its hidden tests.
const cheat = "import statistics\ndef mid(values):\n    return {3: 2, 4: 2.5}[len(values)]\n"

// TestSelfDebugHiddenVerdict: self-debug repairs from the visible test's
// trace, but its hidden verdict is the hidden file's: an answer fitted to
// the visible test passes it and fails the hidden tests, and the repair
// prompt shows nothing of the hidden file.
func TestSelfDebugHiddenVerdict(t *testing.T) {
	sb := exectest.ForkServer(t)
	task := medianTask(t)
	const wrong = "import statistics\ndef mid(values):\n    return statistics.median_low(values)\n"
	m := &scripted{wrong: wrong, right: cheat, want: "AssertionError"}
	res, err := versioned.Evaluate(context.Background(), []adapt.Task{task}, m, &versioned.EvalOptions{Protocol: versioned.SelfDebug, Evaluate: adapt.Options{Runner: sb}})
	require.NoError(t, err)
	r := res.Tasks[0]
	assert.True(t, r.Valid)
	assert.Equal(t, 1, r.Repairs)
	assert.True(t, r.Visible, "the fitted answer passes the visible test")
	assert.False(t, r.Hidden, "the hidden verdict is the hidden file's, which the fitted answer fails")
	assert.False(t, r.NoHidden)
	require.Len(t, m.prompts, 2)
	repair := m.prompts[1][1].Content
	for _, leak := range []string{"test_sample.py", "test_odd", "mid([5, 1, 3])"} {
		assert.NotContains(t, repair, leak, "the repair prompt shows the hidden tests")
	}
	assert.Equal(t, adapt.PassExitStatus, res.PassRule)
	assert.Contains(t, res.String(), "hidden 0/1, visible 1/1")
}

// TestHiddenPassRule: a hidden file whose tests all skip passes under
// upstream's exit-status rule (the default) and fails under adapt's
// every-test rule; Results say which rule was used.
func TestHiddenPassRule(t *testing.T) {
	sb := exectest.ForkServer(t)
	task := medianWith(t, func(p *versioned.Problem) {
		p.HiddenTest = "import pytest\nfrom sample_1 import mid\n\n\n@pytest.mark.skip(reason='needs a GPU')\ndef test_gpu():\n    assert mid([1]) == 1\n\n\ndef test_display():\n    pytest.skip('no display')\n"
	})
	const right = "import statistics\ndef mid(values):\n    return statistics.median(values)\n"
	m := &scripted{wrong: right, right: right}
	for _, tc := range []struct {
		rule   *string
		hidden bool
		want   string
	}{
		{nil, true, adapt.PassExitStatus},
		{ptr(adapt.PassEveryTest), false, adapt.PassEveryTest},
	} {
		res, err := versioned.Evaluate(context.Background(), []adapt.Task{task}, m, &versioned.EvalOptions{Protocol: versioned.Greedy, Evaluate: adapt.Options{Runner: sb}, PassRule: tc.rule})
		require.NoError(t, err)
		r := res.Tasks[0]
		assert.Equal(t, tc.want, res.PassRule)
		// Under the every-test rule the reference fails too: the task is
		// invalid, its hidden verdict false.
		assert.Equal(t, tc.hidden, r.Valid && r.Hidden, "rule %q: %+v", tc.want, r)
		var b strings.Builder
		require.NoError(t, versioned.Table{{Model: "m", Greedy: res}}.WriteTable(&b))
		assert.Contains(t, b.String(), versioned.PassRuleName(tc.want))
	}
}

// TestHiddenImportError: an answer without a name the hidden file imports
// fails the hidden tests (upstream: pytest exits 2) and still has its
// visible verdict.
func TestHiddenImportError(t *testing.T) {
	sb := exectest.ForkServer(t)
	task := medianWith(t, func(p *versioned.Problem) {
		p.Completion = "    return statistics.median(values)\n\ndef helper():\n    return 1\n"
		p.HiddenTest = "from sample_1 import mid, helper\n\n\ndef test_helper():\n    assert helper() == 1 and mid([1, 3]) == 2\n"
	})
	chk := &adapt.Checker{Runner: sb}
	res, err := chk.Check(context.Background(), &task, adapt.Answer{Code: "import statistics\ndef mid(values):\n    return statistics.median(values)\n"})
	require.NoError(t, err)
	assert.Equal(t, report.OutcomeFailed, res.Outcome, "not a compile error: the visible test ran")
	assert.True(t, res.Passed(versioned.VisibleTestName))
	assert.False(t, res.Passed(versioned.HiddenTestName))
	assert.Contains(t, res.Tests[1].Message, "cannot import name 'helper'")
	res, err = chk.Check(context.Background(), &task, adapt.Answer{Code: task.Reference})
	require.NoError(t, err)
	assert.Equal(t, report.OutcomePassed, res.Outcome, "%+v", res.Tests)
}

// TestVisibleScript: the visible test runs as a script, passing when it
// exits 0, so one that ends with unittest.main() (mitmproxy's) passes when
// its tests do, and fails when one fails.
func TestVisibleScript(t *testing.T) {
	sb := exectest.ForkServer(t)
	task := medianWith(t, func(p *versioned.Problem) {
		p.VisibleTest = "import unittest\n\nclass T(unittest.TestCase):\n    def test_mid(self):\n        self.assertEqual(mid([1, 2, 3, 4]), 2.5)\n\nif __name__ == '__main__':\n    unittest.main()\n"
	})
	assert.Equal(t, []string(nil), versioned.HiddenTests(&task), "no hidden file, no hidden tests")
	chk := &adapt.Checker{Runner: sb}
	for _, tc := range []struct {
		code string
		want report.Outcome
	}{
		{"import statistics\ndef mid(values):\n    return statistics.median(values)\n", report.OutcomePassed},
		{"import statistics\ndef mid(values):\n    return statistics.median_low(values)\n", report.OutcomeFailed},
		// A script that exits before the test runs passes with status 0,
		// as upstream's does, and fails with another.
		{"import sys\ndef mid(values):\n    return 0\nsys.exit(0)\n", report.OutcomePassed},
		{"import sys\ndef mid(values):\n    return 2.5\nsys.exit(3)\n", report.OutcomeFailed},
	} {
		res, err := chk.Check(context.Background(), &task, adapt.Answer{Code: tc.code})
		require.NoError(t, err)
		assert.Equal(t, tc.want, res.Outcome, "%s: %+v", tc.code, res.Tests)
	}
}

// TestNoHiddenFile: a task without a hidden file has no hidden verdict:
// it is left out of the hidden rate and counted apart, never judged by its
// visible test.
func TestNoHiddenFile(t *testing.T) {
	sb := exectest.ForkServer(t)
	with := medianTask(t)
	without := medianWith(t, func(p *versioned.Problem) { p.ID = "2" })
	const right = "import statistics\ndef mid(values):\n    return statistics.median(values)\n"
	res, err := versioned.Evaluate(context.Background(), []adapt.Task{with, without}, &scripted{wrong: right, right: right}, &versioned.EvalOptions{Protocol: versioned.Greedy, Evaluate: adapt.Options{Runner: sb}})
	require.NoError(t, err)
	assert.False(t, res.Tasks[0].NoHidden)
	assert.True(t, res.Tasks[1].NoHidden)
	assert.False(t, res.Tasks[1].Hidden)
	assert.Equal(t, 1, res.Hidden().N)
	assert.Equal(t, 2, res.Visible().N)
	assert.Contains(t, res.String(), "1 without hidden tests")
	var b strings.Builder
	require.NoError(t, versioned.Table{{Model: "m", Greedy: res}}.WriteTable(&b))
	assert.Contains(t, b.String(), "1 tasks have no hidden tests")
}

// TestLoadLayouts reads the published data in both layouts: the flat
// directory of ../shared/data/gitchameleon (the hidden files of the odd
// ids, and the orphan) and upstream's repository root (dataset/...).
func TestLoadLayouts(t *testing.T) {
	dir := dataDir(t)
	tasks, rep, err := versioned.LoadDir(dir)
	require.NoError(t, err)
	assert.Equal(t, 328, rep.Problems)
	assert.Equal(t, 328, len(tasks))
	assert.Equal(t, 163, rep.Hidden, "every odd id but the absent 81 and 235")
	assert.Equal(t, 165, len(rep.NoHidden))
	assert.Equal(t, []string{"test_sample_81.py"}, rep.Orphans)
	assert.Equal(t, 328, rep.VisibleFiles)
	withHidden := 0
	for i := range tasks {
		if len(versioned.HiddenTests(&tasks[i])) > 0 {
			withHidden++
			assert.Equal(t, []string{versioned.HiddenTestName}, versioned.HiddenTests(&tasks[i]))
		}
	}
	assert.Equal(t, 163, withHidden)

	one, err := os.ReadFile(dir + "/hidden_tests/test_sample_1.py")
	require.NoError(t, err)
	data, err := os.ReadFile(dir + "/dataset.jsonl")
	require.NoError(t, err)
	repo := fstest.MapFS{
		"dataset/dataset.jsonl":                 {Data: data},
		"dataset/hidden_tests/test_sample_1.py": {Data: one},
		"dataset/hidden_tests/README":           {Data: []byte("x")},
	}
	ps, rep, err := versioned.ReadDataset(repo, ".")
	require.NoError(t, err)
	assert.Equal(t, "dataset", rep.Dir)
	assert.Equal(t, 1, rep.Hidden)
	assert.Equal(t, []string{"README"}, rep.Ignored)
	assert.Equal(t, string(one), ps[1].HiddenTest)

	_, _, err = versioned.ReadDataset(fstest.MapFS{}, ".")
	assert.ErrorContains(t, err, "no dataset.jsonl here or under dataset/")
}

// TestFirstPythonBlock: upstream's extraction takes the first ```python
// block, where adapt's whole-file rule takes the longest.
func TestFirstPythonBlock(t *testing.T) {
	task := medianTask(t)
	for _, tc := range []struct{ text, want string }{
		{"```python\nA = 1\n```\nand a longer one:\n```python\nB = 22222222\n```\n", "A = 1\n"},
		{"```\nplain = 1\n```\n", "plain = 1\n"},
		{"x = 1\n", "x = 1\n"},
		{"```bash\nls\n```\n```python\nC = 3\n```", "C = 3\n"},
	} {
		a, err := versioned.FirstPythonBlock(&task, report.Completion{Text: tc.text})
		require.NoError(t, err)
		assert.Equal(t, tc.want, a.Code, tc.text)
	}
	a, err := adapt.Extract(&task, "```python\nA = 1\n```\n```python\nB = 22222222\n```\n")
	require.NoError(t, err)
	assert.Equal(t, "B = 22222222\n", a.Code, "adapt's default is unchanged: the longest block")
}

func ptr[T any](v T) *T { return &v }

// medianWith is medianProblem's task, without a hidden test file, after
// edit changed the problem.
func medianWith(t *testing.T, edit func(*versioned.Problem)) adapt.Task {
	t.Helper()
	ps, err := versioned.Read(strings.NewReader(medianProblem), "median.jsonl")
	require.NoError(t, err)
	edit(&ps[0])
	task, err := ps[0].Task("median.jsonl")
	require.NoError(t, err)
	return task
}

// TestInvalidReason: a task whose reference fails says which exception,
// message and all (which module did not import), not only its class.
func TestInvalidReason(t *testing.T) {
	sb := exectest.ForkServer(t)
	task := medianWith(t, func(p *versioned.Problem) { p.StarterCode = "import no_such_module_xyz\n" + p.StarterCode })
	m := &scripted{wrong: "x = 1\n", right: "x = 1\n"}
	res, err := versioned.Evaluate(context.Background(), []adapt.Task{task}, m, &versioned.EvalOptions{Protocol: versioned.Greedy, Evaluate: adapt.Options{Runner: sb}})
	require.NoError(t, err)
	r := res.Tasks[0]
	assert.False(t, r.Valid)
	assert.Contains(t, r.Invalid, "No module named 'no_such_module_xyz'")
}
