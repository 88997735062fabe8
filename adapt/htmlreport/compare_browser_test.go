package htmlreport_test

import (
	"fmt"
	"net/url"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

// TestHTMLComparisonInBrowser opens a two-run page in headless Chromium
// and reads back what a person sees: the comparison's numbers are
// Compare's, run B's samples open from the explorer, every plot's value
// labels are the report's, and each plot's download is an SVG the
// browser draws as an image on its own.
func TestHTMLComparisonInBrowser(t *testing.T) {
	browser, err := osexec.LookPath("chromium")
	if err != nil {
		exectest.SkipWithout(t, "Debian's chromium is not installed (apt-get install chromium): the HTML report is not tested in a browser")
	}
	a, b, tasks := twoRuns()
	dir := t.TempDir()
	page := filepath.Join(dir, "compare.html")
	require.NoError(t, os.WriteFile(page, []byte(writeHTML(t, a, &htmlreport.Options{Tasks: tasks, Runs: []*report.Report{b}})), 0o644))
	c, err := report.Compare(a, b)
	require.NoError(t, err)

	ctx, cancel := headless(t.Context(), browser, profileDir(t), 1400, 1100)
	defer cancel()
	var mu sync.Mutex
	var problems, requests []string
	// The downloads are data URLs, drawn below as images.
	watch(ctx, &mu, &requests, &problems, func(url string) bool { return !strings.HasPrefix(url, "data:image/svg+xml;base64,") })
	var comparison, gained, bSample string
	var values []string
	var drawn []int
	var shotCompare, shotPlots, shotExplorer []byte
	pageURL := (&url.URL{Scheme: "file", Path: page}).String()
	require.NoError(t, chromedp.Run(ctx,
		network.Enable(), runtime.Enable(),
		chromedp.Navigate(pageURL),
		chromedp.WaitVisible("#tasks tbody tr.row", chromedp.ByQuery),
		chromedp.Text("#comparison", &comparison, chromedp.ByQuery),
		chromedp.Text("#gained", &gained, chromedp.ByQuery),
		chromedp.ScreenshotScale("#comparison", 1, &shotCompare, chromedp.ByQuery),
		chromedp.ScreenshotScale("#plots", 1, &shotPlots, chromedp.ByQuery),
		chromedp.Evaluate(`Array.from(document.querySelectorAll("#plots svg text.val")).map(function(e){return e.textContent})`, &values),
		// Each download, drawn by the browser as an image of its own.
		chromedp.Evaluate(`Promise.all(Array.from(document.querySelectorAll("figcaption a[download]")).map(function(a){
			return new Promise(function(ok){var i=new Image(); i.onload=function(){ok(i.naturalWidth)}; i.onerror=function(){ok(0)}; i.src=a.href});
		}))`, &drawn, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
		// Run B's first sample of t/mut, from its chip in the explorer.
		chromedp.Click(`#tasks tbody tr.row:nth-child(2) button[data-run="1"]`, chromedp.ByQuery),
		chromedp.WaitVisible("div.sample h4", chromedp.ByQuery),
		chromedp.Text("div.sample h4", &bSample, chromedp.ByQuery),
		chromedp.ScreenshotScale("#explorer", 1, &shotExplorer, chromedp.ByQuery),
	))
	mu.Lock()
	assert.Empty(t, problems, "console errors and exceptions")
	assert.Equal(t, []string{pageURL}, requests, "the page loads nothing but itself")
	mu.Unlock()

	d := c.Delta[0]
	assert.Contains(t, comparison, fmt.Sprintf("pass@1, task\t%s%%\t%s%%\t%s", pctS(d.A), pctS(d.B), "+"+pctS(d.Value)))
	assert.Contains(t, comparison, fmt.Sprintf("tasks (the headline)\t%d\t%d\t%d\t%v", c.PairedTasks, c.Tasks.B10, c.Tasks.B01, c.Tasks.PValue))
	assert.Equal(t, "Gained, fail → pass (1): t/mut", strings.TrimSpace(gained))
	assert.Equal(t, "sample 0: passed", bSample, "run B's sample, which passed (A's failed)")
	// pass@k: A 50% of 2 tasks at k=1, 2; B 100%. Category and type:
	// 100% of 1 step in both. Label: as pass@1. Degradation: 100% and 0%.
	assert.Equal(t, []string{"50% (2)", "100% (2)", "50% (2)", "100% (2)", "100% (1)", "100% (1)", "100% (1)", "100% (1)",
		"50% (2)", "100% (2)", "100% (1)", "0% (1)", "100% (1)", "0% (1)"}, values)
	require.Len(t, drawn, 5)
	for i, w := range drawn {
		assert.Positive(t, w, "download %d is drawn as an image", i)
	}
	for name, png := range map[string][]byte{"compare-section.png": shotCompare, "compare-plots.png": shotPlots, "compare-explorer.png": shotExplorer} {
		require.NotEmpty(t, png, name)
		if keep := os.Getenv(keepScreenshots); keep != "" {
			require.NoError(t, os.MkdirAll(keep, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(keep, name), png, 0o644))
		}
	}
}
