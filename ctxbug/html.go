package ctxbug

import (
	"fmt"

	"github.com/adaptbench/adaptbench/adapt"
)

// HTMLSection is the generator's part of an HTML report (see
// adapt.Report.WriteHTML): the funnel of the model's variants through
// identification (the paper's Fig. 5).
func (r *Result) HTMLSection() adapt.HTMLSection {
	return adapt.HTMLSection{
		Title:  "ctxbug: candidates through identification",
		Text:   fmt.Sprintf("%d CtxBugs identified among %d candidates; %d tasks.", len(r.Instances), len(r.Candidates), len(r.Tasks)),
		Funnel: &r.Funnel,
	}
}
