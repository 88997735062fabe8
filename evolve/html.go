package evolve

import (
	"fmt"

	"github.com/adaptbench/adaptbench/adapt/htmlreport"
)

// HTMLSection is the search's part of an HTML report (see
// htmlreport.Write): every evolved subject's original and pick on
// relative complexity against relative readability, joined by a line,
// with Table 4's means in the note.
func (r *Result) HTMLSection() htmlreport.Section {
	orig := htmlreport.Series{Name: "original"}
	pick := htmlreport.Series{Name: "evolved (pick)"}
	for e := range r.Evolved() {
		o, p := e.Original(), e.Evolved()
		if o == nil || p == nil {
			continue
		}
		orig.Points = append(orig.Points, htmlreport.Point{X: o.RC, Y: o.RR, Label: e.Subject})
		pick.Points = append(pick.Points, htmlreport.Point{X: p.RC, Y: p.RR, Label: e.Subject})
	}
	s := r.Summary()
	return htmlreport.Section{
		Title: "evolve: relative complexity against readability, original and evolved",
		Text: fmt.Sprintf("%d of %d programs evolved (%d runs completed, %d skipped, %d errors). Mean relative complexity %.3f → %.3f, readability %.3f → %.3f over the runs.",
			s.Evolved, s.Programs, s.Runs, s.Skipped, s.Errors, s.RCBefore, s.RCAfter, s.RRBefore, s.RRAfter),
		Scatter: &htmlreport.Scatter{XLabel: "relative complexity (RC)", YLabel: "relative readability (RR)", Series: []htmlreport.Series{orig, pick}, Paired: true},
		Funnel:  &r.Funnel,
	}
}
