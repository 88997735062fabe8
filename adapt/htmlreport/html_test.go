package htmlreport_test

import (
	"bytes"
	"encoding/json"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/metrics"
)

// hostile is a completion that would run script if any of it reached the
// page as markup: it closes the data's script element, opens its own, and
// hides a handler in an image.
const hostile = "</script><script>window.__xss=1</script><img src=x onerror=\"window.__xss=2\">\u2028def add(a, b):\n    return a - b\n"

// htmlFixture is a report written by hand (no sandbox): two tasks, one
// derived from the other, with a hostile and a huge completion.
func htmlFixture() (*report.Report, []adapt.Task) {
	tasks := []adapt.Task{
		{ID: "t/orig", Language: adapt.Python, Code: "def add(a, b):\n    return a + b\n", Reference: "def add(a, b):\n    return a + b\n",
			Target: adapt.Target{Path: "m.py", Function: "add"}, Tests: []adapt.Test{{Name: "test_m.T.test_add", Steps: []string{"s1"}}},
			Requirement: adapt.Requirement{Task: "Add two <numbers>.", Steps: []adapt.Step{{ID: "s1", Type: "Logic.Upd_Return", Description: "return the sum"}}},
			Labels:      map[string]string{"domain": "numeric"}},
		{ID: "t/mut", Language: adapt.Python, Code: "def add(a, b):\n    return a * b\n", Reference: "def add(a, b):\n    return a + b\n",
			Target: adapt.Target{Path: "m.py", Function: "add"}, Tests: []adapt.Test{{Name: "test_m.T.test_add"}},
			Labels:     map[string]string{"domain": "numeric"},
			Provenance: &adapt.Provenance{Generator: "mutate", Parent: "t/orig", Operators: []string{"swapop"}, Seed: 7, Schema: "mutate/v1", Detail: json.RawMessage(`{"span":[1,2],"note":"</script>"}`)}},
	}
	fail := report.TestOutcome{Name: "test_m.T.test_add", Status: exec.TestFailed, Message: "AssertionError: 1 != 3 <b>bold</b>", ErrorType: "AssertionError"}
	pass := report.TestOutcome{Name: "test_m.T.test_add", Status: exec.TestPassed}
	huge := "def add(a, b):\n" + strings.Repeat("    x = 1  # é\n", 20000) + "    return a + b\n"
	r := &report.Report{
		Run:   report.RunInfo{Model: "m<1>", Template: adapt.AdaptationLevel.Name, Samples: 2, K: []int{1, 2}, Gold: true, TaskCount: 2},
		Tasks: 2, Valid: 2,
		PassAtK:  []report.Score{{K: 1, Value: 0.5, Tasks: 2}, {K: 2, Value: 0.5, Tasks: 2}},
		Outcomes: map[report.Outcome]int{report.OutcomePassed: 2, report.OutcomeFailed: 2},
		Breakdowns: []report.Breakdown{{By: "category", Value: "Logic", Count: 1, Solved: 1, PassAt1: 1},
			{By: "type", Value: "Logic.Upd_Return", Count: 1, Solved: 1, PassAt1: 1}, {By: "label:domain", Value: "numeric", Count: 2, Solved: 1, PassAt1: 0.5}},
		PerTask: []report.TaskReport{
			{TaskID: "t/orig", Valid: true, N: 2, C: 2, PassAtK: []report.Score{{K: 1, Value: 1, Tasks: 1}, {K: 2, Value: 1, Tasks: 1}},
				Steps: []report.StepReport{{ID: "s1", Type: "Logic.Upd_Return", Tests: 1, C: 2, PassAt1: 1}},
				Samples: []report.SampleResult{
					{Sample: 0, Outcome: report.OutcomePassed, Tests: []report.TestOutcome{pass}, Completion: &report.Completion{Text: tasks[0].Reference}, Code: tasks[0].Reference},
					{Sample: 1, Outcome: report.OutcomePassed, Tests: []report.TestOutcome{pass}, Completion: &report.Completion{Text: "```python\n" + huge + "```"}, Code: huge},
				}},
			{TaskID: "t/mut", Valid: true, N: 2, C: 0, PassAtK: []report.Score{{K: 1, Value: 0, Tasks: 1}, {K: 2, Value: 0, Tasks: 1}},
				Samples: []report.SampleResult{
					{Sample: 0, Outcome: report.OutcomeFailed, Tests: []report.TestOutcome{fail}, Completion: &report.Completion{Text: hostile}, Code: hostile},
					{Sample: 1, Outcome: report.OutcomeFailed, Tests: []report.TestOutcome{fail}, Completion: &report.Completion{Text: tasks[1].Code}, Code: tasks[1].Code},
				}},
		},
	}
	return r, tasks
}

func writeHTML(t *testing.T, r *report.Report, o *htmlreport.Options) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, htmlreport.Write(&b, r, o))
	return b.String()
}

var reportData = regexp.MustCompile(`(?s)<script id="report-data" type="application/json">(.*?)</script>`)

// explorerData is the data the page's script reads, decoded.
func explorerData(t *testing.T, page string) map[string]any {
	t.Helper()
	m := reportData.FindStringSubmatch(page)
	require.NotNil(t, m, "the page has no report data")
	var d map[string]any
	require.NoError(t, json.Unmarshal([]byte(m[1]), &d))
	return d
}

func TestWriteHTMLDeterministic(t *testing.T) {
	r, tasks := htmlFixture()
	opts := &htmlreport.Options{Tasks: tasks}
	a, b := writeHTML(t, r, opts), writeHTML(t, r, opts)
	assert.True(t, a == b, "two writes of the same report differ")
}

func TestWriteHTMLEscapes(t *testing.T) {
	r, tasks := htmlFixture()
	page := writeHTML(t, r, &htmlreport.Options{Tasks: tasks})
	// Nothing of the hostile completion appears as markup: the data's
	// script element is the only one closed before the page's own.
	assert.Equal(t, 2, strings.Count(page, "<script"), "script elements: the data and the page's own, none from a completion")
	hasNot(t, page, "window.__xss=1</script>")
	hasNot(t, page, "<img")
	hasNot(t, page, "<b>bold</b>")
	hasNot(t, page, "\u2028", "U+2028 ends a line in old JavaScript parsers")
	has(t, page, "<title>adaptbench: m&lt;1&gt;</title>", "the model name is escaped in the markup")
	// The script is the only one the policy lets run.
	assert.True(t, regexp.MustCompile(`script-src 'sha256-[A-Za-z0-9&#;=/]+'`).MatchString(page), "a hash-only script policy")
	// And the text survives the escaping, byte for byte.
	d := explorerData(t, page)
	s := d["tasks"].([]any)[1].(map[string]any)["samples"].([]any)[0].(map[string]any)
	assert.Equal(t, hostile, s["comp"])
	assert.Equal(t, true, s["same"], "the code is the completion: stored once")
	prov := d["tasks"].([]any)[1].(map[string]any)["prov"].(map[string]any)
	assert.Contains(t, prov["detail"], `"note": "</script>"`, "the provenance detail, indented")
}

func TestWriteHTMLCutsLongTexts(t *testing.T) {
	r, tasks := htmlFixture()
	page := writeHTML(t, r, &htmlreport.Options{Tasks: tasks, MaxText: 4096})
	assert.Less(t, len(page), 200_000, "a 300 KB completion is cut, not embedded")
	d := explorerData(t, page)
	s := d["tasks"].([]any)[0].(map[string]any)["samples"].([]any)[1].(map[string]any)
	comp := s["comp"].(string)
	assert.Contains(t, comp, "bytes cut:")
	assert.True(t, strings.HasPrefix(comp, "```python\ndef add(a, b):"), "the head is kept")
	assert.True(t, strings.HasSuffix(comp, "return a + b\n```"), "and the tail")
	assert.LessOrEqual(t, len(comp), 4096+100)
	assert.Contains(t, s["dref"], "+    x = 1  # é", "the diff against the reference, of the code as tested")
}

func TestWriteHTMLDiffs(t *testing.T) {
	r, tasks := htmlFixture()
	d := explorerData(t, writeHTML(t, r, &htmlreport.Options{Tasks: tasks}))
	s := d["tasks"].([]any)[1].(map[string]any)["samples"].([]any)[1].(map[string]any)
	assert.Equal(t, "--- reference\n+++ sample\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a + b\n+    return a * b\n", s["dref"])
	assert.NotContains(t, s, "dorig", "the sample is the original code: no diff")
	tc := s["tests"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"n": "test_m.T.test_add", "s": "failed", "e": "AssertionError", "m": "AssertionError: 1 != 3 <b>bold</b>"}, tc)
	// The prompt is the template's, rendered from the task.
	assert.Contains(t, d["tasks"].([]any)[0].(map[string]any)["prompt"], "return the sum")
}

func TestWriteHTMLPlots(t *testing.T) {
	r, tasks := htmlFixture()
	other, _ := htmlFixture()
	other.Run.Model = "other"
	page := writeHTML(t, r, &htmlreport.Options{Tasks: tasks, Runs: []*report.Report{other}})
	for _, title := range []string{
		"Task-level pass@k (95% bootstrap CI)",
		"pass@1 by adaptation category (95% CI)",
		"pass@1 by adaptation type (95% CI)",
		"pass@1 by task label domain (95% CI)",
		"Degradation: pass@1 of the original task and the derived one (95% CI)",
	} {
		has(t, page, `aria-label="`+title+`"`)
	}
	has(t, page, "<th>other</th>", "the second run is a column of the summary")
	has(t, page, ">other</text>", "and a series of the plots")
	// The degradation bars: t/mut's parent passes (1.0), it fails (0.0).
	has(t, page, "<title>original, all: 100.00% over 1</title>")
	has(t, page, "<title>derived, mutate: swapop: 0.00% over 1</title>")
	// The pass@1 whisker is the bootstrap interval over the tasks.
	in, err := metrics.BootstrapMean([]float64{1, 0}, 2000, 0.95, 1)
	require.NoError(t, err)
	has(t, html.UnescapeString(page), "m<1>, pass@1: 50.00% ["+pctS(in.Lo)+", "+pctS(in.Hi)+"] over 2")
}

// TestWriteHTMLRunLabels: the runs are labelled as in WriteComparison (the
// run's name, else its model; "#1", "#2" apart when two share one), and a
// replay whose tasks hold other counts of samples says so.
func TestWriteHTMLRunLabels(t *testing.T) {
	r, tasks := htmlFixture()
	same, _ := htmlFixture()
	named, _ := htmlFixture()
	named.Run.Name = "tuned"
	r.Run.TaskSamples = map[string]int{"t/mut": 1}
	page := writeHTML(t, r, &htmlreport.Options{Tasks: tasks, Runs: []*report.Report{same, named}})
	has(t, page, "<thead><tr><th></th><th>m&lt;1&gt; #1</th><th>m&lt;1&gt; #2</th><th>tuned</th></tr></thead>")
	has(t, page, ">tuned</text>", "a series of the plots")
	has(t, page, "<tr><th>samples per task</th><td>1–2 per task</td><td>2</td><td>2</td></tr>")
	has(t, page, " · 1–2 samples per task · ", "the heading")
}

// pctS formats a fraction as the page does (two decimals, in percent).
func pctS(v float64) string { return strconv.FormatFloat(100*v, 'f', 2, 64) }

func TestWriteHTMLSections(t *testing.T) {
	r, tasks := htmlFixture()
	var f report.Funnel
	f.Declare("made", "compiled", "valid")
	f.Add("swap<op>", "made", 10)
	f.Add("swap<op>", "compiled", 7)
	f.Add("other", "made", 4)
	f.Add("other", "valid", 1)
	page := writeHTML(t, r, &htmlreport.Options{Tasks: tasks, Sections: []report.Section{
		{Title: "mutate: funnel", Text: "First <para>.\n\nSecond.", Funnel: &f},
		{Title: "evolve: front", Scatter: &report.Scatter{XLabel: "RC", YLabel: "RR", Paired: true, Series: []report.Series{
			{Name: "original", Points: []report.Point{{X: 0.01, Y: 0.9, Label: "HumanEval/0"}}},
			{Name: "evolved", Points: []report.Point{{X: 0.08, Y: 0.8, Label: "HumanEval/0"}}},
		}}},
	}})
	has(t, page, "<p>First &lt;para&gt;.</p><p>Second.</p>")
	has(t, page, `aria-label="mutate: funnel"`)
	has(t, page, "<title>made: 14 (100%)</title>")
	has(t, page, "<title>compiled: 7 (50%)</title>")
	has(t, page, "<th>swap&lt;op&gt;</th><td>10</td><td>7</td><td>0</td>", "a row per group")
	has(t, page, "<th>total</th><td>14</td><td>7</td><td>1</td>")
	has(t, page, `<line class="pair"`, "paired points are joined")
	has(t, page, "HumanEval/0 — evolved: RC = 0.08, RR = 0.8")
}

// has and hasNot check a page for a string without printing the page.
func has(t *testing.T, page, sub string, msg ...any) {
	t.Helper()
	if !strings.Contains(page, sub) {
		t.Errorf("the page lacks %q %v", sub, msg)
	}
}

func hasNot(t *testing.T, page, sub string, msg ...any) {
	t.Helper()
	if strings.Contains(page, sub) {
		t.Errorf("the page holds %q %v", sub, msg)
	}
}
