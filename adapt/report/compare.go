package report

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/internal/textkit"
	"github.com/adaptbench/adaptbench/metrics"
)

// Comparison is the paired comparison of two runs on the same tasks, run
// B against run A (Compare). Every task and sample that could not be
// paired is counted and listed, never dropped in silence.
type Comparison struct {
	// A and B label the runs by name (Run.Name, or the model's); two runs of one name
	// are "name #1" and "name #2".
	A string `json:"a"`
	B string `json:"b"`
	// SameTaskSet reports whether both runs evaluated the same task set,
	// the same IDs with the same contents (RunInfo.TaskSet). When false,
	// tasks are paired by ID alone, even one whose content changed.
	SameTaskSet bool `json:"same_task_set"`

	// Tasks is the headline test: McNemar's test on the paired tasks,
	// each counted once as solved or not in each run. A task is solved
	// when a strict majority of its scored samples pass (2c > n; with one
	// sample, when it passed). B01 counts the tasks B solves and A does
	// not (Gained), B10 the reverse (Lost). The p-value is the exact
	// binomial one below metrics.McNemarExactThreshold discordant tasks,
	// the continuity-corrected chi-square one from there.
	Tasks metrics.McNemarResult `json:"tasks"`
	// PairedTasks counts the tasks scored in both runs: valid in both,
	// with at least one scored sample in each.
	PairedTasks int `json:"paired_tasks"`
	// Gained lists the tasks B solves and A does not (fail → pass), Lost
	// those A solves and B does not (pass → fail), in A's task order.
	Gained []string `json:"gained,omitempty"`
	Lost   []string `json:"lost,omitempty"`

	// Samples is McNemar's test on paired samples: sample i of a paired
	// task in A against sample i of the same task in B, for every i
	// scored in both. It treats every sample as an independent item,
	// which samples of one task are not, and pairs independent draws by
	// their index, so with more than one sample per task its p-value
	// overstates the evidence: Tasks is the test to report. With one
	// sample per task the two are the same test.
	Samples metrics.McNemarResult `json:"samples"`
	// PairedSamples counts the samples of Samples; UnpairedSamples those
	// of the paired tasks scored in one run only (unscored, or missing,
	// in the other), left out of Samples.
	PairedSamples   int `json:"paired_samples"`
	UnpairedSamples int `json:"unpaired_samples,omitempty"`

	// Delta holds, for each k both runs report (in increasing order), the
	// paired difference in task-level pass@k.
	Delta []Delta `json:"delta,omitempty"`

	// AdaptationDelta is the paired difference in adaptation-level
	// pass@1 (Report.AdaptationPassAtK): each adaptation step with tests
	// of a paired task, by task and step ID, in both runs; its Tasks
	// counts those steps. Its interval resamples tasks, each with all of
	// its steps (a cluster bootstrap: the steps of one task share its
	// code and its answers, and are not independent), and is nil when
	// the steps come from fewer than two tasks. nil when no step is
	// scored in both runs.
	AdaptationDelta *Delta `json:"adaptation_delta,omitempty"`

	// Unpaired lists the tasks left out of the pairing, and why: in one
	// run only, not valid in one, or with no scored sample in one. A's
	// tasks come first, in A's order, then those only B has, in B's.
	Unpaired []UnpairedTask `json:"unpaired,omitempty"`
}

// Delta is the difference in task-level pass@k between two runs, over
// the tasks where both computed it (each has at least k scored samples
// in both).
type Delta struct {
	K int `json:"k"`
	// A and B are the runs' mean pass@k over those Tasks; Value is B − A,
	// the mean of the per-task differences.
	A     float64 `json:"a"`
	B     float64 `json:"b"`
	Value float64 `json:"value"`
	Tasks int     `json:"tasks"`
	// CI95 is a 95% percentile bootstrap interval of Value: the per-task
	// differences resampled with replacement (pairs stay together), 2000
	// resamples, seed 1, as a report's intervals (metrics.BootstrapMean).
	// nil when Tasks < 2.
	CI95 *metrics.Interval `json:"ci95,omitempty"`
	// Unpaired counts the paired tasks left out of this k: fewer than k
	// scored samples in one of the runs.
	Unpaired int `json:"unpaired,omitempty"`
}

// UnpairedTask is a task Compare could not pair, and why.
type UnpairedTask struct {
	TaskID string `json:"task"`
	// Reason says why, naming the run by letter: "only in A", "invalid
	// in B", "unchecked in A" (its reference could not be checked), "no
	// scored sample in B".
	Reason string `json:"reason"`
}

// Compare sets run b against run a on the tasks they share, pairing
// samples by task ID and sample index: McNemar's test on the tasks
// (the headline: Comparison.Tasks) and on the samples, the difference in
// pass@k for every k both report with a seeded bootstrap interval over
// tasks, and the tasks that flipped. Tasks and samples that cannot be
// paired are counted and listed in the result.
//
// It returns an error when a report is nil or of a Draw (no scores), or
// when no task is scored in both runs.
func Compare(a, b *Report) (*Comparison, error) {
	if a == nil || b == nil {
		return nil, errors.New("adapt: Compare needs two reports")
	}
	if a.Run.Draw || b.Run.Draw {
		return nil, errors.New("adapt: Compare: a report of Draw has no scores")
	}
	labels := runLabels([]*Report{a, b})
	c := &Comparison{A: labels[0], B: labels[1], SameTaskSet: a.Run.TaskSet != "" && a.Run.TaskSet == b.Run.TaskSet}
	inB := make(map[string]*TaskReport, len(b.PerTask))
	for i := range b.PerTask {
		inB[b.PerTask[i].TaskID] = &b.PerTask[i]
	}
	inA := make(map[string]bool, len(a.PerTask))
	invA, invB := invalidIDs(a), invalidIDs(b)
	ks := sharedKs(a, b)
	diffs := make([][]taskValue, len(ks)) // per k, each paired task's B and A
	unpairedK := make([]int, len(ks))
	var b01, b10, s01, s10 int
	var paired [][2]*TaskReport
	for i := range a.PerTask {
		ta := &a.PerTask[i]
		inA[ta.TaskID] = true
		tb, ok := inB[ta.TaskID]
		if !ok {
			c.Unpaired = append(c.Unpaired, UnpairedTask{TaskID: ta.TaskID, Reason: "only in A"})
			continue
		}
		if reason := unpairedReason(ta, tb, invA, invB); reason != "" {
			c.Unpaired = append(c.Unpaired, UnpairedTask{TaskID: ta.TaskID, Reason: reason})
			continue
		}
		c.PairedTasks++
		paired = append(paired, [2]*TaskReport{ta, tb})
		solvedA, solvedB := 2*ta.C > ta.N, 2*tb.C > tb.N
		switch {
		case !solvedA && solvedB:
			b01++
			c.Gained = append(c.Gained, ta.TaskID)
		case solvedA && !solvedB:
			b10++
			c.Lost = append(c.Lost, ta.TaskID)
		}
		g, l := c.pairSamples(ta, tb)
		s01, s10 = s01+g, s10+l
		for j, k := range ks {
			va, okA := scoreAt(ta.PassAtK, k)
			vb, okB := scoreAt(tb.PassAtK, k)
			if !okA || !okB {
				unpairedK[j]++
				continue
			}
			diffs[j] = append(diffs[j], taskValue{ta.TaskID, vb, va})
		}
	}
	for i := range b.PerTask {
		if tb := &b.PerTask[i]; !inA[tb.TaskID] {
			c.Unpaired = append(c.Unpaired, UnpairedTask{TaskID: tb.TaskID, Reason: "only in B"})
		}
	}
	if c.PairedTasks == 0 {
		return nil, fmt.Errorf("adapt: Compare: no task is scored in both runs (%d tasks in A, %d in B, %d unpaired)", len(a.PerTask), len(b.PerTask), len(c.Unpaired))
	}
	var err error
	if c.Tasks, err = metrics.McNemarCounts(b01, b10); err != nil {
		return nil, err
	}
	if c.Samples, err = metrics.McNemarCounts(s01, s10); err != nil {
		return nil, err
	}
	for j, k := range ks {
		c.Delta = append(c.Delta, passAtKDelta(k, diffs[j], unpairedK[j]))
	}
	c.AdaptationDelta = adaptationDelta(paired)
	return c, nil
}

// invalidIDs is the set of the run's invalid tasks.
func invalidIDs(r *Report) map[string]bool {
	m := map[string]bool{}
	for _, it := range r.Invalid {
		m[it.TaskID] = true
	}
	return m
}

// sharedKs lists, in order, the ks both runs report a pass@k for.
func sharedKs(a, b *Report) []int {
	var ks []int
	for _, s := range a.PassAtK {
		if _, ok := b.Score(s.K); ok && !slices.Contains(ks, s.K) {
			ks = append(ks, s.K)
		}
	}
	slices.Sort(ks)
	return ks
}

// unpairedReason says why a task of both runs cannot be paired, or "".
func unpairedReason(ta, tb *TaskReport, invA, invB map[string]bool) string {
	why := func(tr *TaskReport, inv map[string]bool, run string) string {
		switch {
		case inv[tr.TaskID]:
			return "invalid in " + run
		case !tr.Valid:
			return "unchecked in " + run
		case tr.N == 0:
			return "no scored sample in " + run
		}
		return ""
	}
	var reasons []string
	for _, r := range []string{why(ta, invA, "A"), why(tb, invB, "B")} {
		if r != "" {
			reasons = append(reasons, r)
		}
	}
	return strings.Join(reasons, "; ")
}

// pairSamples pairs the scored samples of a task by index, counting the
// paired and the unpaired ones in c, and returns how many samples went
// from failing in A to passing in B (gained) and the reverse (lost).
func (c *Comparison) pairSamples(ta, tb *TaskReport) (gained, lost int) {
	sa, sb := scoredSamples(ta), scoredSamples(tb)
	for idx, pa := range sa {
		pb, ok := sb[idx]
		if !ok {
			c.UnpairedSamples++
			continue
		}
		c.PairedSamples++
		switch {
		case !pa && pb:
			gained++
		case pa && !pb:
			lost++
		}
	}
	for idx := range sb {
		if _, ok := sa[idx]; !ok {
			c.UnpairedSamples++
		}
	}
	return gained, lost
}

// passAtKDelta averages the paired tasks' pass@k in each run and their
// difference, B − A, with a bootstrap interval over tasks.
func passAtKDelta(k int, diffs []taskValue, unpaired int) Delta {
	d := Delta{K: k, Tasks: len(diffs), Unpaired: unpaired}
	if d.Tasks > 0 {
		n := float64(d.Tasks)
		var sumA, sumB, sum float64
		vs := byTaskID(diffs) // sorts diffs too
		for i, tv := range diffs {
			vs[i] = tv.v - tv.a
			sumA, sumB, sum = sumA+tv.a, sumB+tv.v, sum+vs[i]
		}
		d.A, d.B, d.Value = sumA/n, sumB/n, sum/n
		d.CI95 = MeanCI(vs)
	}
	return d
}

// adaptationDelta pairs the adaptation steps with tests of the paired
// tasks by step ID and returns the difference in their pass@1, B − A,
// with a bootstrap interval over tasks (clusterCI).
func adaptationDelta(paired [][2]*TaskReport) *Delta {
	var diffs []float64
	var sums, counts []float64 // per task with a paired step
	d := Delta{K: 1}
	for _, p := range paired {
		n := len(diffs)
		for _, sa := range p[0].Steps {
			i := slices.IndexFunc(p[1].Steps, func(s StepReport) bool { return s.ID == sa.ID })
			if sa.Tests == 0 || i < 0 || p[1].Steps[i].Tests == 0 {
				continue
			}
			sb := p[1].Steps[i]
			d.A += sa.PassAt1
			d.B += sb.PassAt1
			diffs = append(diffs, sb.PassAt1-sa.PassAt1)
		}
		if len(diffs) > n {
			var sum float64
			for _, v := range diffs[n:] {
				sum += v
			}
			sums, counts = append(sums, sum), append(counts, float64(len(diffs)-n))
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	n := float64(len(diffs))
	d.Tasks = len(diffs)
	d.A, d.B = d.A/n, d.B/n
	for _, v := range diffs {
		d.Value += v
	}
	d.Value /= n
	d.CI95 = clusterCI(sums, counts)
	return &d
}

// clusterCI is the interval of a mean over items grouped in clusters
// (steps in tasks), cluster i holding counts[i] items that sum to
// sums[i]: a percentile bootstrap that resamples clusters with
// replacement and takes all of each one's items, the statistic being the
// resample's items' mean, with the resamples, confidence and seed of a
// report's intervals. nil for fewer than two clusters.
//
// It draws cluster indices through metrics.Bootstrap, so that its random
// stream is the one every interval of a report uses.
func clusterCI(sums, counts []float64) *metrics.Interval {
	if len(sums) < 2 {
		return nil
	}
	idx := make([]float64, len(sums))
	for i := range idx {
		idx[i] = float64(i)
	}
	ratio := func(xs []float64) float64 {
		var s, n float64
		for _, x := range xs {
			s, n = s+sums[int(x)], n+counts[int(x)]
		}
		return s / n
	}
	ci, err := metrics.Bootstrap(idx, ratio, bootstrapResamples, bootstrapConfidence, bootstrapSeed)
	if err != nil {
		panic("adapt: " + err.Error()) // the arguments are valid
	}
	return &ci
}

// scoredSamples maps the index of each scored sample of a task to whether
// it passed.
func scoredSamples(tr *TaskReport) map[int]bool {
	m := make(map[int]bool, len(tr.Samples))
	for _, s := range tr.Samples {
		if s.Scored() {
			m[s.Sample] = s.Outcome == OutcomePassed
		}
	}
	return m
}

// scoreAt is the value of k in scores, when they hold one.
func scoreAt(scores []Score, k int) (float64, bool) {
	s, ok := scoreOf(scores, k)
	return s.Value, ok
}

// scoreOf is the score of k in scores, when they hold one.
func scoreOf(scores []Score, k int) (Score, bool) {
	i := slices.IndexFunc(scores, func(s Score) bool { return s.K == k })
	if i < 0 {
		return Score{}, false
	}
	return scores[i], true
}

// WriteMarkdown writes the comparison as Markdown: the difference in
// pass@k with its interval, both McNemar tests, the tasks that flipped and
// those that could not be paired.
func (c *Comparison) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s (B) against %s (A)\n\n", mdCell(c.B), mdCell(c.A))
	if !c.SameTaskSet {
		b.WriteString("The runs' task sets differ: tasks are paired by ID only.\n\n")
	}
	if len(c.Delta) > 0 {
		fmt.Fprintf(&b, "| | A: %s | B: %s | B − A (points) | 95%% CI (bootstrap over tasks) | tasks |\n|---|---:|---:|---:|---|---:|\n", mdCell(c.A), mdCell(c.B))
		for _, d := range c.Delta {
			ci := "-"
			if d.CI95 != nil {
				ci = fmt.Sprintf("[%s, %s]", textkit.SignedPct(d.CI95.Lo), textkit.SignedPct(d.CI95.Hi))
			}
			fmt.Fprintf(&b, "| pass@%d | %s%% | %s%% | %s | %s | %d |\n", d.K, textkit.Pct(d.A), textkit.Pct(d.B), textkit.SignedPct(d.Value), ci, d.Tasks)
		}
		if d := c.AdaptationDelta; d != nil {
			ci := "-"
			if d.CI95 != nil {
				ci = fmt.Sprintf("[%s, %s]", textkit.SignedPct(d.CI95.Lo), textkit.SignedPct(d.CI95.Hi))
			}
			fmt.Fprintf(&b, "| pass@1, adaptation (steps) | %s%% | %s%% | %s | %s | %d |\n", textkit.Pct(d.A), textkit.Pct(d.B), textkit.SignedPct(d.Value), ci, d.Tasks)
		}
		b.WriteString("\nEach interval is a 95% percentile bootstrap (2000 resamples, seed 1) that resamples tasks, A and B together: pass@k over the tasks' values")
		if c.AdaptationDelta != nil {
			b.WriteString("; the adaptation row over the tasks' steps, a resampled task bringing all of its steps (the steps of one task are not independent)")
		}
		b.WriteString(".\n\n")
	}
	b.WriteString("| McNemar | pairs | A only | B only | p | test |\n|---|---:|---:|---:|---:|---|\n")
	test := func(name string, pairs int, m metrics.McNemarResult) {
		how := "exact binomial"
		if !m.Exact {
			how = fmt.Sprintf("chi-square %s, continuity-corrected", textkit.Fixed(m.Statistic, 3))
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %s | %s |\n", name, pairs, m.B10, m.B01, strconv.FormatFloat(m.PValue, 'g', 4, 64), how)
	}
	test("tasks (majority of samples; the headline)", c.PairedTasks, c.Tasks)
	test("samples (by index; not independent)", c.PairedSamples, c.Samples)
	b.WriteString("\n")
	list := func(name string, ids []string) {
		if len(ids) > 0 {
			cells := make([]string, len(ids))
			for i, id := range ids {
				cells[i] = mdCell(id)
			}
			fmt.Fprintf(&b, "%s (%d): %s\n\n", name, len(ids), strings.Join(cells, ", "))
		}
	}
	list("Gained, fail → pass", c.Gained)
	list("Lost, pass → fail", c.Lost)
	if len(c.Unpaired) > 0 {
		b.WriteString("| unpaired task | reason |\n|---|---|\n")
		for _, u := range c.Unpaired {
			fmt.Fprintf(&b, "| %s | %s |\n", mdCell(u.TaskID), mdCell(u.Reason))
		}
		b.WriteString("\n")
	}
	if c.UnpairedSamples > 0 {
		fmt.Fprintf(&b, "%d samples of paired tasks are scored in one run only and left out of the sample test.\n", c.UnpairedSamples)
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
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

// MeanCI is the interval a report gives a mean of per-task values (its
// pass@k, a comparison's deltas): a 95% percentile bootstrap over the
// values, 2000 resamples, seed 1; nil for fewer than two values. adapt's
// report builder calls it, so that a report's intervals and Compare's are
// one rule.
func MeanCI(values []float64) *metrics.Interval {
	if len(values) < 2 {
		return nil
	}
	ci, err := metrics.BootstrapMean(values, bootstrapResamples, bootstrapConfidence, bootstrapSeed)
	if err != nil {
		panic("adapt: " + err.Error()) // the arguments are valid
	}
	return &ci
}
