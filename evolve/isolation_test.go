package evolve_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/classeval"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/evolve"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// TestIsolationCoverage measures the isolation coverage of GeneBench's
// derived tasks: the output-prediction, repair and adaptation tasks of
// evolved HumanEval problems (the first twelve; four with -short) and of
// evolved ClassEval classes (two; none with -short), whose evolved code
// may import what the API operators inject (numpy, scipy, dateutil, ...).
// Evaluate with IsolationRequired runs each task's reference in-process
// and isolated and fails the task if any test's verdict differs; every
// task must then run its answer in a process of its own and pass.
func TestIsolationCoverage(t *testing.T) {
	suite(t)
	nHE, nCE := 12, 2
	if testing.Short() {
		nHE, nCE = 4, 0
	}
	subs := subjects(t, humanEval(t)[:nHE])
	if nCE > 0 {
		subs = append(subs, classSubjects(t, nCE)...)
	}
	tr := tester(t)
	rep, err := evolve.Generate(context.Background(), subs, &evolve.Options{Evaluations: 22, Seed: 4, Tester: tr})
	require.NoError(t, err)
	var tasks []adapt.Task
	kinds := map[string]int{}
	for i, res := range rep.Evolutions {
		require.NoError(t, res.Err)
		if res.Best == 0 {
			continue
		}
		if ts, err := evolve.OutputPrediction(subs[i], res); err == nil {
			tasks = append(tasks, ts...)
		} else {
			require.ErrorIs(t, err, evolve.ErrNoCall)
		}
		if ts, _, err := evolve.Repair(context.Background(), subs[i], res, tr, &evolve.RepairOptions{Seed: 3}); err == nil {
			tasks = append(tasks, ts...)
		} else if !errors.Is(err, evolve.ErrNoBug) {
			t.Fatal(err)
		}
		task, err := evolve.Adaptation(subs[i], res)
		require.NoError(t, err)
		tasks = append(tasks, task)
	}
	for _, task := range tasks {
		kinds[task.Labels["genebench"]]++
	}
	require.NotEmpty(t, tasks)
	start := time.Now()
	ev, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{Runner: forkServer(t), NoGold: true,
		Isolation: adapt.IsolationRequired})
	require.NoError(t, err)
	isolated, tests := 0, 0
	byID := map[string]*adapt.Task{}
	for i := range tasks {
		byID[tasks[i].ID] = &tasks[i]
		tests += len(tasks[i].Tests)
	}
	for _, r := range ev.PerTask {
		require.Len(t, r.Samples, 1, r.TaskID)
		s := r.Samples[0]
		assert.Equal(t, report.OutcomePassed, s.Outcome, "%s: %s", r.TaskID, s.Detail)
		if s.Isolation == "process" {
			isolated++
		} else {
			t.Errorf("%s: isolation %q (%s)", r.TaskID, s.Isolation, s.Detail)
		}
	}
	t.Logf("GeneBench-derived tasks: %d of %d isolated (%d tests; kinds %v; %d subjects), verdicts identical both ways, in %v",
		isolated, len(tasks), tests, kinds, len(subs), time.Since(start))
}

// classSubjects makes one subject of each of the first n ClassEval
// classes, against the tests of all its methods.
func classSubjects(t *testing.T, n int) []*evolve.Subject {
	t.Helper()
	classes, err := classeval.ReadFile(testenv.DataPath(t, "classeval/ClassEval_data.json"))
	require.NoError(t, err)
	_, byClass, order := classTasks(t, classes[:n])
	var out []*evolve.Subject
	for _, c := range order {
		s, err := evolve.FromTasks(c, byClass[c])
		require.NoError(t, err)
		out = append(out, s)
	}
	return out
}
