package progress_test

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/adapt/progress"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/internal/testenv"
	"github.com/adaptbench/adaptbench/internal/tracker"
)

// evaluation feeds d what Evaluate reports for 4 references and 16
// samples: phase "reference", then "samples", one count over both.
func evaluation(d *progress.Display) {
	for i := 1; i <= 20; i++ {
		phase := "reference"
		if i > 4 {
			phase = "samples"
		}
		d.Report(report.Progress{Phase: phase, Done: i, Total: 20, Passed: i / 2, Elapsed: time.Duration(i) * time.Second, Rate: 1, ETA: time.Duration(20-i) * time.Second})
	}
	d.Close()
}

func TestPlainLines(t *testing.T) {
	var buf bytes.Buffer
	d := progress.New(&buf, "m")
	assert.False(t, d.Terminal())
	evaluation(d)
	d.Report(report.Progress{Phase: "resume", Notice: "journal x: a torn last line was cut off"})
	d.Close()
	// One line at each phase and at each tenth of the work (every 2
	// checks of 20), no escape codes, no carriage returns.
	want := []string{
		"m reference: 1/20 (5%), 0 passed, 1.0/s, elapsed 1s, ETA 19s",
		"m reference: 2/20 (10%), 1 passed, 1.0/s, elapsed 2s, ETA 18s",
		"m reference: 4/20 (20%), 2 passed, 1.0/s, elapsed 4s, ETA 16s",
		"m samples: 5/20 (25%), 2 passed, 1.0/s, elapsed 5s, ETA 15s",
		"m samples: 6/20 (30%), 3 passed, 1.0/s, elapsed 6s, ETA 14s",
		"m samples: 8/20 (40%), 4 passed, 1.0/s, elapsed 8s, ETA 12s",
		"m samples: 10/20 (50%), 5 passed, 1.0/s, elapsed 10s, ETA 10s",
		"m samples: 12/20 (60%), 6 passed, 1.0/s, elapsed 12s, ETA 8s",
		"m samples: 14/20 (70%), 7 passed, 1.0/s, elapsed 14s, ETA 6s",
		"m samples: 16/20 (80%), 8 passed, 1.0/s, elapsed 16s, ETA 4s",
		"m samples: 18/20 (90%), 9 passed, 1.0/s, elapsed 18s, ETA 2s",
		"m samples: 20/20 (100%), 10 passed, 1.0/s, elapsed 20s",
		"m: journal x: a torn last line was cut off",
		"m resume: under way, elapsed 0s",
	}
	assert.Equal(t, strings.Join(want, "\n")+"\n", buf.String())
}

// syncBuffer is a buffer the heartbeat's goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestHeartbeat: a step that reports nothing for the interval (a long
// check, a build) still gets a line, with its elapsed time brought up to
// date; after Close, none.
func TestHeartbeat(t *testing.T) {
	var buf syncBuffer
	d := progress.New(&buf, "mine m")
	progress.SetInterval(d, 100*time.Millisecond)
	d.Report(report.Progress{Phase: "build", Done: 1, Total: 4, Elapsed: 3 * time.Second})
	time.Sleep(350 * time.Millisecond)
	d.Close()
	time.Sleep(250 * time.Millisecond)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	assert.Equal(t, "mine m build: 1/4 (25%), 0 passed, 0.0/s, elapsed 3s", lines[0])
	beats := 0
	for _, l := range lines[1:] {
		if strings.HasSuffix(l, ", still running") {
			beats++
			assert.True(t, strings.HasPrefix(l, "mine m build: 1/4 (25%)"), l)
		}
	}
	assert.GreaterOrEqual(t, beats, 2, "a line at least every interval: %q", lines)
	assert.LessOrEqual(t, beats, 4, "and no more often: %q", lines)
	n := len(buf.String())
	time.Sleep(250 * time.Millisecond)
	assert.Equal(t, n, len(buf.String()), "silent after Close")
	// A step that counts nothing yet says what it is.
	buf = syncBuffer{}
	d = progress.New(&buf, "mine m")
	d.Report(report.Progress{Phase: "fetch"})
	d.Close()
	assert.Equal(t, "mine m fetch: under way, elapsed 0s\n", buf.String())
}

func TestBarOnATerminal(t *testing.T) {
	term := testenv.OpenTerminal(t)
	d := progress.New(term.TTY, "m")
	assert.True(t, d.Terminal())
	evaluation(d)
	// A generator's loop through a Tracker, with a notice on the way: a
	// second bar, the notice on a line of its own.
	tr := tracker.New(d.Report, "validate", 5)
	for i := range 5 {
		if i == 2 {
			d.Report(report.Progress{Phase: "validate", Done: 2, Total: 5, Passed: 2, Notice: "something to know"})
		}
		tr.Done(true)
	}
	d.Close()
	raw := term.Output()
	assert.Contains(t, raw, "\r", "redrawn in place")
	bars, other := testenv.Bars(raw)
	assert.Equal(t, []string{"m samples (10 passed)", "m validate (5 passed)"}, bars, "a bar per loop, each ending at 100%%: %q", raw)
	assert.Equal(t, []string{"m: something to know"}, other, "%q", raw)
}
