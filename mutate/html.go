package mutate

import "github.com/adaptbench/adaptbench/adapt"

// HTMLSection is the pipeline's part of an HTML report (see
// adapt.Report.WriteHTML): the funnel of candidates per operator
// combination, with the pilot's gates in the note.
func (r *Result) HTMLSection() adapt.HTMLSection {
	return adapt.HTMLSection{Title: "mutate: candidates through the pipeline", Text: r.Gates().String(), Funnel: &r.Funnel}
}
