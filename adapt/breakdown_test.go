package adapt_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// halfRight answers with the reference for t00, t02, … and with the code
// as given (a wrong name: fails) for the others.
type halfRight struct{}

func (halfRight) Name() string { return "half-right" }

func (halfRight) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	var n int
	fmt.Sscanf(req.Task.ID, "t%d", &n)
	if n%2 == 0 {
		return adapt.Reference.Complete(ctx, req)
	}
	return adapt.Identity.Complete(ctx, req)
}

// TestBreakdownNamesLabels checks that a report breaks scores down by the
// labels Options.Breakdown names, in that order, and by no other; that
// Breakdown changes no score; and that it is not part of the journal's
// fingerprint (a run resumes and merges under another Breakdown).
func TestBreakdownNamesLabels(t *testing.T) {
	tasks := pyTasks(6)
	for i := range tasks {
		tasks[i].Labels = map[string]string{
			"size":   []string{"small", "large"}[i%2],
			"domain": []string{"math", "text", "io"}[i%3],
			"id":     tasks[i].ID, // a per-task value: never a row unless named
		}
	}
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	opts := adapt.Options{Runner: runner(t), Journal: journal}
	none, err := adapt.Evaluate(context.Background(), tasks, halfRight{}, &opts)
	require.NoError(t, err)
	for _, b := range none.Breakdowns {
		t.Errorf("no Breakdown: a row %s=%s", b.By, b.Value)
	}

	opts.Breakdown = []string{"size"}
	bySize, err := adapt.Evaluate(context.Background(), tasks, halfRight{}, &opts) // resumed from the journal
	require.NoError(t, err)
	want := []report.Breakdown{
		{By: "label:size", Value: "large", Count: 3, Solved: 0, PassAt1: 0},
		{By: "label:size", Value: "small", Count: 3, Solved: 3, PassAt1: 1},
	}
	assert.Equal(t, want, bySize.Breakdowns, "Breakdown [size]")
	bySize.Breakdowns = nil
	assert.Equal(t, reportJSON(t, none), reportJSON(t, bySize), "Breakdown changes no score")

	merged, err := adapt.Merge(tasks, []string{journal}, &adapt.MergeOptions{Breakdown: []string{"domain", "size", "domain", "absent"}})
	require.NoError(t, err)
	var by []string
	for _, b := range merged.Breakdowns {
		by = append(by, b.By+"="+b.Value)
	}
	wantBy := []string{"label:domain=io", "label:domain=math", "label:domain=text", "label:size=large", "label:size=small"}
	assert.Equal(t, wantBy, by, "Merge with Breakdown [domain size domain absent]: the named keys in order, each once")
	merged.Breakdowns = nil
	assert.Equal(t, reportJSON(t, none), reportJSON(t, merged), "Merge with a Breakdown gives the same scores")
}
