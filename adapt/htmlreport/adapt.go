package htmlreport

import (
	"slices"
	"strconv"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/internal/textkit"
	"github.com/adaptbench/adaptbench/metrics"
)

// The page writes numbers, labels runs and tabulates funnels as adapt's
// Markdown and CSV writers do (Report.WriteMarkdown, WriteComparison,
// Funnel.WriteTable): the helpers below are those rules, over adapt's
// exported API, so that the page and the text reports agree.

// passAt is pass@k of n scored samples with c correct; the caller makes
// sure that k <= n.
func passAt(n, c, k int) float64 {
	v, err := metrics.PassAtK(n, c, k)
	if err != nil {
		panic("htmlreport: " + err.Error())
	}
	return v
}

// scoreAt is the value of k in scores, when they hold one.
func scoreAt(scores []report.Score, k int) (float64, bool) {
	s, ok := scoreOf(scores, k)
	return s.Value, ok
}

// scoreOf is the score of k in scores, when they hold one.
func scoreOf(scores []report.Score, k int) (report.Score, bool) {
	i := slices.IndexFunc(scores, func(s report.Score) bool { return s.K == k })
	if i < 0 {
		return report.Score{}, false
	}
	return scores[i], true
}

// outcomesOf is every outcome some report counts, in report.Outcomes order.
func outcomesOf(reports []*report.Report) []report.Outcome {
	var out []report.Outcome
	for _, o := range report.Outcomes {
		if slices.ContainsFunc(reports, func(r *report.Report) bool { return r.Outcomes[o] > 0 }) {
			out = append(out, o)
		}
	}
	return out
}

// funnelRows are a funnel's table rows, as Funnel.WriteTable writes them:
// per group, its name and its count at each stage, then a "total" row
// when there is more than one group.
func funnelRows(f *report.Funnel) [][]string {
	stages, groups := f.Stages(), f.Groups()
	var rows [][]string
	row := func(name string, count func(string) int) {
		r := []string{name}
		for _, s := range stages {
			r = append(r, strconv.Itoa(count(s)))
		}
		rows = append(rows, r)
	}
	for _, g := range groups {
		row(g, func(s string) int { return f.Count(g, s) })
	}
	if len(groups) > 1 {
		row("total", f.Total)
	}
	return rows
}

// runLabels labels reports by run name (Run.Name, or the model's for a
// report that has none), as report.WriteComparison labels its columns.
func runLabels(reports []*report.Report) []string {
	names := make([]string, len(reports))
	for i, r := range reports {
		names[i] = r.Run.Name
		if names[i] == "" {
			names[i] = r.Run.Model
		}
	}
	return textkit.Labels(names)
}

// sampleRange is the fewest and the most samples the run drew of a task.
func sampleRange(ri report.RunInfo) (lo, hi int) {
	return textkit.SampleRange(ri.Samples, ri.TaskSamples, ri.TaskCount)
}

// samplesText is the samples the run drew of each task, "2" or "1–2 per task".
func samplesText(ri report.RunInfo) string {
	return textkit.SamplesText(ri.Samples, ri.TaskSamples, ri.TaskCount)
}

// allKs is every k some report scored, in increasing order.
func allKs(reports []*report.Report) []int {
	var ks []int
	for _, r := range reports {
		for _, s := range r.PassAtK {
			ks = append(ks, s.K)
		}
	}
	return textkit.Ks(ks)
}
