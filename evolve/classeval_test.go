package evolve_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/classeval"
	"github.com/adaptbench/adaptbench/evolve"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// TestClassEval evolves two ClassEval classes (one with -short) as whole programs, each
// against the tests of all its methods, and re-runs every accepted
// program's tests.
func TestClassEval(t *testing.T) {
	suite(t)
	classes, err := classeval.ReadFile(testenv.DataPath(t, "classeval/ClassEval_data.json"))
	require.NoError(t, err)
	n := 2
	if testing.Short() {
		n = 1
	}
	tasks, byClass, order := classTasks(t, classes[:n])
	require.Len(t, order, n)
	for _, c := range order {
		s, err := evolve.FromTasks(c, byClass[c])
		require.NoError(t, err)
		tests := 0
		for _, task := range byClass[c] {
			tests += len(task.Tests)
		}
		assert.Len(t, s.Suite.Tests, tests, c)
		assert.Contains(t, s.Program.Protected, c)
		res, err := evolve.Evolve(context.Background(), s, &evolve.Options{Evaluations: 22, Seed: 1, Tester: tester(t)})
		require.NoError(t, err, c)
		t.Logf("%s: %d tests, RC %.4f -> %.4f, RR %.4f -> %.4f, %v", c, tests, res.Original().RC, res.Evolved().RC, res.Original().RR, res.Evolved().RR, res.Operators(res.Best))
		retest(t, s, res)
	}

	other := tasks[0]
	other.Target.Content += "\n"
	_, err = evolve.FromTasks("x", []adapt.Task{tasks[0], other})
	assert.ErrorContains(t, err, "does not share")
}

// classTasks makes ClassEval's tasks of classes and groups them by class,
// in the classes' order.
func classTasks(t *testing.T, classes []classeval.Class) (tasks []adapt.Task, byClass map[string][]adapt.Task, order []string) {
	t.Helper()
	tasks, err := classeval.Tasks(classes, "ClassEval_data.json")
	require.NoError(t, err)
	byClass = map[string][]adapt.Task{}
	for _, task := range tasks {
		c := task.Labels["class"]
		if byClass[c] == nil {
			order = append(order, c)
		}
		byClass[c] = append(byClass[c], task)
	}
	return tasks, byClass, order
}
