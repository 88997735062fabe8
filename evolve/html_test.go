package evolve_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/evolve"
)

// TestHTMLSection: the section plots every evolved subject's original and
// pick on RC against RR, paired, leaves out a subject whose run failed,
// and carries the funnel and the means of Table 4.
func TestHTMLSection(t *testing.T) {
	r := &evolve.Result{Evolutions: []*evolve.Evolution{
		{Subject: "HumanEval/0", Best: 1, Population: []*evolve.Individual{{ID: 0, RC: 0.1, RR: 0.9}, {ID: 1, RC: 0.5, RR: 0.7}}},
		{Subject: "HumanEval/1", Err: errors.New("the run failed")},
		// Run, but nothing beat the original: its pick is the original.
		{Subject: "HumanEval/2", Population: []*evolve.Individual{{ID: 0, RC: 0.2, RR: 0.8}}},
	}}
	r.Funnel.Add("offspring", evolve.StageMade, 12)
	r.Funnel.Add("offspring", evolve.StageAccepted, 1)

	s := r.HTMLSection()
	require.NotNil(t, s.Scatter)
	assert.True(t, s.Scatter.Paired, "point i of the originals and of the picks is one subject")
	require.Len(t, s.Scatter.Series, 2)
	assert.Equal(t, []report.Point{{X: 0.1, Y: 0.9, Label: "HumanEval/0"}, {X: 0.2, Y: 0.8, Label: "HumanEval/2"}}, s.Scatter.Series[0].Points)
	assert.Equal(t, []report.Point{{X: 0.5, Y: 0.7, Label: "HumanEval/0"}, {X: 0.2, Y: 0.8, Label: "HumanEval/2"}}, s.Scatter.Series[1].Points)
	assert.Same(t, &r.Funnel, s.Funnel)
	assert.Equal(t, 12, s.Funnel.Total(evolve.StageMade))
	assert.Contains(t, s.Text, "1 of 3 programs evolved (2 runs completed, 0 skipped, 1 errors).")
	assert.Contains(t, s.Text, "Mean relative complexity 0.150 → 0.350, readability 0.850 → 0.750")
}
