package evolve

import (
	"fmt"

	"github.com/adaptbench/adaptbench/adapt"
)

// HTMLSection is the search's part of an HTML report (see
// htmlreport.Write): every evolved subject's original and pick on
// relative complexity against relative readability, joined by a line,
// with Table 4's means in the note.
func (r *Result) HTMLSection() adapt.Section {
	orig := adapt.Series{Name: "original"}
	pick := adapt.Series{Name: "evolved (pick)"}
	for e := range r.Evolved() {
		o, p := e.Original(), e.Evolved()
		if o == nil || p == nil {
			continue
		}
		orig.Points = append(orig.Points, adapt.Point{X: o.RC, Y: o.RR, Label: e.Subject})
		pick.Points = append(pick.Points, adapt.Point{X: p.RC, Y: p.RR, Label: e.Subject})
	}
	s := r.Summary()
	return adapt.Section{
		Title: "evolve: relative complexity against readability, original and evolved",
		Text: fmt.Sprintf("%d of %d programs evolved (%d runs completed, %d skipped, %d errors). Mean relative complexity %.3f → %.3f, readability %.3f → %.3f over the runs.",
			s.Evolved, s.Programs, s.Runs, s.Skipped, s.Errors, s.RCBefore, s.RCAfter, s.RRBefore, s.RRAfter),
		Scatter: &adapt.Scatter{XLabel: "relative complexity (RC)", YLabel: "relative readability (RR)", Series: []adapt.Series{orig, pick}, Paired: true},
		Funnel:  &r.Funnel,
	}
}
