package progress_test

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/progress"
)

// evaluation feeds d what Evaluate reports for 4 references and 16
// samples: phase "reference", then "samples", one count over both.
func evaluation(d *progress.Display) {
	for i := 1; i <= 20; i++ {
		phase := "reference"
		if i > 4 {
			phase = "samples"
		}
		d.Report(adapt.Progress{Phase: phase, Done: i, Total: 20, Passed: i / 2, Elapsed: time.Duration(i) * time.Second, Rate: 1, ETA: time.Duration(20-i) * time.Second})
	}
	d.Close()
}

func TestPlainLines(t *testing.T) {
	var buf bytes.Buffer
	d := progress.New(&buf, "m")
	assert.False(t, d.Terminal())
	evaluation(d)
	d.Report(adapt.Progress{Phase: "resume", Notice: "journal x: a torn last line was cut off"})
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
		"m resume: 0/0 (100%), 0 passed, 0.0/s, elapsed 0s",
	}
	assert.Equal(t, strings.Join(want, "\n")+"\n", buf.String())
}

// ansi matches the escape sequences a terminal interprets.
var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// Screen returns what a terminal shows of out, line by line: a carriage
// return starts the line again, escape sequences are dropped.
func Screen(out string) []string {
	out = ansi.ReplaceAllString(out, "")
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n") {
		if i := strings.LastIndexByte(l, '\r'); i >= 0 {
			// The last redraw that wrote something.
			parts := strings.Split(l, "\r")
			l = ""
			for j := len(parts) - 1; j >= 0; j-- {
				if strings.TrimSpace(parts[j]) != "" {
					l = parts[j]
					break
				}
			}
		}
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimRight(l, " "))
		}
	}
	return lines
}

func TestBarOnATerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	require.NoError(t, pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 120}))
	out := make(chan string)
	go func() {
		b, _ := io.ReadAll(ptmx)
		out <- string(b)
	}()
	d := progress.New(tty, "m")
	assert.True(t, d.Terminal())
	evaluation(d)
	tty.Close()
	var raw string
	select {
	case raw = <-out:
	case <-time.After(10 * time.Second):
		t.Fatal("no output from the terminal")
	}
	t.Logf("%q", raw)
	assertBar(t, raw, "m samples (10 passed)", 20)
}

// assertBar checks that raw, a terminal's output, draws a bar redrawn in
// place (carriage returns) that ends at 100% with the count of n, the
// rate and the time, under desc.
func assertBar(t *testing.T, raw, desc string, n int) {
	t.Helper()
	assert.Contains(t, raw, "\r", "redrawn in place")
	screen := Screen(raw)
	require.NotEmpty(t, screen, "%q", raw)
	last := screen[len(screen)-1]
	assert.Contains(t, last, desc)
	assert.Contains(t, last, "100%")
	assert.Contains(t, last, "█")
	assert.Regexp(t, `\[[0-9.]+[a-zµ]*s\]`, last, "the time it took")
	assert.Regexp(t, regexp.MustCompile(`\(`+strconv.Itoa(n)+`/`+strconv.Itoa(n)+`, [0-9.]+ checks/s\)`), last)
}

