package adapt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
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

// buildReport scores the records. missing, when not nil, collects the
// checks no record holds (Merge); Evaluate's records hold every one.
// breakdown names the label keys of the label breakdowns, in order; a key
// named twice counts once.
func buildReport(info RunInfo, breakdown []string, tasks []*Task, recs *records, missing *[]missingCheck) *Report {
	b := newReportBuilder(info, breakdown, len(tasks), recs, missing)
	for _, t := range tasks {
		b.task(t)
	}
	b.totals()
	b.r.Machines = recs.machines.counts(recs)
	switch len(b.r.Machines) {
	case 0: // no record, or a Draw: the run's own
	case 1:
		m := b.r.Machines[0].Manifest
		b.r.Run.Manifest = &m
	default:
		b.r.Run.Manifest = nil
	}
	return b.r
}

// breakdownAcc sums the pass@1 of the items of one breakdown row.
type breakdownAcc struct {
	count  int
	solved float64
}

// reportBuilder holds what buildReport sums over the tasks.
type reportBuilder struct {
	r       *Report
	info    RunInfo
	recs    *records
	missing *[]missingCheck

	keys        []string                   // label keys, each once
	labels      []map[string]*breakdownAcc // by key, then value
	cats, types map[string]*breakdownAcc
	taskValues  [][]taskValue // per k, each scored task's pass@k
	stepSums    []float64
	stepCounts  []int
	pass1       []taskValue
}

func newReportBuilder(info RunInfo, breakdown []string, tasks int, recs *records, missing *[]missingCheck) *reportBuilder {
	b := &reportBuilder{
		r:          &Report{Run: info, Tasks: tasks, Outcomes: map[Outcome]int{}},
		info:       info,
		recs:       recs,
		missing:    missing,
		cats:       map[string]*breakdownAcc{},
		types:      map[string]*breakdownAcc{},
		taskValues: make([][]taskValue, len(info.K)),
		stepSums:   make([]float64, len(info.K)),
		stepCounts: make([]int, len(info.K)),
	}
	for _, k := range breakdown {
		if !slices.Contains(b.keys, k) {
			b.keys = append(b.keys, k)
		}
	}
	b.labels = make([]map[string]*breakdownAcc, len(b.keys))
	for i := range b.labels {
		b.labels[i] = map[string]*breakdownAcc{}
	}
	return b
}

func addBreakdown(m map[string]*breakdownAcc, key string, v float64) {
	a := m[key]
	if a == nil {
		a = &breakdownAcc{}
		m[key] = a
	}
	a.count++
	a.solved += v
}

// task scores one task: its reference check, its samples, its pass@k and
// its adaptation steps.
func (b *reportBuilder) task(t *Task) {
	tr := TaskReport{TaskID: t.ID, Valid: true}
	samples := b.info.samplesOf(t.ID)
	if b.info.Gold && !b.gold(t, samples) {
		tr.Valid = false
		b.r.PerTask = append(b.r.PerTask, tr)
		return
	}
	b.r.Valid++
	if b.info.Gold {
		tr.Allows = b.recs.gold[t.ID].Allowed
	}
	un, firstErr := b.samples(t, &tr, samples)
	b.passAtK(t, &tr, un, firstErr, samples)
	b.steps(t, &tr)
	b.r.PerTask = append(b.r.PerTask, tr)
}

// gold reports whether the task's reference passed; when it did not, the
// task is listed as unscored or invalid, saying why.
func (b *reportBuilder) gold(t *Task, samples int) bool {
	g, ok := b.recs.gold[t.ID]
	switch {
	case !ok:
		if b.missing != nil {
			*b.missing = append(*b.missing, missingCheck{task: t.ID, sample: -1})
		}
		b.r.Unscored = append(b.r.Unscored, UnscoredTask{TaskID: t.ID, Reason: "reference not checked: no record of it", K: b.info.K, Samples: samples, Missing: samples})
		return false
	case g.Outcome == OutcomeInfraError:
		reason := fmt.Sprintf("reference could not be checked (infrastructure error after %d attempts): %s", g.Attempts, firstLine(g.Detail))
		b.r.Unscored = append(b.r.Unscored, UnscoredTask{TaskID: t.ID, Reason: reason, K: b.info.K, Samples: samples})
		return false
	case g.Outcome != OutcomePassed:
		reason := "reference " + g.Outcome.String()
		// A failure's Detail is its first failing test: the list of them
		// says more.
		if g.Detail != "" && g.Outcome != OutcomeFailed {
			reason += ": " + causeLine(g.Detail)
			if ex := textkit.ExceptionLine(g.Detail); ex != "" && ex != causeLine(g.Detail) {
				// Why an import failed: a module missing from the
				// environment says more than the module's name.
				reason += ": " + ex
			}
		} else if failing := failingTests(g); failing != "" {
			reason += ": " + failing
		}
		b.r.Invalid = append(b.r.Invalid, InvalidTask{TaskID: t.ID, Reason: reason, Result: &g})
		return false
	}
	return true
}

// samples adds the task's sample results to the report's counts and to
// tr, and returns the task's counts of what was not scored, with the
// first error.
func (b *reportBuilder) samples(t *Task, tr *TaskReport, samples int) (un UnscoredTask, firstErr string) {
	r := b.r
	un = UnscoredTask{TaskID: t.ID, Samples: samples}
	for s := range samples {
		res, ok := b.recs.sample(t.ID, s, b.info.Draw)
		if !ok {
			un.Missing++
			if b.missing != nil {
				*b.missing = append(*b.missing, missingCheck{task: t.ID, sample: s})
			}
			continue
		}
		tr.Samples = append(tr.Samples, res)
		if res.Outcome == OutcomeTampered {
			r.Tampered = append(r.Tampered, TamperedSample{TaskID: t.ID, Sample: s, Evidence: res.Detail})
		}
		if res.Outcome != OutcomeInvalid {
			r.Outcomes[res.Outcome]++
		}
		if res.Isolation != "" {
			if r.Isolation == nil {
				r.Isolation = map[string]int{}
			}
			r.Isolation[res.Isolation]++
		}
		if c := res.Completion; c != nil && (c.Refusal != "" || c.FinishReason == "content_filter") {
			r.Refusals++
		}
		r.Usage = r.Usage.Add(res.Usage)
		for _, e := range res.Rounds {
			r.Usage = r.Usage.Add(e.Usage)
		}
		switch res.Outcome {
		case OutcomeInfraError:
			un.InfraErrors++
		case OutcomeModelError:
			un.ModelErrors++
		}
		if b.info.Draw {
			continue
		}
		if !res.Scored() {
			if firstErr == "" {
				firstErr = res.Outcome.String() + ": " + firstLine(res.Detail)
			}
			continue
		}
		tr.N++
		if res.Outcome == OutcomePassed {
			tr.C++
		}
	}
	return un, firstErr
}

// passAtK scores the task at each k its scored samples allow, listing it
// as unscored at the others, and adds its pass@1 to the label breakdowns.
func (b *reportBuilder) passAtK(t *Task, tr *TaskReport, un UnscoredTask, firstErr string, samples int) {
	un.Scored = tr.N
	for i, k := range b.info.K {
		if tr.N < k {
			un.K = append(un.K, k)
			continue
		}
		v := passAt(tr.N, tr.C, k)
		tr.PassAtK = append(tr.PassAtK, Score{K: k, Value: v, Tasks: 1})
		b.taskValues[i] = append(b.taskValues[i], taskValue{id: t.ID, v: v})
	}
	if len(un.K) > 0 {
		un.Reason = unscoredReason(un, tr.N, samples, firstErr)
		b.r.Unscored = append(b.r.Unscored, un)
	}
	if tr.N > 0 {
		p1 := passAt(tr.N, tr.C, 1)
		b.pass1 = append(b.pass1, taskValue{id: t.ID, v: p1})
		for i, k := range b.keys {
			if v, ok := t.Labels[k]; ok {
				addBreakdown(b.labels[i], v, p1)
			}
		}
	}
}

// unscoredReason says why a task lacks a pass@k: how many samples were
// scored, what happened to the others, and the first error.
func unscoredReason(un UnscoredTask, scored, samples int, firstErr string) string {
	reason := fmt.Sprintf("%d of %d samples scored", scored, samples)
	if samples == 0 {
		reason = unanswered
	}
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{un.ModelErrors, "model error"}, {un.InfraErrors, "infrastructure error"}, {un.Missing, "missing from the journals"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	if len(parts) > 0 {
		reason += " (" + strings.Join(parts, ", ") + ")"
	}
	if firstErr != "" {
		reason += "; first: " + firstErr
	}
	return reason
}

// steps scores each adaptation step of the task by the samples that pass
// all of its tests.
func (b *reportBuilder) steps(t *Task, tr *TaskReport) {
	for _, st := range t.Requirement.Steps {
		tests := t.StepTests(st.ID)
		if len(tests) == 0 {
			b.r.Untested++
			continue
		}
		if tr.N == 0 {
			continue
		}
		c := 0
		for _, res := range tr.Samples {
			if res.Scored() && passedAll(&res, tests) {
				c++
			}
		}
		sr := StepReport{ID: st.ID, Type: st.Type, Tests: len(tests), C: c, PassAt1: passAt(tr.N, c, 1)}
		tr.Steps = append(tr.Steps, sr)
		b.r.Adaptations++
		for i, k := range b.info.K {
			if tr.N >= k {
				b.stepSums[i] += passAt(tr.N, c, k)
				b.stepCounts[i]++
			}
		}
		if st.Type != "" {
			addBreakdown(b.types, st.Type, sr.PassAt1)
			addBreakdown(b.cats, st.Category(), sr.PassAt1)
		}
	}
}

// passedAll reports whether every named test passed in res.
func passedAll(res *SampleResult, tests []string) bool {
	for _, name := range tests {
		if !res.Passed(name) {
			return false
		}
	}
	return true
}

// totals averages the tasks' pass@k and the steps' into the report's
// scores, with their intervals, and writes the breakdowns.
func (b *reportBuilder) totals() {
	r := b.r
	for i, k := range b.info.K {
		if vs := byTaskID(b.taskValues[i]); len(vs) > 0 {
			var sum float64
			for _, v := range vs {
				sum += v
			}
			r.PassAtK = append(r.PassAtK, Score{K: k, Value: sum / float64(len(vs)), Tasks: len(vs), CI95: bootstrapCI(vs)})
		}
		if b.stepCounts[i] > 0 {
			r.AdaptationPassAtK = append(r.AdaptationPassAtK, Score{K: k, Value: b.stepSums[i] / float64(b.stepCounts[i]), Tasks: b.stepCounts[i]})
		}
	}
	r.CI95 = bootstrapCI(byTaskID(b.pass1))
	emit := func(by string, m map[string]*breakdownAcc) {
		for _, value := range slices.Sorted(maps.Keys(m)) {
			a := m[value]
			r.Breakdowns = append(r.Breakdowns, Breakdown{By: by, Value: value, Count: a.count, Solved: a.solved, PassAt1: a.solved / float64(a.count)})
		}
	}
	emit("category", b.cats)
	emit("type", b.types)
	for i, k := range b.keys {
		emit("label:"+k, b.labels[i])
	}
}

// taskValue is one task's value (and, in a comparison, its value in A).
type taskValue struct {
	id   string
	v, a float64
}

// byTaskID sorts tvs by task ID and returns their values in that order:
// a mean and its bootstrap interval are a function of the task set, not
// of the order the tasks were given in (a resume may give them shuffled).
func byTaskID(tvs []taskValue) []float64 {
	slices.SortFunc(tvs, func(x, y taskValue) int { return strings.Compare(x.id, y.id) })
	out := make([]float64, len(tvs))
	for i, tv := range tvs {
		out[i] = tv.v
	}
	return out
}

// bootstrapCI is the report's interval of the mean of values, nil for
// fewer than two.
func bootstrapCI(values []float64) *metrics.Interval {
	if len(values) < 2 {
		return nil
	}
	ci, err := metrics.BootstrapMean(values, bootstrapResamples, bootstrapConfidence, bootstrapSeed)
	if err != nil {
		panic("adapt: " + err.Error()) // the arguments are valid
	}
	return &ci
}

// sample is a sample's final result in the records, with its completion
// and its earlier repair rounds; false when the records do not hold it
// (a check, or a repair round, is missing).
func (r *records) sample(task string, s int, draw bool) (SampleResult, bool) {
	var rounds []SampleResult
	for round := 0; ; round++ {
		k := sampleKey{task, s, round}
		res, ok := r.results[k]
		comp, hasComp := r.completions[k]
		switch {
		case ok:
		case hasComp && comp.Err != "":
			res = SampleResult{Outcome: OutcomeModelError, Detail: comp.Err, Attempts: r.compAttempts[k]}
		case hasComp && draw:
			// Drawn, not checked: OutcomeInvalid.
		default:
			return SampleResult{}, false
		}
		res.Sample = s
		if hasComp {
			c := comp
			res.Completion = &c
			res.Usage = comp.Usage
		}
		if ok && r.repair[k] {
			rounds = append(rounds, res)
			continue
		}
		res.Rounds = rounds
		return res, true
	}
}

// scoredAny is the rule that a run in which no sample could be scored is
// an error: it returns one (wrapping ErrNothingScored) when tasks were
// left unscored and no sample was scored.
func (r *Report) scoredAny() error {
	if len(r.Unscored) == 0 {
		return nil
	}
	for _, tr := range r.PerTask {
		if tr.N > 0 {
			return nil
		}
	}
	u := r.Unscored[0]
	return fmt.Errorf("%w: %d of %d tasks unscored (first: %s: %s)", ErrNothingScored, len(r.Unscored), r.Tasks, u.TaskID, u.Reason)
}

// unanswered is the reason of a task the model holds no sample of.
const unanswered = "unanswered: the model holds no sample of this task"

// passAt is pass@k of n scored samples with c correct; the caller makes
// sure that k <= n.
func passAt(n, c, k int) float64 {
	v, err := metrics.PassAtK(n, c, k)
	if err != nil {
		panic("adapt: " + err.Error())
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

// causeLine is the first line of a failure's detail that says what went
// wrong: not go build's "# package" heading, which names only the package.
func causeLine(s string) string {
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "# ") {
			return l
		}
	}
	return firstLine(s)
}

func failingTests(r SampleResult) string {
	var names []string
	for _, t := range r.Tests {
		if t.Status.String() != "passed" {
			n := t.Name + " " + t.Status.String()
			switch {
			case t.Message == notReported || t.Message == "not found":
				// The drivers' word for a name that selects no test.
				n += " (no test of this name ran: is the name right?)"
			case t.ErrorType != "" && t.ErrorType != "AssertionError":
				n += " (" + t.ErrorType + ")"
			case t.ErrorType == "" && t.Message != "" && len(t.Message) <= 80 && !strings.Contains(t.Message, "\n"):
				n += " (" + t.Message + ")"
			}
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
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

// MergeOptions configures Merge. A nil *MergeOptions means the defaults.
type MergeOptions struct {
	// Partial merges journals that lack some checks (a shard not given,
	// a run not finished): the missing samples are listed in
	// Report.Unscored. By default a missing check is an error.
	Partial bool
	// Breakdown lists the task label keys the report breaks scores down
	// by, as Options.Breakdown does; nil means none. The shards' journals
	// do not record it: it changes no score.
	Breakdown []string
	// Name labels the merged run, as Options.Name does. "" means the name
	// in the first journal's header (the model's name when it has none).
	Name string
}

// ErrIncomplete is wrapped when the journals given to Merge lack checks of
// the task set.
var ErrIncomplete = errors.New("adapt: the journals do not hold the whole evaluation")

type missingCheck struct {
	task   string
	sample int // -1: the reference
}

// Merge builds the report of an evaluation run in shards from the shards'
// journals and the full task list: the report a single run gives. Every
// journal must come from the same evaluation (the same settings and task
// set; a *JournalMismatchError names what differs) and be finished (not
// held by a running evaluation, no torn last line). Unless opts.Partial, a
// task of the set with no record or too few samples in the journals is an
// error naming the first missing tasks and the shards that should hold
// them.
func Merge(tasks []Task, journals []string, opts *MergeOptions) (*Report, error) {
	var o MergeOptions
	if opts != nil {
		o = *opts
	}
	all, hashes, err := checkTasks(tasks)
	if err != nil {
		return nil, err
	}
	if len(journals) == 0 {
		return nil, errors.New("adapt: Merge needs at least one journal")
	}
	recs := newRecords()
	var info *RunInfo
	first := ""
	count := 0
	shards := map[int]string{}
	for _, j := range journals {
		jf, err := readJournalFile(j, hashes, recs)
		if err != nil {
			return nil, err
		}
		if info == nil {
			info, first = jf.meta, j
		} else if fingerprint(*jf.meta) != fingerprint(*info) {
			return nil, &JournalMismatchError{Path: j, Diffs: diffRunInfos(*jf.meta, *info, "in "+j, "in "+first), merge: true}
		}
		if info.TaskCount != len(all) || info.TaskSet != taskSetDigest(hashes) {
			now := *info
			now.TaskCount, now.TaskSet = len(all), taskSetDigest(hashes)
			return nil, &JournalMismatchError{Path: j, Diffs: diffRunInfos(*info, now, "in the journal", "in the tasks given"), merge: true}
		}
		if recs.stale > 0 {
			return nil, &JournalMismatchError{Path: j, Diffs: []string{fmt.Sprintf("%d records name tasks that changed since (first: %q)", recs.stale, recs.firstStale)}, merge: true}
		}
		if c := max(jf.shard.Count, 1); count == 0 {
			count = c
		} else if c != count {
			return nil, &JournalMismatchError{Path: j, Diffs: []string{fmt.Sprintf("it is %s, another journal is one of %d shards", jf.shard, count)}, merge: true}
		}
		if prev, ok := shards[jf.shard.Index]; ok {
			return nil, fmt.Errorf("adapt: %s and %s are both %s; give each shard's journal once", prev, j, jf.shard)
		}
		shards[jf.shard.Index] = j
	}
	run := *info
	if o.Name != "" {
		run.Name = o.Name
	} else if run.Name == "" {
		run.Name = run.Model // a journal written before runs had names
	}
	var missing []missingCheck
	rep := buildReport(run, o.Breakdown, all, recs, &missing)
	if len(missing) > 0 && !o.Partial {
		return nil, incomplete(missing, Shard{Count: count}, shards)
	}
	if err := rep.scoredAny(); err != nil {
		return nil, err
	}
	return rep, nil
}

// incomplete says which tasks the journals lack and where they belong.
func incomplete(missing []missingCheck, of Shard, given map[int]string) error {
	var tasks []string
	byShard := map[int]int{}
	for _, m := range missing {
		if len(tasks) == 0 || tasks[len(tasks)-1] != m.task {
			tasks = append(tasks, m.task)
			byShard[of.of(m.task)]++
		}
	}
	first := tasks[:min(len(tasks), 5)]
	var where []string
	for _, i := range slices.Sorted(maps.Keys(byShard)) {
		s := Shard{Index: i, Count: of.Count}
		if j, ok := given[i]; ok {
			where = append(where, fmt.Sprintf("%d in %s (%s: resume that run to finish it)", byShard[i], s, j))
		} else {
			where = append(where, fmt.Sprintf("%d in %s, whose journal was not given", byShard[i], s))
		}
	}
	have := "have"
	if len(missing) == 1 {
		have = "has"
	}
	return fmt.Errorf("%w: %s of %s %s no record (first: %s); by shard: %s; pass MergeOptions.Partial to merge anyway",
		ErrIncomplete, textkit.Count(len(missing), "check"), textkit.Count(len(tasks), "task"), have, strings.Join(first, ", "), strings.Join(where, "; "))
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
