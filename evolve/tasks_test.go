package evolve_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/evolve"
	"github.com/adaptbench/adaptbench/evolve/transform"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

// scripted answers every request with text chosen by task ID.
type scripted struct {
	name    string
	answers func(t *adapt.Task) string
}

func (m scripted) Name() string { return m.name }
func (m scripted) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	return []report.Completion{{Text: "```python\n" + m.answers(req.Task) + "\n```\n", FinishReason: "stop"}}, nil
}

// outcomes evaluates tasks with model and returns each task's outcome.
func outcomes(t *testing.T, tasks []adapt.Task, m adapt.Model) map[string]report.Outcome {
	t.Helper()
	rep, err := adapt.Evaluate(context.Background(), tasks, m, &adapt.Options{Runner: exectest.ForkServer(t), NoGold: true})
	require.NoError(t, err)
	out := map[string]report.Outcome{}
	for _, tr := range rep.PerTask {
		require.Len(t, tr.Samples, 1, tr.TaskID)
		out[tr.TaskID] = tr.Samples[0].Outcome
	}
	return out
}

// evolved runs the test operators on sumSquares.
func evolved(t *testing.T) (*evolve.Subject, *evolve.Evolution) {
	t.Helper()
	s := subjectOf(t, sumSquares)
	res, err := evolve.Evolve(context.Background(), s, &evolve.Options{Transforms: testOps, Evaluations: 30, Seed: 1, Tester: tester(t)})
	require.NoError(t, err)
	require.NotZero(t, res.Best)
	return s, res
}

func TestCalls(t *testing.T) {
	calls, err := evolve.Calls([]byte(sumSquares.Test))
	require.NoError(t, err)
	// The abs(...) assertion is not a literal call.
	assert.Equal(t, []evolve.Call{{Args: "[1, 2, 3]", Expected: "14"}, {Args: "[]", Expected: "0"}, {Args: "[-2]", Expected: "4"}}, calls)

	calls, err = evolve.Calls([]byte("def check(c):\n    assert c('a', (1, -2.5), {'k': None}) == [True, \"x\"], 'msg'\n    assert c(f'{x}') == 1\n    assert c(1) == f(2)\n    assert c(1) != 2\n    assert d(1) == 2\n"))
	require.NoError(t, err)
	assert.Equal(t, []evolve.Call{{Args: "'a', (1, -2.5), {'k': None}", Expected: `[True, "x"]`}}, calls)
}

func TestOutputPrediction(t *testing.T) {
	s, res := evolved(t)
	tasks, err := evolve.OutputPrediction(s, res)
	require.NoError(t, err)
	require.Len(t, tasks, 2)
	orig, evo := tasks[0], tasks[1]
	assert.Equal(t, "Demo/0/output/original", orig.ID)
	assert.Equal(t, "Demo/0/output/evolved", evo.ID)
	assert.Equal(t, "Complete the assertion with the literal value the program returns: assert sum_squares([1, 2, 3]) == ??", evo.Requirement.Task)
	assert.Equal(t, "output = 14\n", evo.Reference)
	assert.Equal(t, evolve.Source(res.Evolved().Program), evo.Code)
	d, err := evolve.DetailOf(&evo)
	require.NoError(t, err)
	assert.Equal(t, &evolve.Detail{Lineage: res.Lineage(res.Best)}, d)
	assert.NotEmpty(t, d.Lineage)
	prov := *evo.Provenance
	prov.Detail = nil
	assert.Equal(t, adapt.Provenance{Generator: "evolve", Parent: "Demo/0", Operators: res.Operators(res.Best), Seed: 1, Source: "inline", Schema: evolve.DetailSchema}, prov)
	assert.Equal(t, map[string]string{"benchmark": "humaneval", "version": "evolved", "genebench": "output-prediction"}, evo.Labels)
	d, err = evolve.DetailOf(&orig)
	require.NoError(t, err)
	assert.Equal(t, &evolve.Detail{}, d, "the original has no lineage")
	orig.Provenance.Schema = "mutate/v1"
	_, err = evolve.DetailOf(&orig)
	require.ErrorIs(t, err, adapt.ErrDetailSchema)
	assert.Contains(t, err.Error(), `evolve: task "Demo/0/output/original": wrong provenance schema: "mutate/v1" (want "evolve/v1"`)
	orig.Provenance.Schema = evolve.DetailSchema
	checkRecords(t, s, tasks)

	gold := outcomes(t, tasks, adapt.Reference)
	assert.Equal(t, map[string]report.Outcome{orig.ID: report.OutcomePassed, evo.ID: report.OutcomePassed}, gold)
	wrong := outcomes(t, tasks, scripted{"wrong", func(*adapt.Task) string { return "output = 15" }})
	assert.Equal(t, report.OutcomeFailed, wrong[evo.ID])
	// An answer that calls the program instead of giving a literal fails.
	cheat := outcomes(t, tasks, scripted{"cheat", func(*adapt.Task) string {
		return "from solution import sum_squares\noutput = sum_squares([1, 2, 3])"
	}})
	assert.NotEqual(t, report.OutcomePassed, cheat[evo.ID])
	// Other answer forms.
	forms := outcomes(t, tasks, scripted{"forms", func(t *adapt.Task) string {
		if strings.HasSuffix(t.ID, "original") {
			return "assert sum_squares([1, 2, 3]) == 14"
		}
		return "14"
	}})
	assert.Equal(t, map[string]report.Outcome{orig.ID: report.OutcomePassed, evo.ID: report.OutcomePassed}, forms)
}

func TestRepair(t *testing.T) {
	s, res := evolved(t)
	tr := tester(t)
	tasks, bug, err := evolve.Repair(context.Background(), s, res, tr, &evolve.RepairOptions{Bugs: []*transform.Transform{flipPlus}, Seed: 2})
	require.NoError(t, err)
	require.Len(t, tasks, 2)
	assert.Equal(t, "M91", bug.Operator)
	assert.Equal(t, "+", bug.Old)
	assert.Equal(t, "-", bug.New)
	orig, evo := tasks[0], tasks[1]
	assert.Equal(t, "Demo/0/repair/original", orig.ID)
	assert.Equal(t, "Demo/0/repair/evolved", evo.ID)
	// The same statement is buggy in both versions.
	line := "total = total - x * x"
	assert.Contains(t, orig.Code, line)
	assert.Contains(t, evo.Code, line)
	assert.Equal(t, string(res.Evolved().Program.Main), evo.Reference)
	assert.Equal(t, append(res.Operators(res.Best), "M91"), evo.Provenance.Operators)
	assert.Equal(t, map[string]string{"benchmark": "humaneval", "version": "evolved", "genebench": "program-repair", "bug": "M91"}, evo.Labels)
	d, err := evolve.DetailOf(&evo)
	require.NoError(t, err)
	assert.Equal(t, &evolve.Detail{Lineage: res.Lineage(res.Best), Bug: bug}, d)
	checkRecords(t, s, tasks)

	gold := outcomes(t, tasks, adapt.Reference)
	assert.Equal(t, map[string]report.Outcome{orig.ID: report.OutcomePassed, evo.ID: report.OutcomePassed}, gold)
	// Handing the buggy code back fails both.
	same := outcomes(t, tasks, adapt.Identity)
	assert.Equal(t, map[string]report.Outcome{orig.ID: report.OutcomeFailed, evo.ID: report.OutcomeFailed}, same)

	// A mutator with no site gives ErrNoBug.
	_, _, err = evolve.Repair(context.Background(), s, res, tr, &evolve.RepairOptions{Bugs: []*transform.Transform{returnNoneBug}})
	assert.ErrorIs(t, err, evolve.ErrNoBug)
}

// returnNoneBug has no site in sumSquares (it has no "pass").
var returnNoneBug = &transform.Transform{
	ID: "M92", Name: "DropPass", Family: transform.Bug, Doc: "removes a pass statement",
	Sites: sitesOf("pass_statement"),
	Apply: returnNone.Apply,
}

func TestAdaptation(t *testing.T) {
	s, res := evolved(t)
	task, err := evolve.Adaptation(s, res)
	require.NoError(t, err)
	assert.Equal(t, "Demo/0/adapt/evolved", task.ID)
	assert.Equal(t, s.Task.Code, task.Code, "the reused code stays")
	assert.Equal(t, string(res.Evolved().Program.Main), task.Target.Content)
	assert.True(t, strings.HasPrefix(task.Reference, "def sum_squares(xs):"))
	assert.Contains(t, task.Reference, "> 0:")
	checkRecords(t, s, []adapt.Task{task})
	gold := outcomes(t, []adapt.Task{task}, adapt.Reference)
	assert.Equal(t, report.OutcomePassed, gold[task.ID])
	// The original solution still fits this context.
	plain := outcomes(t, []adapt.Task{task}, scripted{"original", func(*adapt.Task) string { return s.Task.Reference }})
	assert.Equal(t, report.OutcomePassed, plain[task.ID])
}

func TestTesterCache(t *testing.T) {
	s := subjectOf(t, sumSquares)
	tr := tester(t)
	ctx := context.Background()
	out, err := tr.Test(ctx, s.Suite, s.Program)
	require.NoError(t, err)
	assert.Equal(t, evolve.TestRun{Verdict: evolve.VerdictPassed}, out)
	out, err = tr.Test(ctx, s.Suite, s.Program.Clone())
	require.NoError(t, err)
	assert.Equal(t, evolve.TestRun{Verdict: evolve.VerdictPassed, Cached: true}, out)
	bad := s.Program.Clone()
	bad.Main = []byte(strings.Replace(string(bad.Main), "return total", "return total + 1", 1))
	out, err = tr.Test(ctx, s.Suite, bad)
	require.NoError(t, err)
	assert.Equal(t, evolve.VerdictFailed, out.Verdict)
	assert.Contains(t, out.Detail, "test_check.TestCheck.test_check failed")
	broken := s.Program.Clone()
	broken.Main = []byte("def sum_squares(xs):\n    return undefined_name(\n")
	out, err = tr.Test(ctx, s.Suite, broken)
	require.NoError(t, err)
	assert.Equal(t, evolve.VerdictBroken, out.Verdict)
	slow := s.Program.Clone()
	slow.Main = []byte("def sum_squares(xs):\n    while True:\n        pass\n")
	fast := evolve.NewTester(forkServer(t), &evolve.TesterConfig{Limits: exec.Limits{CPUTime: time.Second}})
	out, err = fast.Test(ctx, s.Suite, slow)
	require.NoError(t, err)
	assert.Equal(t, evolve.VerdictTimeout, out.Verdict)
	st := tr.Stats()
	assert.Equal(t, evolve.TesterStats{Runs: 3, Hits: 1, Passed: 1, TestTime: st.TestTime}, st)
	// A different suite is a different cache key.
	other := *s.Suite
	other.Files = append(other.Files, adapt.File{Path: "extra.txt", Content: "x"})
	out, err = tr.Test(ctx, &other, s.Program)
	require.NoError(t, err)
	assert.False(t, out.Cached)
}

func TestVerdictText(t *testing.T) {
	for v := evolve.VerdictInvalid; v <= evolve.VerdictBroken; v++ {
		b, err := v.MarshalText()
		require.NoError(t, err)
		var w evolve.Verdict
		require.NoError(t, w.UnmarshalText(b))
		assert.Equal(t, v, w)
	}
	var w evolve.Verdict
	assert.Error(t, w.UnmarshalText([]byte("")))
	for s := evolve.StopInvalid; s <= evolve.StopCanceled; s++ {
		b, err := s.MarshalText()
		require.NoError(t, err)
		var u evolve.Stop
		require.NoError(t, u.UnmarshalText(b))
		assert.Equal(t, s, u)
	}
}

// TestTesterSitePackages: programs that import what the API operators
// inject (Debian's site-packages) pass through the fork server.
func TestTesterSitePackages(t *testing.T) {
	s := subjectOf(t, sumSquares)
	p := s.Program.Clone()
	p.Main = append([]byte("import numpy as np\nfrom scipy.stats import ttest_ind\nfrom dateutil.parser import parse\nfrom cryptography.fernet import Fernet\n"), p.Main...)
	p.Main = []byte(strings.Replace(string(p.Main), "    return total", "    ttest_ind([1, 2, 3], [4, 5, 7])\n    parse('2024-01-02 03:04:05')\n    Fernet.generate_key()\n    return np.sum(np.array([total])).item()", 1))
	out, err := tester(t).Test(context.Background(), s.Suite, p)
	require.NoError(t, err)
	assert.Equal(t, evolve.VerdictPassed, out.Verdict, out.Detail)
}

// checkRecords checks that derived tasks carry as labels only LabelKeys
// and their subject's labels, and survive adapt's task format with their
// Detail.
func checkRecords(t *testing.T, s *evolve.Subject, tasks []adapt.Task) {
	t.Helper()
	for _, task := range tasks {
		for k, v := range task.Labels {
			if _, kept := s.Task.Labels[k]; !kept && !slices.Contains(evolve.LabelKeys, k) {
				t.Errorf("%s: label %s=%q is not one of LabelKeys %v: per-task data belongs in the Detail", task.ID, k, v, evolve.LabelKeys)
			}
		}
	}
	var buf bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&buf, tasks))
	back, err := adapt.ReadTasks(&buf, "tasks.jsonl")
	require.NoError(t, err)
	assert.Equal(t, tasks, back, "tasks written and read back")
	for i := range back {
		if _, err := evolve.DetailOf(&back[i]); err != nil {
			t.Error(err)
		}
	}
}
