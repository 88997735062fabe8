package metrics

import "fmt"

// CohenKappa returns Cohen's kappa for two raters who labelled the same
// items, a[i] and b[i] being their labels for item i. Labels may be of any
// comparable type and the label set is whatever occurs in a and b:
//
//	κ = (pₒ - pₑ) / (1 - pₑ)
//
// where pₒ is the observed fraction of agreement and pₑ = Σ_l pa(l)·pb(l)
// the agreement expected by chance from each rater's label frequencies.
// κ is 1 for perfect agreement, 0 for chance-level agreement and negative
// for systematic disagreement.
//
// In the degenerate case pₑ = 1 kappa is 0/0; this happens only when both
// raters give every item the same single label, so pₒ = 1 too, and CohenKappa
// returns 1. Floating-point labels must not be NaN.
//
// The error wraps [ErrLengthMismatch] when len(a) != len(b) and [ErrEmpty]
// when there are no items.
func CohenKappa[T comparable](a, b []T) (float64, error) {
	if len(a) != len(b) {
		return 0, fmt.Errorf("%w: CohenKappa: len(a)=%d, len(b)=%d", ErrLengthMismatch, len(a), len(b))
	}
	if len(a) == 0 {
		return 0, fmt.Errorf("%w: CohenKappa: no items", ErrEmpty)
	}
	ca := make(map[T]int64)
	cb := make(map[T]int64)
	var agree int64
	for i := range a {
		ca[a[i]]++
		cb[b[i]]++
		if a[i] == b[i] {
			agree++
		}
	}
	// With n items, pₒ = agree/n and pₑ = chance/n², so
	// κ = (n·agree - chance) / (n² - chance), computed exactly in integers.
	var chance int64
	for label, x := range ca {
		chance += x * cb[label]
	}
	n := int64(len(a))
	if chance == n*n {
		return 1, nil
	}
	return float64(n*agree-chance) / float64(n*n-chance), nil
}
