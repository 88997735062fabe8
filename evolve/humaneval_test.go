package evolve_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/evolve"
)

// subjects makes subjects of HumanEval tasks.
func subjects(t testing.TB, tasks []adapt.Task) []*evolve.Subject {
	t.Helper()
	var out []*evolve.Subject
	for i := range tasks {
		s, err := evolve.FromTask(&tasks[i])
		require.NoError(t, err)
		out = append(out, s)
	}
	return out
}

func TestFromTaskProtects(t *testing.T) {
	tasks := humanEval(t)
	byID := map[string]*evolve.Subject{}
	for _, s := range subjects(t, tasks) {
		byID[s.ID] = s
	}
	// decode_cyclic's test calls encode_cyclic by name.
	assert.Equal(t, []string{"decode_cyclic", "encode_cyclic"}, byID["HumanEval/38"].Program.Protected)
	// make_palindrome's helper is_palindrome is not mentioned by the test.
	assert.Equal(t, []string{"make_palindrome"}, byID["HumanEval/10"].Program.Protected)
	assert.Equal(t, "solution.py", byID["HumanEval/0"].Suite.Path)
	assert.Equal(t, []string{"test_check.TestCheck.test_check"}, byID["HumanEval/0"].Suite.Tests)
}

// TestHumanEvalSlice evolves the first HumanEval problems with the 22
// operators (three problems and 22 evaluations each with -short, else ten
// and 44), re-runs every accepted program's tests with a fresh tester and
// replays every lineage.
func TestHumanEvalSlice(t *testing.T) {
	ops := suite(t)
	n, budget := 10, 44
	if testing.Short() {
		n, budget = 3, 22
	}
	subs := subjects(t, humanEval(t)[:n])
	tr := tester(t)
	start := time.Now()
	rep, err := evolve.Generate(context.Background(), subs, &evolve.Options{Evaluations: budget, Seed: 1, Tester: tr})
	require.NoError(t, err)
	elapsed := time.Since(start)
	for i, res := range rep.Evolutions {
		require.NoError(t, res.Err, subs[i].ID)
		retest(t, subs[i], res)
		checkLineage(t, res, ops)
		assert.LessOrEqual(t, res.Evaluations, budget)
		for _, ind := range res.Population {
			for _, p := range subs[i].Program.Protected {
				assert.Contains(t, string(ind.Program.Main), "def "+p+"(", "%s individual %d lost %s", res.Subject, ind.ID, p)
			}
		}
	}
	sum := rep.Summary()
	assert.Equal(t, n, sum.Runs)
	assert.Greater(t, sum.RCAfter, sum.RCBefore)
	assert.Positive(t, sum.Evolved)
	// One adaptation task per evolved subject; the funnel's offspring
	// add up to the runs' evaluations and accepted individuals.
	assert.Len(t, rep.Tasks, sum.Evolved)
	made, accepted := 0, 0
	for _, res := range rep.Evolutions {
		made += res.Evaluations
		accepted += len(res.Population) - 1
	}
	assert.Equal(t, made, rep.Funnel.Count("offspring", evolve.StageMade))
	assert.Equal(t, accepted, rep.Funnel.Count("offspring", evolve.StageAccepted))
	var table bytes.Buffer
	require.NoError(t, rep.WriteTable(&table, "HumanEval"))
	t.Logf("%d evaluations in %v (%.1f/s), tester %+v\n%s", sum.Evaluations, elapsed, float64(sum.Evaluations)/elapsed.Seconds(), tr.Stats(), table.String())

	// The same seed and budget, serially and with a fresh cache, give the
	// same population.
	again, err := evolve.Evolve(context.Background(), subs[0], &evolve.Options{Evaluations: budget, Seed: 1, Parallelism: 1, Tester: tester(t)})
	require.NoError(t, err)
	require.Len(t, again.Population, len(rep.Evolutions[0].Population))
	for i, ind := range again.Population {
		assert.Equal(t, rep.Evolutions[0].Population[i].Hash, ind.Hash, "individual %d", i)
		assert.Equal(t, rep.Evolutions[0].Lineage(i), again.Lineage(i))
	}

	// The JSONL is one record per program, byte-identical when written twice.
	var a, b bytes.Buffer
	require.NoError(t, rep.WriteJSONL(&a, "humaneval"))
	require.NoError(t, rep.WriteJSONL(&b, "humaneval"))
	assert.Equal(t, a.String(), b.String())
	assert.Equal(t, n, strings.Count(a.String(), "\n"))
	assert.True(t, strings.HasPrefix(a.String(), `{"instance":"HumanEval_0","dataset":"humaneval","transformation":`))
}

// TestHumanEvalTasks derives output-prediction, repair (with
// transform.Bugs) and adaptation tasks from evolved HumanEval programs and
// checks that each task's reference passes its tests.
func TestHumanEvalTasks(t *testing.T) {
	suite(t)
	subs := subjects(t, humanEval(t)[:4])
	tr := tester(t)
	rep, err := evolve.Generate(context.Background(), subs, &evolve.Options{Evaluations: 22, Seed: 2, Tester: tr})
	require.NoError(t, err)
	var tasks []adapt.Task
	counts := map[string]int{}
	for i, res := range rep.Evolutions {
		require.NoError(t, res.Err)
		if res.Best == 0 {
			continue
		}
		if ts, err := evolve.OutputPrediction(subs[i], res); err == nil {
			tasks = append(tasks, ts...)
			counts["output"]++
		} else {
			require.ErrorIs(t, err, evolve.ErrNoCall)
		}
		if ts, _, err := evolve.Repair(context.Background(), subs[i], res, tr, &evolve.RepairOptions{Seed: 3}); err == nil {
			tasks = append(tasks, ts...)
			counts["repair"]++
		} else if !errors.Is(err, evolve.ErrNoBug) {
			t.Fatal(err)
		}
		task, err := evolve.Adaptation(subs[i], res)
		require.NoError(t, err)
		tasks = append(tasks, task)
		counts["adapt"]++
	}
	t.Logf("tasks: %v", counts)
	require.Positive(t, counts["output"])
	require.Positive(t, counts["repair"])
	require.Positive(t, counts["adapt"])
	got := outcomes(t, tasks, adapt.Reference)
	for _, task := range tasks {
		assert.Equal(t, report.OutcomePassed, got[task.ID], task.ID)
	}
	// The buggy code of a repair task fails.
	same := outcomes(t, tasks, adapt.Identity)
	for _, task := range tasks {
		if task.Labels["genebench"] == "program-repair" {
			assert.Equal(t, report.OutcomeFailed, same[task.ID], task.ID)
		}
	}
}
