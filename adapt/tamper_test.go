package adapt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// TestTamperedSampleListed: an answer that patches the framework's result
// classes so that its failures vanish is tampered, scored as a failure,
// counted, and listed with the evidence in the report's JSON, Markdown and
// CSV forms.
func TestTamperedSampleListed(t *testing.T) {
	task := fixtureTasks(t)[2]
	require.Equal(t, "py-scaled-sum", task.ID)
	answer := "```python\ndef scaled_sum(values, factor=1.0):\n" +
		"    import unittest\n" +
		"    for c in unittest.TestResult.__subclasses__():\n" +
		"        c.addFailure = c.addError = lambda *a, **k: None\n" +
		"    return 0\n```"
	rec, err := json.Marshal(map[string]any{"task": task.ID, "sample": 0, "completion": map[string]string{"text": answer}})
	require.NoError(t, err)
	rp, err := adapt.NewReplay("tamperer", bytes.NewReader(append(rec, '\n')), "tamper.jsonl")
	require.NoError(t, err)
	rep, err := adapt.Evaluate(context.Background(), []adapt.Task{task}, rp, &adapt.Options{Runner: runner(t)})
	require.NoError(t, err)

	assert.Equal(t, 1, rep.Outcomes[report.OutcomeTampered], "%+v", rep.Outcomes)
	assert.Zero(t, rep.Outcomes[report.OutcomePassed])
	s, ok := rep.Score(1)
	require.True(t, ok)
	assert.Zero(t, s, "a tampered sample is a failure")
	require.Len(t, rep.Tampered, 1)
	got := rep.Tampered[0]
	assert.Equal(t, task.ID, got.TaskID)
	assert.Equal(t, 0, got.Sample)
	assert.Contains(t, got.Evidence, "framework-patch: Reporter.addFailure was replaced")
	for _, a := range rep.AdaptationPassAtK {
		assert.Zero(t, a.Value, "no step is solved by a tampered sample: %+v", rep.AdaptationPassAtK)
	}

	var js bytes.Buffer
	require.NoError(t, rep.WriteJSON(&js))
	var back report.Report
	require.NoError(t, json.Unmarshal(js.Bytes(), &back))
	assert.Equal(t, rep.Tampered, back.Tampered, "the JSON form holds the listing")
	var md bytes.Buffer
	require.NoError(t, rep.WriteMarkdown(&md))
	assert.Contains(t, md.String(), "| tampered | 1 |")
	assert.Contains(t, md.String(), "| tampered sample | evidence |\n|---|---|\n| py-scaled-sum #0 | framework-patch: Reporter.addError was replaced<br>framework-patch: Reporter.addFailure was replaced<br>")
	var csv bytes.Buffer
	require.NoError(t, rep.WriteCSV(&csv))
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	require.Len(t, lines, 2)
	head, row := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
	for i, h := range head {
		if h == "tampered" {
			assert.Equal(t, "1", row[i], "the tampered count in the CSV")
		}
	}
	assert.Contains(t, head, "tampered")
}
