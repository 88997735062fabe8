package ctxbug

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/adaptbench/adaptbench/metrics"
)

// adaptTasks are the paper's four adaptation tasks, in its column order.
var adaptTasks = []string{"interface", "functionality", "identifier", "dependency"}

// cellAll is the column of all tasks together.
const cellAll = "all"

// Cell counts one group of results: instances (for Pass@1) and bug
// locations (for the resolution rate).
type Cell struct {
	Instances int `json:"instances"`
	Passed    int `json:"passed"`
	Bugs      int `json:"bugs"`
	Resolved  int `json:"resolved"`
}

// add returns the sum of two cells.
func (c Cell) add(d Cell) Cell {
	return Cell{c.Instances + d.Instances, c.Passed + d.Passed, c.Bugs + d.Bugs, c.Resolved + d.Resolved}
}

// PassAt1 is Passed/Instances (one sample per instance at temperature 0,
// so pass@1 is the fraction passed), NaN for no instances.
func (c Cell) PassAt1() float64 { return ratio(c.Passed, c.Instances) }

// RR is the resolution rate, Resolved/Bugs: a micro-average over bug
// locations, not instances. NaN for no bugs.
func (c Cell) RR() float64 { return ratio(c.Resolved, c.Bugs) }

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// Row is one line of the paper's tables: the cells of one generator, one
// tested model and one setting, by adaptation task and All.
type Row struct {
	Generator string          `json:"generator"`
	Model     string          `json:"model"`
	Setting   Setting         `json:"setting"`
	Cells     map[string]Cell `json:"cells"`
}

// Table is rows of the paper's Tables 4–6.
type Table []Row

// Aggregate counts valid results by (generator, tested model, setting),
// rows in order of first appearance. All is the micro-average: the sum
// of the task cells.
func Aggregate(results []TaskResult) Table {
	var rows Table
	idx := map[[3]string]int{}
	for _, r := range results {
		if !r.Valid {
			continue
		}
		k := [3]string{r.Generator, r.Model, string(r.Setting)}
		i, ok := idx[k]
		if !ok {
			i = len(rows)
			idx[k] = i
			rows = append(rows, Row{Generator: r.Generator, Model: r.Model, Setting: r.Setting, Cells: map[string]Cell{}})
		}
		c := Cell{Instances: 1, Bugs: r.Bugs, Resolved: r.Resolved}
		if r.Passed {
			c.Passed = 1
		}
		rows[i].Cells[r.AdaptTask] = rows[i].Cells[r.AdaptTask].add(c)
		rows[i].Cells[cellAll] = rows[i].Cells[cellAll].add(c)
	}
	return rows
}

// Average is the paper's "Average" row of a tested model: its rows over
// all generators, weighted by benchmark size (Pass@1 by instances, RR by
// bugs), which is the sum of the counts. Generator is "Average".
func Average(rows Table, model string, s Setting) Row {
	out := Row{Generator: "Average", Model: model, Setting: s, Cells: map[string]Cell{}}
	for _, r := range rows {
		if r.Model != model || r.Setting != s {
			continue
		}
		for k, c := range r.Cells {
			out.Cells[k] = out.Cells[k].add(c)
		}
	}
	return out
}

// degradation is how much worse treated is than baseline, in percent of
// the baseline (metrics.RelativeDegradation × 100), for Pass@1 and RR:
// Table 5 (baseline w/o CtxBugs, treated w/ CtxBugs) and Table 6 (baseline
// w/ IsoBugs, treated w/ CtxBugs; the paper shows a positive value as ↓).
// A metric whose baseline is 0 or undefined is NaN.
func degradation(baseline, treated Cell) (pass1, rr float64) {
	rel := func(b, x float64) float64 {
		v, err := metrics.RelativeDegradation(b, x)
		if err != nil {
			return math.NaN()
		}
		return 100 * v
	}
	return rel(baseline.PassAt1(), treated.PassAt1()), rel(baseline.RR(), treated.RR())
}

// Paired keeps the results of ctx whose instance has a valid result in
// iso for the same generator and tested model: Table 6's paired subset.
func Paired(ctx, iso []TaskResult) []TaskResult {
	have := map[[3]string]bool{}
	for _, r := range iso {
		if r.Valid {
			have[[3]string{r.Generator, r.Model, r.Instance}] = true
		}
	}
	var out []TaskResult
	for _, r := range ctx {
		if have[[3]string{r.Generator, r.Model, r.Instance}] {
			out = append(out, r)
		}
	}
	return out
}

// WriteTable writes the rows in the layout of the paper's Tables 4–6:
// one line per row, Pass@1 and RR in percent per adaptation task and All,
// with the counts behind each All cell.
func (rows Table) WriteTable(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| Model-G | Model-T | Setting |")
	for _, t := range adaptTasks {
		fmt.Fprintf(&b, " %s P@1 | %s RR |", title(t), title(t))
	}
	b.WriteString(" All P@1 | All RR | instances (bugs) |\n|---|---|---|")
	for range len(adaptTasks) + 1 {
		b.WriteString("---|---|")
	}
	b.WriteString("---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s |", r.Generator, r.Model, r.Setting)
		for _, t := range append(adaptTasks[:len(adaptTasks):len(adaptTasks)], cellAll) {
			c := r.Cells[t]
			fmt.Fprintf(&b, " %s | %s |", pct(c.PassAt1()), pct(c.RR()))
		}
		a := r.Cells[cellAll]
		fmt.Fprintf(&b, " %d (%d) |\n", a.Instances, a.Bugs)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteDegradation writes the "Rel %" line of Tables 5 and 6 for the
// row's model: the degradation from baseline to the row per task and
// All, with ↓ for a drop, ↑ for a gain and = for none.
func (treated Row) WriteDegradation(w io.Writer, baseline Row) error {
	var b strings.Builder
	fmt.Fprintf(&b, "| %s | Rel %% (%s → %s) |", treated.Model, baseline.Setting, treated.Setting)
	for _, t := range append(adaptTasks[:len(adaptTasks):len(adaptTasks)], cellAll) {
		p, r := degradation(baseline.Cells[t], treated.Cells[t])
		fmt.Fprintf(&b, " %s | %s |", arrow(p), arrow(r))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func pct(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.2f", 100*v)
}

func arrow(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case math.Abs(v) < 0.005:
		return "0.00 ="
	case v > 0:
		return fmt.Sprintf("%.2f↓", v)
	}
	return fmt.Sprintf("%.2f↑", -v)
}

// MeanATP is Table 7's cell for a tested model: the mean of the ATP of
// its results that have one (an overlooked bug location and token
// log-probabilities), and how many there are.
func MeanATP(results []TaskResult, model string) (float64, int) {
	sum, n := 0.0, 0
	for _, r := range results {
		if r.Model == model && r.Valid && r.ATPTokens > 0 {
			sum += r.ATP
			n++
		}
	}
	if n == 0 {
		return math.NaN(), 0
	}
	return sum / float64(n), n
}
