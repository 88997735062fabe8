package ctxbug

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/internal/textkit"
)

// EvalOptions configures Evaluate. A nil *EvalOptions means the defaults.
type EvalOptions struct {
	// Runner runs the tests. nil means adapt.Evaluate's default, a
	// ForkServer over a Sandbox.
	Runner exec.Runner
	// Limits bounds every test run; zero fields take exec's defaults.
	Limits exec.Limits
	// ModelConcurrency and Parallelism bound the model requests and
	// the test runs in flight: 0, so adapt.Evaluate's defaults.
	ModelConcurrency, Parallelism int
	// Logprobs asks the model for token log-probabilities, for the
	// average token probability of overlooked bugs.
	Logprobs bool
	// Journal, KeepErrors and Progress are passed to adapt.Evaluate: with
	// a journal, a stopped evaluation resumes where it stopped.
	Journal    string
	KeepErrors bool
	Progress   func(report.Progress)
}

// TaskResult is one benchmark task's evaluation.
type TaskResult struct {
	// Task is the task's ID; Instance the CtxBug instance it comes from
	// (for an IsoBug task, the CtxBug instance it was made from), so that
	// results of different settings pair up.
	Task     string `json:"task"`
	Instance string `json:"instance"`
	// Generator made the bugs; Model is the model tested.
	Generator string `json:"generator"`
	Model     string `json:"model"`
	// Rule, AdaptTask and Setting come from the task's labels.
	Rule      string  `json:"rule"`
	AdaptTask string  `json:"adapt_task"`
	Setting   Setting `json:"setting"`
	// Valid reports whether the reference passed the tests; an invalid
	// task counts in no score.
	Valid bool `json:"valid"`
	// Outcome is the sample's outcome, and Passed whether it passed.
	Outcome report.Outcome `json:"outcome"`
	Passed  bool           `json:"passed"`
	// Bugs counts the bug locations; Resolved those where the answer has
	// the solution's tokens (the paper's resolution: a matched node with
	// identical text).
	Bugs     int `json:"bugs"`
	Resolved int `json:"resolved"`
	// Overlooked counts the locations where the answer kept the reused
	// code's tokens (the bug, copied).
	Overlooked int `json:"overlooked"`
	// ATP is the mean probability of the answer's tokens that overlap an
	// overlooked location, over ATPTokens tokens; ATPTokens is 0 when the
	// model gave no log-probabilities or no location was overlooked.
	ATP       float64 `json:"atp,omitempty"`
	ATPTokens int     `json:"atp_tokens,omitempty"`
	// Output is the method the model gave, mapped back to the original
	// names.
	Output string `json:"output,omitempty"`
}

// Scores is the paper's scoring of one tested model's run: a result per
// task, and the report.Report it comes from.
type Scores struct {
	// Results are the tasks' results, in task order.
	Results []TaskResult
	// Report is the run's report.Report, broken down by LabelKeys.
	Report *report.Report
}

// Evaluate asks model to adapt the reused code of every task (made by
// [Tasks]) with the adaptation prompt at temperature 0, one sample each,
// maps each answer back to the original names, and runs the tests through
// adapt.Evaluate (gold first: a task whose reference fails is not valid).
// It then scores the report with [Score].
func Evaluate(ctx context.Context, tasks []adapt.Task, model adapt.Model, opts *EvalOptions) (*Scores, error) {
	var o EvalOptions
	if opts != nil {
		o = *opts
	}
	views := make(map[string]*adaptView, len(tasks))
	for i := range tasks {
		v, err := view(&tasks[i])
		if err != nil {
			return nil, err
		}
		views[tasks[i].ID] = v
	}
	rep, err := adapt.Evaluate(ctx, tasks, model, &adapt.Options{
		Template: adaptPrompt, Runner: o.Runner, Limits: o.Limits,
		ModelConcurrency: o.ModelConcurrency, Parallelism: o.Parallelism,
		Sampling: report.Sampling{Temperature: 0, Logprobs: o.Logprobs},
		Journal:  o.Journal, KeepErrors: o.KeepErrors, Progress: o.Progress,
		Answer: func(t *adapt.Task, c report.Completion) (adapt.Answer, error) {
			return unobfuscated(t, views[t.ID], c.Text)
		},
		Breakdown: LabelKeys,
	})
	if err != nil {
		return nil, err
	}
	return Score(rep, tasks)
}

// Score computes the paper's per-task results from a report of tasks
// made by [Tasks]: whether the sample passed, and, by aligning the answer
// with the solution, the bug locations it resolves or overlooks (and
// their ATP, when the completion has log-probabilities). A report read
// back with report.ReadReport, or merged from shards, scores the same as
// the one Evaluate made. Results are in task order; every task must be in
// the report.
func Score(rep *report.Report, tasks []adapt.Task) (*Scores, error) {
	byID := make(map[string]*report.TaskReport, len(rep.PerTask))
	for i := range rep.PerTask {
		byID[rep.PerTask[i].TaskID] = &rep.PerTask[i]
	}
	out := make([]TaskResult, len(tasks))
	for i := range tasks {
		t := &tasks[i]
		tr, ok := byID[t.ID]
		if !ok {
			return nil, fmt.Errorf("ctxbug: task %q is not in the report", t.ID)
		}
		d, err := DetailOf(t)
		if err != nil {
			return nil, err
		}
		spans := d.Bugs
		r := TaskResult{
			Task: t.ID, Instance: d.Instance, Generator: t.Labels[labelGenerator], Model: rep.Run.Model,
			Rule: t.Labels[labelRule], AdaptTask: t.Labels[labelTask], Setting: Setting(t.Labels[labelSetting]),
			Valid: tr.Valid,
		}
		r.Bugs = len(spans)
		if len(tr.Samples) > 0 {
			s := tr.Samples[0]
			r.Outcome = s.Outcome
			r.Passed = r.Outcome == report.OutcomePassed
			if s.Completion != nil && s.Completion.Err == "" && s.Code != "" {
				score(t, spans, s.Code, *s.Completion, &r)
			}
		}
		out[i] = r
	}
	return &Scores{Results: out, Report: rep}, nil
}

// score fills in the resolution counts and ATP of r from the answer's
// method (mapped back to the original names) and the raw completion.
func score(t *adapt.Task, spans []Span, method string, raw report.Completion, r *TaskResult) {
	a := adapt.Answer{Code: method}
	r.Output = a.Code
	holes := make([]Hole, len(spans))
	for i, s := range spans {
		holes[i] = Hole{Start: s.Start, End: s.End}
	}
	ans, err := compare([]byte(t.Reference), []byte(a.Code))
	if err != nil || ans.rb.Err {
		return // an answer that does not parse resolves nothing
	}
	var reused *comparison
	if Setting(t.Labels[labelSetting]) != WithoutCtxBugs {
		reused, _ = compare([]byte(t.Reference), []byte(t.Code))
	}
	var overlooked []Span
	for i, ok := range ans.resolved(holes) {
		if ok {
			r.Resolved++
			continue
		}
		if reused == nil {
			continue
		}
		sa, sr := ans.site(holes[i]), reused.site(holes[i])
		if sa.partner != nil && sr.partner != nil && norm(sa.partner, ans.b) == norm(sr.partner, reused.b) {
			r.Overlooked++
			overlooked = append(overlooked, ans.region(holes[i], sa))
		}
	}
	if len(overlooked) > 0 && len(raw.Logprobs) > 0 {
		r.ATP, r.ATPTokens = atpOf(t, raw, overlooked)
	}
}

// atpOf is the mean probability of the raw completion's tokens that
// overlap spans, ranges of the deobfuscated answer method. It finds the
// method in the raw text and maps the spans through the deobfuscation;
// it gives 0 tokens when the method is not a verbatim part of the raw
// text or the tokens do not spell it.
func atpOf(t *adapt.Task, raw report.Completion, spans []Span) (float64, int) {
	v, err := view(t)
	if err != nil {
		return 0, 0
	}
	byName := *t
	_, byName.Target.Function = splitTarget(t.Target.Function)
	a, err := adapt.Extract(&byName, raw.Text)
	if err != nil {
		return 0, 0
	}
	code := strings.TrimRight(a.Code, "\n")
	base := strings.Index(raw.Text, code)
	if base < 0 || hasPlaceholder(code) {
		return 0, 0
	}
	_, edits, err := deobfuscate([]byte(code), v.Names)
	if err != nil {
		return 0, 0
	}
	var rawSpans []Span
	for _, s := range spans {
		rawSpans = append(rawSpans, Span{base + unmap(s.Start, edits, false), base + unmap(s.End, edits, true)})
	}
	return meanTokenProb(raw.Logprobs, raw.Text, rawSpans)
}

// meanTokenProb is the average token probability over the tokens of text that
// overlap any of spans (byte ranges of text): the mean of exp(logprob).
// Token offsets come from concatenating the tokens, which must spell
// text; n is the number of tokens averaged (0 when none overlap or the
// tokens do not spell text).
func meanTokenProb(tokens []report.TokenLogprob, text string, spans []Span) (atp float64, n int) {
	off := 0
	sum := 0.0
	for _, tk := range tokens {
		s, e := off, off+len(tk.Token)
		if e > len(text) || text[s:e] != tk.Token {
			return 0, 0
		}
		off = e
		for _, sp := range spans {
			if s < sp.End && sp.Start < e {
				sum += math.Exp(tk.Logprob)
				n++
				break
			}
		}
	}
	if n == 0 {
		return 0, 0
	}
	return sum / float64(n), n
}

// unobfuscated is the answer Evaluate tests: the target method of a
// completion whose code blocks are mapped back to the original names.
func unobfuscated(t *adapt.Task, v *adaptView, text string) (adapt.Answer, error) {
	var b strings.Builder
	for _, blk := range textkit.CodeBlocks(text) {
		code, err := deobfuscateCode([]byte(blk), v.Names)
		if err != nil {
			code = []byte(blk)
		}
		b.WriteString("```python\n" + strings.TrimRight(string(code), "\n") + "\n```\n")
	}
	return adapt.Extract(t, b.String())
}

// hasPlaceholder reports whether code holds a placeholder, which
// deobfuscation swaps for a stand-in of another length.
func hasPlaceholder(code string) bool {
	for _, p := range []string{placeholderParams, placeholderReturn, Infill, placeholderVar} {
		if strings.Contains(code, p) {
			return true
		}
	}
	return false
}
