package classeval_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/classeval"
)

// minIsolatedShare is the share of ClassEval's test methods whose tasks
// run their answers in a process of their own (IsolationAuto), measured
// with every module of classEvalModules importable.
const minIsolatedShare = 0.98

// TestIsolationCoverage measures ClassEval's isolation coverage: each
// task's reference runs in-process and isolated, and the task runs
// isolated when every test's verdict is the same both ways. The share is
// counted in test methods. The tasks that cannot are logged with the
// reason. Skipped with -short.
func TestIsolationCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("the full ClassEval run is skipped with -short")
	}
	tasks, err := classeval.LoadFile(dataFile(t))
	require.NoError(t, err)
	start := time.Now()
	rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{Runner: forkServer(t), NoGold: true,
		Isolation: adapt.IsolationAuto})
	require.NoError(t, err)
	byID := map[string]*adapt.Task{}
	for i := range tasks {
		byID[tasks[i].ID] = &tasks[i]
	}
	var isolated, all int
	var not []*adapt.Task
	for _, tr := range rep.PerTask {
		n := len(byID[tr.TaskID].Tests)
		all += n
		require.Len(t, tr.Samples, 1, tr.TaskID)
		if tr.Samples[0].Isolation == "process" {
			isolated += n
		} else {
			not = append(not, byID[tr.TaskID])
		}
	}
	share := float64(isolated) / float64(all)
	t.Logf("ClassEval: %d of %d test methods isolated (%.1f%%), %d of %d tasks, in %v",
		isolated, all, 100*share, len(tasks)-len(not), len(tasks), time.Since(start))
	// Why the others cannot: IsolationRequired says.
	chk := &adapt.Checker{Runner: forkServer(t), Isolation: adapt.IsolationRequired}
	for _, task := range not {
		_, err := chk.Check(context.Background(), task, adapt.Answer{Code: task.Reference})
		t.Logf("%s runs in-process; isolated alone: %v", task.ID, err)
	}
	if missing := missingModules(t); len(missing) == 0 {
		assert.GreaterOrEqual(t, share, minIsolatedShare)
	}
}
