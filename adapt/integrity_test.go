package adapt_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	aexec "github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/metrics"
)

// pyTasks makes n small Python tasks: adapt g to f, which adds the task's
// number. Each reference is distinct.
func pyTasks(n int) []adapt.Task {
	tasks := make([]adapt.Task, n)
	for i := range tasks {
		ref := fmt.Sprintf("def f(x):\n    # task %d\n    return x + %d\n", i, i)
		tasks[i] = adapt.Task{
			ID: fmt.Sprintf("t%02d", i), Language: "python",
			Code:      fmt.Sprintf("def g(x):\n    return x + %d\n", i),
			Target:    adapt.Target{Path: "m.py", Function: "f", Content: ref},
			Reference: ref,
			Files: []adapt.File{{Path: "test_m.py", Content: fmt.Sprintf(
				"import unittest\nfrom m import f\n\nclass T(unittest.TestCase):\n    def test_f(self):\n        self.assertEqual(f(1), %d)\n", 1+i)}},
			Requirement: adapt.Requirement{Task: "Rename g to f."},
			Tests:       []adapt.Test{{Name: "test_m.T.test_f", File: "test_m.py"}},
		}
	}
	return tasks
}

// failingRunner fails (an infrastructure error) the calls for which fail
// says so, counting from 1.
type failingRunner struct {
	r     aexec.Runner
	calls atomic.Int64
	fail  func(call int64) bool
}

func (f *failingRunner) Run(ctx context.Context, j aexec.Job) (aexec.Result, error) {
	if f.fail(f.calls.Add(1)) {
		return aexec.Result{Status: aexec.StatusInternal}, errors.New("sandbox: injected failure")
	}
	return f.r.Run(ctx, j)
}

// scripted answers with the reference, except where errs says a sample's
// request fails; it counts requests.
type scripted struct {
	name  string
	calls atomic.Int64
	err   func(task string, samples []int) error
	extra int // completions beyond N
	panic string
}

func (m *scripted) Name() string {
	if m.name == "" {
		return "scripted"
	}
	return m.name
}

func (m *scripted) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	m.calls.Add(1)
	if m.panic != "" && req.Task.ID == "t01" {
		panic(m.panic)
	}
	if m.err != nil {
		if err := m.err(req.Task.ID, req.Samples); err != nil {
			return nil, err
		}
	}
	comps, err := adapt.Reference.Complete(ctx, req)
	for range m.extra {
		comps = append(comps, comps[0])
	}
	return comps, err
}

func reportJSON(t *testing.T, r *report.Report) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, r.WriteJSON(&b))
	return b.String()
}

func fast(o adapt.Options) *adapt.Options {
	o.Backoff = time.Millisecond
	return &o
}

func TestInfraErrorsDoNotLowerScores(t *testing.T) {
	tasks := pyTasks(3)
	// One check at a time, so that the calls go in order: 3 references,
	// then t00's three samples; its first two fail for good.
	r := &failingRunner{r: runner(t), fail: func(c int64) bool { return c >= 4 && c <= 5 }}
	rep, err := adapt.Evaluate(context.Background(), tasks, &scripted{}, fast(adapt.Options{
		Runner: r, Samples: 3, K: []int{1, 3}, Attempts: 1, Parallelism: 1, ModelConcurrency: 1,
	}))
	require.NoError(t, err)
	p1, _ := rep.Score(1)
	p3, _ := rep.Score(3)
	assert.Equal(t, 1.0, p1, "every scored sample passed")
	assert.Equal(t, 1.0, p3, "pass@3 over the tasks with 3 scored samples, not 0 for the one without")
	assert.Equal(t, []report.Score{{K: 1, Value: 1, Tasks: 3, CI95: &metrics.Interval{Lo: 1, Point: 1, Hi: 1}}, {K: 3, Value: 1, Tasks: 2, CI95: &metrics.Interval{Lo: 1, Point: 1, Hi: 1}}}, rep.PassAtK)
	require.Len(t, rep.Unscored, 1)
	u := rep.Unscored[0]
	assert.Equal(t, report.UnscoredTask{TaskID: "t00", K: []int{3}, Scored: 1, Samples: 3, InfraErrors: 2,
		Reason: "1 of 3 samples scored (2 infrastructure error); first: infra-error: exec: run unittest: sandbox: injected failure"}, u)
	assert.Equal(t, 2, rep.Outcomes[report.OutcomeInfraError])
	var md bytes.Buffer
	require.NoError(t, rep.WriteMarkdown(&md))
	assert.Contains(t, md.String(), "| pass@3 (task, over 2 tasks) | 100.00% |")
	assert.Contains(t, md.String(), "| t00 | pass@3 | 1 of 3 samples scored")
	var cmpTable bytes.Buffer
	require.NoError(t, report.WriteComparison(&cmpTable, rep))
	assert.Contains(t, cmpTable.String(), "| pass@3 (task) | 100.00% of 2 |")
	assert.Contains(t, cmpTable.String(), "| unscored tasks | 1 |")
	var csv bytes.Buffer
	require.NoError(t, rep.WriteCSV(&csv))
	assert.Contains(t, csv.String(), "t00,true,1,1,1.000000,,", "no pass@3 for a task with one scored sample")
}

func TestInfraErrorIsRetried(t *testing.T) {
	r := &failingRunner{r: runner(t), fail: func(c int64) bool { return c == 1 || c == 3 }}
	rep, err := adapt.Evaluate(context.Background(), pyTasks(2), &scripted{}, fast(adapt.Options{Runner: r, Parallelism: 1}))
	require.NoError(t, err)
	assert.Equal(t, int64(6), r.calls.Load(), "2 references + 2 samples + 2 retries")
	p1, _ := rep.Score(1)
	assert.Equal(t, 1.0, p1)
	assert.Empty(t, rep.Unscored)
	assert.Zero(t, rep.Outcomes[report.OutcomeInfraError])
}

func TestNothingScoredIsAnError(t *testing.T) {
	r := &failingRunner{r: runner(t), fail: func(int64) bool { return true }}
	rep, err := adapt.Evaluate(context.Background(), pyTasks(2), &scripted{}, fast(adapt.Options{Runner: r}))
	require.ErrorIs(t, err, adapt.ErrNothingScored)
	assert.Nil(t, rep)
	assert.Contains(t, err.Error(), "reference could not be checked (infrastructure error after 3 attempts)")
	assert.Equal(t, int64(6), r.calls.Load(), "each reference tried 3 times")

	// Every request a model error: also no score.
	m := &scripted{err: func(string, []int) error { return errors.New("401 unauthorized") }}
	_, err = adapt.Evaluate(context.Background(), pyTasks(2), m, fast(adapt.Options{Runner: runner(t)}))
	require.ErrorIs(t, err, adapt.ErrNothingScored)
	assert.Contains(t, err.Error(), "401 unauthorized")
	assert.Equal(t, int64(6), m.calls.Load(), "each request tried 3 times")
}

// flakyModel fails the requests of some samples, deterministically.
func flakyModel() *scripted {
	return &scripted{name: "flaky", err: func(task string, samples []int) error {
		h := fnv.New32a()
		fmt.Fprint(h, task, samples)
		if h.Sum32()%4 == 0 {
			return fmt.Errorf("503 for %s %v", task, samples)
		}
		return nil
	}}
}

func TestMergeWithModelErrorsEqualsSingleRun(t *testing.T) {
	tasks := pyTasks(9)
	dir := t.TempDir()
	opts := adapt.Options{Runner: runner(t), Samples: 3, Attempts: 1, ModelConcurrency: 1}
	// ModelConcurrency 1 and one request per task: the same requests in
	// every run.
	single := opts
	single.Journal = filepath.Join(dir, "single.jsonl")
	want, err := adapt.Evaluate(context.Background(), tasks, flakyModel(), fast(single))
	require.NoError(t, err)
	require.NotZero(t, want.Outcomes[report.OutcomeModelError], "the model failed some samples")
	require.NotEmpty(t, want.Unscored)
	var journals []string
	for i := range 3 {
		o := opts
		o.Shard = adapt.Shard{Index: i, Count: 3}
		o.Journal = filepath.Join(dir, fmt.Sprintf("shard%d.jsonl", i))
		_, err := adapt.Evaluate(context.Background(), tasks, flakyModel(), fast(o))
		require.NoError(t, err)
		journals = append(journals, o.Journal)
	}
	got, err := adapt.Merge(tasks, journals, nil)
	require.NoError(t, err)
	assert.Equal(t, reportJSON(t, want), reportJSON(t, got), "merged shards give the single run's report, byte for byte")

	// A shard left out: an error that names it.
	_, err = adapt.Merge(tasks, journals[:2], nil)
	require.ErrorIs(t, err, adapt.ErrIncomplete)
	assert.Contains(t, err.Error(), "in shard 2 of 3, whose journal was not given")
	missing := 0
	for _, tk := range tasks {
		if adapt.InShard(adapt.Shard{Index: 2, Count: 3}, tk.ID) {
			if missing == 0 {
				assert.Contains(t, err.Error(), "(first: "+tk.ID)
			}
			missing++
		}
	}
	require.NotZero(t, missing)
	// Partial: merged anyway, the missing tasks listed.
	part, err := adapt.Merge(tasks, journals[:2], &adapt.MergeOptions{Partial: true})
	require.NoError(t, err)
	n := 0
	for _, u := range part.Unscored {
		if strings.Contains(u.Reason, "no record") {
			n++
		}
	}
	assert.Equal(t, missing, n, "every task of the missing shard is listed")

	// A truncated journal (whole lines lost): incomplete, named.
	b, err := os.ReadFile(journals[0])
	require.NoError(t, err)
	lines := strings.SplitAfter(string(b), "\n")
	cut := filepath.Join(dir, "cut.jsonl")
	require.NoError(t, os.WriteFile(cut, []byte(strings.Join(lines[:len(lines)/2], "")), 0o644))
	_, err = adapt.Merge(tasks, []string{cut, journals[1], journals[2]}, nil)
	require.ErrorIs(t, err, adapt.ErrIncomplete)
	assert.Contains(t, err.Error(), "cut.jsonl: resume that run to finish it")

	// Journals of another evaluation: refused, the setting named.
	other := opts
	other.Samples, other.K = 2, nil
	other.Journal = filepath.Join(dir, "other.jsonl")
	_, err = adapt.Evaluate(context.Background(), tasks, flakyModel(), fast(other))
	require.NoError(t, err)
	_, err = adapt.Merge(tasks, []string{journals[0], other.Journal}, nil)
	require.ErrorIs(t, err, adapt.ErrJournalMismatch)
	assert.Contains(t, err.Error(), "samples is 2 in "+other.Journal+" and 3 in "+journals[0])
	assert.Contains(t, err.Error(), "merge only the journals of one evaluation", "the advice is for a merge")
	assert.NotContains(t, err.Error(), "run with the original settings", "not for a resume")

	// One check lost: "1 check", not "1 checks".
	for n := 1; n < len(lines); n++ {
		one := filepath.Join(dir, "one.jsonl")
		require.NoError(t, os.WriteFile(one, []byte(strings.Join(append(slices.Clone(lines[:len(lines)-1-n]), lines[len(lines)-n:]...), "")), 0o644))
		_, err = adapt.Merge(tasks, []string{one, journals[1], journals[2]}, nil)
		if err != nil && strings.Contains(err.Error(), "1 check ") {
			break
		}
	}
	require.ErrorIs(t, err, adapt.ErrIncomplete)
	assert.Contains(t, err.Error(), ": 1 check of 1 task has no record")
}

func TestTornLastLineIsCut(t *testing.T) {
	tasks := pyTasks(3)
	dir := t.TempDir()
	journal := filepath.Join(dir, "run.jsonl")
	opts := adapt.Options{Runner: runner(t), Samples: 2, Journal: journal}
	want, err := adapt.Evaluate(context.Background(), tasks, &scripted{}, &opts)
	require.NoError(t, err)
	b, err := os.ReadFile(journal)
	require.NoError(t, err)
	// Cut the last record in half, as a kill in mid-write leaves it.
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	last := lines[len(lines)-1]
	torn := strings.Join(lines[:len(lines)-1], "") + last[:len(last)/2]
	require.NoError(t, os.WriteFile(journal, []byte(torn), 0o644))

	_, err = adapt.Merge(tasks, []string{journal}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "its last line is torn", "Merge says what is wrong and what to do")

	var notices []string
	opts.Progress = func(p report.Progress) {
		if p.Notice != "" {
			notices = append(notices, p.Notice)
		}
	}
	got, err := adapt.Evaluate(context.Background(), tasks, &scripted{}, &opts)
	require.NoError(t, err)
	assert.Equal(t, reportJSON(t, want), reportJSON(t, got))
	require.Len(t, notices, 1)
	assert.Contains(t, notices[0], "cut off a torn last line")
	checkJournalLines(t, journal)
	// Resumed again, and merged: the journal is whole.
	opts.Progress = nil
	again, err := adapt.Evaluate(context.Background(), tasks, &scripted{}, &opts)
	require.NoError(t, err)
	assert.Equal(t, reportJSON(t, want), reportJSON(t, again))
	merged, err := adapt.Merge(tasks, []string{journal}, nil)
	require.NoError(t, err)
	assert.Equal(t, reportJSON(t, want), reportJSON(t, merged))

	// A damaged line in the middle: an error that says what to do.
	b, err = os.ReadFile(journal)
	require.NoError(t, err)
	lines = strings.SplitAfter(string(b), "\n")
	lines[2] = "{garbage\n"
	require.NoError(t, os.WriteFile(journal, []byte(strings.Join(lines, "")), 0o644))
	_, err = adapt.Evaluate(context.Background(), tasks, &scripted{}, &opts)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "run.jsonl:3: not a journal record")
	assert.Contains(t, err.Error(), "delete it to start over, or cut it before line 3")
}

// checkJournalLines fails when a line of the journal is not a whole JSON
// object.
func checkJournalLines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, len(b) == 0 || b[len(b)-1] == '\n', "the journal ends with a whole line")
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		n++
		var v map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v), "line %d", n)
	}
	return n
}

func TestJournalMismatchNamesTheSetting(t *testing.T) {
	tasks := pyTasks(2)
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	_, err := adapt.Evaluate(context.Background(), tasks, &scripted{}, &adapt.Options{Runner: runner(t), Samples: 2, Journal: journal})
	require.NoError(t, err)
	tests := []struct {
		name   string
		opts   adapt.Options
		tasks  []adapt.Task
		model  adapt.Model
		want   string
		reason string
	}{
		{"samples", adapt.Options{Samples: 3}, tasks, &scripted{}, "samples is 2 in the journal and 3 now", "another sample count"},
		{"model", adapt.Options{Samples: 2}, tasks, &scripted{name: "other"}, `model is "scripted" in the journal and "other" now`, "another model"},
		{"template", adapt.Options{Samples: 2, Template: adapt.TaskLevel}, tasks, &scripted{}, `template is "areq-oracle" in the journal and "treq-oracle" now`, "another prompt"},
		{"sampling", adapt.Options{Samples: 2, Sampling: report.Sampling{Temperature: 0.8}}, tasks, &scripted{}, "sampling is", "another temperature"},
		{"k", adapt.Options{Samples: 2, K: []int{2}}, tasks, &scripted{}, "K is [1,2] in the journal and [2] now", "other k"},
		{"gold", adapt.Options{Samples: 2, NoGold: true}, tasks, &scripted{}, "gold is true in the journal and false now", "no reference check"},
		{"task set", adapt.Options{Samples: 2}, pyTasks(3), &scripted{}, "the task set differs (2 tasks", "a task added"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.opts
			o.Runner, o.Journal = runner(t), journal
			_, err := adapt.Evaluate(context.Background(), tc.tasks, tc.model, &o)
			require.ErrorIs(t, err, adapt.ErrJournalMismatch, tc.reason)
			var me *adapt.JournalMismatchError
			require.ErrorAs(t, err, &me)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
			assert.Contains(t, err.Error(), "delete the journal")
			assert.Equal(t, 1, strings.Count(err.Error(), "adapt:"), "one prefix: %s", err)
		})
	}
}

func TestModelMisbehaviourIsRecorded(t *testing.T) {
	tasks := pyTasks(3)
	t.Run("panic", func(t *testing.T) {
		m := &scripted{panic: "index out of range [7]"}
		rep, err := adapt.Evaluate(context.Background(), tasks, m, fast(adapt.Options{Runner: runner(t)}))
		require.NoError(t, err, "a panicking model does not crash the run")
		s := rep.PerTask[1].Samples[0]
		assert.Equal(t, report.OutcomeModelError, s.Outcome)
		assert.Equal(t, "adapt: model scripted panicked: index out of range [7]", s.Detail)
		assert.Equal(t, 3, s.Attempts)
		assert.Equal(t, []report.Score{{K: 1, Value: 1, Tasks: 2, CI95: &metrics.Interval{Lo: 1, Point: 1, Hi: 1}}}, rep.PassAtK)
	})
	t.Run("too many completions", func(t *testing.T) {
		m := &scripted{extra: 1}
		_, err := adapt.Evaluate(context.Background(), tasks, m, fast(adapt.Options{Runner: runner(t), Samples: 2}))
		require.ErrorIs(t, err, adapt.ErrNothingScored)
		assert.Contains(t, err.Error(), "returned 3 completions for 2 samples")
	})
}

func TestResumeAsksAgainForErrorsUnlessKept(t *testing.T) {
	tasks := pyTasks(4)
	dir := t.TempDir()
	broken := &scripted{err: func(task string, _ []int) error {
		if task == "t02" {
			return errors.New("429 rate limited")
		}
		return nil
	}}
	keep := adapt.Options{Runner: runner(t), Samples: 2, Journal: filepath.Join(dir, "keep.jsonl"), Attempts: 1}
	first, err := adapt.Evaluate(context.Background(), tasks, broken, fast(keep))
	require.NoError(t, err)
	require.Equal(t, 2, first.Outcomes[report.OutcomeModelError])
	require.Len(t, first.Unscored, 1)

	// KeepErrors: the resumed run asks nothing and reports the same.
	keep.KeepErrors = true
	fixed := &scripted{}
	again, err := adapt.Evaluate(context.Background(), tasks, fixed, fast(keep))
	require.NoError(t, err)
	assert.Equal(t, reportJSON(t, first), reportJSON(t, again))
	assert.Zero(t, fixed.calls.Load())

	// The default: the errored samples are asked for again.
	keep.KeepErrors = false
	var resumed []report.Progress
	keep.Progress = func(p report.Progress) { resumed = append(resumed, p) }
	healed, err := adapt.Evaluate(context.Background(), tasks, fixed, fast(keep))
	require.NoError(t, err)
	assert.Equal(t, int64(1), fixed.calls.Load(), "one request, for t02's two samples")
	assert.Empty(t, healed.Unscored)
	assert.Equal(t, []report.Score{{K: 1, Value: 1, Tasks: 4, CI95: &metrics.Interval{Lo: 1, Point: 1, Hi: 1}}, {K: 2, Value: 1, Tasks: 4, CI95: &metrics.Interval{Lo: 1, Point: 1, Hi: 1}}}, healed.PassAtK)
	require.NotEmpty(t, resumed)
	assert.Equal(t, "resume", resumed[0].Phase)
	assert.Equal(t, 10, resumed[0].Resumed, "4 references and 6 samples were in the journal")
	assert.Equal(t, 10, resumed[0].Done)
	assert.Equal(t, 10, resumed[0].Passed, "Passed counts the journal's passes too")
	last := resumed[len(resumed)-1]
	assert.Equal(t, 12, last.Done)
	assert.Equal(t, 12, last.Passed)
	assert.Equal(t, 12, last.Total)
}

func TestCancelSaysWhatTheJournalKept(t *testing.T) {
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	m := &cancelAfter{Model: adapt.Reference, n: 1, cancel: cancel}
	_, err := adapt.Evaluate(ctx, pyTasks(3), m, &adapt.Options{Runner: runner(t), Journal: journal, ModelConcurrency: 1, Parallelism: 1})
	require.ErrorIs(t, err, context.Canceled)
	n := checkJournalLines(t, journal) - 1
	assert.Contains(t, err.Error(), fmt.Sprintf("the journal %s holds %d finished records: run again with the same settings to resume", journal, n))

	_, err = adapt.Evaluate(ctx, pyTasks(3), adapt.Reference, &adapt.Options{Runner: runner(t)})
	require.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "no journal: nothing was kept")
}

func TestJournalLockedByAnotherProcess(t *testing.T) {
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "ADAPT_TEST_HELPER=lock", "ADAPT_TEST_JOURNAL="+journal)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() { stdin.Close(); cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "locked\n", line)

	_, err = adapt.Evaluate(context.Background(), pyTasks(1), adapt.Reference, &adapt.Options{Runner: runner(t), Journal: journal})
	require.ErrorIs(t, err, adapt.ErrJournalLocked)
	assert.Contains(t, err.Error(), fmt.Sprintf("is held by process %d", cmd.Process.Pid))
	_, err = adapt.Merge(pyTasks(1), []string{journal}, nil)
	require.ErrorIs(t, err, adapt.ErrJournalLocked, "Merge does not read a journal being written")

	stdin.Close()
	require.NoError(t, cmd.Wait())
	_, err = adapt.Merge(pyTasks(1), []string{journal}, nil)
	assert.NotErrorIs(t, err, adapt.ErrJournalLocked, "the lock goes with the process")
}

// lockHelper holds a journal the way a running evaluation does, until its
// standard input closes.
func lockHelper() {
	var mu sync.Mutex
	mu.Lock()
	ctx, cancel := context.WithCancel(context.Background())
	m := adapt.ModelFunc("hold", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
		fmt.Println("locked")
		<-ctx.Done()
		return nil, ctx.Err()
	})
	go func() {
		os.Stdin.Read(make([]byte, 1))
		cancel()
	}()
	adapt.Evaluate(ctx, pyTasks(1), m, &adapt.Options{NoGold: true, Journal: os.Getenv("ADAPT_TEST_JOURNAL"),
		Runner: aexec.RunnerFunc(func(context.Context, aexec.Job) (aexec.Result, error) { return aexec.Result{}, nil })})
}

func TestShardFromEnv(t *testing.T) {
	clear := func(t *testing.T) {
		for _, k := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_STEP",
			"AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE", "BATCH_TASK_INDEX", "BATCH_TASK_COUNT"} {
			t.Setenv(k, "") // restored after the test
			os.Unsetenv(k)
		}
	}
	tests := []struct {
		name    string
		env     map[string]string
		count   int
		want    adapt.Shard
		wantErr string
		reason  string
	}{
		{"none", nil, 4, adapt.Shard{}, "", "no scheduler: every task"},
		{"kubernetes", map[string]string{"JOB_COMPLETION_INDEX": "2"}, 3, adapt.Shard{Index: 2, Count: 3}, "", "an Indexed Job's index"},
		{"kubernetes without count", map[string]string{"JOB_COMPLETION_INDEX": "2"}, 0, adapt.Shard{}, "pass the number of shards (a Job's completions, an array's size) as count", "Kubernetes does not say how many"},
		{"kubernetes out of range", map[string]string{"JOB_COMPLETION_INDEX": "3"}, 3, adapt.Shard{}, "out of range for 3 shards", "index past the count"},
		{"kubernetes garbage", map[string]string{"JOB_COMPLETION_INDEX": "x"}, 3, adapt.Shard{}, `JOB_COMPLETION_INDEX="x" is not a whole number`, "named variable"},
		{"slurm from 0", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, 0, adapt.Shard{Index: 1, Count: 4}, "", "--array=0-3"},
		{"slurm from 1", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4", "SLURM_ARRAY_TASK_COUNT": "4"}, 4, adapt.Shard{Index: 3, Count: 4}, "", "--array=1-4"},
		{"slurm step", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_STEP": "2"}, 0, adapt.Shard{Index: 2, Count: 4}, "", "--array=0-6:2"},
		{"slurm sparse", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "9", "SLURM_ARRAY_TASK_COUNT": "3"}, 0, adapt.Shard{}, "use a dense array", "--array=1,4,9 cannot be mapped"},
		{"kubernetes empty", map[string]string{"JOB_COMPLETION_INDEX": ""}, 3, adapt.Shard{}, `JOB_COMPLETION_INDEX="" is not a whole number`, "set but empty is not \"not sharded\""},
		{"slurm empty", map[string]string{"SLURM_ARRAY_TASK_ID": ""}, 3, adapt.Shard{}, `SLURM_ARRAY_TASK_ID="" is not a whole number`, "set but empty is not \"not sharded\""},
		{"both schedulers", map[string]string{"JOB_COMPLETION_INDEX": "1", "SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, 4, adapt.Shard{},
			`SLURM_ARRAY_TASK_ID="1" (a Slurm job array) and JOB_COMPLETION_INDEX="1" (a Kubernetes Indexed Job) are all set`, "neither is picked silently"},
		{"aws batch", map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "4"}, 5, adapt.Shard{Index: 4, Count: 5}, "", "AWS sets the index only"},
		{"aws batch with size", map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "1", "AWS_BATCH_JOB_ARRAY_SIZE": "3"}, 0, adapt.Shard{Index: 1, Count: 3}, "", "a size the job definition sets"},
		{"aws batch without count", map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "1"}, 0, adapt.Shard{}, "AWS_BATCH_JOB_ARRAY_INDEX=1 is set but the number of shards is not", "no size anywhere"},
		{"aws batch size disagrees", map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "1", "AWS_BATCH_JOB_ARRAY_SIZE": "3"}, 4, adapt.Shard{}, "AWS_BATCH_JOB_ARRAY_SIZE=3, but the program expects 4 shards", "no silent disagreement"},
		{"google batch", map[string]string{"BATCH_TASK_INDEX": "2", "BATCH_TASK_COUNT": "3"}, 0, adapt.Shard{Index: 2, Count: 3}, "", "Cloud Batch says both"},
		{"google batch out of range", map[string]string{"BATCH_TASK_INDEX": "3", "BATCH_TASK_COUNT": "3"}, 0, adapt.Shard{}, "BATCH_TASK_INDEX=3 is out of range for 3 shards", "index past the count"},
		{"google batch empty count", map[string]string{"BATCH_TASK_INDEX": "0", "BATCH_TASK_COUNT": ""}, 0, adapt.Shard{}, `BATCH_TASK_COUNT="" is not a whole number`, "set but empty"},
		{"google and aws", map[string]string{"BATCH_TASK_INDEX": "0", "BATCH_TASK_COUNT": "2", "AWS_BATCH_JOB_ARRAY_INDEX": "0"}, 2, adapt.Shard{},
			`AWS_BATCH_JOB_ARRAY_INDEX="0" (an AWS Batch array job) and BATCH_TASK_INDEX="0" (a Google Cloud Batch job) are all set`, "neither is picked silently"},
		{"slurm count disagrees", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, 5, adapt.Shard{}, "expects 5 shards", "the program's count wins no silent disagreement"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clear(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			got, err := adapt.ShardFromEnv(tc.count)
			if tc.wantErr != "" {
				require.Error(t, err, tc.reason)
				assert.Contains(t, err.Error(), tc.wantErr, tc.reason)
				return
			}
			require.NoError(t, err, tc.reason)
			assert.Equal(t, tc.want, got, tc.reason)
		})
	}
}
