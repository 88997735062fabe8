package metrics

import (
	"fmt"
	"math"
	"slices"
)

// mean returns the arithmetic mean of a non-empty slice.
func mean(values []float64) float64 {
	var sum float64
	for _, v := range values {
		sum += v
	}
	return sum / float64(len(values))
}

// Mean returns the arithmetic mean of values. The error wraps [ErrEmpty]
// when values is empty.
func Mean(values []float64) (float64, error) {
	if len(values) == 0 {
		return 0, fmt.Errorf("%w: Mean: no values", ErrEmpty)
	}
	return mean(values), nil
}

// StdDev returns the sample standard deviation of values, with the n-1
// (Bessel) denominator. The error wraps [ErrEmpty] when values is empty and
// [ErrInvalidArgument] when it holds a single value.
func StdDev(values []float64) (float64, error) {
	switch len(values) {
	case 0:
		return 0, fmt.Errorf("%w: StdDev: no values", ErrEmpty)
	case 1:
		return 0, invalid("StdDev", "need at least 2 values, have 1")
	}
	m := mean(values)
	var ss float64
	for _, v := range values {
		d := v - m
		ss += d * d
	}
	return math.Sqrt(ss / float64(len(values)-1)), nil
}

// Quantile returns the q-quantile of values (q in [0, 1]; 0.5 is the median)
// by linear interpolation between order statistics: with the values sorted as
// x[0] <= … <= x[n-1] and h = (n-1)·q, the result is
// x[⌊h⌋] + (h-⌊h⌋)·(x[⌊h⌋+1] - x[⌊h⌋]). This is the default definition of R
// and NumPy ("type 7"). values is not modified.
//
// The error wraps [ErrEmpty] when values is empty and [ErrInvalidArgument]
// when q is outside [0, 1] or NaN.
func Quantile(values []float64, q float64) (float64, error) {
	if len(values) == 0 {
		return 0, fmt.Errorf("%w: Quantile: no values", ErrEmpty)
	}
	if !(q >= 0 && q <= 1) {
		return 0, invalid("Quantile", "q=%v outside [0, 1]", q)
	}
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	return quantileSorted(sorted, q), nil
}

// quantileSorted is Quantile for a sorted, non-empty slice and q in [0, 1].
func quantileSorted(sorted []float64, q float64) float64 {
	h := float64(len(sorted)-1) * q
	i := int(math.Floor(h))
	frac := h - float64(i)
	if frac == 0 || i >= len(sorted)-1 {
		return sorted[min(i, len(sorted)-1)]
	}
	return sorted[i] + frac*(sorted[i+1]-sorted[i])
}

// RelativeDegradation returns the relative drop of x from baseline,
// (baseline - x) / baseline. For a score where higher is better, a positive
// result is the fraction of the baseline lost: baseline 59.15 and x 57.31
// give 0.0311 (3.11%). A negative result means x improves on the baseline.
//
// The error wraps [ErrInvalidArgument] when baseline is zero or either
// argument is NaN or infinite.
func RelativeDegradation(baseline, x float64) (float64, error) {
	switch {
	case math.IsNaN(baseline) || math.IsInf(baseline, 0) || math.IsNaN(x) || math.IsInf(x, 0):
		return 0, invalid("RelativeDegradation", "baseline=%v and x=%v must be finite", baseline, x)
	case baseline == 0:
		return 0, invalid("RelativeDegradation", "baseline must not be zero")
	}
	return (baseline - x) / baseline, nil
}
