package measure_test

import (
	"fmt"

	"github.com/adaptbench/adaptbench/evolve/measure"
)

const fib = `def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
`

func ExampleMeasure() {
	m, err := measure.Measure([]byte(fib))
	if err != nil {
		panic(err)
	}
	for i, v := range m.Complexity {
		fmt.Printf("%s %-24s %g\n", measure.ComplexityInfo[i].ID, measure.ComplexityName(i), v)
	}
	fmt.Printf("R2 %-24s %g\n", measure.ReadabilityName(1), m.Readability[1])
	fmt.Printf("R5 %-24s %g\n", measure.ReadabilityName(4), m.Readability[4])
	// Output:
	// C1 cyclomatic complexity    3
	// C2 compound predicates      1
	// C3 nesting levels           0
	// C4 complex code structures  2
	// C5 third-party calls        0
	// C6 inter-class dependencies 0
	// C7 intra-class dependencies 2
	// R2 lines of code            4
	// R5 operators                4
}

func ExampleThresholds_RelativeComplexity() {
	m, err := measure.Measure([]byte(fib))
	if err != nil {
		panic(err)
	}
	t := measure.GeneBenchV1
	violated, ok := t.Readable(m)
	fmt.Printf("RC %.4f (artifact %.4f)\n", t.RelativeComplexity(m), t.RawComplexity(m))
	fmt.Printf("RR %.4f (artifact %.4f)\n", t.RelativeReadability(m), t.RawReadability(m))
	fmt.Println("readable:", ok, violated)
	// Output:
	// RC 0.0402 (artifact 0.0402)
	// RR 0.9007 (artifact 0.8840)
	// readable: true []
}

func ExampleCalibrate() {
	corpus := [][]byte{
		[]byte("x = 1\n"),
		[]byte(fib),
	}
	t, err := measure.Calibrate(corpus)
	if err != nil {
		panic(err)
	}
	fmt.Printf("CT1 %.1f, RT2 %.1f, ceiling %.0f\n", t.Complexity[0], t.Readability[1], t.Ceil().Readability[1])
	// Output:
	// CT1 2.0, RT2 2.5, ceiling 3
}

func ExampleOptions_Measure() {
	src := []byte("import numpy as np\nimport torch\n\nnp.zeros(3)\ntorch.ones(3)\n")
	for _, tp := range [][]string{nil, {"numpy", "torch"}} {
		m, err := (&measure.Options{ThirdParty: tp}).Measure(src)
		if err != nil {
			panic(err)
		}
		fmt.Printf("third party %v: C5 %g, C6 %g\n", tp, m.Complexity[4], m.Complexity[5])
	}
	// Output:
	// third party []: C5 1, C6 1
	// third party [numpy torch]: C5 2, C6 0
}
