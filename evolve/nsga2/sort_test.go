package nsga2_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/evolve/nsga2"
)

func TestDominates(t *testing.T) {
	tests := []struct {
		name   string
		a, b   []float64
		want   bool
		reason string
	}{
		{name: "better in all", a: []float64{1, 1}, b: []float64{2, 2}, want: true, reason: "strictly better everywhere"},
		{name: "better in one", a: []float64{1, 2}, b: []float64{2, 2}, want: true, reason: "no worse, better once"},
		{name: "equal", a: []float64{1, 2}, b: []float64{1, 2}, want: false, reason: "equal vectors do not dominate"},
		{name: "trade-off", a: []float64{1, 3}, b: []float64{2, 2}, want: false, reason: "worse in one objective"},
		{name: "worse", a: []float64{3, 3}, b: []float64{2, 2}, want: false, reason: "minimisation"},
		{name: "signed zeros", a: []float64{math.Copysign(0, -1)}, b: []float64{0}, want: false, reason: "-0 == +0"},
		{name: "infinity", a: []float64{1, 5}, b: []float64{1, math.Inf(1)}, want: true, reason: "+Inf is the worst value"},
	}
	for _, tc := range tests {
		if got := nsga2.Dominates(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: Dominates(%v, %v) = %v, want %v (%s)", tc.name, tc.a, tc.b, got, tc.want, tc.reason)
		}
	}
}

// naiveFronts peels fronts the slow way, as the definition says.
func naiveFronts(objs [][]float64) [][]int {
	left := make([]int, len(objs))
	for i := range left {
		left[i] = i
	}
	var fronts [][]int
	for len(left) > 0 {
		var front, rest []int
		for _, p := range left {
			dominated := false
			for _, q := range left {
				if nsga2.Dominates(objs[q], objs[p]) {
					dominated = true
					break
				}
			}
			if dominated {
				rest = append(rest, p)
			} else {
				front = append(front, p)
			}
		}
		fronts = append(fronts, front)
		left = rest
	}
	return fronts
}

func TestFronts(t *testing.T) {
	tests := []struct {
		name   string
		objs   [][]float64
		want   [][]int
		reason string
	}{
		{name: "empty", objs: nil, want: [][]int{}, reason: "no vectors, no fronts"},
		{name: "one", objs: [][]float64{{1, 2}}, want: [][]int{{0}}, reason: "a single vector is the front"},
		{name: "chain", objs: [][]float64{{3, 3}, {1, 1}, {2, 2}}, want: [][]int{{1}, {2}, {0}}, reason: "each dominates the next"},
		{name: "trade-off", objs: [][]float64{{1, 3}, {2, 2}, {3, 1}, {3, 3}}, want: [][]int{{0, 1, 2}, {3}}, reason: "three mutually non-dominated"},
		{name: "duplicates", objs: [][]float64{{1, 1}, {2, 2}, {1, 1}}, want: [][]int{{0, 2}, {1}}, reason: "equal vectors share a front"},
		{name: "equal first objective", objs: [][]float64{{1, 2}, {1, 1}, {1, 3}}, want: [][]int{{1}, {0}, {2}}, reason: "ties broken by the second"},
		{name: "three objectives", objs: [][]float64{{1, 2, 3}, {3, 2, 1}, {2, 2, 2}, {3, 3, 3}, {1, 2, 4}}, want: [][]int{{0, 1, 2}, {3, 4}}, reason: "M = 3"},
		{name: "one objective", objs: [][]float64{{2}, {1}, {2}, {0}}, want: [][]int{{3}, {1}, {0, 2}}, reason: "M = 1 is a plain sort"},
	}
	for _, tc := range tests {
		got := nsga2.Fronts(tc.objs)
		assert.Equal(t, tc.want, got, "%s (%s): Fronts mismatch", tc.name, tc.reason)
	}
}

func TestFrontsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		m := 1 + trial%4
		objs := make([][]float64, rng.IntN(60))
		for i := range objs {
			objs[i] = make([]float64, m)
			for j := range objs[i] {
				objs[i][j] = float64(rng.IntN(6)) // many ties and duplicates
			}
		}
		want := naiveFronts(objs)
		if want == nil {
			want = [][]int{}
		}
		got := nsga2.Fronts(objs)
		require.Equal(t, want, got, "trial %d, %d objectives: Fronts differs from the naive sort", trial, m)
		require.Equal(t, debFronts(objs), got, "trial %d, %d objectives: Fronts differs from Deb's fast sort", trial, m)
	}
}

func TestCrowdingDistance(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name   string
		objs   [][]float64
		front  []int
		want   []float64
		reason string
	}{
		{name: "empty", objs: nil, front: nil, want: []float64{}, reason: "nothing to measure"},
		{name: "two", objs: [][]float64{{0, 1}, {1, 0}}, front: []int{0, 1}, want: []float64{inf, inf}, reason: "both are ends"},
		{name: "evenly spaced", objs: [][]float64{{0, 4}, {1, 3}, {2, 2}, {4, 0}},
			front: []int{0, 1, 2, 3}, want: []float64{inf, 2 * 2.0 / 4, 2 * 3.0 / 4, inf},
			reason: "gap between neighbours over the range, summed over both objectives"},
		{name: "subset in any order", objs: [][]float64{{9, 9}, {2, 2}, {0, 4}, {1, 3}},
			front: []int{2, 1, 3}, want: []float64{inf, inf, 2}, reason: "indices into objs, result in front order"},
		{name: "flat objective", objs: [][]float64{{0, 5}, {1, 5}, {3, 5}},
			front: []int{0, 1, 2}, want: []float64{inf, 1, inf}, reason: "zero range adds nothing, but its ends still get +Inf"},
	}
	for _, tc := range tests {
		got := nsga2.CrowdingDistance(tc.objs, tc.front)
		assert.Equal(t, tc.want, got, "%s (%s): mismatch", tc.name, tc.reason)
	}
}

func TestFrontsOrderIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	objs := finalObjectives(t, nsga2.ZDT3, 9, 60)
	want := nsga2.Fronts(objs)
	perm := rng.Perm(len(objs))
	shuffled := make([][]float64, len(objs))
	for i, j := range perm {
		shuffled[i] = objs[j]
	}
	got := nsga2.Fronts(shuffled)
	for k := range got {
		for i, j := range got[k] {
			got[k][i] = perm[j]
		}
		slices.Sort(got[k])
	}
	assert.Equal(t, want, got, "fronts depend on the order of vectors")
}
