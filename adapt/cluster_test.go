package adapt_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/metrics"
)

// clusterBootstrap is an independent cluster bootstrap of the mean of
// the items of clusters: resamples of len(clusters) clusters drawn with
// replacement (the PCG stream metrics.Bootstrap seeds from seed), each
// resample's statistic the mean of all its clusters' items, and the
// type-7 quantiles of those statistics.
func clusterBootstrap(clusters [][]float64, resamples int, seed uint64) (lo, hi float64) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	stats := make([]float64, resamples)
	for r := range stats {
		var sum float64
		var n int
		for range clusters {
			c := clusters[rng.IntN(len(clusters))]
			for _, v := range c {
				sum += v
			}
			n += len(c)
		}
		stats[r] = sum / float64(n)
	}
	slices.Sort(stats)
	q := func(p float64) float64 {
		h := float64(len(stats)-1) * p
		i := int(h)
		if i+1 >= len(stats) {
			return stats[i]
		}
		return stats[i] + (h-float64(i))*(stats[i+1]-stats[i])
	}
	return q(0.025), q(0.975)
}

// TestAdaptationDeltaResamplesTasks: the adaptation-level difference's
// interval resamples tasks, each with all of its steps, not steps as if
// independent. For a model right or wrong on whole tasks, 50 steps in 14
// tasks gave [−72.00, −44.00] (steps resampled) against the task-level
// [−78.57, −28.57]; the interval now matches an independent cluster
// bootstrap, and is as wide as the tasks make it. The Markdown says what
// each row's interval resamples.
func TestAdaptationDeltaResamplesTasks(t *testing.T) {
	steps := []int{2, 3, 4, 5, 3, 4, 2, 6, 3, 4, 5, 3, 4, 2} // 50 steps
	right := "PPFPFFPFFPFFPF"                                // B on each task; A is right on all
	var specA, specB []string
	for i := range steps {
		specA = append(specA, fmt.Sprintf("t%02d=P", i))
		specB = append(specB, fmt.Sprintf("t%02d=%c", i, right[i]))
	}
	a, b := runOf(t, "A", []int{1}, specA...), runOf(t, "B", []int{1}, specB...)
	var clusters [][]float64
	var flat []float64
	for i, n := range steps {
		var sa, sb []report.StepReport
		var c []float64
		for s := range n {
			pb := 0.0
			if right[i] == 'P' {
				pb = 1
			}
			sa = append(sa, report.StepReport{ID: fmt.Sprint(s), Tests: 1, PassAt1: 1})
			sb = append(sb, report.StepReport{ID: fmt.Sprint(s), Tests: 1, PassAt1: pb})
			c = append(c, pb-1)
		}
		a.PerTask[i].Steps, b.PerTask[i].Steps = sa, sb
		clusters, flat = append(clusters, c), append(flat, c...)
	}
	require.Len(t, flat, 50)
	c, err := report.Compare(a, b)
	require.NoError(t, err)
	d := c.AdaptationDelta
	require.NotNil(t, d)
	require.NotNil(t, d.CI95)
	assert.Equal(t, 50, d.Tasks, "the steps")
	mean, err := metrics.Mean(flat)
	require.NoError(t, err)
	assert.InDelta(t, mean, d.Value, 1e-12)
	assert.InDelta(t, mean, d.CI95.Point, 1e-12)
	lo, hi := clusterBootstrap(clusters, 2000, 1)
	assert.InDelta(t, lo, d.CI95.Lo, 1e-12, "the independent cluster bootstrap")
	assert.InDelta(t, hi, d.CI95.Hi, 1e-12, "the independent cluster bootstrap")

	naive, err := metrics.BootstrapMean(flat, 2000, 0.95, 1)
	require.NoError(t, err)
	task := c.Delta[0].CI95
	require.NotNil(t, task)
	t.Logf("steps resampled: [%.4f, %.4f]; tasks resampled: adaptation [%.4f, %.4f], task-level [%.4f, %.4f]",
		naive.Lo, naive.Hi, d.CI95.Lo, d.CI95.Hi, task.Lo, task.Hi)
	assert.Greater(t, d.CI95.Hi-d.CI95.Lo, 1.3*(naive.Hi-naive.Lo), "wider than steps taken as independent")
	assert.InDelta(t, task.Hi-task.Lo, d.CI95.Hi-d.CI95.Lo, 0.15, "about as wide as the task-level interval")

	// The task-level pass@1 interval resamples the tasks' values: the
	// same independent computation, one value per task.
	perTask := make([][]float64, len(clusters))
	for i, cl := range clusters {
		perTask[i] = cl[:1]
	}
	lo, hi = clusterBootstrap(perTask, 2000, 1)
	assert.InDelta(t, lo, task.Lo, 1e-12)
	assert.InDelta(t, hi, task.Hi, 1e-12)

	var md bytes.Buffer
	require.NoError(t, c.WriteMarkdown(&md))
	assert.Contains(t, md.String(), "the adaptation row over the tasks' steps, a resampled task bringing all of its steps")

	// One task: no interval, however many steps it has.
	a, b = runOf(t, "A", []int{1}, "x=P"), runOf(t, "B", []int{1}, "x=F")
	a.PerTask[0].Steps = []report.StepReport{{ID: "0", Tests: 1, PassAt1: 1}, {ID: "1", Tests: 1, PassAt1: 1}}
	b.PerTask[0].Steps = []report.StepReport{{ID: "0", Tests: 1, PassAt1: 0}, {ID: "1", Tests: 1, PassAt1: 1}}
	c, err = report.Compare(a, b)
	require.NoError(t, err)
	require.NotNil(t, c.AdaptationDelta)
	assert.Nil(t, c.AdaptationDelta.CI95, "two steps of one task say nothing of other tasks")
}
