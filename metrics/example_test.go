package metrics_test

import (
	"errors"
	"fmt"

	"github.com/adaptbench/adaptbench/metrics"
)

func ExamplePassAtK() {
	// 10 samples for a task, 3 of them pass the tests.
	p1, _ := metrics.PassAtK(10, 3, 1)
	p5, _ := metrics.PassAtK(10, 3, 5)
	fmt.Printf("pass@1=%.4f pass@5=%.6f\n", p1, p5)
	// Output: pass@1=0.3000 pass@5=0.916667
}

func ExampleMeanPassAtK() {
	items := []metrics.Count{{N: 10, C: 3}, {N: 10, C: 0}, {N: 10, C: 10}}
	p, _ := metrics.MeanPassAtK(items, 5)
	fmt.Printf("pass@5=%.4f\n", p)
	// Output: pass@5=0.6389
}

func ExamplePassHatK() {
	// Probability that 2 fresh samples both pass when 3 of 10 did.
	p, _ := metrics.PassHatK(10, 3, 2)
	fmt.Printf("pass^2=%.4f\n", p)
	// Output: pass^2=0.0667
}

func ExampleWilson() {
	ci, _ := metrics.Wilson(8, 10, 0.95)
	fmt.Printf("%.2f in [%.4f, %.4f]\n", ci.Point, ci.Lo, ci.Hi)
	// Output: 0.80 in [0.4902, 0.9433]
}

func ExampleMcNemar() {
	// Per-task outcomes of two models on the same 8 tasks.
	a := []bool{true, false, false, false, true, false, false, true}
	b := []bool{true, true, true, true, true, true, false, true}
	res, _ := metrics.McNemar(a, b)
	fmt.Printf("b01=%d b10=%d exact=%v p=%.4f\n", res.B01, res.B10, res.Exact, res.PValue)

	res, _ = metrics.McNemarCounts(30, 10)
	fmt.Printf("b01=%d b10=%d exact=%v chi2=%.3f p=%.6f\n", res.B01, res.B10, res.Exact, res.Statistic, res.PValue)
	// Output:
	// b01=4 b10=0 exact=true p=0.1250
	// b01=30 b10=10 exact=false chi2=9.025 p=0.002663
}

func ExampleCohenKappa() {
	judge := []string{"pass", "pass", "fail", "fail", "pass", "fail"}
	human := []string{"pass", "pass", "fail", "pass", "pass", "fail"}
	k, _ := metrics.CohenKappa(judge, human)
	fmt.Printf("kappa=%.4f\n", k)
	// Output: kappa=0.6667
}

func ExampleBootstrapMean() {
	scores := []float64{0.1, 0.4, 0.35, 0.8, 0.9, 0.05, 0.6, 0.7, 0.2, 0.55}
	ci, _ := metrics.BootstrapMean(scores, 2000, 0.95, 42)
	again, _ := metrics.BootstrapMean(scores, 2000, 0.95, 42)
	fmt.Printf("mean=%.3f deterministic=%v\n", ci.Point, ci == again)
	fmt.Printf("[%.3f, %.3f]\n", ci.Lo, ci.Hi)
	// Output:
	// mean=0.465 deterministic=true
	// [0.295, 0.640]
}

func ExampleBootstrap() {
	// Interval for the median of per-task latencies (seconds).
	latencies := []float64{1.2, 0.8, 3.1, 0.9, 1.1, 2.4, 1.0, 0.7, 1.5, 1.3}
	median := func(v []float64) float64 {
		q, _ := metrics.Quantile(v, 0.5)
		return q
	}
	ci, _ := metrics.Bootstrap(latencies, median, 2000, 0.90, 7)
	fmt.Printf("median=%.2f [%.2f, %.2f]\n", ci.Point, ci.Lo, ci.Hi)
	// Output: median=1.15 [0.90, 1.50]
}

func ExampleRelativeDegradation() {
	// AdaptEval: GPT-4o at 59.15 versus DeepSeek-V3 at 57.31.
	d, _ := metrics.RelativeDegradation(59.15, 57.31)
	fmt.Printf("%.2f%%\n", 100*d)
	// Output: 3.11%
}

func ExampleMeanPassHatK() {
	// pass^2 averaged over tasks: only tasks that pass reliably count.
	items := []metrics.Count{{N: 10, C: 3}, {N: 10, C: 9}, {N: 10, C: 10}}
	p, _ := metrics.MeanPassHatK(items, 2)
	fmt.Printf("pass^2=%.4f\n", p)
	// Output: pass^2=0.6222
}

func ExampleStdDev() {
	// Pass@1 of one model over five seeds.
	runs := []float64{0.52, 0.55, 0.49, 0.53, 0.51}
	mean, _ := metrics.Mean(runs)
	sd, _ := metrics.StdDev(runs)
	fmt.Printf("%.3f ± %.3f\n", mean, sd)

	// One run has no spread to estimate: the error says so.
	_, err := metrics.StdDev(runs[:1])
	fmt.Println(errors.Is(err, metrics.ErrInvalidArgument))
	// Output:
	// 0.520 ± 0.022
	// true
}

func ExampleEditDistance() {
	// Over any comparable element: runes here, token IDs in a
	// contamination check.
	d := metrics.EditDistance([]rune("len(xs)//2"), []rune("len(xs) // 2"))
	fmt.Println(d)
	// Output: 2
}
