package metrics_test

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/metrics"
)

func TestMeanStdDev(t *testing.T) {
	cases := []struct {
		name     string
		reason   string
		values   []float64
		wantMean float64
		wantSD   float64
	}{
		{
			name:     "textbook sample",
			reason:   "mean 40/8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32; sd = √(32/7) = 2.138090",
			values:   []float64{2, 4, 4, 4, 5, 5, 7, 9},
			wantMean: 5,
			wantSD:   math.Sqrt(32.0 / 7),
		},
		{
			name:     "two values",
			reason:   "mean 2; deviations ±1; sd = √(2/1) = √2",
			values:   []float64{1, 3},
			wantMean: 2,
			wantSD:   math.Sqrt2,
		},
		{
			name:     "constant",
			reason:   "no spread",
			values:   []float64{0.7, 0.7, 0.7},
			wantMean: 0.7,
			wantSD:   0,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := metrics.Mean(tc.values)
			if err != nil {
				t.Fatalf("Mean: %v", err)
			}
			sd, err := metrics.StdDev(tc.values)
			if err != nil {
				t.Fatalf("StdDev: %v", err)
			}
			assert.Empty(t, cmp.Diff([2]float64{tc.wantMean, tc.wantSD}, [2]float64{m, sd}, approx), "[mean, sd] mismatch (-want +got)\nreason: %s", tc.reason)
		})
	}
}

func TestQuantile(t *testing.T) {
	cases := []struct {
		name   string
		reason string
		values []float64
		q      float64
		want   float64
	}{
		{name: "median even", reason: "sorted 1,2,3,4; h = 3·0.5 = 1.5 → 2 + 0.5·1 = 2.5", values: []float64{3, 1, 4, 2}, q: 0.5, want: 2.5},
		{name: "lower quartile", reason: "h = 3·0.25 = 0.75 → 1 + 0.75·1 = 1.75", values: []float64{3, 1, 4, 2}, q: 0.25, want: 1.75},
		{name: "minimum", reason: "q = 0 is the smallest value", values: []float64{3, 1, 4, 2}, q: 0, want: 1},
		{name: "maximum", reason: "q = 1 is the largest value", values: []float64{3, 1, 4, 2}, q: 1, want: 4},
		{name: "median odd", reason: "sorted 1,5,9; h = 1 → 5", values: []float64{9, 1, 5}, q: 0.5, want: 5},
		{name: "single", reason: "every quantile of one value is that value", values: []float64{7}, q: 0.9, want: 7},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			orig := append([]float64(nil), tc.values...)
			got, err := metrics.Quantile(tc.values, tc.q)
			if err != nil {
				t.Fatalf("Quantile: %v", err)
			}
			assert.Empty(t, cmp.Diff(tc.want, got, approx), "Quantile(%v, %v) mismatch (-want +got)\nreason: %s", tc.values, tc.q, tc.reason)
			assert.Equal(t, orig, tc.values, "Quantile modified its input")
		})
	}
}

func TestRelativeDegradation(t *testing.T) {
	cases := []struct {
		name        string
		reason      string
		baseline, x float64
		want        float64
	}{
		{
			name:     "AdaptEval GPT-4o vs DeepSeek-V3",
			reason:   "(59.15 - 57.31) / 59.15 = 1.84 / 59.15 = 0.0311074, the paper's 3.11%",
			baseline: 59.15, x: 57.31,
			want: 0.031107354184277264,
		},
		{name: "ten percent drop", reason: "(100 - 90) / 100", baseline: 100, x: 90, want: 0.1},
		{name: "improvement is negative", reason: "(50 - 60) / 50 = -0.2", baseline: 50, x: 60, want: -0.2},
		{name: "unchanged", reason: "(80 - 80) / 80", baseline: 80, x: 80, want: 0},
		{name: "total loss", reason: "(0.4 - 0) / 0.4", baseline: 0.4, x: 0, want: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := metrics.RelativeDegradation(tc.baseline, tc.x)
			if err != nil {
				t.Fatalf("RelativeDegradation(%v, %v): %v", tc.baseline, tc.x, err)
			}
			assert.Empty(t, cmp.Diff(tc.want, got, approx), "RelativeDegradation(%v, %v) mismatch (-want +got)\nreason: %s", tc.baseline, tc.x, tc.reason)
		})
	}
}

func TestStatsErrors(t *testing.T) {
	cases := []struct {
		name    string
		reason  string
		call    func() error
		wantErr error
	}{
		{name: "Mean empty", reason: "no mean of nothing", call: func() error { _, err := metrics.Mean(nil); return err }, wantErr: metrics.ErrEmpty},
		{name: "StdDev empty", reason: "no spread of nothing", call: func() error { _, err := metrics.StdDev(nil); return err }, wantErr: metrics.ErrEmpty},
		{name: "StdDev single", reason: "n-1 = 0 denominator", call: func() error { _, err := metrics.StdDev([]float64{1}); return err }, wantErr: metrics.ErrInvalidArgument},
		{name: "Quantile empty", reason: "no order statistics", call: func() error { _, err := metrics.Quantile(nil, 0.5); return err }, wantErr: metrics.ErrEmpty},
		{name: "Quantile q above 1", reason: "q is a fraction, not a percent", call: func() error { _, err := metrics.Quantile([]float64{1}, 50); return err }, wantErr: metrics.ErrInvalidArgument},
		{name: "Quantile q NaN", reason: "NaN is not a fraction", call: func() error { _, err := metrics.Quantile([]float64{1}, math.NaN()); return err }, wantErr: metrics.ErrInvalidArgument},
		{name: "zero baseline", reason: "division by zero", call: func() error { _, err := metrics.RelativeDegradation(0, 1); return err }, wantErr: metrics.ErrInvalidArgument},
		{name: "NaN baseline", reason: "not a score", call: func() error { _, err := metrics.RelativeDegradation(math.NaN(), 1); return err }, wantErr: metrics.ErrInvalidArgument},
		{name: "infinite x", reason: "not a score", call: func() error { _, err := metrics.RelativeDegradation(1, math.Inf(1)); return err }, wantErr: metrics.ErrInvalidArgument},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); !errors.Is(err, tc.wantErr) {
				t.Errorf("error = %v, want %v\nreason: %s", err, tc.wantErr, tc.reason)
			}
		})
	}
}
