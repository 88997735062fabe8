package nsga2_test

import (
	"math"
	"testing"

	"github.com/adaptbench/adaptbench/evolve/nsga2"
)

func TestHypervolume2D(t *testing.T) {
	tests := []struct {
		name   string
		points [][]float64
		ref    [2]float64
		want   float64
		reason string
	}{
		{name: "empty", points: nil, ref: [2]float64{1, 1}, want: 0, reason: "nothing dominated"},
		{name: "one point", points: [][]float64{{1, 2}}, ref: [2]float64{3, 3}, want: 2, reason: "a 2×1 box"},
		{name: "staircase", points: [][]float64{{2, 1}, {1, 2}}, ref: [2]float64{3, 3}, want: 3, reason: "two boxes overlapping in one unit square"},
		{name: "dominated point", points: [][]float64{{1, 1}, {2, 2}}, ref: [2]float64{3, 3}, want: 4, reason: "adds nothing"},
		{name: "duplicate", points: [][]float64{{1, 1}, {1, 1}}, ref: [2]float64{3, 3}, want: 4, reason: "adds nothing"},
		{name: "outside ref", points: [][]float64{{1, 1}, {4, 0}, {0, 3}}, ref: [2]float64{3, 3}, want: 4, reason: "not strictly below ref in both"},
		{name: "nan", points: [][]float64{{1, 1}, {math.NaN(), 0}}, ref: [2]float64{3, 3}, want: 4, reason: "NaN adds nothing"},
		{name: "negative", points: [][]float64{{-1, -1}}, ref: [2]float64{0, 0}, want: 1, reason: "any sign"},
	}
	for _, tc := range tests {
		if got := nsga2.Hypervolume2D(tc.points, tc.ref); got != tc.want {
			t.Errorf("%s: Hypervolume2D = %v, want %v (%s)", tc.name, got, tc.want, tc.reason)
		}
	}
}

// TestHypervolumeTrueFronts checks the true fronts' hypervolumes that the
// tests compare against, from dense samples of the fronts.
func TestHypervolumeTrueFronts(t *testing.T) {
	const n = 200000
	tests := []struct {
		name   string
		f2     func(f1 float64) float64
		want   float64
		reason string
	}{
		{name: "zdt1", f2: func(x float64) float64 { return 1 - math.Sqrt(x) }, want: 121 - 1.0/3, reason: "∫(1-√x) = 1/3"},
		{name: "zdt2", f2: func(x float64) float64 { return 1 - x*x }, want: 121 - 2.0/3, reason: "∫(1-x²) = 2/3"},
		{name: "zdt3", f2: func(x float64) float64 { return 1 - math.Sqrt(x) - x*math.Sin(10*math.Pi*x) }, want: 128.77811613, reason: "numerically, five pieces"},
	}
	for _, tc := range tests {
		pts := make([][]float64, n+1)
		for i := range pts {
			x := float64(i) / n
			pts[i] = []float64{x, tc.f2(x)}
		}
		// A sample's staircase lies above the front by at most the step
		// width times the slope, so its hypervolume is a little lower.
		got := nsga2.Hypervolume2D(pts, ref)
		if !(got <= tc.want+1e-9 && got > tc.want-1e-3) {
			t.Errorf("%s: hypervolume of a dense sample %.8f, want just below %.8f (%s)", tc.name, got, tc.want, tc.reason)
		}
	}
}

func TestHypervolumePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for a point with three values")
		}
	}()
	nsga2.Hypervolume2D([][]float64{{1, 2, 3}}, ref)
}
