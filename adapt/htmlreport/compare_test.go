package htmlreport_test

import (
	"encoding/base64"
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
)

// twoRuns is htmlFixture's report (A) and a second run (B) in which t/mut
// passes once of two: the task flips from lost to... neither (1 of 2 is no
// majority) unless both pass, so B passes it twice: gained.
func twoRuns() (a, b *report.Report, tasks []adapt.Task) {
	a, tasks = htmlFixture()
	b, _ = htmlFixture()
	b.Run.Model = "tuned"
	mut := &b.PerTask[1]
	pass := report.TestOutcome{Name: "test_m.T.test_add", Status: exec.TestPassed}
	for i := range mut.Samples {
		mut.Samples[i].Outcome, mut.Samples[i].Tests = report.OutcomePassed, []report.TestOutcome{pass}
	}
	mut.C = 2
	mut.PassAtK = []report.Score{{K: 1, Value: 1, Tasks: 1}, {K: 2, Value: 1, Tasks: 1}}
	b.PassAtK = []report.Score{{K: 1, Value: 1, Tasks: 2}, {K: 2, Value: 1, Tasks: 2}}
	b.Breakdowns[2] = report.Breakdown{By: "label:domain", Value: "numeric", Count: 2, Solved: 2, PassAt1: 1}
	return a, b, tasks
}

// TestWriteHTMLComparison: with a second run the page is a comparison
// throughout: Compare's differences, McNemar's tests and the flipped
// tasks; a breakdown column per run; each task's results of both runs in
// the explorer.
func TestWriteHTMLComparison(t *testing.T) {
	a, b, tasks := twoRuns()
	page := writeHTML(t, a, &htmlreport.Options{Tasks: tasks, Runs: []*report.Report{b}})
	c, err := report.Compare(a, b)
	require.NoError(t, err)
	require.Equal(t, []string{"t/mut"}, c.Gained)
	has(t, page, `<section id="comparison">`)
	text := html.UnescapeString(page)
	has(t, text, "<th>pass@1, task</th><td>50.00%</td><td>100.00%</td><td>+50.00</td>")
	has(t, text, "<th>pass@1, adaptation (steps)</th><td>100.00%</td><td>100.00%</td><td>0.00</td>")
	has(t, page, "<th>tasks (the headline)</th><td>2</td><td>0</td><td>1</td><td>1</td>", "McNemar: 2 pairs, A only 0, B only 1, exact p = 1")
	has(t, page, "<b>Gained, fail → pass (1):</b> t/mut</p>")
	has(t, page, "<b>Lost, pass → fail (0):</b> none</p>")
	has(t, page, "<th>by</th><th>value</th><th>m&lt;1&gt;: count</th><th>m&lt;1&gt;: solved</th><th>m&lt;1&gt;: pass@1</th><th>tuned: count</th><th>tuned: solved</th><th>tuned: pass@1</th>")
	has(t, page, "<td>label:domain</td><td>numeric</td><td>2</td><td>1.0</td><td>50.00%</td><td>2</td><td>2.0</td><td>100.00%</td>")
	d := explorerData(t, page)
	assert.Equal(t, []any{"m<1>", "tuned"}, d["runs"])
	mut := d["tasks"].([]any)[1].(map[string]any)
	assert.Equal(t, 0.0, mut["p1"])
	other := mut["runs"].([]any)[0].(map[string]any)
	assert.Equal(t, 1.0, other["p1"])
	assert.Equal(t, "passed", other["samples"].([]any)[0].(map[string]any)["o"])
}

// TestWriteHTMLFigures: every plot can be saved as a standalone SVG (its
// styles inside it), bars carry their value and count, a 0% bar is drawn,
// the task labels are one faceted figure, and x labels keep AdaptEval's
// longest type whole.
func TestWriteHTMLFigures(t *testing.T) {
	a, tasks := htmlFixture()
	a.Breakdowns = append(a.Breakdowns, report.Breakdown{By: "label:size", Value: "small", Count: 2, Solved: 1, PassAt1: 0.5},
		report.Breakdown{By: "type", Value: "Method_Signature.Rename_Func", Count: 1, Solved: 0, PassAt1: 0})
	for i := range tasks {
		tasks[i].Labels["size"] = "small"
	}
	a.PerTask[0].Steps = append(a.PerTask[0].Steps, report.StepReport{ID: "s2", Type: "Method_Signature.Rename_Func", Tests: 1, PassAt1: 0})
	page := writeHTML(t, a, &htmlreport.Options{Tasks: tasks})
	links := regexp.MustCompile(`<a download="([^"]+)" href="data:image/svg(?:\+|&#43;)xml;base64,([^"]+)">`).FindAllStringSubmatch(page, -1)
	require.Len(t, links, 6, "pass@k, the outcomes (a single run), category, type, labels (one figure), degradation")
	files := []string{}
	for _, l := range links {
		files = append(files, l[1])
		svg, err := base64.StdEncoding.DecodeString(html.UnescapeString(l[2]))
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(svg), `<svg class="plot" viewBox=`), l[1])
		assert.Contains(t, string(svg), `<style>`, "%s carries its own styles", l[1])
		assert.Contains(t, page, string(svg), "%s is the plot shown", l[1])
	}
	assert.Equal(t, []string{"pass-at-k.svg", "outcomes.svg", "pass-at-1-by-category.svg", "pass-at-1-by-type.svg", "pass-at-1-by-label.svg", "degradation.svg"}, files)
	text := html.UnescapeString(page)
	assert.Contains(t, text, ">50% (2)</text>", "pass@1 over 2 tasks")
	assert.Contains(t, text, ">0% (1)</text>", "a bar of 0% says so")
	assert.Contains(t, text, `<rect class="zero"`, "and is drawn")
	assert.Contains(t, text, ">Method_Signature.Rename_Func</text>", "not clipped")
	assert.Contains(t, text, `aria-label="pass@1 by task label (95% CI)"`)
	assert.Contains(t, text, `<text class="ft" x=`, "a facet title per label")
	assert.NotContains(t, text, `aria-label="pass@1 by task label domain (95% CI)"`, "one figure, not one per label")
}

// TestWriteHTMLPromptNote: a report whose template is not built in (as
// AdaptEval's are not) says why its prompts are missing instead of
// leaving them out silently; mutate's provenance reads as lines, not one
// number a line.
func TestWriteHTMLPromptNote(t *testing.T) {
	a, tasks := htmlFixture()
	a.Run.Template = "adapteval/few-shot"
	page := writeHTML(t, a, &htmlreport.Options{Tasks: tasks})
	has(t, page, `<p class="note" id="prompt-note">The prompts are not shown: the report&#39;s template &#34;adapteval/few-shot&#34; is not one of adapt&#39;s built-in templates`)
	d := explorerData(t, page)
	prov := d["tasks"].([]any)[1].(map[string]any)["prov"].(map[string]any)
	assert.Equal(t, "{\n  \"note\": \"</script>\",\n  \"span\": [1, 2]\n}", prov["detail"])
}

// TestHTMLSectionJSON: a generator's section saved as JSON and read back
// is the same section, and draws the same page.
func TestHTMLSectionJSON(t *testing.T) {
	var f report.Funnel
	f.Declare("made", "compiled", "valid")
	f.Add("swapop", "made", 10)
	f.Add("swapop", "compiled", 7)
	sec := report.Section{Title: "mutate: funnel", Text: "a note", Funnel: &f, Scatter: &report.Scatter{XLabel: "RC", YLabel: "RR", Paired: true,
		Series: []report.Series{{Name: "original", Points: []report.Point{{X: 0.01, Y: 0.9, Label: "HumanEval/0"}}}}}}
	b, err := json.Marshal(sec)
	require.NoError(t, err)
	assert.JSONEq(t, `{"title": "mutate: funnel", "text": "a note",
		"funnel": {"stages": ["made", "compiled", "valid"], "groups": [{"name": "swapop", "counts": [10, 7, 0]}]},
		"scatter": {"x_label": "RC", "y_label": "RR", "paired": true, "series": [{"name": "original", "points": [{"x": 0.01, "y": 0.9, "label": "HumanEval/0"}]}]}}`, string(b))
	var back report.Section
	require.NoError(t, json.Unmarshal(b, &back))
	r, tasks := htmlFixture()
	assert.Equal(t, writeHTML(t, r, &htmlreport.Options{Tasks: tasks, Sections: []report.Section{sec}}),
		writeHTML(t, r, &htmlreport.Options{Tasks: tasks, Sections: []report.Section{back}}))
}
