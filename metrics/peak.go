package metrics

import "fmt"

// EditDistance returns the Levenshtein distance between a and b: the least
// number of insertions, deletions and substitutions of one element that
// turn a into b. The elements are compared with ==, so a and b may be
// token IDs, runes or words. It takes O(len(a)·len(b)) time and
// O(min(len(a), len(b))) memory.
func EditDistance[T comparable](a, b []T) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	// row[j] is the distance between the prefix of a seen so far and b[:j].
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i, x := range a {
		diag := row[0] // distance(a[:i], b[:0])
		row[0] = i + 1
		for j, y := range b {
			up := row[j+1] // distance(a[:i], b[:j+1])
			d := diag
			if x != y {
				d = 1 + min(diag, up, row[j])
			}
			row[j+1] = d
			diag = up
		}
	}
	return row[len(b)]
}

// Peak is the peakedness of a model's sampled outputs around a reference
// output, as CDD measures it (Dong et al. 2024, "Generalization or
// Memorization: Data Contamination and Trustworthy Evaluation for Large
// Language Models", §3): the share of samples within an edit distance of
// α·l of the reference, l being the length of the longest sequence.
type Peak struct {
	// Distances holds ED(sample_i, reference), in sample order.
	Distances []int `json:"distances"`
	// MaxLen is l: the length of the longest of the reference and the
	// samples.
	MaxLen int `json:"max_len"`
	// Within counts the samples at distance at most α·l.
	Within int `json:"within"`
	// Value is Within / len(samples): F(α·l), the empirical distribution
	// function of the distances at α·l.
	Value float64 `json:"peak"`
}

// alphaTolerance is the relative slack of the comparison d ≤ α·l: α is
// meant as a decimal (0.05, 0.29) and α·l in binary floating point can
// fall just below the integer it is in decimal (0.29·100 is
// 28.999999999999996), which would leave out a distance of exactly α·l.
const alphaTolerance = 1e-9

// Peakedness returns CDD's peakedness of samples around ref: the edit
// distance of each sample to ref (EditDistance), l = the length of the
// longest of ref and the samples, and the share of samples whose distance
// is at most α·l. A distance of exactly α·l counts (≤, with a relative
// tolerance of 1e-9 for the rounding of α·l). CDD flags contamination when
// the value exceeds a threshold ξ; it takes α = 0.05 and ξ = 0.01, with
// token sequences of the model's tokenizer.
//
// The error wraps [ErrEmpty] when there is no sample and
// [ErrInvalidArgument] when alpha is outside [0, 1] or NaN.
func Peakedness[T comparable](ref []T, samples [][]T, alpha float64) (Peak, error) {
	if len(samples) == 0 {
		return Peak{}, fmt.Errorf("%w: Peakedness: no samples", ErrEmpty)
	}
	if !(alpha >= 0 && alpha <= 1) {
		return Peak{}, invalid("Peakedness", "alpha %v outside [0, 1]", alpha)
	}
	p := Peak{Distances: make([]int, len(samples)), MaxLen: len(ref)}
	for i, s := range samples {
		p.Distances[i] = EditDistance(ref, s)
		p.MaxLen = max(p.MaxLen, len(s))
	}
	bound := alpha * float64(p.MaxLen) * (1 + alphaTolerance)
	for _, d := range p.Distances {
		if float64(d) <= bound {
			p.Within++
		}
	}
	p.Value = float64(p.Within) / float64(len(samples))
	return p, nil
}
