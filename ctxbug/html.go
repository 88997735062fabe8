package ctxbug

import (
	"fmt"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// HTMLSection is the generator's part of an HTML report (see
// htmlreport.Write): the funnel of the model's variants through
// identification (the paper's Fig. 5).
func (r *Result) HTMLSection() report.Section {
	return report.Section{
		Title:  "ctxbug: candidates through identification",
		Text:   fmt.Sprintf("%d CtxBugs identified among %d candidates; %d tasks.", len(r.Instances), len(r.candidates), len(r.Tasks)),
		Funnel: &r.Funnel,
	}
}
