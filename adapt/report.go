package adapt

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/metrics"
)

// Report is the result of an evaluation. It holds no timings, so the same
// inputs give the same report, byte for byte. Its text forms (Markdown,
// CSV) are for people and may change; the JSON form follows the struct.
type Report struct {
	Run RunInfo `json:"run"`
	// Tasks counts the tasks evaluated (valid and invalid).
	Tasks int `json:"tasks"`
	// Valid counts the tasks whose reference passed (all, without gold).
	Valid int `json:"valid"`
	// PassAtK is the task-level pass@k, averaged over valid tasks: a
	// sample passes a task when every test passes.
	PassAtK []Score `json:"pass_at_k"`
	// AdaptationPassAtK is the adaptation-level pass@k, averaged over the
	// adaptation steps (with tests) of valid tasks: a sample passes a step
	// when all the step's tests pass.
	AdaptationPassAtK []Score `json:"adaptation_pass_at_k,omitempty"`
	// Adaptations counts the steps scored; Untested those left out
	// because no test checks them.
	Adaptations int `json:"adaptations"`
	Untested    int `json:"untested_adaptations,omitempty"`
	// CI95 is a seeded bootstrap 95% interval of task-level pass@1.
	CI95 *metrics.Interval `json:"ci95,omitempty"`
	// Outcomes counts samples by outcome.
	Outcomes map[Outcome]int `json:"outcomes"`
	// Usage sums the tokens of every sample.
	Usage Usage `json:"usage"`
	// Cost is what Usage cost, when the model is a Pricer.
	Cost *float64 `json:"cost,omitempty"`
	// Breakdowns split the scores by adaptation category and type and by
	// every task label.
	Breakdowns []Breakdown `json:"breakdowns,omitempty"`
	// Invalid lists the tasks left out because their reference failed.
	Invalid []InvalidTask `json:"invalid,omitempty"`
	// PerTask holds every task's counts and samples, in input order.
	PerTask []TaskReport `json:"per_task"`
}

// Score is one pass@k value.
type Score struct {
	K     int     `json:"k"`
	Value float64 `json:"value"`
}

// Breakdown is a score for the tasks or steps sharing one label value.
type Breakdown struct {
	// By names the dimension: "category", "type" (of adaptation steps) or
	// "label:<key>" (of tasks).
	By    string `json:"by"`
	Value string `json:"value"`
	// Count is the number of steps (category, type) or tasks (labels).
	Count int `json:"count"`
	// Solved is the expected number solved: the sum of pass@1 (AdaptEval
	// Table V's cells).
	Solved float64 `json:"solved"`
	// PassAt1 is Solved/Count.
	PassAt1 float64 `json:"pass_at_1"`
}

// InvalidTask is a task whose reference did not pass.
type InvalidTask struct {
	Task   string        `json:"task"`
	Reason string        `json:"reason"`
	Result *SampleResult `json:"result,omitempty"`
}

// TaskReport is one task's results.
type TaskReport struct {
	Task  string `json:"task"`
	Valid bool   `json:"valid"`
	// N counts the samples scored (infrastructure errors are left out);
	// C those that passed.
	N       int            `json:"n"`
	C       int            `json:"c"`
	PassAtK []Score        `json:"pass_at_k,omitempty"`
	Steps   []StepReport   `json:"steps,omitempty"`
	Samples []SampleResult `json:"samples,omitempty"`
}

// StepReport is one adaptation step's results.
type StepReport struct {
	ID      string  `json:"id"`
	Type    string  `json:"type,omitempty"`
	Tests   int     `json:"tests"`
	C       int     `json:"c"`
	PassAt1 float64 `json:"pass_at_1"`
}

func buildReport(info RunInfo, tasks []*Task, recs *records) *Report {
	r := &Report{Run: info, Tasks: len(tasks), Outcomes: map[Outcome]int{}}
	type acc struct {
		count  int
		solved float64
	}
	cats, types, labels := map[string]*acc{}, map[string]*acc{}, map[string]*acc{}
	add := func(m map[string]*acc, key string, v float64) {
		a := m[key]
		if a == nil {
			a = &acc{}
			m[key] = a
		}
		a.count++
		a.solved += v
	}
	taskSums := make([]float64, len(info.K))
	stepSums := make([]float64, len(info.K))
	var pass1 []float64
	for _, t := range tasks {
		tr := TaskReport{Task: t.ID, Valid: true}
		if info.Gold {
			g, ok := recs.gold[t.ID]
			if !ok || g.Outcome != OutcomePassed {
				tr.Valid = false
				reason := "reference not checked"
				if ok {
					reason = "reference " + g.Outcome.String()
					if g.Detail != "" {
						reason += ": " + firstLine(g.Detail)
						if ex := ExceptionLine(g.Detail); ex != "" && ex != firstLine(g.Detail) {
							// Why an import failed: a module missing from the
							// environment says more than the module's name.
							reason += ": " + ex
						}
					} else if failing := failingTests(g); failing != "" {
						reason += ": " + failing
					}
					g := g
					r.Invalid = append(r.Invalid, InvalidTask{Task: t.ID, Reason: reason, Result: &g})
				} else {
					r.Invalid = append(r.Invalid, InvalidTask{Task: t.ID, Reason: reason})
				}
				r.PerTask = append(r.PerTask, tr)
				continue
			}
		}
		r.Valid++
		for s := range info.Samples {
			res, ok := recs.results[sampleKey{t.ID, s}]
			if !ok {
				continue
			}
			tr.Samples = append(tr.Samples, res)
			r.Outcomes[res.Outcome]++
			r.Usage = r.Usage.Add(res.Usage)
			if res.Outcome == OutcomeInfraError {
				continue
			}
			tr.N++
			if res.Outcome == OutcomePassed {
				tr.C++
			}
		}
		for i, k := range info.K {
			v := passAt(tr.N, tr.C, k)
			tr.PassAtK = append(tr.PassAtK, Score{K: k, Value: v})
			taskSums[i] += v
		}
		p1 := passAt(tr.N, tr.C, 1)
		pass1 = append(pass1, p1)
		keys := slices.Sorted(maps.Keys(t.Labels))
		for _, k := range keys {
			add(labels, k+"\x00"+t.Labels[k], p1)
		}
		for _, st := range t.Requirement.Steps {
			tests := t.StepTests(st.ID)
			if len(tests) == 0 {
				r.Untested++
				continue
			}
			c := 0
			for _, res := range tr.Samples {
				if res.Outcome == OutcomeInfraError {
					continue
				}
				all := true
				for _, name := range tests {
					if !res.Passed(name) {
						all = false
						break
					}
				}
				if all {
					c++
				}
			}
			sr := StepReport{ID: st.ID, Type: st.Type, Tests: len(tests), C: c, PassAt1: passAt(tr.N, c, 1)}
			tr.Steps = append(tr.Steps, sr)
			r.Adaptations++
			for i, k := range info.K {
				stepSums[i] += passAt(tr.N, c, k)
			}
			if st.Type != "" {
				add(types, st.Type, sr.PassAt1)
				add(cats, st.Category(), sr.PassAt1)
			}
		}
		r.PerTask = append(r.PerTask, tr)
	}
	for i, k := range info.K {
		if r.Valid > 0 {
			r.PassAtK = append(r.PassAtK, Score{K: k, Value: taskSums[i] / float64(r.Valid)})
		}
		if r.Adaptations > 0 {
			r.AdaptationPassAtK = append(r.AdaptationPassAtK, Score{K: k, Value: stepSums[i] / float64(r.Adaptations)})
		}
	}
	if len(pass1) > 1 {
		if ci, err := metrics.BootstrapMean(pass1, 2000, 0.95, 1); err == nil {
			r.CI95 = &ci
		}
	}
	emit := func(by string, m map[string]*acc) {
		for _, key := range slices.Sorted(maps.Keys(m)) {
			a := m[key]
			name, value := by, key
			if by == "label" {
				k, v, _ := strings.Cut(key, "\x00")
				name, value = "label:"+k, v
			}
			r.Breakdowns = append(r.Breakdowns, Breakdown{By: name, Value: value, Count: a.count, Solved: a.solved, PassAt1: a.solved / float64(a.count)})
		}
	}
	emit("category", cats)
	emit("type", types)
	emit("label", labels)
	return r
}

// passAt is pass@k, or NaN when there are fewer than k samples.
func passAt(n, c, k int) float64 {
	v, err := metrics.PassAtK(n, c, k)
	if err != nil {
		return 0
	}
	return v
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func failingTests(r SampleResult) string {
	var names []string
	for _, t := range r.Tests {
		if t.Status.String() != "passed" {
			n := t.Name + " " + t.Status.String()
			if t.ErrorType != "" && t.ErrorType != "AssertionError" {
				n += " (" + t.ErrorType + ")"
			}
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

// Score returns the task-level pass@k, and whether it was computed.
func (r *Report) Score(k int) (float64, bool) {
	for _, s := range r.PassAtK {
		if s.K == k {
			return s.Value, true
		}
	}
	return 0, false
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

func pct(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(100*v, 'f', 2, 64)
}

// WriteMarkdown writes the report as Markdown tables.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s (%s, n=%d)\n\n", r.Run.Model, r.Run.Template, r.Run.Samples)
	fmt.Fprintf(&b, "| metric | value |\n|---|---|\n")
	fmt.Fprintf(&b, "| tasks (valid) | %d (%d) |\n", r.Tasks, r.Valid)
	for _, s := range r.PassAtK {
		fmt.Fprintf(&b, "| pass@%d (task) | %s%% |\n", s.K, pct(s.Value))
	}
	for _, s := range r.AdaptationPassAtK {
		fmt.Fprintf(&b, "| pass@%d (adaptation, %d steps) | %s%% |\n", s.K, r.Adaptations, pct(s.Value))
	}
	if r.CI95 != nil {
		fmt.Fprintf(&b, "| pass@1 95%% CI (bootstrap) | [%s%%, %s%%] |\n", pct(r.CI95.Lo), pct(r.CI95.Hi))
	}
	if r.Usage != (Usage{}) {
		fmt.Fprintf(&b, "| tokens (prompt / completion) | %d / %d |\n", r.Usage.PromptTokens, r.Usage.CompletionTokens)
	}
	if r.Cost != nil {
		fmt.Fprintf(&b, "| cost | %.4f |\n", *r.Cost)
	}
	b.WriteString("\n| outcome | samples |\n|---|---|\n")
	for _, o := range Outcomes {
		if n := r.Outcomes[o]; n > 0 {
			fmt.Fprintf(&b, "| %s | %d |\n", o, n)
		}
	}
	if len(r.Breakdowns) > 0 {
		b.WriteString("\n| by | value | count | solved | pass@1 |\n|---|---|---|---|---|\n")
		for _, bd := range r.Breakdowns {
			fmt.Fprintf(&b, "| %s | %s | %d | %.1f | %s%% |\n", bd.By, bd.Value, bd.Count, bd.Solved, pct(bd.PassAt1))
		}
	}
	if len(r.Invalid) > 0 {
		b.WriteString("\n| invalid task | reason |\n|---|---|\n")
		for _, it := range r.Invalid {
			fmt.Fprintf(&b, "| %s | %s |\n", it.Task, strings.ReplaceAll(it.Reason, "|", `\|`))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV writes one row per task: id, valid, n, c, the pass@k values and
// the sample count of each outcome.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"task", "valid", "n", "c"}
	for _, k := range r.Run.K {
		head = append(head, fmt.Sprintf("pass@%d", k))
	}
	for _, o := range Outcomes {
		head = append(head, o.String())
	}
	cw.Write(head)
	for _, tr := range r.PerTask {
		row := []string{tr.Task, strconv.FormatBool(tr.Valid), strconv.Itoa(tr.N), strconv.Itoa(tr.C)}
		for i := range r.Run.K {
			v := ""
			if i < len(tr.PassAtK) {
				v = strconv.FormatFloat(tr.PassAtK[i].Value, 'f', 6, 64)
			}
			row = append(row, v)
		}
		counts := map[Outcome]int{}
		for _, s := range tr.Samples {
			counts[s.Outcome]++
		}
		for _, o := range Outcomes {
			row = append(row, strconv.Itoa(counts[o]))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// Merge builds the report of an evaluation run in shards from the shards'
// journals and the full task list: the report a single run would give.
func Merge(tasks []Task, journals ...string) (*Report, error) {
	all, err := selectTasks(tasks, Shard{})
	if err != nil {
		return nil, err
	}
	hashes := make(map[string]string, len(all))
	for _, t := range all {
		hashes[t.ID] = taskHash(t)
	}
	recs := newRecords()
	var info *RunInfo
	fp := ""
	for _, j := range journals {
		meta, err := readJournal(j, fp, hashes, recs)
		if err != nil {
			return nil, err
		}
		if meta == nil {
			return nil, fmt.Errorf("adapt: journal %s has no header", j)
		}
		if info == nil {
			info, fp = meta, fingerprint(*meta)
		} else if fingerprint(*meta) != fp {
			return nil, fmt.Errorf("%w: %s", ErrJournalMismatch, j)
		}
	}
	if info == nil {
		return nil, fmt.Errorf("adapt: Merge needs at least one journal")
	}
	return buildReport(*info, all, recs), nil
}

// WriteComparison writes a Markdown table that sets reports side by side,
// one column per report: scores, outcome counts and the adaptation
// categories.
func WriteComparison(w io.Writer, reports ...*Report) error {
	var b strings.Builder
	b.WriteString("| |")
	for _, r := range reports {
		fmt.Fprintf(&b, " %s |", r.Run.Model)
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---|", len(reports)))
	b.WriteString("\n")
	row := func(name string, cell func(r *Report) string) {
		fmt.Fprintf(&b, "| %s |", name)
		for _, r := range reports {
			fmt.Fprintf(&b, " %s |", cell(r))
		}
		b.WriteString("\n")
	}
	row("tasks (valid)", func(r *Report) string { return fmt.Sprintf("%d (%d)", r.Tasks, r.Valid) })
	var ks []int
	for _, r := range reports {
		for _, s := range r.PassAtK {
			if !slices.Contains(ks, s.K) {
				ks = append(ks, s.K)
			}
		}
	}
	slices.Sort(ks)
	for _, k := range ks {
		row(fmt.Sprintf("pass@%d (task)", k), func(r *Report) string {
			if v, ok := r.Score(k); ok {
				return pct(v) + "%"
			}
			return "-"
		})
	}
	row("pass@1 (adaptation)", func(r *Report) string {
		for _, s := range r.AdaptationPassAtK {
			if s.K == 1 {
				return fmt.Sprintf("%s%% of %d", pct(s.Value), r.Adaptations)
			}
		}
		return "-"
	})
	for _, o := range Outcomes {
		any := false
		for _, r := range reports {
			any = any || r.Outcomes[o] > 0
		}
		if any {
			row(o.String(), func(r *Report) string { return strconv.Itoa(r.Outcomes[o]) })
		}
	}
	var cats []string
	for _, r := range reports {
		for _, bd := range r.Breakdowns {
			if bd.By == "category" && !slices.Contains(cats, bd.Value) {
				cats = append(cats, bd.Value)
			}
		}
	}
	slices.Sort(cats)
	for _, c := range cats {
		row(c+" (pass@1)", func(r *Report) string {
			for _, bd := range r.Breakdowns {
				if bd.By == "category" && bd.Value == c {
					return fmt.Sprintf("%s%% of %d", pct(bd.PassAt1), bd.Count)
				}
			}
			return "-"
		})
	}
	_, err := io.WriteString(w, b.String())
	return err
}
