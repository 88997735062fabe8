package adapt_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
)

// TestReferencesOnly: Evaluate with no model checks each reference once
// and reports which tasks are valid, without samples, scores or
// "unanswered" tasks; a journal of it resumes without running again.
func TestReferencesOnly(t *testing.T) {
	tasks := pyTasks(3)
	tasks[1].Reference = "def f(x):\n    return -x\n" // fails its test
	r := &counting{r: runner(t)}
	journal := filepath.Join(t.TempDir(), "refs.jsonl")
	rep, err := adapt.Evaluate(context.Background(), tasks, nil, &adapt.Options{Runner: r, Journal: journal})
	require.NoError(t, err)
	assert.Equal(t, int64(3), r.n.Load(), "one check per reference")
	assert.Equal(t, 3, rep.Tasks)
	assert.Equal(t, 2, rep.Valid)
	require.Len(t, rep.Invalid, 1)
	assert.Equal(t, "t01", rep.Invalid[0].TaskID)
	assert.Empty(t, rep.PassAtK)
	assert.Empty(t, rep.Unscored, "no task is 'unanswered'")
	assert.Equal(t, "references only", rep.Run.Model)
	for _, tr := range rep.PerTask {
		assert.Zero(t, tr.N, tr.TaskID)
	}
	again, err := adapt.Evaluate(context.Background(), tasks, nil, &adapt.Options{Runner: r, Journal: journal})
	require.NoError(t, err)
	assert.Equal(t, int64(3), r.n.Load(), "the journal's checks are not run again")
	assert.Equal(t, rep, again)

	_, err = adapt.Evaluate(context.Background(), tasks, nil, &adapt.Options{NoGold: true})
	assert.ErrorContains(t, err, "nothing to do")
	_, err = adapt.Draw(context.Background(), tasks, nil, nil)
	assert.ErrorContains(t, err, "Draw needs a model")
}
