package mutate

import "github.com/adaptbench/adaptbench/adapt/htmlreport"

// HTMLSection is the pipeline's part of an HTML report (see
// htmlreport.Write): the funnel of candidates per operator
// combination, with the pilot's gates in the note.
func (r *Result) HTMLSection() htmlreport.Section {
	return htmlreport.Section{Title: "mutate: candidates through the pipeline", Text: r.Gates().String(), Funnel: &r.Funnel}
}
