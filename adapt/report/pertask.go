package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/internal/textkit"
)

// label is the run's name in tables: Run.Name, or the model's name for a
// report that has none (one built before runs had names).
func (r *Report) label() string {
	if r.Run.Name != "" {
		return r.Run.Name
	}
	return r.Run.Model
}

// title is the heading of the report's Markdown form: the run's label,
// the model when the name is another, the template ("no prompt" for a
// PromptFree model) and the samples.
func (r *Report) title() string {
	var parts []string
	if r.label() != r.Run.Model {
		parts = append(parts, "model "+r.Run.Model)
	}
	if r.Run.Template != "" {
		parts = append(parts, r.Run.Template)
	} else {
		parts = append(parts, "no prompt")
	}
	parts = append(parts, "n="+r.Run.samplesText())
	return fmt.Sprintf("%s (%s)", mdCell(r.label()), strings.Join(parts, ", "))
}

// pctCell is v in percent, "-" for NaN (not computed).
func pctCell(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return textkit.Pct(v) + "%"
}

// mdCell makes s safe in a Markdown table cell: one line, pipes escaped.
func mdCell(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
}

// taskRow is one task's line of the per-task table.
type taskRow struct {
	tr       *TaskReport
	invalid  string // the reason the reference failed; "" when it did not
	unscored *UnscoredTask
	pass     []float64 // by Run.K: the pass@k, NaN when not computed
	counts   map[Outcome]int
}

// taskRows gathers the per-task table's rows, one per task in input order.
// A task's pass@k is given only where the report computed it: a task with
// fewer than k scored samples, an invalid task and an unchecked one have
// none (never a padded value).
func (r *Report) taskRows() []taskRow {
	invalid := map[string]string{}
	for _, it := range r.Invalid {
		invalid[it.TaskID] = it.Reason
	}
	unscored := map[string]*UnscoredTask{}
	for i := range r.Unscored {
		unscored[r.Unscored[i].TaskID] = &r.Unscored[i]
	}
	rows := make([]taskRow, len(r.PerTask))
	for i := range r.PerTask {
		tr := &r.PerTask[i]
		row := taskRow{tr: tr, invalid: invalid[tr.TaskID], unscored: unscored[tr.TaskID], counts: map[Outcome]int{}}
		for _, k := range r.Run.K {
			v, ok := scoreAt(tr.PassAtK, k)
			if !ok {
				v = math.NaN()
			}
			row.pass = append(row.pass, v)
		}
		for _, s := range tr.Samples {
			row.counts[s.Outcome]++
		}
		rows[i] = row
	}
	return rows
}

// status is "valid", "invalid" (the reference failed) or "unchecked"
// (the reference could not be checked).
func (row taskRow) status() string {
	switch {
	case row.tr.Valid:
		return "valid"
	case row.invalid != "":
		return "invalid"
	}
	return "unchecked"
}

// leftOut names the pass@k the task is left out of, "pass@1 pass@5".
func (row taskRow) leftOut() string {
	if row.unscored == nil {
		return ""
	}
	ks := make([]string, len(row.unscored.K))
	for i, k := range row.unscored.K {
		ks[i] = "pass@" + strconv.Itoa(k)
	}
	return strings.Join(ks, " ")
}

// WriteCSV writes the per-task table, one row per task in input order:
// task, valid, n (scored samples), c (passed), the pass@k of each k of
// Run.K (empty where the report computed none: the task has fewer than k
// scored samples, or is not valid), the sample count of each outcome (in
// the order of Outcomes), status ("valid", "invalid": the reference
// failed, or "unchecked": it could not be checked) and unscored (the
// pass@k the task is left out of, space-separated, as Report.Unscored
// lists them). No value is written as a negative zero.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"task", "valid", "n", "c"}
	for _, k := range r.Run.K {
		head = append(head, fmt.Sprintf("pass@%d", k))
	}
	for _, o := range Outcomes {
		head = append(head, o.String())
	}
	head = append(head, "status", "unscored")
	cw.Write(head)
	for _, row := range r.taskRows() {
		tr := row.tr
		rec := []string{tr.TaskID, strconv.FormatBool(tr.Valid), strconv.Itoa(tr.N), strconv.Itoa(tr.C)}
		for _, v := range row.pass {
			if math.IsNaN(v) {
				rec = append(rec, "")
			} else {
				rec = append(rec, textkit.Fixed(v, 6))
			}
		}
		for _, o := range Outcomes {
			rec = append(rec, strconv.Itoa(row.counts[o]))
		}
		rec = append(rec, row.status(), row.leftOut())
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// WritePerTask writes the per-task table in Markdown, one row per task in
// input order: task, n (scored samples), c (passed), the pass@k of each k
// of Run.K in percent ("-" where the report computed none), the sample
// count of each outcome that occurs in the report, and a note for a task
// that is invalid, unchecked or left out of some pass@k, with the reason.
// WriteCSV writes the same table with every outcome column.
func (r *Report) WritePerTask(w io.Writer) error {
	var outs []Outcome
	for _, o := range Outcomes {
		if r.Outcomes[o] > 0 {
			outs = append(outs, o)
		}
	}
	var b strings.Builder
	b.WriteString("| task | n | c |")
	for _, k := range r.Run.K {
		fmt.Fprintf(&b, " pass@%d |", k)
	}
	for _, o := range outs {
		fmt.Fprintf(&b, " %s |", o)
	}
	b.WriteString(" note |\n|---|---:|---:|")
	b.WriteString(strings.Repeat("---:|", len(r.Run.K)+len(outs)))
	b.WriteString("---|\n")
	for _, row := range r.taskRows() {
		tr := row.tr
		fmt.Fprintf(&b, "| %s | %d | %d |", mdCell(tr.TaskID), tr.N, tr.C)
		for _, v := range row.pass {
			fmt.Fprintf(&b, " %s |", pctCell(v))
		}
		for _, o := range outs {
			fmt.Fprintf(&b, " %d |", row.counts[o])
		}
		var note string
		switch {
		case row.invalid != "":
			note = "invalid: " + firstLine(row.invalid)
		case row.unscored != nil:
			note = "left out of " + strings.ReplaceAll(row.leftOut(), " ", ", ") + ": " + firstLine(row.unscored.Reason)
		}
		if note != "" {
			b.WriteString(" " + mdCell(note))
		}
		b.WriteString(" |\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// runLabels labels reports by their label (see label); a label that two of
// them share is suffixed with its position among them, " #1", " #2".
func runLabels(reports []*Report) []string {
	names := make([]string, len(reports))
	for i, r := range reports {
		names[i] = r.label()
	}
	return textkit.Labels(names)
}

// samplesText is the samples the run drew of each task, "2" or "1–2 per task".
func (ri RunInfo) samplesText() string {
	return textkit.SamplesText(ri.Samples, ri.TaskSamples, ri.TaskCount)
}
