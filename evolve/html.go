package evolve

import (
	"fmt"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// HTMLSection is the search's part of an HTML report (see
// htmlreport.Write): every evolved subject's original and pick on
// relative complexity against relative readability, joined by a line,
// with Table 4's means in the note.
func (r *Result) HTMLSection() report.Section {
	orig := report.Series{Name: "original"}
	pick := report.Series{Name: "evolved (pick)"}
	for e := range r.Evolved() {
		o, p := e.Original(), e.Evolved()
		if o == nil || p == nil {
			continue
		}
		orig.Points = append(orig.Points, report.Point{X: o.RC, Y: o.RR, Label: e.Subject})
		pick.Points = append(pick.Points, report.Point{X: p.RC, Y: p.RR, Label: e.Subject})
	}
	s := r.Summary()
	return report.Section{
		Title: "evolve: relative complexity against readability, original and evolved",
		Text: fmt.Sprintf("%d of %d programs evolved (%d runs completed, %d skipped, %d errors). Mean relative complexity %.3f → %.3f, readability %.3f → %.3f over the runs.",
			s.Evolved, s.Programs, s.Runs, s.Skipped, s.Errors, s.RCBefore, s.RCAfter, s.RRBefore, s.RRAfter),
		Scatter: &report.Scatter{XLabel: "relative complexity (RC)", YLabel: "relative readability (RR)", Series: []report.Series{orig, pick}, Paired: true},
		Funnel:  &r.Funnel,
	}
}
