package metrics_test

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/metrics"
)

func TestMcNemarCounts(t *testing.T) {
	cases := []struct {
		name     string
		reason   string
		b01, b10 int
		want     metrics.McNemarResult
	}{
		{
			name: "exact 10 vs 2",
			reason: "m=12 < 25: p = 2·(C(12,0)+C(12,1)+C(12,2))/2^12 = 2·(1+12+66)/4096 = 158/4096 = 0.03857421875; " +
				"statistic (|10-2|-1)²/12 = 49/12",
			b01: 10, b10: 2,
			want: metrics.McNemarResult{B01: 10, B10: 2, Statistic: 49.0 / 12, PValue: 0.03857421875, Exact: true},
		},
		{
			name:   "exact is symmetric",
			reason: "swapping the models gives the same two-sided p-value",
			b01:    2, b10: 10,
			want: metrics.McNemarResult{B01: 2, B10: 10, Statistic: 49.0 / 12, PValue: 0.03857421875, Exact: true},
		},
		{
			name:   "exact 0 vs 6",
			reason: "m=6: p = 2·C(6,0)/2^6 = 2/64 = 0.03125; statistic (6-1)²/6 = 25/6",
			b01:    0, b10: 6,
			want: metrics.McNemarResult{B01: 0, B10: 6, Statistic: 25.0 / 6, PValue: 0.03125, Exact: true},
		},
		{
			name:   "exact 3 vs 21 at the largest exact m",
			reason: "m=24: p = 2·(1+24+276+2024)/2^24 = 4650/16777216 = 2.7716160e-4; statistic 17²/24 = 289/24",
			b01:    3, b10: 21,
			want: metrics.McNemarResult{B01: 3, B10: 21, Statistic: 289.0 / 24, PValue: 4650.0 / 16777216, Exact: true},
		},
		{
			name:   "exact tie capped at 1",
			reason: "m=10: 2·Σ_{i<=5} C(10,i)/1024 = 2·638/1024 > 1, capped to 1; statistic max(0, 0-1)² = 0",
			b01:    5, b10: 5,
			want: metrics.McNemarResult{B01: 5, B10: 5, Statistic: 0, PValue: 1, Exact: true},
		},
		{
			name:   "no discordant pairs",
			reason: "m=0: nothing distinguishes the models, p = 1, statistic defined as 0",
			b01:    0, b10: 0,
			want: metrics.McNemarResult{PValue: 1, Exact: true},
		},
		{
			name:   "chi-square 30 vs 10",
			reason: "m=40 >= 25: x = (|30-10|-1)²/40 = 361/40 = 9.025, p = erfc(√4.5125) = 0.002663119",
			b01:    30, b10: 10,
			want: metrics.McNemarResult{B01: 30, B10: 10, Statistic: 9.025, PValue: 0.002663119259138554},
		},
		{
			name:   "chi-square at the threshold",
			reason: "m=25 switches to chi-square: x = (20-5-1)²/25 = 196/25 = 7.84, p = erfc(√3.92) = 0.005110261",
			b01:    20, b10: 5,
			want: metrics.McNemarResult{B01: 20, B10: 5, Statistic: 7.84, PValue: 0.005110260660855864},
		},
		{
			name:   "chi-square near tie",
			reason: "m=25: |13-12|-1 = 0, so x = 0 and p = erfc(0) = 1",
			b01:    13, b10: 12,
			want: metrics.McNemarResult{B01: 13, B10: 12, Statistic: 0, PValue: 1},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := metrics.McNemarCounts(tc.b01, tc.b10)
			if err != nil {
				t.Fatalf("McNemarCounts(%d, %d): %v\nreason: %s", tc.b01, tc.b10, err, tc.reason)
			}
			assert.Empty(t, cmp.Diff(tc.want, got, approx), "McNemarCounts(%d, %d) mismatch (-want +got)\nreason: %s", tc.b01, tc.b10, tc.reason)
		})
	}
}

func TestMcNemarChiSquareGoldenFourPlaces(t *testing.T) {
	// The value quoted in the brief: p ≈ 0.002663.
	got, err := metrics.McNemarCounts(30, 10)
	if err != nil {
		t.Fatal(err)
	}
	assert.Empty(t, cmp.Diff(0.002663, got.PValue, approxTo(5e-7)), "PValue mismatch (-want +got)")
}

func TestMcNemar(t *testing.T) {
	const T, F = true, false
	cases := []struct {
		name   string
		reason string
		a, b   []bool
		want   metrics.McNemarResult
	}{
		{
			name: "small paired outcomes",
			reason: "items 0-2: A wrong, B right (b01=3); item 4: A right, B wrong (b10=1); item 3 concordant. " +
				"m=4: p = 2·(C(4,0)+C(4,1))/16 = 10/16 = 0.625; statistic (2-1)²/4 = 0.25",
			a:    []bool{F, F, F, T, T},
			b:    []bool{T, T, T, T, F},
			want: metrics.McNemarResult{B01: 3, B10: 1, Statistic: 0.25, PValue: 0.625, Exact: true},
		},
		{
			name:   "empty",
			reason: "no items means no discordant pairs, p = 1",
			a:      nil,
			b:      nil,
			want:   metrics.McNemarResult{PValue: 1, Exact: true},
		},
		{
			name:   "30 vs 10 with concordant items",
			reason: "concordant items (both right or both wrong) do not count; same as McNemarCounts(30, 10)",
			a:      pairs(30, 10, 50, 20, false),
			b:      pairs(30, 10, 50, 20, true),
			want:   metrics.McNemarResult{B01: 30, B10: 10, Statistic: 9.025, PValue: 0.002663119259138554},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := metrics.McNemar(tc.a, tc.b)
			if err != nil {
				t.Fatalf("McNemar: %v\nreason: %s", err, tc.reason)
			}
			assert.Empty(t, cmp.Diff(tc.want, got, approx), "McNemar mismatch (-want +got)\nreason: %s", tc.reason)
		})
	}
}

// pairs returns model A's outcomes (second == false) or model B's (second ==
// true) for b01 items A fails and B passes, b10 items A passes and B fails,
// both items both pass and neither items both fail.
func pairs(b01, b10, both, neither int, second bool) []bool {
	var out []bool
	add := func(n int, a, b bool) {
		for range n {
			if second {
				out = append(out, b)
			} else {
				out = append(out, a)
			}
		}
	}
	add(b01, false, true)
	add(b10, true, false)
	add(both, true, true)
	add(neither, false, false)
	return out
}

func TestMcNemarErrors(t *testing.T) {
	if _, err := metrics.McNemar([]bool{true}, []bool{true, false}); !errors.Is(err, metrics.ErrLengthMismatch) {
		t.Errorf("McNemar with lengths 1 and 2: error = %v, want ErrLengthMismatch", err)
	} else if !errors.Is(err, metrics.ErrInvalidArgument) {
		t.Errorf("ErrLengthMismatch does not wrap ErrInvalidArgument: %v", err)
	}
	for _, c := range [][2]int{{-1, 0}, {0, -1}} {
		if _, err := metrics.McNemarCounts(c[0], c[1]); !errors.Is(err, metrics.ErrInvalidArgument) {
			t.Errorf("McNemarCounts(%d, %d) error = %v, want ErrInvalidArgument", c[0], c[1], err)
		}
	}
}

func TestMcNemarPValueInRange(t *testing.T) {
	// Property over a grid spanning both regimes: p in [0, 1], never NaN,
	// and Exact exactly when m < McNemarExactThreshold.
	for b01 := 0; b01 <= 40; b01++ {
		for b10 := 0; b10 <= 40; b10++ {
			r, err := metrics.McNemarCounts(b01, b10)
			if err != nil {
				t.Fatal(err)
			}
			if math.IsNaN(r.PValue) || r.PValue < 0 || r.PValue > 1 {
				t.Errorf("McNemarCounts(%d, %d).PValue = %v", b01, b10, r.PValue)
			}
			if r.Exact != (b01+b10 < metrics.McNemarExactThreshold) {
				t.Errorf("McNemarCounts(%d, %d).Exact = %v", b01, b10, r.Exact)
			}
		}
	}
}
