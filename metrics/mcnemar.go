package metrics

import (
	"fmt"
	"math"
)

// McNemarExactThreshold is the number of discordant pairs (B01+B10) from
// which [McNemar] and [McNemarCounts] switch from the exact binomial test to
// the chi-square approximation.
const McNemarExactThreshold = 25

// McNemarResult is the outcome of McNemar's test for two models evaluated on
// the same items.
type McNemarResult struct {
	// B01 is the number of items model A got wrong and model B got right.
	B01 int
	// B10 is the number of items model A got right and model B got wrong.
	B10 int
	// Statistic is the continuity-corrected chi-square statistic
	// max(0, |B01-B10|-1)² / (B01+B10), or 0 when there are no discordant
	// pairs. It is filled in for reference in both regimes, but PValue is
	// derived from it only when Exact is false.
	Statistic float64
	// PValue is the two-sided p-value for the null hypothesis that both
	// models are equally likely to win a discordant item.
	PValue float64
	// Exact reports whether PValue comes from the exact binomial test
	// (B01+B10 < McNemarExactThreshold) rather than the chi-square
	// approximation.
	Exact bool
}

// McNemar runs McNemar's paired test on per-item outcomes of two models on
// the same items: a[i] and b[i] report whether model A and model B solved
// item i. Only the discordant items matter: B01 counts items where a is false
// and b is true, B10 the reverse. See [McNemarCounts] for how the p-value is
// computed.
//
// The error wraps [ErrLengthMismatch] when len(a) != len(b).
func McNemar(a, b []bool) (McNemarResult, error) {
	if len(a) != len(b) {
		return McNemarResult{}, fmt.Errorf("%w: McNemar: len(a)=%d, len(b)=%d", ErrLengthMismatch, len(a), len(b))
	}
	var b01, b10 int
	for i := range a {
		switch {
		case !a[i] && b[i]:
			b01++
		case a[i] && !b[i]:
			b10++
		}
	}
	return mcnemar(b01, b10), nil
}

// McNemarCounts runs McNemar's test from the discordant counts b01 (A wrong,
// B right) and b10 (A right, B wrong).
//
// With m = b01 + b10 < [McNemarExactThreshold] the p-value is the exact
// two-sided binomial one, 2·Σ_{i<=min(b01,b10)} C(m,i)/2^m capped at 1 (and
// 1 when m = 0). Otherwise it is the upper tail of the chi-square
// distribution with one degree of freedom at the continuity-corrected
// statistic x = max(0, |b01-b10|-1)²/m, which is erfc(√(x/2)). The max(0, …)
// only matters when b01 = b10, where it yields x = 0 and p = 1.
//
// The error wraps [ErrInvalidArgument] when either count is negative.
func McNemarCounts(b01, b10 int) (McNemarResult, error) {
	if b01 < 0 || b10 < 0 {
		return McNemarResult{}, invalid("McNemarCounts", "counts b01=%d, b10=%d must not be negative", b01, b10)
	}
	return mcnemar(b01, b10), nil
}

// mcnemar computes the test for validated counts.
func mcnemar(b01, b10 int) McNemarResult {
	res := McNemarResult{B01: b01, B10: b10}
	m := b01 + b10
	if m > 0 {
		d := math.Max(0, math.Abs(float64(b01-b10))-1)
		res.Statistic = d * d / float64(m)
	}
	if m < McNemarExactThreshold {
		res.Exact = true
		// Exact integer tail sum: C(m, i) < 2^24 for m < 25.
		var tail, binom int64 = 0, 1
		for i := 0; i <= min(b01, b10); i++ {
			tail += binom
			binom = binom * int64(m-i) / int64(i+1)
		}
		res.PValue = math.Min(1, 2*float64(tail)/math.Ldexp(1, m))
		return res
	}
	res.PValue = math.Erfc(math.Sqrt(res.Statistic / 2))
	return res
}
