package adapt_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// TestIntervalIsAFunctionOfTheTaskSet: a resume given the tasks in
// another order reports the same scores and the same bootstrap
// intervals: the resampling goes in task-ID order.
func TestIntervalIsAFunctionOfTheTaskSet(t *testing.T) {
	tasks := pyTasks(12)
	// Sample s of task i passes unless (i*5+s*3)%7 < 3.
	model := adapt.ModelFunc("mixed", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
		var i int
		fmt.Sscanf(req.Task.ID, "t%d", &i)
		out := make([]report.Completion, len(req.Samples))
		for k, s := range req.Samples {
			code := req.Task.Reference
			if (i*5+s*3)%7 < 3 {
				code = strings.Replace(code, "return x", "return -x", 1)
			}
			out[k] = report.Completion{Text: "```python\n" + code + "```\n"}
		}
		return out, nil
	})
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	opts := adapt.Options{Runner: runner(t), Samples: 3, Journal: journal}
	want, err := adapt.Evaluate(context.Background(), tasks, model, &opts)
	require.NoError(t, err)
	p1, _ := want.Score(1)
	require.Greater(t, p1, 0.2)
	require.Less(t, p1, 0.8)

	other, err := adapt.Evaluate(context.Background(), tasks, &scripted{}, &adapt.Options{Runner: runner(t), Samples: 3})
	require.NoError(t, err)
	cmpWant, err := report.Compare(want, other)
	require.NoError(t, err)
	for seed := range uint64(5) {
		shuffled := append([]adapt.Task(nil), tasks...)
		rand.New(rand.NewPCG(seed, 7)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got, err := adapt.Evaluate(context.Background(), shuffled, model, &opts)
		require.NoError(t, err, "the same task set, in another order, resumes")
		assert.Equal(t, want.PassAtK, got.PassAtK, "shuffle %d: the same scores and intervals", seed)
		assert.Equal(t, want.CI95, got.CI95, "shuffle %d", seed)
		merged, err := adapt.Merge(shuffled, []string{journal}, nil)
		require.NoError(t, err)
		assert.Equal(t, want.PassAtK, merged.PassAtK, "shuffle %d", seed)
		cmpGot, err := report.Compare(got, other)
		require.NoError(t, err)
		assert.Equal(t, cmpWant.Delta, cmpGot.Delta, "shuffle %d: a comparison's intervals do not depend on the order either", seed)
	}
}
