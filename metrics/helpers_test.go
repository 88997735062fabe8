package metrics_test

import (
	"math/big"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// approx compares floats with a relative tolerance of 1e-12 and an absolute
// one of 1e-12, which is what "exactly computed" means for these functions.
var approx = cmpopts.EquateApprox(1e-12, 1e-12)

// approxTo compares floats with an absolute tolerance, for golden values
// quoted to a few decimal places.
func approxTo(margin float64) cmp.Option { return cmpopts.EquateApprox(0, margin) }

// binomRatioExact returns C(a,k)/C(n,k) as an exact rational.
func binomRatioExact(a, n, k int) *big.Rat {
	num := new(big.Int).Binomial(int64(a), int64(k))
	if a < k {
		num.SetInt64(0)
	}
	den := new(big.Int).Binomial(int64(n), int64(k))
	return new(big.Rat).SetFrac(num, den)
}

// passAtKBigInt is the naive pass@k, 1 - C(n-c,k)/C(n,k), with big.Int
// binomial coefficients and exact rational arithmetic, rounded once.
func passAtKBigInt(n, c, k int) float64 {
	r := new(big.Rat).Sub(big.NewRat(1, 1), binomRatioExact(n-c, n, k))
	f, _ := r.Float64()
	return f
}

// passHatKBigInt is the naive pass^k, C(c,k)/C(n,k), computed exactly.
func passHatKBigInt(n, c, k int) float64 {
	f, _ := binomRatioExact(c, n, k).Float64()
	return f
}
