package nsga2

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Real configures NSGA-II for vectors of real numbers within box bounds, the
// way DEAP's NSGA-II example does: uniform initialisation within the bounds,
// simulated binary crossover ([SBX]) of each pair with probability
// Crossover, then polynomial mutation ([PolynomialMutation]) of every child.
// The zero value of each field but the bounds picks DEAP's example setting.
type Real struct {
	// Low and Up are the inclusive bounds of each variable; their common
	// length is the number of variables. Low[i] must not exceed Up[i].
	Low, Up []float64

	// Crossover is the probability that a pair of parents is crossed with
	// SBX. 0 means 0.9; a negative value means never.
	Crossover float64

	// CrossoverEta is SBX's distribution index η_c. 0 means 20.
	CrossoverEta float64

	// Mutation is the probability that polynomial mutation changes each
	// variable of each child. 0 means 1/len(Low); a negative value means
	// never.
	Mutation float64

	// MutationEta is polynomial mutation's distribution index η_m. 0 means
	// 20.
	MutationEta float64
}

// Box returns a Real of n variables, each within [low, up], with the
// default operators.
func Box(n int, low, up float64) *Real {
	r := &Real{Low: make([]float64, n), Up: make([]float64, n)}
	for i := range n {
		r.Low[i], r.Up[i] = low, up
	}
	return r
}

// Problem returns a Problem over []float64 with r's initialisation and
// variation and the objective function evaluate (see [ZDT1] for examples).
// It validates r and copies it, so later changes to r do not reach the
// Problem.
func (r *Real) Problem(evaluate func(x []float64) []float64) (*Problem[[]float64], error) {
	if evaluate == nil {
		return nil, errors.New("nsga2: Real.Problem: nil evaluate")
	}
	v, err := r.resolve()
	if err != nil {
		return nil, err
	}
	return &Problem[[]float64]{Init: v.init, Evaluate: evaluate, Vary: v.vary}, nil
}

// realVar is a resolved copy of a Real.
type realVar struct {
	low, up       []float64
	cxpb, cxEta   float64
	mutpb, mutEta float64
}

func (r *Real) resolve() (*realVar, error) {
	n := len(r.Low)
	switch {
	case n == 0:
		return nil, errors.New("nsga2: Real: no variables (empty Low)")
	case len(r.Up) != n:
		return nil, fmt.Errorf("nsga2: Real: %d lower bounds but %d upper bounds", n, len(r.Up))
	}
	for i := range n {
		lo, up := r.Low[i], r.Up[i]
		if !(lo <= up) || math.IsInf(lo, 0) || math.IsInf(up, 0) {
			return nil, fmt.Errorf("nsga2: Real: variable %d: bounds [%v, %v], want finite with low <= up", i, lo, up)
		}
	}
	v := &realVar{
		low: append([]float64(nil), r.Low...), up: append([]float64(nil), r.Up...),
		cxpb: r.Crossover, cxEta: r.CrossoverEta, mutpb: r.Mutation, mutEta: r.MutationEta,
	}
	if v.cxpb == 0 {
		v.cxpb = 0.9
	}
	if v.mutpb == 0 {
		v.mutpb = 1 / float64(n)
	}
	if v.cxEta == 0 {
		v.cxEta = 20
	}
	if v.mutEta == 0 {
		v.mutEta = 20
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"Crossover", v.cxpb}, {"Mutation", v.mutpb}} {
		if math.IsNaN(f.v) || f.v > 1 {
			return nil, fmt.Errorf("nsga2: Real: %s %v, want a probability", f.name, f.v)
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"CrossoverEta", v.cxEta}, {"MutationEta", v.mutEta}} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return nil, fmt.Errorf("nsga2: Real: %s %v, want a positive number", f.name, f.v)
		}
	}
	return v, nil
}

// init draws each variable uniformly within its bounds, as DEAP's
// random.uniform does.
func (v *realVar) init(rng *rand.Rand) []float64 {
	x := make([]float64, len(v.low))
	for i := range x {
		x[i] = v.low[i] + (v.up[i]-v.low[i])*rng.Float64()
	}
	return x
}

// vary is the variation loop of DEAP's NSGA-II example: copy both parents,
// cross them with probability cxpb, mutate both.
func (v *realVar) vary(rng *rand.Rand, a, b []float64) ([]float64, []float64) {
	n := len(a)
	buf := make([]float64, 2*n)
	c1, c2 := buf[:n:n], buf[n:]
	copy(c1, a)
	copy(c2, b)
	if rng.Float64() <= v.cxpb {
		SBX(rng, c1, c2, v.cxEta, v.low, v.up)
	}
	PolynomialMutation(rng, c1, v.mutEta, v.mutpb, v.low, v.up)
	PolynomialMutation(rng, c2, v.mutEta, v.mutpb, v.low, v.up)
	return c1, c2
}

// SBX crosses a and b in place with bounded simulated binary crossover of
// distribution index eta, exactly as DEAP's cxSimulatedBinaryBounded (and
// Deb's NSGA-II C code) does: each variable i with probability 1/2, if the
// parents differ there by more than 1e-14, is replaced by two children
// spread around the parents with a polynomial probability whose tails are
// cut at low[i] and up[i]; the children are clamped to the bounds and given
// to a and b in a random order. Only the first min(len(a), len(b)) variables
// take part; low and up must be at least that long.
func SBX(rng *rand.Rand, a, b []float64, eta float64, low, up []float64) {
	size := min(len(a), len(b))
	low, up = low[:size], up[:size]
	p := newPower(eta + 1)
	for i := range size {
		if rng.Float64() > 0.5 {
			continue
		}
		if math.Abs(a[i]-b[i]) <= 1e-14 {
			continue
		}
		xl, xu := low[i], up[i]
		x1, x2 := min(a[i], b[i]), max(a[i], b[i])
		r := rng.Float64()

		// DEAP's arithmetic, reordered to divide less: the two divisions
		// by x2-x1 are one, beta**-(eta+1) is 1/beta**(eta+1), and
		// r <= 1/alpha is r*alpha <= 1. The results differ from DEAP's by
		// rounding only.
		inv := 1 / (x2 - x1)
		c1 := 0.5 * (x1 + x2 - p.spread(r, 1+2*(x1-xl)*inv)*(x2-x1))
		c2 := 0.5 * (x1 + x2 + p.spread(r, 1+2*(xu-x2)*inv)*(x2-x1))

		c1 = min(max(c1, xl), xu)
		c2 = min(max(c2, xl), xu)
		if rng.Float64() <= 0.5 {
			a[i], b[i] = c2, c1
		} else {
			a[i], b[i] = c1, c2
		}
	}
}

// PolynomialMutation mutates x in place with bounded polynomial mutation of
// distribution index eta, exactly as DEAP's mutPolynomialBounded (and Deb's
// NSGA-II C code) does: each variable i, with probability prob, moves by a
// polynomially distributed step scaled to up[i]-low[i] whose tails are cut
// at the bounds, and is then clamped to them. low and up must be at least
// as long as x.
func PolynomialMutation(rng *rand.Rand, x []float64, eta, prob float64, low, up []float64) {
	low, up = low[:len(x)], up[:len(x)]
	p := newPower(eta + 1)
	for i := range x {
		if rng.Float64() > prob {
			continue
		}
		xl, xu := low[i], up[i]
		if xl == xu {
			x[i] = xl
			continue
		}
		y := x[i]
		d1 := (y - xl) / (xu - xl)
		d2 := (xu - y) / (xu - xl)
		r := rng.Float64()
		var dq float64
		if r < 0.5 {
			xy := 1 - d1
			val := 2*r + (1-2*r)*p.pow(xy)
			dq = p.root(val) - 1
		} else {
			xy := 1 - d2
			val := 2*(1-r) + 2*(r-0.5)*p.pow(xy)
			dq = 1 - p.root(val)
		}
		y += dq * (xu - xl)
		x[i] = min(max(y, xl), xu)
	}
}

// power computes x^p and x^(1/p) for the fixed exponent p = η+1 of SBX and
// polynomial mutation, faster than math.Pow and with the same results for
// the arguments the operators pass (finite, non-negative, away from the
// overflow and subnormal ranges): math.Pow(x, 1/p) is computed as
// math.Exp((1/p)·math.Log(x)), and math.Pow(x, n) for a whole n by the same
// sequence of squarings, only without its exponent bookkeeping.
type power struct {
	p, inv float64
	n      uint64 // p if p is a whole number in [1, 64], else 0
}

func newPower(p float64) power {
	w := power{p: p, inv: 1 / p}
	if p >= 1 && p <= 64 && p == math.Trunc(p) {
		w.n = uint64(p)
	}
	return w
}

// pow returns x^p.
func (w power) pow(x float64) float64 {
	if w.n == 0 {
		return math.Pow(x, w.p)
	}
	a := 1.0
	for i := w.n; i != 0; i >>= 1 {
		if i&1 == 1 {
			a *= x
		}
		x *= x
	}
	return a
}

// spread returns SBX's spread factor β_q for the uniform number r and the
// distance ratio beta to the nearer bound.
func (w power) spread(r, beta float64) float64 {
	ra := r * (2 - 1/w.pow(beta))
	if ra <= 1 {
		return w.root(ra)
	}
	return w.root(1 / (2 - ra))
}

// root returns x^(1/p).
func (w power) root(x float64) float64 {
	if x > 0 && x <= math.MaxFloat64 && w.inv <= 0.5 {
		return math.Exp(w.inv * math.Log(x))
	}
	return math.Pow(x, w.inv)
}
