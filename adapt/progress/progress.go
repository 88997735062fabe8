package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// Interval is the longest a plain display stays silent while work goes on:
// a step with no report for that long (one long check, a build) gets a
// line saying it still runs.
const Interval = 10 * time.Second

// Display shows report.Progress reports on a writer. It is safe for
// concurrent use.
type Display struct {
	w     io.Writer
	label string
	tty   bool

	mu        sync.Mutex
	bar       *progressbar.ProgressBar
	phase     string
	last      report.Progress
	started   bool
	nextTenth int // plain: the next tenth of Total that prints a line
	lastLine  time.Time
	printed   int // plain: the Done of the last line

	every      time.Duration // Interval; shorter in tests
	beat       *time.Timer   // plain: fires when no line came for every
	lastReport time.Time     // when last arrived
}

// New returns a Display that writes to w under label (a model's name, a
// generator's). It draws a bar when w is a terminal and writes plain lines
// otherwise.
func New(w io.Writer, label string) *Display {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	return &Display{w: w, label: label, tty: tty, every: Interval}
}

// Terminal reports whether the display draws a bar.
func (d *Display) Terminal() bool { return d.tty }

// Report shows p. Pass the method as a Progress option:
// Options{Progress: d.Report}.
func (d *Display) Report(p report.Progress) {
	d.mu.Lock()
	defer d.mu.Unlock()
	// A new loop (a phase whose count starts again) ends the last one.
	newLoop := d.started && p.Phase != d.phase && p.Done < d.last.Done
	if newLoop {
		d.finish()
	}
	phaseChanged := !d.started || p.Phase != d.phase
	d.started, d.phase, d.last, d.lastReport = true, p.Phase, p, time.Now()
	if d.tty {
		d.draw(p, phaseChanged)
		return
	}
	if p.Notice != "" {
		fmt.Fprintf(d.w, "%s: %s\n", d.label, p.Notice)
	}
	tenth := 0
	if p.Total > 0 {
		tenth = p.Done * 10 / p.Total
	}
	if phaseChanged || tenth >= d.nextTenth || time.Since(d.lastLine) >= d.every {
		d.print(p, tenth)
	}
	d.arm()
}

// arm sets the heartbeat to fire when no line came for d.every; d.mu is
// held.
func (d *Display) arm() {
	if d.beat == nil {
		d.beat = time.AfterFunc(d.every, d.heartbeat)
		return
	}
	d.beat.Reset(d.every - min(time.Since(d.lastLine), d.every))
}

// heartbeat prints the last state again, its elapsed time brought up to
// now, when the work has been silent for d.every: a long step is not
// mistaken for a hung one.
func (d *Display) heartbeat() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.started {
		return
	}
	if wait := d.every - time.Since(d.lastLine); wait > 0 {
		d.beat.Reset(wait) // a line came meanwhile
		return
	}
	p := d.last
	p.Elapsed += time.Since(d.lastReport)
	fmt.Fprintln(d.w, line(d.label, p)+", still running")
	d.lastLine = time.Now()
	d.beat.Reset(d.every)
}

// print writes p as a plain line; d.mu is held.
func (d *Display) print(p report.Progress, tenth int) {
	d.nextTenth = tenth + 1
	fmt.Fprintln(d.w, line(d.label, p))
	d.lastLine = time.Now()
	d.printed = p.Done
}

// draw updates the bar; d.mu is held.
func (d *Display) draw(p report.Progress, phaseChanged bool) {
	if d.bar == nil {
		d.bar = progressbar.NewOptions(max(p.Total, 1),
			progressbar.OptionSetWriter(d.w),
			progressbar.OptionSetWidth(24),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("it"), // checks, candidates, subjects: whatever the loop counts
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetRenderBlankState(true),
			progressbar.OptionUseANSICodes(true),
			progressbar.OptionSetDescription(describe(d.label, p)),
		)
	}
	if p.Notice != "" {
		d.bar.Clear()
		fmt.Fprintf(d.w, "%s: %s\n", d.label, p.Notice)
	}
	if p.Total > 0 && p.Total != d.bar.GetMax() {
		d.bar.ChangeMax(p.Total)
	}
	d.bar.Describe(describe(d.label, p))
	d.bar.Set(p.Done)
}

// finish ends the current bar or loop; d.mu is held.
func (d *Display) finish() {
	if d.bar != nil {
		if d.last.Done >= d.last.Total {
			d.bar.Finish() // the last state, unthrottled
		} else {
			d.bar.Exit()
		}
		fmt.Fprintln(d.w)
		d.bar = nil
	} else if !d.tty && d.started && d.printed != d.last.Done {
		d.print(d.last, 0) // the last state, had it not been shown
	}
	d.nextTenth = 0
}

// Close ends the display: the bar's last state on its own line. Reports
// after Close start a new bar.
func (d *Display) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.started {
		d.finish()
	}
	if d.beat != nil {
		d.beat.Stop()
		d.beat = nil
	}
	d.started = false
}

func describe(label string, p report.Progress) string {
	if p.ModelErrors > 0 {
		// A model error is counted as done but checked nothing: shown
		// apart, so that a failing endpoint is not read as progress.
		return fmt.Sprintf("%s %s (%d %s, %d model errors)", label, p.Phase, p.Passed, passedAs(p), p.ModelErrors)
	}
	return fmt.Sprintf("%s %s (%d %s)", label, p.Phase, p.Passed, passedAs(p))
}

// passedAs is what the Passed count counts.
func passedAs(p report.Progress) string {
	if p.PassedAs != "" {
		return p.PassedAs
	}
	return "passed"
}

// line is the plain form of a report.
func line(label string, p report.Progress) string {
	if p.Done == 0 && p.Resumed == 0 {
		// A step begun, or one that counts nothing: what it is, how
		// much of it there is, and how long it has run.
		if p.Total > 0 {
			return fmt.Sprintf("%s %s: 0/%d, under way, elapsed %s", label, p.Phase, p.Total, p.Elapsed.Round(time.Second))
		}
		return fmt.Sprintf("%s %s: under way, elapsed %s", label, p.Phase, p.Elapsed.Round(time.Second))
	}
	pct := 100
	if p.Total > 0 {
		pct = p.Done * 100 / p.Total
	}
	s := fmt.Sprintf("%s %s: %d/%d (%d%%), %d %s", label, p.Phase, p.Done, p.Total, pct, p.Passed, passedAs(p))
	if p.ModelErrors > 0 {
		s += fmt.Sprintf(", %d model errors", p.ModelErrors)
	}
	if p.Resumed > 0 {
		s += fmt.Sprintf(", %d from the journal", p.Resumed)
	}
	s += fmt.Sprintf(", %.1f/s, elapsed %s", p.Rate, p.Elapsed.Round(time.Second))
	if p.Done < p.Total && p.Rate > 0 {
		s += fmt.Sprintf(", ETA %s", p.ETA.Round(time.Second))
	}
	return s
}
