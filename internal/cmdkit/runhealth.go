package cmdkit

import (
	"fmt"
	"io"
	"strings"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// InvalidShare is the share of invalid references above which CheckRun warns.
const InvalidShare = 0.10

// CheckRun returns an error naming how many checks of rep the harness left
// unscored (a reference or a sample whose check ended in an
// infrastructure error after its retries) and the first reason, or nil
// when there is none. It writes a warning to w when more than
// InvalidShare of the references checked were invalid.
func CheckRun(rep *report.Report, w io.Writer) error {
	checked := rep.Valid + len(rep.Invalid)
	if checked > 0 && float64(len(rep.Invalid)) > InvalidShare*float64(checked) {
		fmt.Fprintf(w, "WARNING: %d of %d references are invalid (%.0f%%, more than %.0f%%): the environment may be broken (first: %s: %s)\n",
			len(rep.Invalid), checked, 100*float64(len(rep.Invalid))/float64(checked), 100*InvalidShare, rep.Invalid[0].TaskID, firstLine(rep.Invalid[0].Reason))
	}
	n, first := 0, ""
	for _, u := range rep.Unscored {
		if strings.HasPrefix(u.Reason, "reference could not be checked") {
			n++
			if first == "" {
				first = u.TaskID + ": " + firstLine(u.Reason)
			}
		}
	}
	for _, tr := range rep.PerTask {
		for _, s := range tr.Samples {
			if s.Outcome == report.OutcomeInfraError {
				n++
				if first == "" {
					first = fmt.Sprintf("%s #%d: %s", tr.TaskID, s.Sample, firstLine(s.Detail))
				}
			}
		}
	}
	if n == 0 {
		return nil
	}
	return fmt.Errorf("the harness could not make %d checks (infrastructure errors after retries; they are unscored, not failures): first %s", n, first)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
