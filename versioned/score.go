package versioned

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/textkit"
	"github.com/adaptbench/adaptbench/metrics"
)

// Rate is a success rate over the valid tasks (paper §3: 100·(1/N)·Σ 1[pass]),
// with the binomial standard error the paper's ± figures are
// (100·sqrt(p(1−p)/N)) and a 95% Wilson interval.
type Rate struct {
	Passed int `json:"passed"`
	N      int `json:"n"`
	// Percent and SE are in percent.
	Percent float64          `json:"percent"`
	SE      float64          `json:"se"`
	CI95    metrics.Interval `json:"ci95"`
}

// newRate returns the rate of passed out of n.
func newRate(passed, n int) Rate {
	r := Rate{Passed: passed, N: n}
	if n == 0 {
		return r
	}
	p := float64(passed) / float64(n)
	r.Percent = 100 * p
	r.SE = 100 * math.Sqrt(p*(1-p)/float64(n))
	if ci, err := metrics.Wilson(passed, n, 0.95); err == nil {
		r.CI95 = ci
	}
	return r
}

// String renders the rate as the paper's tables do: "48.8±2.8".
func (r Rate) String() string {
	if r.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f±%.1f", r.Percent, r.SE)
}

// validRate counts, over the valid tasks for which f's second result is
// true, those for which its first is.
func (r *Scores) validRate(f func(*TaskResult) (pass, counted bool)) Rate {
	return r.rate(f, false)
}

// rate is validRate over the valid tasks, or, with all, over every scored
// task, the invalid ones counting as not passed.
func (r *Scores) rate(f func(*TaskResult) (pass, counted bool), all bool) Rate {
	passed, n := 0, 0
	for i := range r.Tasks {
		t := &r.Tasks[i]
		if t.Unscored != "" || !t.Valid && !all {
			continue
		}
		if ok, counted := f(t); counted {
			n++
			if ok && t.Valid {
				passed++
			}
		}
	}
	return newRate(passed, n)
}

// Hidden is the hidden success rate, the benchmark's primary metric, over
// the valid tasks that have hidden tests (TaskResult.NoHidden unset).
func (r *Scores) Hidden() Rate {
	return r.validRate(func(t *TaskResult) (bool, bool) { return t.Hidden, !t.NoHidden })
}

// Visible is the visible success rate over the valid tasks.
func (r *Scores) Visible() Rate {
	return r.validRate(func(t *TaskResult) (bool, bool) { return t.Visible, true })
}

// allRate is validRate over every task, as the paper's rates are over all 328
// problems: a task whose reference failed (invalid) counts as not passed.
// Unscored tasks (a model or infrastructure error) are still left out, as
// adapt's scoring rules say.
func (r *Scores) allRate(f func(*TaskResult) (pass, counted bool)) Rate {
	return r.rate(f, true)
}

// HiddenAll is the hidden success rate over every task that has hidden
// tests, invalid ones counting as failures (see allRate).
func (r *Scores) HiddenAll() Rate {
	return r.allRate(func(t *TaskResult) (bool, bool) { return t.Hidden, !t.NoHidden })
}

// VisibleAll is the visible success rate over every task (see allRate).
func (r *Scores) VisibleAll() Rate {
	return r.allRate(func(t *TaskResult) (bool, bool) { return t.Visible, true })
}

// passRuleName describes a pass rule (adapt.Task.PassRule) for tables.
func passRuleName(rule string) string {
	switch rule {
	case adapt.PassExitStatus:
		return "pass rule exit-status: pytest exits 0, tests that skip pass (upstream's)"
	case adapt.PassEveryTest:
		return "pass rule every-test: each test passed, a skipped test does not"
	}
	return "pass rule " + rule
}

// APIHitRate is the share of scored solutions that call every API of
// their task's api_calls (paper §3, after Wang et al. 2024a).
func (r *Scores) APIHitRate() Rate {
	return r.validRate(func(t *TaskResult) (bool, bool) { return t.APIHit, t.APIScored })
}

// group is the rates of the tasks that share one value of a breakdown.
type group struct {
	By      string `json:"by"`
	Value   string `json:"value"`
	Hidden  Rate   `json:"hidden"`
	Visible Rate   `json:"visible"`
	APIHit  Rate   `json:"api_hit"`
}

// The breakdowns the paper reports (Figs. 7, 10, 11): a name and the
// value a task's labels give.
var (
	byLibrary  = grouping{Name: "library", Value: func(l map[string]string) string { return l["library"] }}
	byCategory = grouping{Name: "category", Value: func(l map[string]string) string { return l["category"] }}
	// byRuntime is the Python version, or the Go version of a Go task.
	byRuntime = grouping{Name: "runtime", Value: func(l map[string]string) string {
		if v := l["python"]; v != "" {
			return "python " + v
		}
		if v := l["go"]; v != "" {
			return "go " + v
		}
		return ""
	}}
	// byYear is the release year of the version the task names.
	byYear = grouping{Name: "year", Value: func(l map[string]string) string { return l["year"] }}
)

// grouping names a way of grouping tasks by their labels for a breakdown.
type grouping struct {
	Name  string
	Value func(labels map[string]string) string
}

// groupings lists the paper's breakdowns, in the order WriteBreakdowns
// writes them.
var groupings = []grouping{byLibrary, byCategory, byRuntime, byYear}

// groups groups the valid tasks by b, in increasing order of value.
// Tasks for which b gives "" are left out.
func (r *Scores) groups(b grouping) []group {
	byValue := map[string]*Scores{}
	for _, t := range r.Tasks {
		v := b.Value(t.Labels)
		if !t.Valid || v == "" {
			continue
		}
		g := byValue[v]
		if g == nil {
			g = &Scores{}
			byValue[v] = g
		}
		g.Tasks = append(g.Tasks, t)
	}
	values := make([]string, 0, len(byValue))
	for v := range byValue {
		values = append(values, v)
	}
	slices.Sort(values)
	out := make([]group, 0, len(values))
	for _, v := range values {
		g := byValue[v]
		out = append(out, group{By: b.Name, Value: v, Hidden: g.Hidden(), Visible: g.Visible(), APIHit: g.APIHitRate()})
	}
	return out
}

// TableRow is one model's row of the paper's Table 1: its greedy,
// self-debug and chain-of-thought results (nil: not run).
type TableRow struct {
	Model                  string
	Greedy, SelfDebug, CoT *Scores
}

// Table is rows of the paper's Table 1.
type Table []TableRow

// WriteTable writes the rows in the layout of the paper's Table 1, as
// Markdown: success rates and API hit rates with standard errors. Each
// cell gives the rate over the valid tasks with its N, then, for success
// rates, the rate over all tasks as the paper reports it (invalid tasks
// counted as failures). A line under the table says which pass rule the
// verdicts are under and how many tasks have no hidden tests.
func (rows Table) WriteTable(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| Model | Greedy Hidden | Greedy Visible | Greedy API | SD Hidden | SD Visible | SD API | CoT Hidden | CoT API |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	cell := func(r *Scores, f, all func(*Scores) Rate) string {
		if r == nil {
			return "–"
		}
		v := f(r)
		s := fmt.Sprintf("%s (N=%d)", v, v.N)
		if all != nil {
			a := all(r)
			s += fmt.Sprintf("; all %.1f (%d/%d)", a.Percent, a.Passed, a.N)
		}
		return s
	}
	hidden, visible, api := (*Scores).Hidden, (*Scores).Visible, (*Scores).APIHitRate
	hiddenAll, visibleAll := (*Scores).HiddenAll, (*Scores).VisibleAll
	rules, noHidden := map[string]bool{}, map[int]bool{}
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Model,
			cell(r.Greedy, hidden, hiddenAll), cell(r.Greedy, visible, visibleAll), cell(r.Greedy, api, nil),
			cell(r.SelfDebug, hidden, hiddenAll), cell(r.SelfDebug, visible, visibleAll), cell(r.SelfDebug, api, nil),
			cell(r.CoT, hidden, hiddenAll), cell(r.CoT, api, nil))
		for _, res := range []*Scores{r.Greedy, r.SelfDebug, r.CoT} {
			if res == nil {
				continue
			}
			rules[res.PassRule] = true
			n := 0
			for _, t := range res.Tasks {
				if t.NoHidden {
					n++
				}
			}
			noHidden[n] = true
		}
	}
	names := make([]string, 0, len(rules))
	for rule := range rules {
		names = append(names, passRuleName(rule))
	}
	slices.Sort(names)
	if len(names) > 0 {
		fmt.Fprintf(&b, "\nVerdicts: %s.", strings.Join(names, "; "))
		counts := make([]int, 0, len(noHidden))
		for n := range noHidden {
			if n > 0 {
				counts = append(counts, n)
			}
		}
		slices.Sort(counts)
		for _, n := range counts {
			fmt.Fprintf(&b, " %d tasks have no hidden tests: no hidden verdict, not in the Hidden columns.", n)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteBreakdowns writes the paper's breakdowns (by library, change
// category, runtime version and release year), each a Markdown table of
// hidden success, visible success and API hit rate per value: N is the
// number of valid tasks, Hidden N of those with hidden tests.
func (r *Scores) WriteBreakdowns(w io.Writer) error {
	return r.writeBreakdowns(w, groupings...)
}

func (r *Scores) writeBreakdowns(w io.Writer, bs ...grouping) error {
	var b strings.Builder
	for i, bd := range bs {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "| %s | N | Hidden | Hidden N | Visible | API |\n|---|---|---|---|---|---|\n", bd.Name)
		for _, g := range r.groups(bd) {
			fmt.Fprintf(&b, "| %s | %d | %s | %d | %s | %s |\n", g.Value, g.Visible.N, g.Hidden, g.Hidden.N, g.Visible, g.APIHit)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ErrorClass is how many failed solutions ended with one kind of error.
type ErrorClass struct {
	Class string `json:"class"`
	Count int    `json:"count"`
}

// ErrorClasses is the paper's error-category histogram (Fig. 8): for each
// valid task whose final solution failed its visible tests, the class of
// the exception its trace ends with ("AssertionError", "TypeError"), or
// the outcome when there is none ("compile-error", "timeout"). Most
// frequent first, then by name.
func (r *Scores) ErrorClasses() []ErrorClass {
	counts := map[string]int{}
	for _, t := range r.Tasks {
		if !t.Valid || t.Visible {
			continue
		}
		class := textkit.ExceptionType(t.Trace)
		if class == "" {
			class = t.Outcome.String()
		}
		counts[class]++
	}
	out := make([]ErrorClass, 0, len(counts))
	for c, n := range counts {
		out = append(out, ErrorClass{Class: c, Count: n})
	}
	slices.SortFunc(out, func(a, b ErrorClass) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Class, b.Class)
	})
	return out
}
