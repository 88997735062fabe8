package htmlreport_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// keepScreenshots names a directory where TestHTMLInBrowser also leaves
// its screenshots, for a person to look at.
const keepScreenshots = "ADAPTBENCH_HTML_SCREENSHOTS"

// flawed answers HumanEval as the reference does, but for a few samples:
// the unadapted prompt (fails its test), code that does not compile, and
// one hostile completion that would run script if the page let it.
var flawed = adapt.ModelFunc("reference-with-flaws", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	out := make([]report.Completion, len(req.Samples))
	var n int
	fmt.Sscanf(strings.TrimPrefix(req.Task.ID, "HumanEval/"), "%d", &n)
	for i, s := range req.Samples {
		text := "```python\n" + req.Task.Reference + "```\n"
		switch {
		case n == 0 && s == 1:
			text = hostile
		case n%5 == 0 && s == 3:
			text = "```python\n" + req.Task.Code + "```\n"
		case n%7 == 0 && s == 4:
			text = "```python\n" + strings.Replace(req.Task.Reference, ":", "", 1) + "```\n"
		}
		out[i] = report.Completion{Text: text}
	}
	return out, nil
})

func TestHTMLInBrowser(t *testing.T) {
	browser, err := osexec.LookPath("chromium")
	if err != nil {
		exectest.SkipWithout(t, "Debian's chromium is not installed (apt-get install chromium): the HTML report is not tested in a browser")
	}
	tasks, err := humaneval.LoadFile(testenv.DataPath(t, "humaneval/HumanEval.jsonl.gz"))
	require.NoError(t, err)
	rep, err := adapt.Evaluate(t.Context(), tasks, flawed, &adapt.Options{Samples: 5, K: []int{1, 5}, Runner: runner(t)})
	require.NoError(t, err)
	samples := 0
	for _, tr := range rep.PerTask {
		samples += len(tr.Samples)
	}
	require.GreaterOrEqual(t, samples, 800)
	require.Less(t, rep.Outcomes[report.OutcomePassed], samples, "the flawed samples did not pass")

	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	f, err := os.Create(page)
	require.NoError(t, err)
	start := time.Now()
	require.NoError(t, htmlreport.Write(f, rep, &htmlreport.Options{Tasks: tasks}))
	require.NoError(t, f.Close())
	written := time.Since(start)
	st, err := os.Stat(page)
	require.NoError(t, err)

	// A headless Chromium now and then stops answering on the test
	// command's busy machine (twice in seven runs, idle, with the page
	// the same as in the runs that passed): a hang is retried with a fresh
	// browser, at most three times, and said; any other error fails.
	pageURL := (&url.URL{Scheme: "file", Path: page}).String()
	var b browsed
	for attempt := 1; ; attempt++ {
		b, err = browse(t.Context(), browser, profileDir(t), pageURL)
		if err == nil || !errors.Is(err, context.DeadlineExceeded) || attempt == 3 {
			break
		}
		t.Logf("attempt %d: Chromium did not answer within %v (%v); starting a fresh browser", attempt, browseTimeout, err)
	}
	require.NoError(t, err)
	problems, requests := b.problems, b.requests
	loadMs, rows, failedRows, xss, diffText, top, drill := b.loadMs, b.rows, b.failedRows, b.xss, b.diffText, b.top, b.drill
	assert.Empty(t, problems, "console errors and exceptions")
	assert.Equal(t, []string{pageURL}, requests, "the page loads nothing but itself")
	assert.Equal(t, 164, rows, "a row per task")
	assert.Greater(t, failedRows, 0)
	assert.Less(t, failedRows, rows, "the outcome filter hides the tasks with no failed sample")
	assert.Contains(t, diffText, "--- reference\n+++ sample\n@@", "a unified diff against the reference")
	assert.Equal(t, "undefined", xss, "the hostile completion ran")
	for name, png := range map[string][]byte{"report-top.png": top, "report-drilldown.png": drill} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
		if keep := os.Getenv(keepScreenshots); keep != "" {
			require.NoError(t, os.MkdirAll(keep, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(keep, name), png, 0o644))
		}
	}
	t.Logf("%d samples of %d tasks: report.html %.2f MB, written in %s, loaded (navigation to load event) in %.0f ms; %d of %d tasks have a failed sample",
		samples, rep.Tasks, float64(st.Size())/(1<<20), written.Round(time.Millisecond), loadMs, failedRows, rows)
}

// profileDir is a directory for a Chromium profile, removed after the
// test. Not t.TempDir: Chromium's helper processes can outlive the browser
// process chromedp waits for by a moment and still write into the profile,
// so that one RemoveAll fails ("directory not empty") on a busy machine;
// the removal is tried again for up to ten seconds and then reported.
func profileDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "adaptbench-chromium-")
	require.NoError(t, err)
	t.Cleanup(func() {
		deadline := time.Now().Add(10 * time.Second)
		for {
			err := os.RemoveAll(dir)
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("removing the Chromium profile: %v", err)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	return dir
}

// headless starts a headless Chromium with a profile of its own and the
// flags this machine's closed network needs, for browseTimeout at most.
func headless(parent context.Context, browser, profile string, w, h int) (context.Context, context.CancelFunc) {
	alloc, cancelAlloc := chromedp.NewExecAllocator(parent,
		chromedp.ExecPath(browser),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(w, h),
	)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, browseTimeout)
	return ctx, func() { cancelTimeout(); cancelCtx(); cancelAlloc() }
}

// watch collects, under mu, the URLs the page requests (those keep
// says to) and its console errors, warnings and exceptions.
func watch(ctx context.Context, mu *sync.Mutex, requests, problems *[]string, keep func(url string) bool) {
	chromedp.ListenTarget(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			if keep(ev.Request.URL) {
				*requests = append(*requests, ev.Request.URL)
			}
		case *runtime.EventExceptionThrown:
			*problems = append(*problems, "exception: "+ev.ExceptionDetails.Error())
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeWarning {
				*problems = append(*problems, fmt.Sprintf("console.%s: %v", ev.Type, ev.Args))
			}
		}
	})
}

// browseTimeout guards one browser session against a hang.
const browseTimeout = 2 * time.Minute

// browsed is what TestHTMLInBrowser reads from the page.
type browsed struct {
	problems, requests []string
	loadMs             float64
	rows, failedRows   int
	xss, diffText      string
	top, drill         []byte
}

// browse opens pageURL in a headless Chromium with its own profile and
// goes through the report as a reader would.
func browse(parent context.Context, browser, profile, pageURL string) (browsed, error) {
	var b browsed
	ctx, cancel := headless(parent, browser, profile, 1400, 1000)
	defer cancel()
	var mu sync.Mutex
	watch(ctx, &mu, &b.requests, &b.problems, func(string) bool { return true })
	err := chromedp.Run(ctx,
		network.Enable(), runtime.Enable(),
		chromedp.Navigate(pageURL),
		chromedp.WaitVisible("#tasks tbody tr.row", chromedp.ByQuery),
		chromedp.Evaluate(`(function(){var n=performance.getEntriesByType("navigation")[0]; return n.loadEventEnd - n.startTime})()`, &b.loadMs),
		chromedp.Evaluate(`document.querySelectorAll("#tasks tbody tr.row").length`, &b.rows),
		chromedp.CaptureScreenshot(&b.top),
		// A filter changes the rows shown.
		chromedp.SetValue("#f-outcome", "failed", chromedp.ByID),
		chromedp.Evaluate(`document.getElementById("f-outcome").dispatchEvent(new Event("change"))`, nil),
		chromedp.Evaluate(`document.querySelectorAll("#tasks tbody tr.row").length`, &b.failedRows),
		// A click on a failed sample's chip opens its drill-down with the
		// diff against the reference.
		chromedp.Click(`#tasks tbody tr.row button.o-failed`, chromedp.ByQuery),
		chromedp.WaitVisible("pre.diff", chromedp.ByQuery),
		chromedp.Text("pre.diff", &b.diffText, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector("tr.drow").scrollIntoView()`, nil),
		chromedp.CaptureScreenshot(&b.drill),
		// The hostile completion, opened, runs nothing.
		chromedp.SetValue("#f-outcome", "", chromedp.ByID),
		chromedp.SetValue("#q", "window.__xss", chromedp.ByID),
		chromedp.Evaluate(`document.getElementById("f-outcome").dispatchEvent(new Event("change"))`, nil),
		chromedp.Click(`#tasks tbody tr.row button[data-sample="1"]`, chromedp.ByQuery),
		chromedp.WaitVisible("div.sample pre", chromedp.ByQuery),
		chromedp.Sleep(300*time.Millisecond),
		chromedp.Evaluate(`String(window.__xss)`, &b.xss),
	)
	mu.Lock()
	defer mu.Unlock()
	b.problems, b.requests = slices.Clone(b.problems), slices.Clone(b.requests)
	return b, err
}
