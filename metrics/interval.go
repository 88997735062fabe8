package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Interval is a two-sided confidence interval around a point estimate.
type Interval struct {
	// Lo is the lower bound of the interval.
	Lo float64
	// Point is the point estimate: the observed proportion for [Wilson],
	// the statistic of the original sample for [Bootstrap].
	Point float64
	// Hi is the upper bound of the interval.
	Hi float64
}

// zTwoSided returns the standard normal quantile z with P(|Z| <= z) =
// confidence, i.e. Φ⁻¹((1+confidence)/2) = √2·erfinv(confidence).
func zTwoSided(confidence float64) float64 {
	return math.Sqrt2 * math.Erfinv(confidence)
}

// Wilson returns the Wilson score interval for a binomial proportion with
// the given number of successes out of trials, at the given two-sided
// confidence level (for example 0.95):
//
//	(p̂ + z²/2n ± z·√(p̂(1-p̂)/n + z²/4n²)) / (1 + z²/n)
//
// where z is the standard normal quantile for (1+confidence)/2. Point is the
// observed proportion p̂. The bounds lie in [0, 1]; Lo is exactly 0 when
// there are no successes and Hi is exactly 1 when every trial succeeds.
//
// The error wraps [ErrInvalidArgument] unless trials >= 1,
// 0 <= successes <= trials and 0 < confidence < 1.
func Wilson(successes, trials int, confidence float64) (Interval, error) {
	switch {
	case trials < 1:
		return Interval{}, invalid("Wilson", "trials=%d must be at least 1", trials)
	case successes < 0 || successes > trials:
		return Interval{}, invalid("Wilson", "successes=%d outside [0, %d]", successes, trials)
	}
	if err := checkConfidence("Wilson", confidence); err != nil {
		return Interval{}, err
	}
	z := zTwoSided(confidence)
	n := float64(trials)
	p := float64(successes) / n
	z2 := z * z
	denom := 1 + z2/n
	center := (p + z2/(2*n)) / denom
	half := z * math.Sqrt(p*(1-p)/n+z2/(4*n*n)) / denom
	lo, hi := max(0, center-half), min(1, center+half)
	if successes == 0 {
		lo = 0
	}
	if successes == trials {
		hi = 1
	}
	return Interval{Lo: lo, Point: p, Hi: hi}, nil
}

// bootstrapSeedMix derives the second PCG seed word from the caller's seed.
const bootstrapSeedMix = 0x9e3779b97f4a7c15

// Bootstrap returns a percentile bootstrap confidence interval for
// stat(values). It draws the given number of resamples of len(values)
// elements with replacement, evaluates stat on each, and returns the
// (1-confidence)/2 and (1+confidence)/2 quantiles of those statistics (see
// [Quantile] for the interpolation) as Lo and Hi, with Point = stat(values).
//
// The resampling uses a PCG generator from math/rand/v2 seeded from seed, so
// the result is a deterministic function of the arguments: the same seed
// always yields the same interval. stat must be deterministic; it always
// receives a scratch slice owned by Bootstrap, never values itself, and may
// reorder it (for example to compute a median).
//
// The error wraps [ErrEmpty] when values is empty and [ErrInvalidArgument]
// when stat is nil, resamples < 1, confidence is outside (0, 1) or stat
// returns NaN.
func Bootstrap(values []float64, stat func([]float64) float64, resamples int, confidence float64, seed uint64) (Interval, error) {
	const fn = "Bootstrap"
	switch {
	case len(values) == 0:
		return Interval{}, fmt.Errorf("%w: %s: no values", ErrEmpty, fn)
	case stat == nil:
		return Interval{}, invalid(fn, "nil statistic")
	case resamples < 1:
		return Interval{}, invalid(fn, "resamples=%d must be at least 1", resamples)
	}
	if err := checkConfidence(fn, confidence); err != nil {
		return Interval{}, err
	}

	buf := slices.Clone(values)
	point := stat(buf)
	if math.IsNaN(point) {
		return Interval{}, invalid(fn, "statistic of the sample is NaN")
	}

	rng := rand.New(rand.NewPCG(seed, seed^bootstrapSeedMix))
	stats := make([]float64, resamples)
	for r := range stats {
		for i := range buf {
			buf[i] = values[rng.IntN(len(values))]
		}
		s := stat(buf)
		if math.IsNaN(s) {
			return Interval{}, invalid(fn, "statistic of resample %d is NaN", r)
		}
		stats[r] = s
	}
	slices.Sort(stats)
	alpha := 1 - confidence
	return Interval{
		Lo:    quantileSorted(stats, alpha/2),
		Point: point,
		Hi:    quantileSorted(stats, 1-alpha/2),
	}, nil
}

// BootstrapMean is [Bootstrap] with the arithmetic mean as the statistic.
func BootstrapMean(values []float64, resamples int, confidence float64, seed uint64) (Interval, error) {
	return Bootstrap(values, mean, resamples, confidence, seed)
}
