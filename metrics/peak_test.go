package metrics_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/metrics"
)

func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b   string
		want   int
		reason string
	}{
		{"", "", 0, "two empty sequences"},
		{"abc", "", 3, "delete every element"},
		{"", "abc", 3, "insert every element"},
		{"abc", "abc", 0, "equal"},
		{"kitten", "sitting", 3, "k→s, e→i, insert g"},
		{"flaw", "lawn", 2, "delete f, insert n"},
		{"abcdef", "azced", 3, "b→z, delete d, f→d"},
		{"intention", "execution", 5, "the textbook pair: 5 with unit substitution cost"},
		{"ab", "ba", 2, "a transposition is two edits (Levenshtein, not Damerau)"},
	}
	for _, tc := range cases {
		a, b := []rune(tc.a), []rune(tc.b)
		if got := metrics.EditDistance(a, b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d: %s", tc.a, tc.b, got, tc.want, tc.reason)
		}
		if got := metrics.EditDistance(b, a); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
	// Token IDs: the distance counts tokens, not characters.
	if got := metrics.EditDistance([]int{100, 2000, 30000}, []int{100, 30000, 7}); got != 2 {
		t.Errorf("token distance = %d, want 2 (delete 2000, insert 7)", got)
	}
}

// TestEditDistanceNaive checks EditDistance against the full
// (len(a)+1)×(len(b)+1) table on every pair of short strings over {a, b}.
func TestEditDistanceNaive(t *testing.T) {
	var words []string
	for n := 0; n <= 5; n++ {
		for m := 0; m < 1<<n; m++ {
			var b strings.Builder
			for i := range n {
				b.WriteByte("ab"[m>>i&1])
			}
			words = append(words, b.String())
		}
	}
	for _, x := range words {
		for _, y := range words {
			if got, want := metrics.EditDistance([]byte(x), []byte(y)), naiveEditDistance(x, y); got != want {
				t.Fatalf("EditDistance(%q, %q) = %d, want %d", x, y, got, want)
			}
		}
	}
}

func naiveEditDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			sub := 1
			if a[i-1] == b[j-1] {
				sub = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+sub)
		}
	}
	return d[len(a)][len(b)]
}

// seq returns n tokens 0, 1, …, n-1 with the tokens at the given positions
// replaced by -1 - position (each a distinct substitution).
func seq(n int, changed ...int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	for _, i := range changed {
		s[i] = -1 - i
	}
	return s
}

func TestPeakedness(t *testing.T) {
	ref := seq(100)
	cases := []struct {
		name    string
		ref     []int
		samples [][]int
		alpha   float64
		want    metrics.Peak
		reason  string
	}{
		{
			name:    "peaked",
			ref:     ref,
			samples: [][]int{seq(100), seq(100, 3), seq(100, 3, 50), seq(100, 1, 2, 3, 4, 5)},
			alpha:   0.05,
			want:    metrics.Peak{Distances: []int{0, 1, 2, 5}, MaxLen: 100, Within: 4, Value: 1},
			reason:  "l = 100, α·l = 5: distances 0, 1, 2 and exactly 5 are all within",
		},
		{
			name:    "one past the bound",
			ref:     ref,
			samples: [][]int{seq(100, 1, 2, 3, 4, 5), seq(100, 1, 2, 3, 4, 5, 6)},
			alpha:   0.05,
			want:    metrics.Peak{Distances: []int{5, 6}, MaxLen: 100, Within: 1, Value: 0.5},
			reason:  "5 ≤ 5 counts, 6 > 5 does not",
		},
		{
			name:    "spread",
			ref:     ref,
			samples: [][]int{seq(100, 0, 10, 20, 30, 40, 50, 60), seq(60), seq(120)},
			alpha:   0.05,
			want:    metrics.Peak{Distances: []int{7, 40, 20}, MaxLen: 120, Within: 0, Value: 0},
			reason:  "l is the longest sequence, the samples' included: α·l = 0.05·120 = 6, and 7, 40 and 20 are all beyond it",
		},
		{
			name:    "decimal alpha",
			ref:     ref,
			samples: [][]int{seq(100, seqRange(29)...), seq(100, seqRange(30)...)},
			alpha:   0.29,
			want:    metrics.Peak{Distances: []int{29, 30}, MaxLen: 100, Within: 1, Value: 0.5},
			reason:  "0.29·100 is 28.999999999999996 in float64; a distance of 29 is α·l in decimal and counts",
		},
		{
			name:    "alpha zero",
			ref:     ref,
			samples: [][]int{seq(100), seq(100, 7), seq(100), seq(100, 8, 9)},
			alpha:   0,
			want:    metrics.Peak{Distances: []int{0, 1, 0, 2}, MaxLen: 100, Within: 2, Value: 0.5},
			reason:  "α = 0 (CDD's real-world setting) counts exact copies only",
		},
		{
			name:    "empty sequences",
			ref:     nil,
			samples: [][]int{nil, {}},
			alpha:   0.05,
			want:    metrics.Peak{Distances: []int{0, 0}, MaxLen: 0, Within: 2, Value: 1},
			reason:  "l = 0: distance 0 ≤ 0",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := metrics.Peakedness(tc.ref, tc.samples, tc.alpha)
			if err != nil {
				t.Fatal(err)
			}
			assert.Equal(t, tc.want, got, "%s", tc.reason)
		})
	}
	if alpha, l := 0.29, 100; alpha*float64(l) >= 29 {
		t.Fatal("the decimal-alpha case assumes 0.29·100 < 29 in float64")
	}
}

func seqRange(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestPeakednessErrors(t *testing.T) {
	_, err := metrics.Peakedness([]int{1}, nil, 0.05)
	if !errors.Is(err, metrics.ErrEmpty) {
		t.Errorf("no samples: err = %v, want ErrEmpty", err)
	}
	for _, alpha := range []float64{-0.01, 1.5, math.NaN()} {
		_, err := metrics.Peakedness([]int{1}, [][]int{{1}}, alpha)
		if !errors.Is(err, metrics.ErrInvalidArgument) {
			t.Errorf("alpha %v: err = %v, want ErrInvalidArgument", alpha, err)
		}
	}
}

func ExamplePeakedness() {
	// Token sequences of a reference output and of five samples.
	ref := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	samples := [][]int{
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20},     // a copy
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 99},     // one token off
		{1, 2, 3, 40, 50, 60, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19},      // four edits
		{21, 22, 23, 24, 25, 26, 27, 28, 29, 30},                                    // unrelated
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}, // one token more
	}
	p, err := metrics.Peakedness(ref, samples, 0.05) // α·l = 0.05·21 = 1.05
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Distances, p.MaxLen, p.Within, p.Value, p.Value > 0.01)
	// Output: [0 1 4 20 1] 21 3 0.6 true
}
