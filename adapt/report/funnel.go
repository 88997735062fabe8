package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
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
	for _, row := range f.rows() {
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// rows are the funnel's table rows: per group, its name and its count at
// each stage, then a "total" row when there is more than one group.
func (f *Funnel) rows() [][]string {
	var rows [][]string
	row := func(name string, count func(string) int) {
		r := []string{name}
		for _, s := range f.stages {
			r = append(r, strconv.Itoa(count(s)))
		}
		rows = append(rows, r)
	}
	for _, g := range f.groups {
		row(g, func(s string) int { return f.Count(g, s) })
	}
	if len(f.groups) > 1 {
		row("total", f.Total)
	}
	return rows
}

// Regroup returns a new funnel whose groups are key(g) of this funnel's
// groups, each counting the sum of the groups it gathers, with the same
// stages: a summary of a funnel with many groups (a generator's operator
// combinations gathered by level, say). Groups are in the order of cmp
// (nil: first seen); the funnel itself is unchanged.
func (f *Funnel) Regroup(key func(group string) string, cmp func(a, b string) int) *Funnel {
	out := &Funnel{}
	out.Declare(f.stages...)
	for _, g := range f.groups {
		k := key(g)
		for _, s := range f.stages {
			out.Add(k, s, f.Count(g, s))
		}
	}
	if cmp != nil {
		slices.SortStableFunc(out.groups, cmp)
	}
	return out
}

// WriteCSV writes the funnel as CSV: a header ("group" and the stages),
// then a row per group with its counts, and no total row: every group in
// full, for programs and spreadsheets.
func (f *Funnel) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(append([]string{"group"}, f.stages...))
	for _, g := range f.groups {
		row := []string{g}
		for _, s := range f.stages {
			row = append(row, strconv.Itoa(f.Count(g, s)))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
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

// Section is a task generator's part of a report: a note, its funnel and
// a scatter plot, as plain data. The generators make theirs (mutate,
// ctxbug and evolve's HTMLSection) and adapt/htmlreport draws them, so
// that every generator's section looks the same, nothing a generator
// holds reaches a page unescaped, and no generator imports the page's
// code.
//
// Its JSON form is how it is kept beside the tasks, to draw the page on
// another day: json.Marshal writes it and json.Unmarshal reads it back
// equal. The keys are stable:
//
//	{"title": "mutate: …", "text": "…",
//	 "funnel": {"stages": ["made", …], "groups": [{"name": "swapop", "counts": [10, …]}]},
//	 "scatter": {"x_label": "RC", "y_label": "RR", "paired": true,
//	             "series": [{"name": "original", "points": [{"x": 0.01, "y": 0.9, "label": "HumanEval/0"}]}]}}
type Section struct {
	// Title heads the section.
	Title string `json:"title"`
	// Text is a note in plain text; blank lines separate paragraphs.
	Text string `json:"text,omitempty"`
	// Funnel, if set, is drawn as a funnel of its stage totals and
	// tabulated per group.
	Funnel *Funnel `json:"funnel,omitempty"`
	// Branches are stages of Funnel drawn as a side branch of the main
	// line, beside the stage before them, not as a stage of their own:
	// counts that go around a stage (mutate's unresolved mutants, kept
	// without compiling, beside the compiled ones).
	Branches []string `json:"branches,omitempty"`
	// Scatter, if set, is drawn as a scatter plot.
	Scatter *Scatter `json:"scatter,omitempty"`
}

// Scatter is a scatter plot's data, such as evolve's relative complexity
// against relative readability, original against evolved.
type Scatter struct {
	XLabel string   `json:"x_label"`
	YLabel string   `json:"y_label"`
	Series []Series `json:"series"`
	// Paired says that point i of the first two series is the same
	// subject (before and after): a line joins them.
	Paired bool `json:"paired,omitempty"`
}

// Series is one series of a Scatter.
type Series struct {
	Name   string  `json:"name"`
	Points []Point `json:"points"`
}

// Point is one point of a Series; Label names it in the tooltip.
type Point struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Label string  `json:"label,omitempty"`
}
