package adapt_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// TestGoTargetInSubpackage: a Go task is tested in its target file's
// package, wherever that package sits in the module.
func TestGoTargetInSubpackage(t *testing.T) {
	task := adapt.Task{
		ID:        "go-subpackage",
		Language:  adapt.Go,
		Code:      "func Double(x int) int { return x + x + 1 }\n",
		Reference: "func Double(x int) int { return 2 * x }\n",
		Target:    adapt.Target{Path: "internal/calc/calc.go", Function: "Double", Content: "package calc\n\nfunc Double(x int) int { return 0 }\n"},
		Files: []adapt.File{
			{Path: "go.mod", Content: "module example.com/deep\n\ngo 1.22\n"},
			{Path: "internal/calc/calc_test.go", Content: "package calc\n\nimport \"testing\"\n\nfunc TestDouble(t *testing.T) {\n\tif Double(21) != 42 {\n\t\tt.Fatal(Double(21))\n\t}\n}\n"},
			{Path: "root.go", Content: "package deep\n"},
		},
		Tests: []adapt.Test{{Name: "TestDouble"}},
	}
	referenceAndIdentity(t, []adapt.Task{task})
}

// referenceAndIdentity evaluates tasks with adapt.Reference, which must
// pass every one, and adapt.Identity, which must fail every one (its
// tests run and fail), and returns the Identity's reports.
func referenceAndIdentity(t *testing.T, tasks []adapt.Task) []report.TaskReport {
	t.Helper()
	var last []report.TaskReport
	for _, tc := range []struct {
		model adapt.Model
		want  report.Outcome
	}{{adapt.Reference, report.OutcomePassed}, {adapt.Identity, report.OutcomeFailed}} {
		rep, err := adapt.Evaluate(context.Background(), tasks, tc.model, &adapt.Options{Runner: runner(t), NoGold: true})
		require.NoError(t, err)
		require.Len(t, rep.PerTask, len(tasks))
		for _, tr := range rep.PerTask {
			s := tr.Samples[0]
			assert.Equal(t, tc.want, s.Outcome, "%s on %s: %s", tc.model.Name(), tr.TaskID, s.Detail)
		}
		last = rep.PerTask
	}
	return last
}
