package adapt_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/metrics"
)

// runOf builds a report the way Evaluate does, from each task's samples
// written as a string, one letter per sample index: P passed, F failed,
// M a model error (unscored), - missing (not in the report). An "!"
// before the letters marks the task invalid (its reference failed). ks
// are the k reported; tasks are "id=letters".
func runOf(t *testing.T, name string, ks []int, tasks ...string) *report.Report {
	t.Helper()
	r := &report.Report{Run: report.RunInfo{Name: name, Model: "noisy", K: ks, TaskSet: "same"}, Outcomes: map[report.Outcome]int{}}
	sums := make([]float64, len(ks))
	counts := make([]int, len(ks))
	for _, spec := range tasks {
		id, letters, ok := strings.Cut(spec, "=")
		require.True(t, ok, spec)
		tr := report.TaskReport{TaskID: id, Valid: true}
		r.Tasks++
		if s, ok := strings.CutPrefix(letters, "!"); ok {
			tr.Valid = false
			r.Invalid = append(r.Invalid, report.InvalidTask{TaskID: id, Reason: "reference failed"})
			r.PerTask = append(r.PerTask, tr)
			require.Empty(t, s)
			continue
		}
		r.Valid++
		for i, l := range letters {
			var o report.Outcome
			switch l {
			case 'P':
				o = report.OutcomePassed
			case 'F':
				o = report.OutcomeFailed
			case 'M':
				o = report.OutcomeModelError
			case '-':
				continue
			default:
				t.Fatalf("bad letter %q in %s", l, spec)
			}
			tr.Samples = append(tr.Samples, report.SampleResult{Sample: i, Outcome: o})
			r.Outcomes[o]++
			if o != report.OutcomeModelError {
				tr.N++
				if o == report.OutcomePassed {
					tr.C++
				}
			}
		}
		for i, k := range ks {
			if tr.N < k {
				continue
			}
			v, err := metrics.PassAtK(tr.N, tr.C, k)
			require.NoError(t, err)
			tr.PassAtK = append(tr.PassAtK, report.Score{K: k, Value: v, Tasks: 1})
			sums[i] += v
			counts[i]++
		}
		r.PerTask = append(r.PerTask, tr)
	}
	for i, k := range ks {
		if counts[i] > 0 {
			r.PassAtK = append(r.PassAtK, report.Score{K: k, Value: sums[i] / float64(counts[i]), Tasks: counts[i]})
		}
	}
	return r
}

// repeat returns n task specs named prefix0, prefix1, … with the same
// letters.
func repeat(prefix string, n int, letters string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + string(rune('a'+i)) + "=" + letters
	}
	return out
}

// TestCompareMcNemarExact: one sample per task, B gains 3 tasks and loses
// 9, 5 pass in both and 3 fail in both. Discordant 12 < 25: the exact
// two-sided binomial p-value, 2·(C(12,0)+C(12,1)+C(12,2)+C(12,3))/2^12 =
// 2·299/4096 = 0.14599609375. With one sample per task the sample test is
// the task test.
func TestCompareMcNemarExact(t *testing.T) {
	var sa, sb []string
	for _, s := range repeat("gain", 3, "") {
		sa, sb = append(sa, s+"F"), append(sb, s+"P")
	}
	for _, s := range repeat("lose", 9, "") {
		sa, sb = append(sa, s+"P"), append(sb, s+"F")
	}
	for _, s := range repeat("both", 5, "P") {
		sa, sb = append(sa, s), append(sb, s)
	}
	for _, s := range repeat("none", 3, "F") {
		sa, sb = append(sa, s), append(sb, s)
	}
	c, err := report.Compare(runOf(t, "", []int{1}, sa...), runOf(t, "", []int{1}, sb...))
	require.NoError(t, err)
	want := metrics.McNemarResult{B01: 3, B10: 9, Statistic: 25.0 / 12, PValue: 598.0 / 4096, Exact: true}
	assert.Equal(t, want, c.Tasks)
	assert.Equal(t, want, c.Samples)
	assert.Equal(t, 0.14599609375, c.Tasks.PValue)
	assert.Equal(t, 20, c.PairedTasks)
	assert.Equal(t, 20, c.PairedSamples)
	assert.Equal(t, []string{"gaina", "gainb", "gainc"}, c.Gained)
	assert.Len(t, c.Lost, 9)
	assert.Equal(t, "losea", c.Lost[0])
	assert.Empty(t, c.Unpaired)
	// Both runs are of model "noisy" with no name: told apart by position.
	assert.Equal(t, "noisy #1", c.A)
	assert.Equal(t, "noisy #2", c.B)
	require.Len(t, c.Delta, 1)
	assert.Equal(t, 1, c.Delta[0].K)
	assert.Equal(t, 20, c.Delta[0].Tasks)
	assert.InDelta(t, 14.0/20, c.Delta[0].A, 1e-15)
	assert.InDelta(t, 8.0/20, c.Delta[0].B, 1e-15)
	assert.InDelta(t, -6.0/20, c.Delta[0].Value, 1e-15)
}

// TestCompareMcNemarChiSquare: B gains 20 tasks and loses 5: 25
// discordant tasks, the chi-square regime. Statistic (|20-5|-1)²/25 =
// 196/25 = 7.84, p = P(χ²₁ > 7.84) = erfc(√(7.84/2)) = 0.0051102606608…
func TestCompareMcNemarChiSquare(t *testing.T) {
	var sa, sb []string
	for _, s := range repeat("g", 20, "") {
		sa, sb = append(sa, s+"F"), append(sb, s+"P")
	}
	for _, s := range repeat("l", 5, "") {
		sa, sb = append(sa, s+"P"), append(sb, s+"F")
	}
	sa, sb = append(sa, "same=P"), append(sb, "same=P")
	c, err := report.Compare(runOf(t, "base", []int{1}, sa...), runOf(t, "tuned", []int{1}, sb...))
	require.NoError(t, err)
	assert.False(t, c.Tasks.Exact)
	assert.Equal(t, 20, c.Tasks.B01)
	assert.Equal(t, 5, c.Tasks.B10)
	assert.InDelta(t, 7.84, c.Tasks.Statistic, 1e-12)
	assert.InDelta(t, 0.005110260660855864, c.Tasks.PValue, 1e-15)
	assert.Equal(t, "base", c.A)
	assert.Equal(t, "tuned", c.B)
}

// TestComparePairing: several samples per task. Tasks are solved by a
// strict majority of their scored samples; samples pair by index; what
// cannot be paired is counted and listed.
func TestComparePairing(t *testing.T) {
	a := runOf(t, "a", []int{1, 3}, []string{
		"t1=PPF",  // solved (2 of 3)
		"t2=PFF",  // not solved
		"t3=PPPP", // solved; sample 3 has no partner in B
		"t4=PP",   // solved, but only 2 samples: no pass@3
		"t5=PFM",  // 1 of 2 scored: not solved (a tie is not a majority); sample 2 unscored
		"t6=!",    // invalid in A
		"onlyA=PPP",
	}...)
	b := runOf(t, "b", []int{1, 3}, []string{
		"t1=FFP", // not solved: lost
		"t2=PPF", // solved: gained
		"t3=PPP", // solved
		"t4=FFF", // not solved: lost
		"t5=PPP", // solved: gained
		"t6=PPP", // valid in B, but invalid in A
		"onlyB=PPP",
	}...)
	c, err := report.Compare(a, b)
	require.NoError(t, err)
	assert.Equal(t, 5, c.PairedTasks)
	assert.Equal(t, []string{"t2", "t5"}, c.Gained)
	assert.Equal(t, []string{"t1", "t4"}, c.Lost)
	assert.Equal(t, metrics.McNemarResult{B01: 2, B10: 2, Statistic: 0, PValue: 1, Exact: true}, c.Tasks)
	// Samples by index, scored in both:
	//   t1: (P,F) (P,F) (F,P)  → B10 2, B01 1
	//   t2: (P,P) (F,P) (F,F)  → B01 1
	//   t3: (P,P)×3, sample 3 unpaired
	//   t4: (P,F) (P,F), sample 2 of B unpaired → B10 2
	//   t5: (P,P) (F,P), sample 2 (M in A) unpaired → B01 1
	// 3+3+3+2+2 = 13 pairs; B01 3, B10 4.
	//   t5: (P,P) (F,P), sample 2 (M in A) unpaired → B01 1
	assert.Equal(t, 3, c.Samples.B01)
	assert.Equal(t, 4, c.Samples.B10)
	assert.Equal(t, 13, c.PairedSamples)
	assert.Equal(t, 3, c.UnpairedSamples)
	// 2·(C(7,0)+C(7,1)+C(7,2)+C(7,3))/2^7 = 2·64/128 = 1.
	assert.Equal(t, 1.0, c.Samples.PValue)
	assert.Equal(t, []report.UnpairedTask{
		{TaskID: "t6", Reason: "invalid in A"},
		{TaskID: "onlyA", Reason: "only in A"},
		{TaskID: "onlyB", Reason: "only in B"},
	}, c.Unpaired)
	require.Len(t, c.Delta, 2)
	// pass@1: t1 1/3 − 2/3, t2 2/3 − 1/3, t3 1 − 1, t4 0 − 1, t5 1 − 1/2.
	d1 := c.Delta[0]
	assert.Equal(t, 5, d1.Tasks)
	assert.Equal(t, 0, d1.Unpaired)
	assert.InDelta(t, (2.0/3+1.0/3+1+1+0.5)/5, d1.A, 1e-15)
	assert.InDelta(t, (1.0/3+2.0/3+1+0+1)/5, d1.B, 1e-15)
	assert.InDelta(t, d1.B-d1.A, d1.Value, 1e-15)
	// pass@3: t4 and t5 have fewer than 3 scored samples in A.
	d3 := c.Delta[1]
	assert.Equal(t, 3, d3.K)
	assert.Equal(t, 3, d3.Tasks)
	assert.Equal(t, 2, d3.Unpaired)
}

// TestCompareBootstrapSeeded: the interval of Δpass@1 is the seeded
// bootstrap of the per-task differences (2000 resamples, 0.95, seed 1):
// exactly metrics.BootstrapMean's, the same values on every run, and the
// Markdown the same byte for byte.
func TestCompareBootstrapSeeded(t *testing.T) {
	a := runOf(t, "base", []int{1, 2}, "t1=PF", "t2=FF", "t3=PP", "t4=PF", "t5=FF", "t6=PP", "t7=FP", "t8=FF")
	b := runOf(t, "tuned", []int{1, 2}, "t1=PP", "t2=PF", "t3=PP", "t4=FF", "t5=PP", "t6=PP", "t7=PP", "t8=FP")
	c, err := report.Compare(a, b)
	require.NoError(t, err)
	diffs := []float64{0.5, 0.5, 0, -0.5, 1, 0, 0.5, 0.5}
	want, err := metrics.BootstrapMean(diffs, 2000, 0.95, 1)
	require.NoError(t, err)
	require.NotNil(t, c.Delta[0].CI95)
	assert.Equal(t, want, *c.Delta[0].CI95)
	// The numbers themselves, so that a change to the resampling shows.
	assert.Equal(t, metrics.Interval{Lo: 0, Point: 0.3125, Hi: 0.625}, *c.Delta[0].CI95)
	assert.Equal(t, 0.3125, c.Delta[0].Value)

	var md1, md2 bytes.Buffer
	require.NoError(t, c.WriteMarkdown(&md1))
	c2, err := report.Compare(a, b)
	require.NoError(t, err)
	require.NoError(t, c2.WriteMarkdown(&md2))
	assert.Equal(t, md1.String(), md2.String())
	wantMD := `## tuned (B) against base (A)

| | A: base | B: tuned | B − A (points) | 95% CI (bootstrap over tasks) | tasks |
|---|---:|---:|---:|---|---:|
| pass@1 | 43.75% | 75.00% | +31.25 | [0.00, +62.50] | 8 |
| pass@2 | 62.50% | 87.50% | +25.00 | [-25.00, +75.00] | 8 |

Each interval is a 95% percentile bootstrap (2000 resamples, seed 1) that resamples tasks, A and B together: pass@k over the tasks' values.

| McNemar | pairs | A only | B only | p | test |
|---|---:|---:|---:|---:|---|
| tasks (majority of samples; the headline) | 8 | 0 | 3 | 0.25 | exact binomial |
| samples (by index; not independent) | 16 | 1 | 6 | 0.125 | exact binomial |

Gained, fail → pass (3): t1, t5, t7
`
	// Tasks: B solves t1 (PP), t5 (PP), t7 (PP), which A does not (PF,
	// FF, FP: a tie is not a majority): p = 2·1/2³ = 0.25. Samples: B01 6
	// (t1#1, t2#0, t5#0, t5#1, t7#0, t8#1), B10 1 (t4#0): p = 2·(1+7)/2⁷.
	// pass@1 differences 0.5, 0.5, 0, -0.5, 1, 0, 0.5, 0.5: mean 0.3125.
	assert.Equal(t, wantMD, md1.String(), "Markdown")
}

// TestCompareConstantDifference: when every task moves by the same
// amount, every resample has that mean: the interval is that point.
func TestCompareConstantDifference(t *testing.T) {
	a := runOf(t, "a", []int{1}, repeat("t", 6, "FF")...)
	b := runOf(t, "b", []int{1}, repeat("t", 6, "PF")...)
	c, err := report.Compare(a, b)
	require.NoError(t, err)
	assert.Equal(t, metrics.Interval{Lo: 0.5, Point: 0.5, Hi: 0.5}, *c.Delta[0].CI95)
	assert.Empty(t, c.Gained, "1 of 2 is not a majority")
}

func TestCompareErrors(t *testing.T) {
	a := runOf(t, "a", []int{1}, "t1=P")
	_, err := report.Compare(a, nil)
	assert.ErrorContains(t, err, "two reports")
	_, err = report.Compare(a, runOf(t, "b", []int{1}, "t2=P"))
	assert.ErrorContains(t, err, "no task is scored in both runs")
	_, err = report.Compare(a, runOf(t, "b", []int{1}, "t1=M"))
	assert.ErrorContains(t, err, "no task is scored in both runs")
	d := runOf(t, "d", nil, "t1=P")
	d.Run.Draw = true
	_, err = report.Compare(a, d)
	assert.ErrorContains(t, err, "Draw")
}

// TestWriteComparisonLabelsByRunName: columns are labelled by run name;
// two runs of one model without names are told apart by position.
func TestWriteComparisonLabelsByRunName(t *testing.T) {
	for _, tc := range []struct {
		name, a, b, want string
	}{
		{"names", "greedy", "t0.8", "| | greedy | t0.8 |"},
		{"unnamed/same model", "", "", "| | noisy #1 | noisy #2 |"},
		{"same name", "run", "run", "| | run #1 | run #2 |"},
		{"pipe escaped", "a|b", "c", `| | a\|b | c |`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, report.WriteComparison(&b, runOf(t, tc.a, []int{1}, "t=P"), runOf(t, tc.b, []int{1}, "t=F")))
			first, _, _ := strings.Cut(b.String(), "\n")
			assert.Equal(t, tc.want, first)
		})
	}
}

func TestSignedZeroNeverWritten(t *testing.T) {
	a := runOf(t, "a", []int{1}, "t1=PF", "t2=PF")
	b := runOf(t, "b", []int{1}, "t1=FP", "t2=FP")
	c, err := report.Compare(a, b)
	require.NoError(t, err)
	c.Delta[0].Value = math.Copysign(0, -1)
	var md bytes.Buffer
	require.NoError(t, c.WriteMarkdown(&md))
	assert.NotContains(t, md.String(), "-0.00")
	assert.Contains(t, md.String(), "| 0.00 |")
}

// TestCompareAdaptationDelta: AdaptEval's second headline, adaptation-level
// pass@1, gets its paired difference too: steps with tests of paired tasks,
// matched by task and step ID; a step without tests, or in one run only,
// is left out.
func TestCompareAdaptationDelta(t *testing.T) {
	a := runOf(t, "A", []int{1}, "x=P", "y=F", "z=P")
	b := runOf(t, "B", []int{1}, "x=P", "y=P", "z=P")
	steps := func(r *report.Report, id string, ss ...report.StepReport) {
		for i := range r.PerTask {
			if r.PerTask[i].TaskID == id {
				r.PerTask[i].Steps = ss
			}
		}
	}
	steps(a, "x", report.StepReport{ID: "0", Tests: 1, PassAt1: 0}, report.StepReport{ID: "1", Tests: 2, PassAt1: 0.5}, report.StepReport{ID: "2", Tests: 0})
	steps(b, "x", report.StepReport{ID: "0", Tests: 1, PassAt1: 1}, report.StepReport{ID: "1", Tests: 2, PassAt1: 0.5}, report.StepReport{ID: "2", Tests: 0})
	steps(a, "y", report.StepReport{ID: "0", Tests: 1, PassAt1: 0}, report.StepReport{ID: "9", Tests: 1, PassAt1: 1})
	steps(b, "y", report.StepReport{ID: "0", Tests: 1, PassAt1: 1})
	c, err := report.Compare(a, b)
	require.NoError(t, err)
	require.NotNil(t, c.AdaptationDelta)
	d := *c.AdaptationDelta
	lo, hi := clusterBootstrap([][]float64{{1, 0}, {1}}, 2000, 1) // tasks x and y, with their steps
	require.NotNil(t, d.CI95)
	assert.Equal(t, metrics.Interval{Lo: lo, Point: 2.0 / 3, Hi: hi}, *d.CI95)
	d.CI95 = nil
	assert.Equal(t, report.Delta{K: 1, A: 0.5 / 3, B: 2.5 / 3, Value: 2.0 / 3, Tasks: 3}, d)
	var md bytes.Buffer
	require.NoError(t, c.WriteMarkdown(&md))
	assert.Contains(t, md.String(), "| pass@1, adaptation (steps) | 16.67% | 83.33% | +66.67 | [")

	c, err = report.Compare(runOf(t, "A", []int{1}, "x=P"), runOf(t, "B", []int{1}, "x=F"))
	require.NoError(t, err)
	assert.Nil(t, c.AdaptationDelta, "no step scored in both runs")
}
