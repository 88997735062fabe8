package adapt_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// TestReportCSVNegativeZero: a pass@k of -0 (what 1 − exp(0) gives for a
// task no sample solves) or a tiny negative rounding error is written as
// 0.000000, never -0.000000; a value that is really negative keeps its
// sign.
func TestReportCSVNegativeZero(t *testing.T) {
	rep := &report.Report{Run: report.RunInfo{K: []int{1}}}
	for _, v := range []float64{math.Copysign(0, -1), -1e-17, 0.25, -0.5} {
		rep.PerTask = append(rep.PerTask, report.TaskReport{TaskID: "t", Valid: true, N: 4, PassAtK: []report.Score{{K: 1, Value: v}}})
	}
	var buf bytes.Buffer
	require.NoError(t, rep.WriteCSV(&buf))
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n")[1:] {
		got = append(got, strings.Split(l, ",")[4])
	}
	assert.Equal(t, []string{"0.000000", "0.000000", "0.250000", "-0.500000"}, got)
	assert.NotContains(t, buf.String(), "-0.000000")
}
