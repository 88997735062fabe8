package cmdkit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/cmdkit"
)

func TestMain(m *testing.M) { exectest.Main(m) }

func task(id, reference string) adapt.Task {
	return adapt.Task{
		ID:        id,
		Language:  adapt.Python,
		Code:      "def solve(x):\n    return 0\n",
		Reference: reference,
		Target:    adapt.Target{Path: "solution.py", Function: "solve", Content: "def solve(x):\n    return 0\n"},
		Files:     []adapt.File{{Path: "test_solution.py", Content: "import unittest\nfrom solution import solve\n\nclass T(unittest.TestCase):\n    def test_solve(self):\n        self.assertEqual(solve(2), 4)\n"}},
		Tests:     []adapt.Test{{Name: "test_solution.T.test_solve", File: "test_solution.py"}},
	}
}

// evaluate scores one sample of each task (code) in the real sandbox,
// through a runner that fails as the harness would for code holding the
// word "unrunnable".
func evaluate(t *testing.T, tasks []adapt.Task, code map[string]string) *report.Report {
	t.Helper()
	sb := exectest.Sandbox(t)
	r := exec.RunnerFunc(func(ctx context.Context, j exec.Job) (exec.Result, error) {
		if b, _ := os.ReadFile(filepath.Join(j.Dir, "solution.py")); strings.Contains(string(b), "unrunnable") {
			return exec.Result{Status: exec.StatusInternal, Detail: "the sandbox could not start"}, errors.New("sandbox: could not start")
		}
		return sb.Run(ctx, j)
	})
	var lines bytes.Buffer
	for id, c := range code {
		rec, err := json.Marshal(map[string]any{"task": id, "sample": 0, "completion": map[string]string{"text": "```python\n" + c + "```"}})
		require.NoError(t, err)
		lines.Write(append(rec, '\n'))
	}
	file := filepath.Join(t.TempDir(), "m.jsonl")
	require.NoError(t, os.WriteFile(file, lines.Bytes(), 0o644))
	rp, err := adapt.LoadReplay("m", file)
	require.NoError(t, err)
	rep, err := adapt.Evaluate(context.Background(), tasks, rp, &adapt.Options{Runner: r, Attempts: 1})
	require.NoError(t, err)
	return rep
}

const good = "def solve(x):\n    return 2 * x\n"

// TestCheckNamesUnscoredChecks: a run in which the harness could not make
// a check (a sample's, or a reference's) is an error naming the count and
// the first reason; a clean run is not; more than a tenth of invalid
// references is a loud warning.
func TestCheckNamesUnscoredChecks(t *testing.T) {
	exectest.RequirePython(t, false)
	var w bytes.Buffer
	rep := evaluate(t, []adapt.Task{task("a", good), task("b", good)}, map[string]string{"a": good, "b": good})
	assert.NoError(t, cmdkit.CheckRun(rep, &w))
	assert.Empty(t, w.String())

	rep = evaluate(t, []adapt.Task{task("a", good), task("b", good)}, map[string]string{"a": good, "b": "def solve(x):\n    return 2 * x  # unrunnable\n"})
	err := cmdkit.CheckRun(rep, &w)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "could not make 1 checks")
	assert.Contains(t, err.Error(), "first b #0: exec: run unittest: sandbox: could not start")

	rep = evaluate(t, []adapt.Task{task("a", good), task("b", "def solve(x):\n    return 2 * x  # unrunnable\n")}, map[string]string{"a": good, "b": good})
	err = cmdkit.CheckRun(rep, &w)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "b: reference could not be checked")

	rep = evaluate(t, []adapt.Task{task("a", good), task("b", "def solve(x):\n    return x\n")}, map[string]string{"a": good, "b": good})
	assert.NoError(t, cmdkit.CheckRun(rep, &w))
	assert.Contains(t, w.String(), "WARNING: 1 of 2 references are invalid (50%, more than 10%)")
}
