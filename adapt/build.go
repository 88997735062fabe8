package adapt

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/internal/textkit"
	"github.com/adaptbench/adaptbench/metrics"
)

// buildReport scores the records. missing, when not nil, collects the
// checks no record holds (Merge); Evaluate's records hold every one.
// breakdown names the label keys of the label breakdowns, in order; a key
// named twice counts once.
func buildReport(info report.RunInfo, breakdown []string, tasks []*Task, recs *records, missing *[]missingCheck) *report.Report {
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
	r       *report.Report
	info    report.RunInfo
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

func newReportBuilder(info report.RunInfo, breakdown []string, tasks int, recs *records, missing *[]missingCheck) *reportBuilder {
	b := &reportBuilder{
		r:          &report.Report{Run: info, Tasks: tasks, Outcomes: map[report.Outcome]int{}},
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
	tr := report.TaskReport{TaskID: t.ID, Valid: true}
	samples := samplesOf(b.info, t.ID)
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
		b.r.Unscored = append(b.r.Unscored, report.UnscoredTask{TaskID: t.ID, Reason: "reference not checked: no record of it", K: b.info.K, Samples: samples, Missing: samples})
		return false
	case g.Outcome == report.OutcomeInfraError:
		reason := fmt.Sprintf("reference could not be checked (infrastructure error after %d attempts): %s", g.Attempts, firstLine(g.Detail))
		b.r.Unscored = append(b.r.Unscored, report.UnscoredTask{TaskID: t.ID, Reason: reason, K: b.info.K, Samples: samples})
		return false
	case g.Outcome != report.OutcomePassed:
		reason := "reference " + g.Outcome.String()
		// A failure's Detail is its first failing test: the list of them
		// says more.
		if g.Detail != "" && g.Outcome != report.OutcomeFailed {
			reason += ": " + causeLine(g.Detail)
			if ex := textkit.ExceptionLine(g.Detail); ex != "" && ex != causeLine(g.Detail) {
				// Why an import failed: a module missing from the
				// environment says more than the module's name.
				reason += ": " + ex
			}
		} else if failing := failingTests(g); failing != "" {
			reason += ": " + failing
		}
		b.r.Invalid = append(b.r.Invalid, report.InvalidTask{TaskID: t.ID, Reason: reason, Result: &g})
		return false
	}
	return true
}

// samples adds the task's sample results to the report's counts and to
// tr, and returns the task's counts of what was not scored, with the
// first error.
func (b *reportBuilder) samples(t *Task, tr *report.TaskReport, samples int) (un report.UnscoredTask, firstErr string) {
	r := b.r
	un = report.UnscoredTask{TaskID: t.ID, Samples: samples}
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
		if res.Outcome == report.OutcomeTampered {
			r.Tampered = append(r.Tampered, report.TamperedSample{TaskID: t.ID, Sample: s, Evidence: res.Detail})
		}
		if res.Outcome != report.OutcomeInvalid {
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
		case report.OutcomeInfraError:
			un.InfraErrors++
		case report.OutcomeModelError:
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
		if res.Outcome == report.OutcomePassed {
			tr.C++
		}
	}
	return un, firstErr
}

// passAtK scores the task at each k its scored samples allow, listing it
// as unscored at the others, and adds its pass@1 to the label breakdowns.
func (b *reportBuilder) passAtK(t *Task, tr *report.TaskReport, un report.UnscoredTask, firstErr string, samples int) {
	un.Scored = tr.N
	for i, k := range b.info.K {
		if tr.N < k {
			un.K = append(un.K, k)
			continue
		}
		v := passAt(tr.N, tr.C, k)
		tr.PassAtK = append(tr.PassAtK, report.Score{K: k, Value: v, Tasks: 1})
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
func unscoredReason(un report.UnscoredTask, scored, samples int, firstErr string) string {
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
func (b *reportBuilder) steps(t *Task, tr *report.TaskReport) {
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
		sr := report.StepReport{ID: st.ID, Type: st.Type, Tests: len(tests), C: c, PassAt1: passAt(tr.N, c, 1)}
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
func passedAll(res *report.SampleResult, tests []string) bool {
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
			r.PassAtK = append(r.PassAtK, report.Score{K: k, Value: sum / float64(len(vs)), Tasks: len(vs), CI95: report.MeanCI(vs)})
		}
		if b.stepCounts[i] > 0 {
			r.AdaptationPassAtK = append(r.AdaptationPassAtK, report.Score{K: k, Value: b.stepSums[i] / float64(b.stepCounts[i]), Tasks: b.stepCounts[i]})
		}
	}
	r.CI95 = report.MeanCI(byTaskID(b.pass1))
	emit := func(by string, m map[string]*breakdownAcc) {
		for _, value := range slices.Sorted(maps.Keys(m)) {
			a := m[value]
			r.Breakdowns = append(r.Breakdowns, report.Breakdown{By: by, Value: value, Count: a.count, Solved: a.solved, PassAt1: a.solved / float64(a.count)})
		}
	}
	emit("category", b.cats)
	emit("type", b.types)
	for i, k := range b.keys {
		emit("label:"+k, b.labels[i])
	}
}

// Bootstrap settings of every interval a report gives: the same for every
// k, so that an interval is reproduced byte for byte, and the same as
// those of package report's comparisons.
// taskValue is one task's value.
type taskValue struct {
	id string
	v  float64
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

// sample is a sample's final result in the records, with its completion
// and its earlier repair rounds; false when the records do not hold it
// (a check, or a repair round, is missing).
func (r *records) sample(task string, s int, draw bool) (report.SampleResult, bool) {
	var rounds []report.SampleResult
	for round := 0; ; round++ {
		k := sampleKey{task, s, round}
		res, ok := r.results[k]
		comp, hasComp := r.completions[k]
		switch {
		case ok:
		case hasComp && comp.Err != "":
			res = report.SampleResult{Outcome: report.OutcomeModelError, Detail: comp.Err, Attempts: r.compAttempts[k]}
		case hasComp && draw:
			// Drawn, not checked: OutcomeInvalid.
		default:
			return report.SampleResult{}, false
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
func scoredAny(r *report.Report) error {
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

func failingTests(r report.SampleResult) string {
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
