package metrics_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/metrics"
)

func TestWilson(t *testing.T) {
	// z(0.95) = Φ⁻¹(0.975) = 1.959964, z² = 3.841459.
	// z(0.90) = Φ⁻¹(0.95)  = 1.644854, z² = 2.705543.
	cases := []struct {
		name       string
		reason     string
		s, n       int
		confidence float64
		want       metrics.Interval
		margin     float64
	}{
		{
			name: "8 of 10 at 95%",
			reason: "p=0.8, denom = 1+z²/10 = 1.384146, center = (0.8+0.192073)/1.384146 = 0.716741, " +
				"half = z·√(0.016+0.009604)/1.384146 = 0.226578 → [0.4902, 0.9433]",
			s: 8, n: 10, confidence: 0.95,
			want:   metrics.Interval{Lo: 0.4902, Point: 0.8, Hi: 0.9433},
			margin: 5e-5,
		},
		{
			name:   "0 of 10 at 95%",
			reason: "p=0: center = half = (z²/20)/1.384146, so Lo = 0 exactly and Hi = 0.384146/1.384146 = 0.277533",
			s:      0, n: 10, confidence: 0.95,
			want:   metrics.Interval{Lo: 0, Point: 0, Hi: 0.277533},
			margin: 5e-7,
		},
		{
			name:   "10 of 10 at 95%",
			reason: "mirror image of 0 of 10: [1-0.277533, 1]",
			s:      10, n: 10, confidence: 0.95,
			want:   metrics.Interval{Lo: 0.722467, Point: 1, Hi: 1},
			margin: 5e-7,
		},
		{
			name: "50 of 100 at 95%",
			reason: "p=0.5: center 0.5, denom = 1.038415, half = z·√(0.0025+0.000096)/1.038415 = 0.096168 " +
				"→ [0.403832, 0.596168]",
			s: 50, n: 100, confidence: 0.95,
			want:   metrics.Interval{Lo: 0.403832, Point: 0.5, Hi: 0.596168},
			margin: 5e-7,
		},
		{
			name: "8 of 10 at 90%",
			reason: "denom = 1.270554, center = (0.8+0.135277)/1.270554 = 0.736118, " +
				"half = z·√(0.016+0.006764)/1.270554 = 0.195325 → [0.540793, 0.931442]",
			s: 8, n: 10, confidence: 0.90,
			want:   metrics.Interval{Lo: 0.540793, Point: 0.8, Hi: 0.931442},
			margin: 5e-7,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := metrics.Wilson(tc.s, tc.n, tc.confidence)
			if err != nil {
				t.Fatalf("Wilson(%d, %d, %v): %v\nreason: %s", tc.s, tc.n, tc.confidence, err, tc.reason)
			}
			assert.Empty(t, cmp.Diff(tc.want, got, approxTo(tc.margin)), "Wilson(%d, %d, %v) mismatch (-want +got)\nreason: %s", tc.s, tc.n, tc.confidence, tc.reason)
		})
	}
}

func TestWilsonExactBounds(t *testing.T) {
	// The documented guarantees: Lo is exactly 0 with no successes and Hi
	// exactly 1 when everything succeeds, whatever rounding does.
	for _, n := range []int{1, 3, 10, 1000} {
		lo, err := metrics.Wilson(0, n, 0.99)
		if err != nil {
			t.Fatal(err)
		}
		hi, err := metrics.Wilson(n, n, 0.99)
		if err != nil {
			t.Fatal(err)
		}
		if lo.Lo != 0 || hi.Hi != 1 {
			t.Errorf("n=%d: Wilson(0, n).Lo = %v, Wilson(n, n).Hi = %v; want 0 and 1", n, lo.Lo, hi.Hi)
		}
	}
}

func TestWilsonErrors(t *testing.T) {
	cases := []struct {
		name       string
		reason     string
		s, n       int
		confidence float64
	}{
		{name: "no trials", reason: "a proportion needs at least one trial", s: 0, n: 0, confidence: 0.95},
		{name: "negative successes", reason: "counts cannot be negative", s: -1, n: 10, confidence: 0.95},
		{name: "successes exceed trials", reason: "11 of 10 is not a proportion", s: 11, n: 10, confidence: 0.95},
		{name: "confidence zero", reason: "the level must be strictly inside (0, 1)", s: 5, n: 10, confidence: 0},
		{name: "confidence one", reason: "z would be infinite", s: 5, n: 10, confidence: 1},
		{name: "confidence as percent", reason: "95 instead of 0.95 is a likely mistake", s: 5, n: 10, confidence: 95},
		{name: "confidence NaN", reason: "NaN is not a level", s: 5, n: 10, confidence: math.NaN()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := metrics.Wilson(tc.s, tc.n, tc.confidence)
			if !errors.Is(err, metrics.ErrInvalidArgument) {
				t.Errorf("Wilson(%d, %d, %v) error = %v, want ErrInvalidArgument\nreason: %s", tc.s, tc.n, tc.confidence, err, tc.reason)
			}
		})
	}
}

func TestBootstrap(t *testing.T) {
	median := func(v []float64) float64 {
		slices.Sort(v) // allowed: Bootstrap passes a scratch slice
		q, _ := metrics.Quantile(v, 0.5)
		return q
	}
	cases := []struct {
		name   string
		reason string
		values []float64
		stat   func([]float64) float64
		want   metrics.Interval
		margin float64
	}{
		{
			name:   "constant sample",
			reason: "every resample of {5,5,5,5} has mean 5, so the interval collapses to [5, 5]",
			values: []float64{5, 5, 5, 5},
			want:   metrics.Interval{Lo: 5, Point: 5, Hi: 5},
		},
		{
			name:   "single value",
			reason: "the only resample of {0.3} is {0.3}",
			values: []float64{0.3},
			want:   metrics.Interval{Lo: 0.3, Point: 0.3, Hi: 0.3},
		},
		{
			name:   "median of a constant sample",
			reason: "any statistic of identical values is that value",
			values: []float64{2, 2, 2},
			stat:   median,
			want:   metrics.Interval{Lo: 2, Point: 2, Hi: 2},
		},
		{
			name: "mean of 500 passes in 1000",
			reason: "the bootstrap of a 0/1 mean approximates the normal interval: p=0.5, " +
				"se = √(0.25/1000) = 0.015811, 1.96·se = 0.030990 → [0.469, 0.531] within Monte Carlo error",
			values: halfOnes(1000),
			want:   metrics.Interval{Lo: 0.469010, Point: 0.5, Hi: 0.530990},
			margin: 0.004,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stat := tc.stat
			if stat == nil {
				stat = func(v []float64) float64 { m, _ := metrics.Mean(v); return m }
			}
			orig := slices.Clone(tc.values)
			got, err := metrics.Bootstrap(tc.values, stat, 4000, 0.95, 7)
			if err != nil {
				t.Fatalf("Bootstrap: %v\nreason: %s", err, tc.reason)
			}
			assert.Empty(t, cmp.Diff(tc.want, got, approxTo(max(tc.margin, 1e-12))), "Bootstrap mismatch (-want +got)\nreason: %s", tc.reason)
			assert.Equal(t, orig, tc.values, "Bootstrap modified its input")
		})
	}
}

// halfOnes returns n values, the first half 1 and the rest 0.
func halfOnes(n int) []float64 {
	v := make([]float64, n)
	for i := range n / 2 {
		v[i] = 1
	}
	return v
}

func TestBootstrapDeterministic(t *testing.T) {
	values := []float64{0.1, 0.4, 0.35, 0.8, 0.9, 0.05, 0.6, 0.7, 0.2, 0.55}
	a, err := metrics.BootstrapMean(values, 1000, 0.9, 42)
	if err != nil {
		t.Fatal(err)
	}
	b, err := metrics.BootstrapMean(values, 1000, 0.9, 42)
	if err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, a, b, "same seed gave different intervals")
	c, err := metrics.BootstrapMean(values, 1000, 0.9, 43)
	if err != nil {
		t.Fatal(err)
	}
	if a == c {
		t.Errorf("seeds 42 and 43 gave the identical interval %+v; the seed is not used", a)
	}
	// Point is the sample mean, (sum = 4.65) / 10, and lies inside.
	assert.Empty(t, cmp.Diff(0.465, a.Point, approx), "Point mismatch (-want +got)")
	if !(a.Lo <= a.Point && a.Point <= a.Hi) {
		t.Errorf("interval %+v does not contain its point", a)
	}
}

func TestBootstrapErrors(t *testing.T) {
	mean := func(v []float64) float64 { m, _ := metrics.Mean(v); return m }
	cases := []struct {
		name       string
		reason     string
		values     []float64
		stat       func([]float64) float64
		resamples  int
		confidence float64
		wantErr    error
	}{
		{name: "empty", reason: "nothing to resample", values: nil, stat: mean, resamples: 10, confidence: 0.95, wantErr: metrics.ErrEmpty},
		{name: "nil stat", reason: "no statistic to evaluate", values: []float64{1}, stat: nil, resamples: 10, confidence: 0.95, wantErr: metrics.ErrInvalidArgument},
		{name: "zero resamples", reason: "no distribution to take quantiles of", values: []float64{1}, stat: mean, resamples: 0, confidence: 0.95, wantErr: metrics.ErrInvalidArgument},
		{name: "confidence one", reason: "level must be inside (0, 1)", values: []float64{1}, stat: mean, resamples: 10, confidence: 1, wantErr: metrics.ErrInvalidArgument},
		{
			name: "NaN statistic", reason: "NaN cannot be ordered for quantiles",
			values: []float64{1, 2}, stat: func([]float64) float64 { return math.NaN() },
			resamples: 10, confidence: 0.95, wantErr: metrics.ErrInvalidArgument,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := metrics.Bootstrap(tc.values, tc.stat, tc.resamples, tc.confidence, 1)
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("Bootstrap error = %v, want %v\nreason: %s", err, tc.wantErr, tc.reason)
			}
		})
	}
	if _, err := metrics.BootstrapMean(nil, 10, 0.95, 1); !errors.Is(err, metrics.ErrEmpty) {
		t.Errorf("BootstrapMean(nil) error = %v, want ErrEmpty", err)
	}
}
