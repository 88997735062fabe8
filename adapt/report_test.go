package adapt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/metrics"
)

// perTaskRun evaluates, in the sandbox, four tasks with two samples each
// and k = 1, 2: t00 solved twice; t01 answered once (the model returns one
// completion of two: the other is a model error), so it has no pass@2;
// t02 solved once (the other answer keeps the old name); t03's reference
// fails (invalid).
func perTaskRun(t *testing.T) *report.Report {
	t.Helper()
	tasks := pyTasks(4)
	tasks[3].Reference = "def f(x):\n    return x\n"
	m := adapt.ModelFunc("mixed", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
		comps, err := adapt.Reference.Complete(ctx, req)
		if err != nil {
			return nil, err
		}
		switch req.Task.ID {
		case "t01":
			return comps[:1], nil
		case "t02":
			id, _ := adapt.Identity.Complete(ctx, req)
			comps[1] = id[0]
		}
		return comps, nil
	})
	rep, err := adapt.Evaluate(context.Background(), tasks, m, &adapt.Options{Runner: runner(t), Samples: 2, K: []int{1, 2}})
	require.NoError(t, err)
	return rep
}

// TestPerTaskTable: one row per task in input order, pass@k only where
// the report computed it ("-" in Markdown, empty in CSV), never padded;
// the invalid and the unscored tasks say so.
func TestPerTaskTable(t *testing.T) {
	rep := perTaskRun(t)
	var md bytes.Buffer
	require.NoError(t, rep.WritePerTask(&md))
	wantMD := `| task | n | c | pass@1 | pass@2 | passed | model-error | wrong-name | note |
|---|---:|---:|---:|---:|---:|---:|---:|---|
| t00 | 2 | 2 | 100.00% | 100.00% | 2 | 0 | 0 | |
| t01 | 1 | 1 | 100.00% | - | 1 | 1 | 0 | left out of pass@2: 1 of 2 samples scored (1 model error); first: model-error: adapt: model mixed returned 1 completions for 2 samples |
| t02 | 2 | 1 | 50.00% | 100.00% | 1 | 0 | 1 | |
| t03 | 0 | 0 | - | - | 0 | 0 | 0 | invalid: reference failed: test_m.T.test_f failed |
`
	assert.Equal(t, wantMD, md.String(), "WritePerTask")
	var csv bytes.Buffer
	require.NoError(t, rep.WriteCSV(&csv))
	wantCSV := `task,valid,n,c,pass@1,pass@2,passed,failed,no-code,compile-error,timeout,memory,output,crashed,model-error,infra-error,wrong-name,tampered,status,unscored
t00,true,2,2,1.000000,1.000000,2,0,0,0,0,0,0,0,0,0,0,0,valid,
t01,true,1,1,1.000000,,1,0,0,0,0,0,0,0,1,0,0,0,valid,pass@2
t02,true,2,1,0.500000,1.000000,1,0,0,0,0,0,0,0,0,0,1,0,valid,
t03,false,0,0,,,0,0,0,0,0,0,0,0,0,0,0,0,invalid,
`
	assert.Equal(t, wantCSV, csv.String(), "WriteCSV")
}

// TestCIForEveryK: every reported pass@k carries the seeded bootstrap
// interval over the tasks it averages, and Report.CI95 (pass@1) keeps the
// numbers it had.
func TestCIForEveryK(t *testing.T) {
	rep := perTaskRun(t)
	require.Len(t, rep.PassAtK, 2)
	want1, err := metrics.BootstrapMean([]float64{1, 1, 0.5}, 2000, 0.95, 1)
	require.NoError(t, err)
	want2, err := metrics.BootstrapMean([]float64{1, 1}, 2000, 0.95, 1)
	require.NoError(t, err)
	assert.Equal(t, report.Score{K: 1, Value: 2.5 / 3, Tasks: 3, CI95: &want1}, rep.PassAtK[0])
	assert.Equal(t, report.Score{K: 2, Value: 1, Tasks: 2, CI95: &want2}, rep.PassAtK[1])
	assert.Equal(t, rep.CI95, rep.PassAtK[0].CI95)
	for _, tr := range rep.PerTask {
		for _, s := range tr.PassAtK {
			assert.Nil(t, s.CI95, "a task's own pass@k has no interval")
		}
	}
	var md bytes.Buffer
	require.NoError(t, rep.WriteMarkdown(&md))
	assert.Contains(t, md.String(), fmt.Sprintf("| pass@1 95%% CI (bootstrap over tasks) | [%.2f%%, %.2f%%] |", 100*want1.Lo, 100*want1.Hi))
	assert.Contains(t, md.String(), "| pass@2 95% CI (bootstrap over tasks) | [100.00%, 100.00%] |")
}

// TestRunName: Options.Name labels the run and defaults to the model's
// name; it is not part of the journal's fingerprint, so a renamed run
// resumes (asking nothing again) and reports its new name, and Merge
// takes the name from the journal unless MergeOptions.Name says another.
func TestRunName(t *testing.T) {
	tasks := pyTasks(2)
	dir := t.TempDir()
	journal := filepath.Join(dir, "run.jsonl")
	m := &scripted{name: "noisy"}
	first, err := adapt.Evaluate(context.Background(), tasks, m, &adapt.Options{Runner: runner(t), Name: "first", Journal: journal})
	require.NoError(t, err)
	assert.Equal(t, "first", first.Run.Name)
	calls := m.calls.Load()

	second, err := adapt.Evaluate(context.Background(), tasks, m, &adapt.Options{Runner: runner(t), Name: "second", Journal: journal})
	require.NoError(t, err)
	assert.Equal(t, calls, m.calls.Load(), "the renamed run resumed: no request asked again")
	assert.Equal(t, "second", second.Run.Name)
	renamed := *first
	renamed.Run.Name = "second"
	assert.Equal(t, &renamed, second, "the renamed run's report differs in more than its name")

	merged, err := adapt.Merge(tasks, []string{journal}, nil)
	require.NoError(t, err)
	assert.Equal(t, "first", merged.Run.Name, "the journal's header keeps the name of the run that wrote it")
	merged, err = adapt.Merge(tasks, []string{journal}, &adapt.MergeOptions{Name: "merged"})
	require.NoError(t, err)
	assert.Equal(t, "merged", merged.Run.Name)

	unnamed, err := adapt.Evaluate(context.Background(), tasks, m, &adapt.Options{Runner: runner(t)})
	require.NoError(t, err)
	assert.Equal(t, "noisy", unnamed.Run.Name, "the model's name by default")
	var md bytes.Buffer
	require.NoError(t, first.WriteMarkdown(&md))
	assert.True(t, strings.HasPrefix(md.String(), "## first (model noisy, areq-oracle, n=1)\n"), md.String())
}

// TestJournalOfUnnamedRunResumes: a journal whose header has no name (as
// journals written before runs had names) resumes under a name: the
// fingerprint leaves the name out.
func TestJournalOfUnnamedRunResumes(t *testing.T) {
	tasks := pyTasks(2)
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	m := &scripted{}
	_, err := adapt.Evaluate(context.Background(), tasks, m, &adapt.Options{Runner: runner(t), Journal: journal})
	require.NoError(t, err)
	// Take the name out of the header, as an older adaptbench wrote it.
	b, err := os.ReadFile(journal)
	require.NoError(t, err)
	head, rest, _ := bytes.Cut(b, []byte("\n"))
	var rec map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(head, &rec))
	var meta map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(rec["meta"], &meta))
	require.Contains(t, meta, "name")
	delete(meta, "name")
	rec["meta"], _ = json.Marshal(meta)
	delete(rec, "sum")
	head, _ = json.Marshal(rec)
	require.NoError(t, os.WriteFile(journal, adapt.Rechain(append(append(head, '\n'), rest...)), 0o644))

	calls := m.calls.Load()
	rep, err := adapt.Evaluate(context.Background(), tasks, m, &adapt.Options{Runner: runner(t), Name: "later", Journal: journal})
	require.NoError(t, err)
	assert.Equal(t, calls, m.calls.Load(), "resumed: nothing asked again")
	assert.Equal(t, "later", rep.Run.Name)
	merged, err := adapt.Merge(tasks, []string{journal}, nil)
	require.NoError(t, err)
	assert.Equal(t, "scripted", merged.Run.Name, "a header without a name: the model's")
}

// promptFree records the messages it gets; it answers with the reference.
type promptFree struct {
	free bool
	mu   sync.Mutex
	msgs [][]adapt.Message
}

func (p *promptFree) Name() string     { return "pf" }
func (p *promptFree) PromptFree() bool { return p.free }
func (p *promptFree) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	p.mu.Lock()
	p.msgs = append(p.msgs, req.Messages)
	p.mu.Unlock()
	return adapt.Reference.Complete(ctx, req)
}

// TestReplayNamesNoTemplate: a run of replayed answers (or of any
// PromptFree model) renders no prompt and its report names no template; a
// model that reads the prompt gets it and its report names the template.
func TestReplayNamesNoTemplate(t *testing.T) {
	tasks := pyTasks(2)
	var rec strings.Builder
	for _, task := range tasks {
		c, _ := adapt.Reference.Complete(context.Background(), adapt.Request{Task: &task})
		line, _ := json.Marshal(adapt.Recorded{Task: task.ID, Sample: 0, Completion: c[0]})
		rec.Write(append(line, '\n'))
	}
	rp, err := adapt.NewReplay("published", strings.NewReader(rec.String()), "recorded.jsonl")
	require.NoError(t, err)
	rep, err := adapt.Evaluate(context.Background(), tasks, rp, &adapt.Options{Runner: runner(t), Template: adapt.TaskLevel})
	require.NoError(t, err)
	assert.Equal(t, "", rep.Run.Template)
	p1, _ := rep.Score(1)
	assert.Equal(t, 1.0, p1)
	var md bytes.Buffer
	require.NoError(t, rep.WriteMarkdown(&md))
	assert.True(t, strings.HasPrefix(md.String(), "## published (no prompt, n=1)\n"), md.String())

	for _, free := range []bool{true, false} {
		m := &promptFree{free: free}
		rep, err := adapt.Evaluate(context.Background(), tasks, m, &adapt.Options{Runner: runner(t), Template: adapt.TaskLevel})
		require.NoError(t, err)
		require.Len(t, m.msgs, 2)
		if free {
			assert.Equal(t, "", rep.Run.Template)
			assert.Nil(t, m.msgs[0], "no prompt rendered")
		} else {
			assert.Equal(t, adapt.TaskLevel.Name, rep.Run.Template)
			assert.NotEmpty(t, m.msgs[0])
		}
	}
}

// TestMarkdownTitleVaryingSamples: a replayed run whose tasks hold other
// counts of answers says the range in its heading, not the largest count.
func TestMarkdownTitleVaryingSamples(t *testing.T) {
	for _, c := range []struct {
		name string
		run  report.RunInfo
		want string
	}{
		{"every task has Samples", report.RunInfo{Samples: 2, TaskCount: 3}, "n=2)"},
		{"some tasks have fewer", report.RunInfo{Samples: 2, TaskCount: 3, TaskSamples: map[string]int{"a": 1, "b": 0}}, "n=0–2 per task)"},
		// Options.Samples capped at 5, and every task holds 1 or 3.
		{"every task has its own", report.RunInfo{Samples: 5, TaskCount: 2, TaskSamples: map[string]int{"a": 1, "b": 3}}, "n=1–3 per task)"},
		{"every task has the same other count", report.RunInfo{Samples: 5, TaskCount: 2, TaskSamples: map[string]int{"a": 3, "b": 3}}, "n=3)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.run.Model, c.run.Template = "replayed", ""
			r := &report.Report{Run: c.run}
			var md bytes.Buffer
			require.NoError(t, r.WriteMarkdown(&md))
			head, _, _ := strings.Cut(md.String(), "\n")
			assert.Equal(t, "## replayed (no prompt, "+c.want, head)
		})
	}
}
