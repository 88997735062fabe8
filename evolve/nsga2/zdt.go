package nsga2

import "math"

// ZDT1, ZDT2 and ZDT3 are the two-objective test problems of Zitzler, Deb
// and Thiele (2000), as DEAP's benchmarks module defines them, over n ≥ 2
// variables in [0, 1] (n = 30 in the standard setting; use [Box](30, 0, 1)).
// With g = 1 + 9·Σ_{i≥2} x_i / (n−1) and f1 = x_1:
//
//	ZDT1: f2 = g·(1 − √(f1/g))                      convex front f2 = 1 − √f1
//	ZDT2: f2 = g·(1 − (f1/g)²)                      concave front f2 = 1 − f1²
//	ZDT3: f2 = g·(1 − √(f1/g) − f1/g·sin(10π·f1))   five disconnected pieces
//
// The Pareto-optimal solutions have x_2 = … = x_n = 0 (g = 1). The
// hypervolume of the true fronts with reference point (11, 11) is 121 − 1/3
// for ZDT1, 121 − 2/3 for ZDT2 and about 128.7781 for ZDT3.
func ZDT1(x []float64) []float64 {
	f1, g := zdtG(x)
	return []float64{f1, g * (1 - math.Sqrt(f1/g))}
}

// ZDT2 is the ZDT2 test problem; see [ZDT1].
func ZDT2(x []float64) []float64 {
	f1, g := zdtG(x)
	h := f1 / g
	return []float64{f1, g * (1 - h*h)}
}

// ZDT3 is the ZDT3 test problem; see [ZDT1].
func ZDT3(x []float64) []float64 {
	f1, g := zdtG(x)
	return []float64{f1, g * (1 - math.Sqrt(f1/g) - f1/g*math.Sin(10*math.Pi*f1))}
}

func zdtG(x []float64) (f1, g float64) {
	var sum float64
	for _, v := range x[1:] {
		sum += v
	}
	return x[0], 1 + 9*sum/float64(len(x)-1)
}
