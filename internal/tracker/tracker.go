// Package tracker counts the items of a long loop and reports them as
// report.Progress, the one progress type of every long call in this module
// (Evaluate, the generators).
package tracker

import (
	"sync"
	"time"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// Tracker reports the progress of a loop over a known number of items to
// an report.Progress callback. Each Done call reports once, from
// one goroutine at a time. A Tracker with a nil callback does nothing.
// It is safe for concurrent use.
type Tracker struct {
	// PassedAs says what the items counted as passed are, when that is
	// not "passed" (mutate's candidates that became tasks are "valid").
	PassedAs string

	f     func(report.Progress)
	phase string
	start time.Time

	mu           sync.Mutex
	done, passed int
	total        int
}

// New returns a Tracker of total items in phase, reporting to f, and
// reports the loop's start (Done 0) when it has items: the first item can
// take long (a build), and a display then says what runs meanwhile.
func New(f func(report.Progress), phase string, total int) *Tracker {
	t := &Tracker{f: f, phase: phase, total: total, start: time.Now()}
	if f != nil && total > 0 {
		f(report.Progress{Phase: phase, Total: total})
	}
	return t
}

// Done counts one finished item, passed or not, and reports.
func (t *Tracker) Done(passed bool) {
	if t == nil || t.f == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.done++
	if passed {
		t.passed++
	}
	p := report.Progress{Phase: t.phase, Done: t.done, Total: t.total, Passed: t.passed, PassedAs: t.PassedAs, Elapsed: time.Since(t.start)}
	if p.Elapsed > 0 {
		p.Rate = float64(t.done) / p.Elapsed.Seconds()
	}
	if p.Rate > 0 {
		p.ETA = time.Duration(float64(t.total-t.done) / p.Rate * float64(time.Second))
	}
	t.f(p)
}
