package metrics_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/metrics"
)

// fromMatrix expands a confusion matrix m[i][j] (rater A gave label i, rater
// B gave label j) into the two raters' label slices.
func fromMatrix(m [][]int) (a, b []int) {
	for i, row := range m {
		for j, count := range row {
			for range count {
				a = append(a, i)
				b = append(b, j)
			}
		}
	}
	return a, b
}

func TestCohenKappa(t *testing.T) {
	cases := []struct {
		name   string
		reason string
		matrix [][]int
		want   float64
	}{
		{
			name: "classic 2x2",
			reason: "n=50, pₒ = (20+15)/50 = 0.7; A: 25 yes/25 no, B: 30 yes/20 no; " +
				"pₑ = 0.5·0.6 + 0.5·0.4 = 0.5; κ = (0.7-0.5)/(1-0.5) = 0.4",
			matrix: [][]int{{20, 5}, {10, 15}},
			want:   0.4,
		},
		{
			name: "3x3",
			reason: "n=40, agree=30, pₒ = 0.75; A marginals 15,10,15; B marginals 13,11,16; " +
				"pₑ = (195+110+240)/1600 = 0.340625; κ = 0.409375/0.659375 = 655/1055 = 0.620853",
			matrix: [][]int{{10, 2, 3}, {1, 8, 1}, {2, 1, 12}},
			want:   655.0 / 1055,
		},
		{
			name:   "perfect agreement",
			reason: "pₒ = 1 with pₑ = (3·3+4·4+5·5)/144 < 1, so κ = 1",
			matrix: [][]int{{3, 0, 0}, {0, 4, 0}, {0, 0, 5}},
			want:   1,
		},
		{
			name:   "systematic disagreement",
			reason: "pₒ = 0, pₑ = 0.5·0.5+0.5·0.5 = 0.5, κ = -0.5/0.5 = -1",
			matrix: [][]int{{0, 7}, {7, 0}},
			want:   -1,
		},
		{
			name:   "chance agreement",
			reason: "A always says 0, B splits 2/2: pₒ = 0.5, pₑ = 1·0.5 = 0.5, κ = 0",
			matrix: [][]int{{2, 2}},
			want:   0,
		},
		{
			name:   "degenerate single shared label",
			reason: "both raters always say 0: pₑ = 1 and pₒ = 1, documented to give 1",
			matrix: [][]int{{6}},
			want:   1,
		},
		{
			name:   "constant but different labels",
			reason: "A always 0, B always 1: pₒ = 0, pₑ = 1·0 + 0·1 = 0, κ = 0",
			matrix: [][]int{{0, 4}},
			want:   0,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, b := fromMatrix(tc.matrix)
			got, err := metrics.CohenKappa(a, b)
			if err != nil {
				t.Fatalf("CohenKappa: %v\nreason: %s", err, tc.reason)
			}
			assert.Empty(t, cmp.Diff(tc.want, got, approx), "CohenKappa mismatch (-want +got)\nreason: %s", tc.reason)
		})
	}
}

func TestCohenKappaStrings(t *testing.T) {
	// The classic 2x2 example again, with string labels in scrambled order:
	// the label type and item order must not matter.
	var a, b []string
	add := func(n int, x, y string) {
		for range n {
			a = append(a, x)
			b = append(b, y)
		}
	}
	add(10, "no", "yes")
	add(15, "no", "no")
	add(20, "yes", "yes")
	add(5, "yes", "no")
	got, err := metrics.CohenKappa(a, b)
	if err != nil {
		t.Fatal(err)
	}
	assert.Empty(t, cmp.Diff(0.4, got, approx), "CohenKappa mismatch (-want +got)")
}

func TestCohenKappaErrors(t *testing.T) {
	if _, err := metrics.CohenKappa([]string{"a"}, []string{"a", "b"}); !errors.Is(err, metrics.ErrLengthMismatch) {
		t.Errorf("lengths 1 and 2: error = %v, want ErrLengthMismatch", err)
	}
	if _, err := metrics.CohenKappa([]int{}, []int{}); !errors.Is(err, metrics.ErrEmpty) {
		t.Errorf("no items: error = %v, want ErrEmpty", err)
	}
}
