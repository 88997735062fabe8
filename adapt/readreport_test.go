package adapt_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// TestReadReport: a report read back from its JSON writes the same bytes
// and compares with the run it came from as equal, as a CI gate's
// baseline must.
func TestReadReport(t *testing.T) {
	rep := perTaskRun(t)
	var first bytes.Buffer
	require.NoError(t, rep.WriteJSON(&first))
	back, err := report.ReadReport(bytes.NewReader(first.Bytes()))
	require.NoError(t, err)
	var second bytes.Buffer
	require.NoError(t, back.WriteJSON(&second))
	assert.Equal(t, first.String(), second.String(), "WriteJSON after ReadReport")
	c, err := report.Compare(back, rep)
	require.NoError(t, err)
	assert.Empty(t, c.Gained, "a baseline read back gains no task")
	assert.Empty(t, c.Lost, "a baseline read back loses no task")
	assert.True(t, c.SameTaskSet)
	require.NotEmpty(t, c.Delta)
	assert.Zero(t, c.Delta[0].Value)
}

func TestReadReportErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "not a report written by WriteJSON: EOF"},
		{"{\n  \"run\": {},\n  \"tasks\": 1,\n  oops\n}", "not a report's JSON: invalid character 'o' looking for beginning of object key string at line 4"},
		{`{"run": {}, "per_task": [], "outcomes": {}, "pass_at_1": 3}`, `unknown field "pass_at_1"`},
		{`{"run": {}, "per_task": [], "outcomes": {}} {}`, "more after the report at line 1"},
		{`{"tasks": 3}`, "no per_task or outcomes field"},
		{`{"run": {}, "per_task": [], "outcomes": {"sparkling": 1}}`, `unknown outcome "sparkling"`},
	} {
		_, err := report.ReadReport(strings.NewReader(c.in))
		assert.ErrorContains(t, err, c.want, c.in)
	}
}
