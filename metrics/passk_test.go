package metrics_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/metrics"
)

func TestPassAtK(t *testing.T) {
	cases := []struct {
		name    string
		reason  string
		n, c, k int
		want    float64
	}{
		{
			name:   "chen golden n10 c3 k5",
			reason: "C(7,5)/C(10,5) = 21/252 = 1/12, so pass@5 = 11/12 = 0.916667",
			n:      10, c: 3, k: 5,
			want: 11.0 / 12,
		},
		{name: "n5 c0 k1", reason: "pass@1 = c/n = 0/5", n: 5, c: 0, k: 1, want: 0},
		{name: "n5 c1 k1", reason: "pass@1 = c/n = 1/5", n: 5, c: 1, k: 1, want: 0.2},
		{name: "n5 c2 k1", reason: "pass@1 = c/n = 2/5", n: 5, c: 2, k: 1, want: 0.4},
		{name: "n5 c3 k1", reason: "pass@1 = c/n = 3/5", n: 5, c: 3, k: 1, want: 0.6},
		{name: "n5 c4 k1", reason: "pass@1 = c/n = 4/5", n: 5, c: 4, k: 1, want: 0.8},
		{name: "n5 c5 k1", reason: "pass@1 = c/n = 5/5", n: 5, c: 5, k: 1, want: 1},
		{name: "n5 c0 k5", reason: "k=n: pass@n is 1[c>=1]; here C(5,5)/C(5,5) = 1 so 0", n: 5, c: 0, k: 5, want: 0},
		{name: "n5 c1 k5", reason: "k=n: n-c=4 < 5 so every draw of 5 includes the correct one", n: 5, c: 1, k: 5, want: 1},
		{name: "n5 c3 k5", reason: "k=n with c>=1", n: 5, c: 3, k: 5, want: 1},
		{name: "n4 c2 k2", reason: "C(2,2)/C(4,2) = 1/6, so 5/6", n: 4, c: 2, k: 2, want: 5.0 / 6},
		{name: "n10 c3 k8", reason: "n-c = 7 < k = 8 so the short-circuit returns exactly 1", n: 10, c: 3, k: 8, want: 1},
		{name: "n10 c10 k10", reason: "all correct", n: 10, c: 10, k: 10, want: 1},
		{name: "n5000 c1 k1", reason: "large n, pass@1 = 1/5000", n: 5000, c: 1, k: 1, want: 0.0002},
		{name: "n5000 c2500 k1", reason: "large n, pass@1 = 2500/5000", n: 5000, c: 2500, k: 1, want: 0.5},
		{
			name:   "n5000 c1 k100",
			reason: "C(4999,100)/C(5000,100) = (5000-100)/5000 = 0.98, so pass@100 = 0.02",
			n:      5000, c: 1, k: 100,
			want: 0.02,
		},
		{
			name:   "n5000 c2 k100",
			reason: "C(4998,100)/C(5000,100) = (4900·4899)/(5000·4999) = 24005100/24995000, so 1 minus that = 0.0396039207841569",
			n:      5000, c: 2, k: 100,
			want: 1 - (4900.0*4899)/(5000*4999),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := metrics.PassAtK(tc.n, tc.c, tc.k)
			if err != nil {
				t.Fatalf("PassAtK(%d, %d, %d): %v\nreason: %s", tc.n, tc.c, tc.k, err, tc.reason)
			}
			assert.Empty(t, cmp.Diff(tc.want, got, approx), "PassAtK(%d, %d, %d) mismatch (-want +got)\nreason: %s", tc.n, tc.c, tc.k, tc.reason)
		})
	}
}

func TestPassAtKGoldenSixPlaces(t *testing.T) {
	// The value quoted in the brief: 0.916667 to 6 places.
	got, err := metrics.PassAtK(10, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	assert.Empty(t, cmp.Diff(0.916667, got, approxTo(5e-7)), "PassAtK(10, 3, 5) mismatch (-want +got)")
}

// TestPassKMatchesExact checks the stable product forms against exact
// rational arithmetic with big.Int binomial coefficients, over every valid
// (n, c, k) with n <= 40 and over a sample of arguments with n = 5000.
func TestPassKMatchesExact(t *testing.T) {
	type nck struct{ n, c, k int }
	var args []nck
	for n := 1; n <= 40; n++ {
		for c := 0; c <= n; c++ {
			for k := 1; k <= n; k++ {
				args = append(args, nck{n, c, k})
			}
		}
	}
	for _, c := range []int{0, 1, 2, 7, 100, 1000, 2500, 4900, 4999, 5000} {
		for _, k := range []int{1, 2, 10, 100, 1000} {
			args = append(args, nck{5000, c, k})
		}
	}
	for _, a := range args {
		gotAt, err := metrics.PassAtK(a.n, a.c, a.k)
		if err != nil {
			t.Fatalf("PassAtK(%d, %d, %d): %v", a.n, a.c, a.k, err)
		}
		assert.Empty(t, cmp.Diff(passAtKBigInt(a.n, a.c, a.k), gotAt, approx), "PassAtK(%d, %d, %d) vs exact (-want +got)", a.n, a.c, a.k)
		gotHat, err := metrics.PassHatK(a.n, a.c, a.k)
		if err != nil {
			t.Fatalf("PassHatK(%d, %d, %d): %v", a.n, a.c, a.k, err)
		}
		assert.Empty(t, cmp.Diff(passHatKBigInt(a.n, a.c, a.k), gotHat, approx), "PassHatK(%d, %d, %d) vs exact (-want +got)", a.n, a.c, a.k)
	}
}

func TestPassHatK(t *testing.T) {
	cases := []struct {
		name    string
		reason  string
		n, c, k int
		want    float64
	}{
		{name: "n10 c3 k2", reason: "C(3,2)/C(10,2) = 3/45 = 1/15", n: 10, c: 3, k: 2, want: 1.0 / 15},
		{name: "n10 c3 k1", reason: "pass^1 = c/n = 3/10", n: 10, c: 3, k: 1, want: 0.3},
		{name: "n10 c3 k4", reason: "c < k: C(3,4) = 0", n: 10, c: 3, k: 4, want: 0},
		{name: "n10 c10 k7", reason: "all correct: C(10,7)/C(10,7) = 1", n: 10, c: 10, k: 7, want: 1},
		{name: "n5 c4 k5", reason: "k=n: pass^n is 1[c=n]", n: 5, c: 4, k: 5, want: 0},
		{name: "n5 c5 k5", reason: "k=n: pass^n is 1[c=n]", n: 5, c: 5, k: 5, want: 1},
		{name: "n8 c6 k3", reason: "C(6,3)/C(8,3) = 20/56 = 5/14", n: 8, c: 6, k: 3, want: 5.0 / 14},
		{name: "n10 c0 k1", reason: "nothing correct", n: 10, c: 0, k: 1, want: 0},
		{
			name:   "n5000 c4999 k100",
			reason: "C(4999,100)/C(5000,100) = 4900/5000 = 0.98",
			n:      5000, c: 4999, k: 100,
			want: 0.98,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := metrics.PassHatK(tc.n, tc.c, tc.k)
			if err != nil {
				t.Fatalf("PassHatK(%d, %d, %d): %v\nreason: %s", tc.n, tc.c, tc.k, err, tc.reason)
			}
			assert.Empty(t, cmp.Diff(tc.want, got, approx), "PassHatK(%d, %d, %d) mismatch (-want +got)\nreason: %s", tc.n, tc.c, tc.k, tc.reason)
		})
	}
}

func TestPassKErrors(t *testing.T) {
	cases := []struct {
		name    string
		reason  string
		n, c, k int
	}{
		{name: "k greater than n", reason: "cannot draw more samples than exist", n: 5, c: 2, k: 6},
		{name: "k zero", reason: "k must be at least 1", n: 5, c: 2, k: 0},
		{name: "k negative", reason: "k must be at least 1", n: 5, c: 2, k: -1},
		{name: "c negative", reason: "a count cannot be negative", n: 5, c: -1, k: 1},
		{name: "c greater than n", reason: "more correct samples than samples", n: 5, c: 6, k: 1},
		{name: "n zero", reason: "an item needs at least one sample", n: 0, c: 0, k: 1},
		{name: "n negative", reason: "an item needs at least one sample", n: -3, c: 0, k: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for fn, f := range map[string]func(n, c, k int) (float64, error){
				"PassAtK":  metrics.PassAtK,
				"PassHatK": metrics.PassHatK,
			} {
				_, err := f(tc.n, tc.c, tc.k)
				if !errors.Is(err, metrics.ErrInvalidArgument) {
					t.Errorf("%s(%d, %d, %d) error = %v, want ErrInvalidArgument\nreason: %s", fn, tc.n, tc.c, tc.k, err, tc.reason)
					continue
				}
				if !strings.HasPrefix(err.Error(), "metrics: ") {
					t.Errorf("%s error %q lacks the \"metrics: \" prefix", fn, err)
				}
			}
		})
	}
}

func TestMeanPassK(t *testing.T) {
	cases := []struct {
		name   string
		reason string
		mean   func([]metrics.Count, int) (float64, error)
		items  []metrics.Count
		k      int
		want   float64
	}{
		{
			name:   "pass@5 over three items",
			reason: "(11/12 + 0 + 1) / 3 = 23/36",
			mean:   metrics.MeanPassAtK,
			items:  []metrics.Count{{N: 10, C: 3}, {N: 10, C: 0}, {N: 10, C: 10}},
			k:      5,
			want:   23.0 / 36,
		},
		{
			name:   "pass@1 with different n per item",
			reason: "(1/5 + 3/10) / 2 = 0.25: each item uses its own n",
			mean:   metrics.MeanPassAtK,
			items:  []metrics.Count{{N: 5, C: 1}, {N: 10, C: 3}},
			k:      1,
			want:   0.25,
		},
		{
			name:   "pass^2 with different n per item",
			reason: "C(3,2)/C(10,2) = 1/15 and C(6,2)/C(8,2) = 15/28; (1/15 + 15/28) / 2 = 0.30119",
			mean:   metrics.MeanPassHatK,
			items:  []metrics.Count{{N: 10, C: 3}, {N: 8, C: 6}},
			k:      2,
			want:   (1.0/15 + 15.0/28) / 2,
		},
		{
			name:   "single item",
			reason: "the mean of one value is that value, 11/12",
			mean:   metrics.MeanPassAtK,
			items:  []metrics.Count{{N: 10, C: 3}},
			k:      5,
			want:   11.0 / 12,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.mean(tc.items, tc.k)
			if err != nil {
				t.Fatalf("unexpected error: %v\nreason: %s", err, tc.reason)
			}
			assert.Empty(t, cmp.Diff(tc.want, got, approx), "mismatch (-want +got)\nreason: %s", tc.reason)
		})
	}
}

func TestMeanPassKErrors(t *testing.T) {
	cases := []struct {
		name     string
		reason   string
		mean     func([]metrics.Count, int) (float64, error)
		items    []metrics.Count
		k        int
		wantErr  error
		wantText string
	}{
		{
			name:     "no items",
			reason:   "the mean of nothing is undefined",
			mean:     metrics.MeanPassAtK,
			items:    nil,
			k:        1,
			wantErr:  metrics.ErrEmpty,
			wantText: "no items",
		},
		{
			name:     "k exceeds one item's n",
			reason:   "item 1 has only 3 samples, so pass@5 is undefined for it; the error names the index",
			mean:     metrics.MeanPassAtK,
			items:    []metrics.Count{{N: 10, C: 3}, {N: 3, C: 1}},
			k:        5,
			wantErr:  metrics.ErrInvalidArgument,
			wantText: "item 1: k=5 exceeds n=3",
		},
		{
			name:     "c exceeds n",
			reason:   "item 2 claims more passes than samples",
			mean:     metrics.MeanPassHatK,
			items:    []metrics.Count{{N: 10, C: 3}, {N: 10, C: 3}, {N: 4, C: 5}},
			k:        1,
			wantErr:  metrics.ErrInvalidArgument,
			wantText: "item 2: c=5 exceeds n=4",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.mean(tc.items, tc.k)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error = %v, want %v\nreason: %s", err, tc.wantErr, tc.reason)
			}
			if !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("error %q does not contain %q\nreason: %s", err, tc.wantText, tc.reason)
			}
		})
	}
}

// FuzzPassAtK checks that PassAtK either rejects its arguments with
// ErrInvalidArgument or returns a probability, that valid arguments derived
// from the inputs give a result in [0, 1] that never decreases as c grows,
// and that pass^k never exceeds pass@k.
func FuzzPassAtK(f *testing.F) {
	f.Add(10, 3, 5)
	f.Add(5, 0, 5)
	f.Add(5000, 2500, 100)
	f.Add(1, 1, 1)
	f.Add(-1, 7, 0)
	f.Fuzz(func(t *testing.T, n, c, k int) {
		p, err := metrics.PassAtK(n, c, k)
		valid := n >= 1 && c >= 0 && c <= n && k >= 1 && k <= n
		switch {
		case valid && err != nil:
			t.Fatalf("PassAtK(%d, %d, %d): unexpected error %v", n, c, k, err)
		case !valid && !errors.Is(err, metrics.ErrInvalidArgument):
			t.Fatalf("PassAtK(%d, %d, %d) = %v, %v; want ErrInvalidArgument", n, c, k, p, err)
		}

		// Map the inputs onto valid arguments with n up to 6000.
		n = 1 + abs(n)%6000
		k = 1 + abs(k)%n
		c = abs(c) % (n + 1)
		p, err = metrics.PassAtK(n, c, k)
		if err != nil {
			t.Fatalf("PassAtK(%d, %d, %d): %v", n, c, k, err)
		}
		if math.IsNaN(p) || p < 0 || p > 1 {
			t.Fatalf("PassAtK(%d, %d, %d) = %v, want a probability", n, c, k, p)
		}
		if c < n {
			next, err := metrics.PassAtK(n, c+1, k)
			if err != nil {
				t.Fatalf("PassAtK(%d, %d, %d): %v", n, c+1, k, err)
			}
			if next < p {
				t.Fatalf("PassAtK not monotone in c: PassAtK(%d, %d, %d) = %v > PassAtK(%d, %d, %d) = %v", n, c, k, p, n, c+1, k, next)
			}
		}
		hat, err := metrics.PassHatK(n, c, k)
		if err != nil {
			t.Fatalf("PassHatK(%d, %d, %d): %v", n, c, k, err)
		}
		if math.IsNaN(hat) || hat < 0 || hat > p+1e-12 {
			t.Fatalf("PassHatK(%d, %d, %d) = %v, want in [0, pass@k = %v]", n, c, k, hat, p)
		}
	})
}

// abs returns |x| as a non-negative int, mapping math.MinInt to 0.
func abs(x int) int {
	if x < 0 {
		x = -x
	}
	return max(x, 0)
}
