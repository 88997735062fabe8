package mutate

import (
	"fmt"
	"sort"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// HTMLSection is the pipeline's part of an HTML report (see
// htmlreport.Write): the funnel of candidates per operator
// combination, with the summary line and the pilot's gates in the note.
// The unresolved mutants (kept without compiling) are drawn as a side
// branch beside the compiled ones, not as a stage after them.
func (r *Result) HTMLSection() report.Section {
	return report.Section{Title: "mutate: candidates through the pipeline", Text: r.Summary() + "\n\n" + r.Gates().String(),
		Funnel: &r.Funnel, Branches: []string{StageUnresolved}}
}

// Summary is the result in one line: "N mutants kept → M tasks (× C
// contexts)". N is every valid candidate, of every level: the funnel's
// StageDetected total and the rows of the mutant CSV whose verdict is
// "valid"; M is len(Tasks), a task per kept mutant and context level,
// less those a level withholds (a C1 snippet that hides the name the
// mutant's restoration needs), which the line then counts.
func (r *Result) Summary() string {
	kept := 0
	for _, c := range r.Candidates {
		if c.Valid() {
			kept++
		}
	}
	s := fmt.Sprintf("%d mutants kept → %d tasks", kept, len(r.Tasks))
	if kept == 0 {
		return s
	}
	per := map[string]int{}
	var levels []string
	for _, t := range r.Tasks {
		l := t.Labels[LabelContext]
		if per[l] == 0 {
			levels = append(levels, l)
		}
		per[l]++
	}
	sort.Strings(levels)
	s += fmt.Sprintf(" (× %d contexts", len(levels))
	for _, l := range levels {
		if n := kept - per[l]; n > 0 {
			s += fmt.Sprintf("; %d withheld at %s", n, l)
		}
	}
	return s + ")"
}
