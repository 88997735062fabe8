package metrics

import (
	"fmt"
	"math"
)

// Count is the outcome of sampling one benchmark item: N samples were drawn
// and C of them were correct.
type Count struct {
	// N is the number of samples drawn for the item.
	N int
	// C is the number of correct samples, 0 <= C <= N.
	C int
}

// checkNCK describes what is wrong with (n, c, k), or returns "".
func checkNCK(n, c, k int) string {
	switch {
	case n < 1:
		return fmt.Sprintf("n=%d must be at least 1", n)
	case c < 0:
		return fmt.Sprintf("c=%d must not be negative", c)
	case c > n:
		return fmt.Sprintf("c=%d exceeds n=%d", c, n)
	case k < 1:
		return fmt.Sprintf("k=%d must be at least 1", k)
	case k > n:
		return fmt.Sprintf("k=%d exceeds n=%d", k, n)
	}
	return ""
}

// PassAtK returns the unbiased pass@k estimate of Chen et al. (2021) for an
// item with n samples of which c are correct: the probability that at least
// one of k samples drawn without replacement is correct,
//
//	pass@k = 1 - C(n-c, k) / C(n, k).
//
// It returns exactly 1 when n-c < k. Otherwise the binomial ratio is
// evaluated as the product Π_{i=n-c+1..n} (1 - k/i), accumulated in log space
// (log1p/expm1), so there is neither overflow nor catastrophic cancellation
// for n in the thousands. The result is non-decreasing in c.
//
// The error wraps [ErrInvalidArgument] unless 1 <= k <= n and 0 <= c <= n.
func PassAtK(n, c, k int) (float64, error) {
	if msg := checkNCK(n, c, k); msg != "" {
		return 0, invalid("PassAtK", "%s", msg)
	}
	return passAtK(n, c, k), nil
}

// passAtK computes pass@k for validated arguments.
func passAtK(n, c, k int) float64 {
	if n-c < k {
		return 1
	}
	// log(C(n-c,k)/C(n,k)) = Σ log(1 - k/i) for i = n-c+1..n. Summing from
	// i = n downwards means the term added for c+1 comes last, which keeps
	// the rounded result monotone in c.
	kf := float64(k)
	var s float64
	for i := n; i > n-c; i-- {
		s += math.Log1p(-kf / float64(i))
	}
	return -math.Expm1(s)
}

// PassHatK returns the unbiased pass^k estimate for an item with n samples of
// which c are correct: the probability that all k samples drawn without
// replacement are correct (the "k of k" consistency measure of tau-bench),
//
//	pass^k = C(c, k) / C(n, k) = Π_{i=0..k-1} (c-i)/(n-i).
//
// It returns 0 when c < k and is evaluated as the product above, each factor
// in [0, 1], so it cannot overflow.
//
// The error wraps [ErrInvalidArgument] unless 1 <= k <= n and 0 <= c <= n.
func PassHatK(n, c, k int) (float64, error) {
	if msg := checkNCK(n, c, k); msg != "" {
		return 0, invalid("PassHatK", "%s", msg)
	}
	return passHatK(n, c, k), nil
}

// passHatK computes pass^k for validated arguments.
func passHatK(n, c, k int) float64 {
	if c < k {
		return 0
	}
	p := 1.0
	for i := range k {
		p *= float64(c-i) / float64(n-i)
	}
	return p
}

// MeanPassAtK returns the macro average of [PassAtK] over items, each item
// with its own sample count. The error wraps [ErrEmpty] when there are no
// items and [ErrInvalidArgument] naming the index of the first item whose
// counts are invalid for k.
func MeanPassAtK(items []Count, k int) (float64, error) {
	return meanOver("MeanPassAtK", items, k, passAtK)
}

// MeanPassHatK returns the macro average of [PassHatK] over items, each item
// with its own sample count. Errors are as for [MeanPassAtK].
func MeanPassHatK(items []Count, k int) (float64, error) {
	return meanOver("MeanPassHatK", items, k, passHatK)
}

// meanOver averages est over validated items.
func meanOver(fn string, items []Count, k int, est func(n, c, k int) float64) (float64, error) {
	if len(items) == 0 {
		return 0, fmt.Errorf("%w: %s: no items", ErrEmpty, fn)
	}
	for i, it := range items {
		if msg := checkNCK(it.N, it.C, k); msg != "" {
			return 0, invalid(fn, "item %d: %s", i, msg)
		}
	}
	var sum float64
	for _, it := range items {
		sum += est(it.N, it.C, k)
	}
	return sum / float64(len(items)), nil
}
