package metrics_test

import (
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/metrics"
)

// BenchmarkPassAtK measures the stable product form (reported as ns/op) and,
// in the same run, the naive form with big.Int binomial coefficients. The
// "x-vs-bigint" metric is big.Int time per op divided by stable time per op,
// so values above 1 mean the stable form is that many times faster.
func BenchmarkPassAtK(b *testing.B) {
	const n, c, k = 200, 37, 10
	for b.Loop() {
		if _, err := metrics.PassAtK(n, c, k); err != nil {
			b.Fatal(err)
		}
	}
	stablePerOp := float64(b.Elapsed()) / float64(b.N)

	// Bound the big.Int run so a long -benchtime does not multiply it.
	iters := min(b.N, 2000)
	start := time.Now()
	var sink float64
	for range iters {
		sink += passAtKBigInt(n, c, k)
	}
	bigPerOp := float64(time.Since(start)) / float64(iters)
	if sink < 0 {
		b.Fatal("impossible")
	}
	if stablePerOp > 0 {
		b.ReportMetric(bigPerOp/stablePerOp, "x-vs-bigint")
	}
}

// BenchmarkEditDistance measures EditDistance on two 100-token sequences
// (CDD's cut) that differ in every fifth token and, in the same run, the
// full-table dynamic programme of the tests (naiveEditDistance). The
// "x-vs-table" metric is the table's time per op over EditDistance's.
func BenchmarkEditDistance(b *testing.B) {
	x, y := make([]byte, 100), make([]byte, 100)
	for i := range x {
		x[i], y[i] = byte(i), byte(i)
		if i%5 == 0 {
			y[i] = 255
		}
	}
	for b.Loop() {
		if metrics.EditDistance(x, y) != 20 {
			b.Fatal("wrong distance")
		}
	}
	perOp := float64(b.Elapsed()) / float64(b.N)
	iters := min(b.N, 2000)
	start := time.Now()
	for range iters {
		if naiveEditDistance(string(x), string(y)) != 20 {
			b.Fatal("wrong distance")
		}
	}
	if perOp > 0 {
		b.ReportMetric(float64(time.Since(start))/float64(iters)/perOp, "x-vs-table")
	}
}
