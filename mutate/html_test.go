package mutate

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// TestHTMLSection: the section carries the result's funnel and its pilot
// gates, and the page draws and tabulates that funnel.
func TestHTMLSection(t *testing.T) {
	var r Result
	r.Funnel.Declare(StageSite, StageApplied, StageParsed, StageCompiled, StageUnresolved, StageDetected)
	for stage, n := range map[string]int{StageSite: 5, StageApplied: 4, StageParsed: 3, StageCompiled: 2, StageDetected: 1} {
		r.Funnel.Add("swap_op", stage, n)
	}
	r.Funnel.Add("off_by_one", StageSite, 2)
	r.Candidates = []*Candidate{
		{Level: L1, Ops: []string{"swap_op"}, Src: []byte("x"), Reason: ReasonNone},
		{Level: L1, Ops: []string{"swap_op"}, Src: []byte("x"), Reason: ReasonNoFailure},
		{Level: L1, Ops: []string{"swap_op"}, Src: []byte("x"), Reason: ReasonCompile},
	}
	s := r.HTMLSection()
	require.NotNil(t, s.Funnel)
	assert.Equal(t, 7, s.Funnel.Total(StageSite))
	assert.Equal(t, 1, s.Funnel.Total(StageDetected))
	assert.Equal(t, []string{"swap_op", "off_by_one"}, s.Funnel.Groups())
	assert.Nil(t, s.Scatter)
	assert.Contains(t, s.Text, "L1 mutants parsed 3, compiled 2 (66.7%, gate 70%)", "the gates in the note")
	assert.Contains(t, s.Text, "caught by tests 50.0% of compiled")

	var page bytes.Buffer
	require.NoError(t, htmlreport.Write(&page, &report.Report{Run: report.RunInfo{Model: "m"}}, &htmlreport.Options{Sections: []report.Section{s}}))
	assert.Contains(t, page.String(), "<th>total</th><td>7</td><td>4</td><td>3</td><td>2</td><td>0</td><td>1</td>", "the funnel's total row")
}
