package adapt_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// repairing answers wrong (off by 100) in round 0 and right in round
// Fix; the sample's repair prompt must show the failing test's output.
type repairing struct {
	fix int
	mu  sync.Mutex
	// prompts holds the last message of each repair request, by task.
	prompts map[string][]string
	// stopAt, when set, cancels the run at the first request of that round.
	stopAt int
	cancel context.CancelFunc
}

func (m *repairing) Name() string { return "repairing" }

func (m *repairing) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	if m.cancel != nil && req.Round == m.stopAt {
		m.cancel()
		return nil, ctx.Err()
	}
	var n int
	fmt.Sscanf(strings.TrimPrefix(req.Task.ID, "t"), "%d", &n)
	add := n + 100
	if req.Round >= m.fix {
		add = n
	}
	if req.Round > 0 {
		m.mu.Lock()
		m.prompts[req.Task.ID] = append(m.prompts[req.Task.ID], req.Messages[len(req.Messages)-1].Content)
		m.mu.Unlock()
	}
	out := make([]report.Completion, req.Sampling.N)
	for i := range out {
		out[i] = report.Completion{Text: fmt.Sprintf("```python\ndef f(x):\n    return x + %d\n```\n", add), Usage: report.Usage{PromptTokens: 10, CompletionTokens: 5}}
	}
	return out, nil
}

func repairOption() *adapt.Repair {
	return &adapt.Repair{Name: "show-tests", Rounds: 2, Render: func(t *adapt.Task, last report.SampleResult) ([]adapt.Message, error) {
		var b strings.Builder
		fmt.Fprintf(&b, "Your code:\n%s\nfailed:\n", last.Code)
		for _, tc := range last.Tests {
			fmt.Fprintf(&b, "%s: %s\n", tc.Name, tc.Message)
		}
		return []adapt.Message{{Role: "user", Content: b.String()}}, nil
	}}
}

func TestRepairRoundsShowTheTestOutput(t *testing.T) {
	tasks := pyTasks(3)
	m := &repairing{fix: 2, prompts: map[string][]string{}}
	var progress []report.Progress
	rep, err := adapt.Evaluate(context.Background(), tasks, m, fast(adapt.Options{Runner: runner(t), Repair: repairOption(),
		Progress: func(p report.Progress) { progress = append(progress, p) }}))
	require.NoError(t, err)
	s, _ := rep.Score(1)
	assert.Equal(t, 1.0, s, "every sample passes in round 2")
	for _, tr := range rep.PerTask {
		require.Len(t, tr.Samples, 1)
		res := tr.Samples[0]
		require.Len(t, res.Rounds, 2, tr.TaskID)
		for _, r := range res.Rounds {
			assert.Equal(t, report.OutcomeFailed, r.Outcome)
			require.NotNil(t, r.Completion)
			assert.Contains(t, r.Code, "x + 1")
		}
		assert.Equal(t, report.OutcomePassed, res.Outcome)
		// Each repair prompt shows the last answer and its failing test.
		require.Len(t, m.prompts[tr.TaskID], 2)
		for _, p := range m.prompts[tr.TaskID] {
			assert.Contains(t, p, "test_m.T.test_f: ")
			assert.Contains(t, p, "AssertionError")
		}
	}
	// Three rounds of usage for each task.
	assert.Equal(t, report.Usage{PromptTokens: 90, CompletionTokens: 45}, rep.Usage)
	last := progress[len(progress)-1]
	assert.Equal(t, 3+9, last.Total, "3 references and 3 rounds of 3 samples")
	assert.Equal(t, last.Total, last.Done)
}

func TestRepairStopsAtRoundsAndPassedAnswers(t *testing.T) {
	tasks := pyTasks(2)
	m := &repairing{fix: 5, prompts: map[string][]string{}}
	rep, err := adapt.Evaluate(context.Background(), tasks, m, fast(adapt.Options{Runner: runner(t), Repair: repairOption()}))
	require.NoError(t, err)
	s, _ := rep.Score(1)
	assert.Equal(t, 0.0, s)
	for _, tr := range rep.PerTask {
		assert.Len(t, tr.Samples[0].Rounds, 2, "Rounds bounds the repairs")
	}
	// A Retry that says no: no repair round.
	r := repairOption()
	r.Retry = func(*adapt.Task, report.SampleResult) bool { return false }
	rep, err = adapt.Evaluate(context.Background(), tasks, m, fast(adapt.Options{Runner: runner(t), Repair: r}))
	require.NoError(t, err)
	for _, tr := range rep.PerTask {
		assert.Empty(t, tr.Samples[0].Rounds)
	}
}

// A run stopped in the middle of the repair rounds resumes them from its
// journal, and its report is the uninterrupted run's, byte for byte.
func TestRepairResumesFromTheJournal(t *testing.T) {
	tasks := pyTasks(3)
	whole, err := adapt.Evaluate(context.Background(), tasks, &repairing{fix: 2, prompts: map[string][]string{}},
		fast(adapt.Options{Runner: runner(t), Repair: repairOption(), Parallelism: 1}))
	require.NoError(t, err)

	journal := filepath.Join(t.TempDir(), "run.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopper := &repairing{fix: 2, prompts: map[string][]string{}, stopAt: 2, cancel: cancel}
	_, err = adapt.Evaluate(ctx, tasks, stopper, fast(adapt.Options{Runner: runner(t), Repair: repairOption(), Journal: journal, Parallelism: 1}))
	require.ErrorIs(t, err, context.Canceled)

	resumed := &repairing{fix: 2, prompts: map[string][]string{}}
	rep, err := adapt.Evaluate(context.Background(), tasks, resumed, fast(adapt.Options{Runner: runner(t), Repair: repairOption(), Journal: journal, Parallelism: 1}))
	require.NoError(t, err)
	assert.Equal(t, reportJSON(t, whole), reportJSON(t, rep))
	for _, tr := range rep.PerTask {
		assert.Len(t, resumed.prompts[tr.TaskID], 1, "round 1 came from the journal; only round 2 was asked for again")
	}

	// Another repair setting is another evaluation.
	other := repairOption()
	other.Rounds = 1
	_, err = adapt.Evaluate(context.Background(), tasks, resumed, fast(adapt.Options{Runner: runner(t), Repair: other, Journal: journal}))
	var mm *adapt.JournalMismatchError
	require.True(t, errors.As(err, &mm), "%v", err)
	assert.Contains(t, mm.Error(), "repair")
}

func TestAnswerHook(t *testing.T) {
	tasks := pyTasks(2)
	// The model answers with a bare expression; the hook makes it the
	// function, and the sample's Code is what was tested.
	m := adapt.ModelFunc("bare", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
		return []report.Completion{{Text: "x + " + strings.TrimPrefix(req.Task.ID, "t0")}}, nil
	})
	hook := func(t *adapt.Task, c report.Completion) (adapt.Answer, error) {
		if c.Text == "" {
			return adapt.Answer{}, errors.New("empty")
		}
		return adapt.Answer{Code: "def f(x):\n    return " + c.Text + "\n"}, nil
	}
	rep, err := adapt.Evaluate(context.Background(), tasks, m, fast(adapt.Options{Runner: runner(t), Answer: hook}))
	require.NoError(t, err)
	s, _ := rep.Score(1)
	assert.Equal(t, 1.0, s)
	assert.Equal(t, "def f(x):\n    return x + 1\n", rep.PerTask[1].Samples[0].Code)
	assert.Equal(t, "x + 1", rep.PerTask[1].Samples[0].Completion.Text)

	// A hook that panics is the caller's failure: an infrastructure error,
	// never a score.
	_, err = adapt.Evaluate(context.Background(), tasks, m, fast(adapt.Options{Runner: runner(t), Attempts: 1,
		Answer: func(*adapt.Task, report.Completion) (adapt.Answer, error) { panic("boom") }}))
	require.ErrorIs(t, err, adapt.ErrNothingScored)
	assert.Contains(t, err.Error(), "boom")
}
