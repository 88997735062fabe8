package ctxbug

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
)

// TestHTMLSection: the section carries the identification funnel of the
// result's candidates and counts them in its note.
func TestHTMLSection(t *testing.T) {
	a, b := &Job{Rule: Rules[0].Name}, &Job{Rule: Rules[1].Name}
	cands := []*Candidate{
		{Job: a, Generator: "g", reason: reasonKept},
		{Job: a, Generator: "g", reason: reasonTests},
		{Job: a, Generator: "g", reason: reasonKept},
		{Job: b, Generator: "g", reason: reasonModel},
	}
	r := &Result{candidates: cands, Instances: []*Instance{{}, {}}, Tasks: make([]adapt.Task, 4), Funnel: funnel(cands)}
	s := r.HTMLSection()
	require.NotNil(t, s.Funnel)
	assert.Equal(t, 4, s.Funnel.Total(stageGenerated))
	assert.Equal(t, 3, s.Funnel.Total(reasonModel.String()), "the candidates left after the model stage")
	assert.Equal(t, 2, s.Funnel.Total(reasonTests.String()))
	assert.Equal(t, 2, s.Funnel.Total(reasonKept.String()))
	assert.Equal(t, []string{"g/" + Rules[0].Name, "g/" + Rules[1].Name}, s.Funnel.Groups())
	assert.Equal(t, "2 CtxBugs identified among 4 candidates; 4 tasks.", s.Text)
	assert.Nil(t, s.Scatter)
}
