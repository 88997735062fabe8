package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/internal/textkit"
	"github.com/adaptbench/adaptbench/metrics"
)

// Report is the result of an evaluation. It holds no timings, so the same
// inputs give the same report, byte for byte. Its text forms (Markdown,
// CSV) are for people and may change; the JSON form follows the struct.
type Report struct {
	Run RunInfo `json:"run"`
	// Machines lists every machine that produced the report's records
	// (shards run on several, a run resumed on another), with how many
	// records each, in the order met. With more than one, Run.Manifest
	// is nil: no one machine's says what the whole run ran on.
	Machines []Machine `json:"machines,omitempty"`
	// Tasks counts the tasks evaluated (valid, invalid and unchecked).
	Tasks int `json:"tasks"`
	// Valid counts the tasks whose reference passed (all, without gold).
	Valid int `json:"valid"`
	// PassAtK is the task-level pass@k, averaged over the valid tasks
	// with at least k scored samples (Score.Tasks of them): a sample
	// passes a task when every test passes.
	PassAtK []Score `json:"pass_at_k"`
	// AdaptationPassAtK is the adaptation-level pass@k, averaged over the
	// adaptation steps (with tests) of the valid tasks with at least k
	// scored samples: a sample passes a step when all the step's tests
	// pass.
	AdaptationPassAtK []Score `json:"adaptation_pass_at_k,omitempty"`
	// Adaptations counts the steps scored at k=1; Untested those left out
	// because no test checks them.
	Adaptations int `json:"adaptations"`
	Untested    int `json:"untested_adaptations,omitempty"`
	// CI95 is a seeded bootstrap 95% interval of task-level pass@1 over
	// the tasks with a scored sample, whether or not K holds 1; when it
	// does, it is the CI95 of that Score (every Score of PassAtK has
	// one).
	CI95 *metrics.Interval `json:"ci95,omitempty"`
	// Outcomes counts samples by outcome.
	Outcomes map[Outcome]int `json:"outcomes"`
	// Refusals counts the samples the model refused (Completion.Refusal)
	// or a provider's filter stopped ("content_filter"): scored as their
	// text is, they are counted so that a filter is seen.
	Refusals int `json:"refusals,omitempty"`
	// Isolation counts the samples by SampleResult.Isolation ("process",
	// "in-process") when the run isolated Python answers (see Isolation):
	// the benchmark's isolation coverage.
	Isolation map[string]int `json:"isolation,omitempty"`
	// Usage sums the tokens of every sample.
	Usage Usage `json:"usage"`
	// Cost is what Usage cost, when the model is a Pricer.
	Cost *float64 `json:"cost,omitempty"`
	// Breakdowns split the scores by adaptation category and type, then by
	// the task labels Options.Breakdown (or MergeOptions.Breakdown) names,
	// in that order.
	Breakdowns []Breakdown `json:"breakdowns,omitempty"`
	// Invalid lists the tasks left out because their reference failed.
	Invalid []InvalidTask `json:"invalid,omitempty"`
	// Tampered lists the samples whose code reached for its own verdict
	// (OutcomeTampered, scored as failures), with the evidence.
	Tampered []TamperedSample `json:"tampered,omitempty"`
	// Unscored lists the tasks left out of some pass@k because they have
	// fewer than k scored samples, or because their reference could not
	// be checked; each says why.
	Unscored []UnscoredTask `json:"unscored,omitempty"`
	// PerTask holds every task's counts and samples, in input order.
	PerTask []TaskReport `json:"per_task"`
}

// Score is one pass@k value and the number of tasks (or adaptation steps)
// it averages.
type Score struct {
	K     int     `json:"k"`
	Value float64 `json:"value"`
	Tasks int     `json:"tasks"`
	// CI95 is a 95% interval of a task-level Value (Report.PassAtK): a
	// percentile bootstrap over the tasks it averages (each task's
	// unbiased pass@k resampled with replacement, 2000 resamples, seed
	// 1; see metrics.BootstrapMean), nil when it averages fewer than two
	// tasks. Adaptation-level and per-task scores have none.
	CI95 *metrics.Interval `json:"ci95,omitempty"`
}

// Bootstrap settings of every interval a report or a comparison gives:
// the same for every k, so that an interval is reproduced byte for byte.
const (
	bootstrapResamples  = 2000
	bootstrapConfidence = 0.95
	bootstrapSeed       = 1
)

// Breakdown is a score for the tasks or steps sharing one label value.
type Breakdown struct {
	// By names the dimension: "category", "type" (of adaptation steps) or
	// "label:<key>" (of tasks, for each key the options' Breakdown names;
	// a task without the label is not counted under it).
	By    string `json:"by"`
	Value string `json:"value"`
	// Count is the number of steps (category, type) or tasks (labels)
	// with at least one scored sample.
	Count int `json:"count"`
	// Solved is the expected number solved: the sum of pass@1 (AdaptEval
	// Table V's cells).
	Solved float64 `json:"solved"`
	// PassAt1 is Solved/Count.
	PassAt1 float64 `json:"pass_at_1"`
}

// InvalidTask is a task whose reference did not pass.
type InvalidTask struct {
	TaskID string        `json:"task"`
	Reason string        `json:"reason"`
	Result *SampleResult `json:"result,omitempty"`
}

// TamperedSample is a sample whose run holds evidence of tampering.
type TamperedSample struct {
	TaskID string `json:"task"`
	Sample int    `json:"sample"`
	// Evidence lists what was seen, one item a line: the kind (as
	// exec.Tamper.Kind, "(static)" after it for evidence from the source)
	// and the detail.
	Evidence string `json:"evidence"`
}

// UnscoredTask is a task left out of some scores, and why.
type UnscoredTask struct {
	TaskID string `json:"task"`
	// Reason says why, in words.
	Reason string `json:"reason"`
	// K lists the k of the pass@k the task is left out of.
	K []int `json:"k"`
	// Scored counts the task's scored samples, of Samples; the others
	// were model errors, infrastructure errors or missing (not in the
	// merged journals).
	Scored      int `json:"scored"`
	Samples     int `json:"samples"`
	ModelErrors int `json:"model_errors,omitempty"`
	InfraErrors int `json:"infra_errors,omitempty"`
	Missing     int `json:"missing,omitempty"`
}

// TaskReport is one task's results.
type TaskReport struct {
	TaskID string `json:"task"`
	Valid  bool   `json:"valid"`
	// N counts the samples scored (model and infrastructure errors are
	// left out); C those that passed.
	N int `json:"n"`
	C int `json:"c"`
	// PassAtK holds the pass@k for each k <= N.
	PassAtK []Score        `json:"pass_at_k,omitempty"`
	Steps   []StepReport   `json:"steps,omitempty"`
	Samples []SampleResult `json:"samples,omitempty"`
	// Allows lists the evidence kinds the task's reference run produced
	// (SampleResult.Allowed): its samples are not tampered for them.
	Allows []string `json:"allows,omitempty"`
}

// StepReport is one adaptation step's results.
type StepReport struct {
	ID      string  `json:"id"`
	Type    string  `json:"type,omitempty"`
	Tests   int     `json:"tests"`
	C       int     `json:"c"`
	PassAt1 float64 `json:"pass_at_1"`
}

// Score returns the task-level pass@k, and whether it was computed.
func (r *Report) Score(k int) (float64, bool) {
	return scoreAt(r.PassAtK, k)
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// WriteMarkdown writes the report as Markdown tables.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", r.title())
	fmt.Fprintf(&b, "| metric | value |\n|---|---|\n")
	fmt.Fprintf(&b, "| tasks (valid) | %d (%d) |\n", r.Tasks, r.Valid)
	for _, s := range r.PassAtK {
		fmt.Fprintf(&b, "| pass@%d (task, over %d tasks) | %s%% |\n", s.K, s.Tasks, textkit.Pct(s.Value))
	}
	for _, k := range r.Run.K {
		if _, ok := r.Score(k); !ok {
			fmt.Fprintf(&b, "| pass@%d (task, over 0 tasks) | - |\n", k)
		}
	}
	for _, s := range r.AdaptationPassAtK {
		fmt.Fprintf(&b, "| pass@%d (adaptation, over %d steps) | %s%% |\n", s.K, s.Tasks, textkit.Pct(s.Value))
	}
	for _, s := range r.PassAtK {
		if s.CI95 != nil {
			fmt.Fprintf(&b, "| pass@%d 95%% CI (bootstrap over tasks) | [%s%%, %s%%] |\n", s.K, textkit.Pct(s.CI95.Lo), textkit.Pct(s.CI95.Hi))
		}
	}
	if n := r.Isolation[isolatedProcess] + r.Isolation[isolatedNot]; n > 0 {
		fmt.Fprintf(&b, "| samples whose answer ran in a process of its own | %d of %d (%.1f%%) |\n",
			r.Isolation[isolatedProcess], n, 100*float64(r.Isolation[isolatedProcess])/float64(n))
	}
	if r.Refusals > 0 {
		fmt.Fprintf(&b, "| samples refused or filtered by the provider | %d |\n", r.Refusals)
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
			fmt.Fprintf(&b, "| %s | %s | %d | %.1f | %s%% |\n", bd.By, bd.Value, bd.Count, bd.Solved, textkit.Pct(bd.PassAt1))
		}
	}
	if len(r.Invalid) > 0 {
		b.WriteString("\n| invalid task | reason |\n|---|---|\n")
		for _, it := range r.Invalid {
			fmt.Fprintf(&b, "| %s | %s |\n", it.TaskID, strings.ReplaceAll(it.Reason, "|", `\|`))
		}
	}
	allows := false
	for _, tr := range r.PerTask {
		if len(tr.Allows) > 0 {
			if !allows {
				b.WriteString("\n| task | evidence its reference produces, allowed to its samples |\n|---|---|\n")
				allows = true
			}
			fmt.Fprintf(&b, "| %s | %s |\n", tr.TaskID, strings.Join(tr.Allows, ", "))
		}
	}
	if len(r.Tampered) > 0 {
		b.WriteString("\n| tampered sample | evidence |\n|---|---|\n")
		for _, ts := range r.Tampered {
			ev := strings.ReplaceAll(strings.ReplaceAll(ts.Evidence, "|", `\|`), "\n", "<br>")
			fmt.Fprintf(&b, "| %s #%d | %s |\n", ts.TaskID, ts.Sample, ev)
		}
	}
	if len(r.Unscored) > 0 {
		b.WriteString("\n| unscored task | left out of | reason |\n|---|---|---|\n")
		for _, u := range r.Unscored {
			ks := make([]string, len(u.K))
			for i, k := range u.K {
				ks[i] = "pass@" + strconv.Itoa(k)
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", u.TaskID, strings.Join(ks, ", "), strings.ReplaceAll(u.Reason, "|", `\|`))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// outcomesOf is every outcome some report counts, in Outcomes order.
func outcomesOf(reports []*Report) []Outcome {
	var out []Outcome
	for _, o := range Outcomes {
		if slices.ContainsFunc(reports, func(r *Report) bool { return r.Outcomes[o] > 0 }) {
			out = append(out, o)
		}
	}
	return out
}

// WriteComparison writes a Markdown table that sets reports side by side,
// one column per report: scores, outcome counts and the adaptation
// categories. Each column is labelled by its run's name (RunInfo.Name, or
// the model's name for a report that has none); reports with equal names
// are told apart by their position, "name #1", "name #2", in the order
// given. Compare tests whether two runs differ.
func WriteComparison(w io.Writer, reports ...*Report) error {
	var b strings.Builder
	b.WriteString("| |")
	for _, l := range runLabels(reports) {
		fmt.Fprintf(&b, " %s |", mdCell(l))
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
	for _, k := range allKs(reports) {
		row(fmt.Sprintf("pass@%d (task)", k), func(r *Report) string {
			if s, ok := scoreOf(r.PassAtK, k); ok {
				return fmt.Sprintf("%s%% of %d", textkit.Pct(s.Value), s.Tasks)
			}
			return "-"
		})
	}
	row("pass@1 (adaptation)", func(r *Report) string {
		if s, ok := scoreOf(r.AdaptationPassAtK, 1); ok {
			return fmt.Sprintf("%s%% of %d", textkit.Pct(s.Value), s.Tasks)
		}
		return "-"
	})
	row("unscored tasks", func(r *Report) string { return strconv.Itoa(len(r.Unscored)) })
	for _, o := range outcomesOf(reports) {
		row(o.String(), func(r *Report) string { return strconv.Itoa(r.Outcomes[o]) })
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
					return fmt.Sprintf("%s%% of %d", textkit.Pct(bd.PassAt1), bd.Count)
				}
			}
			return "-"
		})
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// allKs is every k some report scored, in increasing order.
func allKs(reports []*Report) []int {
	var ks []int
	for _, r := range reports {
		for _, s := range r.PassAtK {
			ks = append(ks, s.K)
		}
	}
	return textkit.Ks(ks)
}
