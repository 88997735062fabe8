package adapt_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// isoTasks are a task whose tests only call the answer, and one whose
// test patches a name inside the answer's module (which the answer's
// process does not see): the first can run isolated, the second not.
func isoTasks() []adapt.Task {
	mk := func(id, code, test string) adapt.Task {
		return adapt.Task{
			ID: id, Language: adapt.Python, Framework: adapt.FrameworkUnittest,
			Target:    adapt.Target{Path: "m.py", Content: code},
			Reference: code,
			Files:     []adapt.File{{Path: "test_m.py", Content: test}},
			Tests:     []adapt.Test{{Name: "test_m.T.test_f", File: "test_m.py"}},
		}
	}
	return []adapt.Task{
		mk("plain", "def f(x):\n    return x + 1\n",
			"import unittest, m\n\nclass T(unittest.TestCase):\n    def test_f(self):\n        self.assertEqual(m.f(1), 2)\n"),
		mk("patching", "def helper():\n    return 1\n\ndef f(x):\n    return x + helper()\n",
			"import unittest, m\n\nclass T(unittest.TestCase):\n    def test_f(self):\n        m.helper = lambda: 2\n        self.assertEqual(m.f(1), 3)\n"),
	}
}

// TestIsolationDecidedByReference: with IsolationAuto a task runs isolated
// when its reference gives the same verdicts both ways, and in-process
// otherwise; each sample says which, and the report counts them. With
// IsolationRequired the other task is an error saying why, not a run;
// with IsolationOff no sample records an isolation.
func TestIsolationDecidedByReference(t *testing.T) {
	tasks := isoTasks()
	rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{Runner: runner(t), NoGold: true,
		Isolation: adapt.IsolationAuto})
	require.NoError(t, err)
	assert.Equal(t, "auto", rep.Run.Isolation, "the run says so, and its journal's fingerprint holds it")
	got := map[string]string{}
	for _, tr := range rep.PerTask {
		require.Len(t, tr.Samples, 1)
		assert.Equal(t, report.OutcomePassed, tr.Samples[0].Outcome, tr.TaskID)
		got[tr.TaskID] = tr.Samples[0].Isolation
	}
	assert.Equal(t, map[string]string{"plain": "process", "patching": "in-process"}, got)
	assert.Equal(t, map[string]int{"process": 1, "in-process": 1}, rep.Isolation)
	var md strings.Builder
	require.NoError(t, rep.WriteMarkdown(&md))
	assert.Contains(t, md.String(), "ran in a process of its own | 1 of 2 (50.0%)")

	chk := &adapt.Checker{Runner: runner(t), Isolation: adapt.IsolationRequired}
	res, err := chk.Check(context.Background(), &tasks[0], adapt.Answer{Code: tasks[0].Reference})
	require.NoError(t, err)
	assert.Equal(t, "process", res.Isolation)
	_, err = chk.Check(context.Background(), &tasks[1], adapt.Answer{Code: tasks[1].Reference})
	require.ErrorIs(t, err, adapt.ErrUnsupported)
	assert.Contains(t, err.Error(), "its reference is passed in-process and failed isolated")

	_, err = adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{Runner: runner(t), Isolation: 7})
	assert.ErrorContains(t, err, "Options.Isolation 7 is not one of")

	chk = &adapt.Checker{Runner: runner(t)}
	res, err = chk.Check(context.Background(), &tasks[0], adapt.Answer{Code: tasks[0].Reference})
	require.NoError(t, err)
	assert.Empty(t, res.Isolation)
}

// TestIsolationContainsForgery: a wrong answer that rewrites the
// reporter's severity table (found through object.__subclasses__ and a
// function's __globals__, which no audit event sees) passes in-process
// and fails when the task runs isolated.
func TestIsolationContainsForgery(t *testing.T) {
	task := isoTasks()[0]
	forge := `def _g():
    todo, seen = [object], set()
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        try:
            todo.extend(type.__subclasses__(c))
        except TypeError:
            pass
        for v in list(vars(c).values()):
            g = getattr(v, '__globals__', None)
            if isinstance(g, dict) and '_SEVERITY' in g:
                return g

def f(x):
    _g()['_SEVERITY'].update(passed=9)
    return x
`
	for _, iso := range []adapt.Isolation{adapt.IsolationOff, adapt.IsolationAuto} {
		chk := &adapt.Checker{Runner: runner(t), Isolation: iso}
		res, err := chk.Check(context.Background(), &task, adapt.Answer{Code: forge})
		require.NoError(t, err)
		want := report.OutcomeFailed
		if iso == adapt.IsolationOff {
			want = report.OutcomePassed // what isolation is for
		}
		assert.Equal(t, want, res.Outcome, "isolation %d: %s", iso, strings.TrimSpace(res.Detail))
	}
}
