package htmlreport_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	osexec "os/exec"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

// labelled are 63 tiny Python tasks in 21 label groups ("g00" to "g20"),
// three tasks each: a figure of pass@1 by label has 21 groups.
func labelled() []adapt.Task {
	tasks := make([]adapt.Task, 63)
	for i := range tasks {
		ref := fmt.Sprintf("def f(x):\n    return x + %d\n", i)
		tasks[i] = adapt.Task{
			ID: fmt.Sprintf("t%02d", i), Language: adapt.Python,
			Code:      fmt.Sprintf("def f(x):\n    return x - %d\n", i),
			Target:    adapt.Target{Path: "m.py", Function: "f", Content: ref},
			Reference: ref,
			Files: []adapt.File{{Path: "test_m.py", Content: fmt.Sprintf(
				"import unittest\nfrom m import f\n\nclass T(unittest.TestCase):\n    def test_f(self):\n        self.assertEqual(f(1), %d)\n", 1+i)}},
			Tests:  []adapt.Test{{Name: "test_m.T.test_f", File: "test_m.py"}},
			Labels: map[string]string{"group": fmt.Sprintf("g%02d", i%21)},
		}
	}
	return tasks
}

// someRight answers a task's sample with its reference when the task and
// sample numbers say so (about two in three), else with its code.
var someRight = adapt.ModelFunc("some-right", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	var n int
	fmt.Sscanf(req.Task.ID, "t%d", &n)
	out := make([]report.Completion, len(req.Samples))
	for i, s := range req.Samples {
		code := req.Task.Code
		if (n+s)%3 != 0 {
			code = req.Task.Reference
		}
		out[i] = report.Completion{Text: "```python\n" + code + "```\n"}
	}
	return out, nil
})

// TestSingleRunFiguresInBrowser opens a single run's page in headless
// Chromium: beside pass@k it draws the outcomes (not one lone bar); the
// figure of 21 label groups takes the page's whole width; no value label
// lies over a whisker.
func TestSingleRunFiguresInBrowser(t *testing.T) {
	browser, err := osexec.LookPath("chromium")
	if err != nil {
		exectest.SkipWithout(t, "Debian's chromium is not installed (apt-get install chromium): the HTML report is not tested in a browser")
	}
	tasks := labelled()
	rep, err := adapt.Evaluate(t.Context(), tasks, someRight, &adapt.Options{Samples: 2, Runner: runner(t), Breakdown: []string{"group"}})
	require.NoError(t, err)
	dir := t.TempDir()
	page := filepath.Join(dir, "single.html")
	require.NoError(t, os.WriteFile(page, []byte(writeHTML(t, rep, &htmlreport.Options{Tasks: tasks})), 0o644))

	ctx, cancel := headless(t.Context(), browser, profileDir(t), 1400, 1100)
	defer cancel()
	var titles []string
	var wide []string
	var widths []float64
	var overlaps []string
	var shot []byte
	require.NoError(t, chromedp.Run(ctx,
		network.Enable(), runtime.Enable(),
		chromedp.Navigate((&url.URL{Scheme: "file", Path: page}).String()),
		chromedp.WaitVisible("#plots svg", chromedp.ByQuery),
		chromedp.Evaluate(`Array.from(document.querySelectorAll("#plots svg")).map(function(s){return s.getAttribute("aria-label")})`, &titles),
		chromedp.Evaluate(`Array.from(document.querySelectorAll("#plots figure.wide svg")).map(function(s){return s.getAttribute("aria-label")})`, &wide),
		chromedp.Evaluate(`[document.querySelector("#plots .plots").getBoundingClientRect().width,
			(document.querySelector("#plots figure.wide") || document.querySelector("#plots figure")).getBoundingClientRect().width]`, &widths),
		// Every value label against every whisker of the page's plots.
		chromedp.Evaluate(`(function(){
			var out = [];
			document.querySelectorAll("#plots svg").forEach(function(svg){
				var whs = Array.from(svg.querySelectorAll("path.wh")).map(function(p){return p.getBoundingClientRect()});
				svg.querySelectorAll("text.val").forEach(function(t){
					var a = t.getBoundingClientRect();
					whs.forEach(function(w){
						if (a.left < w.right-0.5 && w.left+0.5 < a.right && a.top < w.bottom-0.5 && w.top+0.5 < a.bottom) out.push(t.textContent);
					});
				});
			});
			return out;
		})()`, &overlaps),
		chromedp.ScreenshotScale("#plots", 1, &shot, chromedp.ByQuery),
	))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "single-plots.png"), shot, 0o644))
	if keep := os.Getenv(keepScreenshots); keep != "" {
		require.NoError(t, os.MkdirAll(keep, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(keep, "single-plots.png"), shot, 0o644))
	}
	assert.Contains(t, titles, "Outcomes of the samples", "a single run's page is more than one bar")
	assert.Contains(t, titles, "Task-level pass@k (95% bootstrap CI)")
	assert.Equal(t, []string{"pass@1 by task label group (95% CI)"}, wide, "the figure of 21 groups, and only it, is wide")
	require.Len(t, widths, 2)
	assert.InDelta(t, widths[0], widths[1], 2, "the wide figure spans the plots' whole width")
	assert.Empty(t, overlaps, "value labels over whiskers")
}
