package adapt

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
)

// Funnel counts, for each group of a generator's candidates (an operator,
// a rule, a subject), how many reached each stage of its pipeline: the
// validity funnel every generator reports. Groups and stages keep the
// order they were first declared or counted in, so a funnel prints the
// same way every time. The zero Funnel is ready to use; it is not safe
// for concurrent use.
type Funnel struct {
	stages []string
	groups []string
	counts map[string]map[string]int
}

// Declare fixes the order of stages before any is counted.
func (f *Funnel) Declare(stages ...string) {
	for _, s := range stages {
		if !slices.Contains(f.stages, s) {
			f.stages = append(f.stages, s)
		}
	}
}

// Add counts n candidates of group reaching stage.
func (f *Funnel) Add(group, stage string, n int) {
	if f.counts == nil {
		f.counts = map[string]map[string]int{}
	}
	c := f.counts[group]
	if c == nil {
		c = map[string]int{}
		f.counts[group] = c
		f.groups = append(f.groups, group)
	}
	f.Declare(stage)
	c[stage] += n
}

// Count returns how many candidates of group reached stage.
func (f *Funnel) Count(group, stage string) int { return f.counts[group][stage] }

// Total returns how many candidates of every group reached stage.
func (f *Funnel) Total(stage string) int {
	n := 0
	for _, c := range f.counts {
		n += c[stage]
	}
	return n
}

// Groups returns the groups counted, in first-seen order.
func (f *Funnel) Groups() []string { return slices.Clone(f.groups) }

// Stages returns the stages, in declared or first-seen order.
func (f *Funnel) Stages() []string { return slices.Clone(f.stages) }

// WriteTable writes the funnel as a Markdown table: a row per group, a
// column per stage, and a total row when there is more than one group.
func (f *Funnel) WriteTable(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| group |")
	for _, s := range f.stages {
		b.WriteString(" " + s + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(f.stages)) + "\n")
	row := func(name string, count func(string) int) {
		b.WriteString("| " + name + " |")
		for _, s := range f.stages {
			fmt.Fprintf(&b, " %d |", count(s))
		}
		b.WriteByte('\n')
	}
	for _, g := range f.groups {
		row(g, func(s string) int { return f.Count(g, s) })
	}
	if len(f.groups) > 1 {
		row("total", f.Total)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type funnelJSON struct {
	Stages []string          `json:"stages"`
	Groups []funnelGroupJSON `json:"groups"`
}

type funnelGroupJSON struct {
	Name   string `json:"name"`
	Counts []int  `json:"counts"` // one per stage
}

// MarshalJSON writes the stages and, per group, its counts in stage
// order.
func (f Funnel) MarshalJSON() ([]byte, error) {
	out := funnelJSON{Stages: f.Stages(), Groups: []funnelGroupJSON{}}
	if out.Stages == nil {
		out.Stages = []string{}
	}
	for _, g := range f.groups {
		fg := funnelGroupJSON{Name: g, Counts: make([]int, len(f.stages))}
		for i, s := range f.stages {
			fg.Counts[i] = f.Count(g, s)
		}
		out.Groups = append(out.Groups, fg)
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (f *Funnel) UnmarshalJSON(b []byte) error {
	var in funnelJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*f = Funnel{}
	f.Declare(in.Stages...)
	for _, g := range in.Groups {
		if len(g.Counts) != len(in.Stages) {
			return fmt.Errorf("adapt: funnel group %q has %d counts for %d stages", g.Name, len(g.Counts), len(in.Stages))
		}
		for i, n := range g.Counts {
			f.Add(g.Name, in.Stages[i], n)
		}
	}
	return nil
}

// Tracker reports the progress of a loop over a known number of items to
// a Progress callback: the one progress type of every long call in this
// module (Evaluate, the generators). Each Done call reports once, from
// one goroutine at a time. A Tracker with a nil callback does nothing.
// It is safe for concurrent use.
type Tracker struct {
	f     func(Progress)
	phase string
	start time.Time

	mu           sync.Mutex
	done, passed int
	total        int
}

// NewTracker returns a Tracker of total items in phase, reporting to f.
func NewTracker(f func(Progress), phase string, total int) *Tracker {
	return &Tracker{f: f, phase: phase, total: total, start: time.Now()}
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
	p := Progress{Phase: t.phase, Done: t.done, Total: t.total, Passed: t.passed, Elapsed: time.Since(t.start)}
	if p.Elapsed > 0 {
		p.Rate = float64(t.done) / p.Elapsed.Seconds()
	}
	if p.Rate > 0 {
		p.ETA = time.Duration(float64(t.total-t.done) / p.Rate * float64(time.Second))
	}
	t.f(p)
}
