package nsga2_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/evolve/nsga2"
)

func TestRealInvalid(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name   string
		r      nsga2.Real
		want   string
		reason string
	}{
		{name: "no variables", r: nsga2.Real{}, want: "no variables", reason: "nothing to search"},
		{name: "length mismatch", r: nsga2.Real{Low: []float64{0, 0}, Up: []float64{1}}, want: "2 lower bounds but 1 upper", reason: "one bound pair per variable"},
		{name: "low above up", r: nsga2.Real{Low: []float64{0, 2}, Up: []float64{1, 1}}, want: "variable 1", reason: "empty interval"},
		{name: "infinite", r: nsga2.Real{Low: []float64{-inf}, Up: []float64{0}}, want: "want finite", reason: "uniform initialisation needs a finite box"},
		{name: "probability", r: nsga2.Real{Low: []float64{0}, Up: []float64{1}, Crossover: 1.5}, want: "Crossover 1.5", reason: "not a probability"},
		{name: "eta", r: nsga2.Real{Low: []float64{0}, Up: []float64{1}, MutationEta: -1}, want: "MutationEta -1", reason: "distribution index must be positive"},
	}
	for _, tc := range tests {
		p, err := tc.r.Problem(nsga2.ZDT1)
		if err == nil || !strings.Contains(err.Error(), tc.want) || p != nil {
			t.Errorf("%s: got %v, %v; want an error containing %q (%s)", tc.name, p, err, tc.want, tc.reason)
		}
	}
	if _, err := nsga2.Box(2, 0, 1).Problem(nil); err == nil {
		t.Error("Problem(nil) succeeded")
	}
}

// TestRealStaysInBounds checks that initialisation and variation never leave
// the box, that they do not modify the parents, and that Problem copied the
// bounds.
func TestRealStaysInBounds(t *testing.T) {
	r := &nsga2.Real{
		Low: []float64{-1, 0, 5, 2}, Up: []float64{1, 1e-9, 6, 2},
		Crossover: 1, CrossoverEta: 0.5, Mutation: 1, MutationEta: 0.5, // wide spread, always applied
	}
	p, err := r.Problem(func(x []float64) []float64 { return x[:1] })
	if err != nil {
		t.Fatal(err)
	}
	low, up := append([]float64(nil), r.Low...), append([]float64(nil), r.Up...)
	r.Low[0], r.Up[0] = 100, 200 // must not reach p
	rng := rand.New(rand.NewPCG(1, 1))
	check := func(x []float64) {
		t.Helper()
		for i, v := range x {
			if !(v >= low[i] && v <= up[i]) {
				t.Fatalf("variable %d = %v outside [%v, %v]", i, v, low[i], up[i])
			}
		}
	}
	a, b := p.Init(rng), p.Init(rng)
	for range 2000 {
		check(a)
		check(b)
		a0, b0 := append([]float64(nil), a...), append([]float64(nil), b...)
		c1, c2 := p.Vary(rng, a, b)
		for i := range a {
			if a[i] != a0[i] || b[i] != b0[i] {
				t.Fatal("Vary modified a parent")
			}
		}
		c1[0] = 0.5 // children do not share memory
		if a[0] == 0.5 && a0[0] != 0.5 || b[0] == 0.5 && b0[0] != 0.5 {
			t.Fatal("a child shares memory with a parent")
		}
		a, b = c1, c2
	}
}

// TestOperatorsMoveVariables checks the operators' defaults: with no
// crossover and mutation every variable stays; with defaults, children
// differ from their parents but stay close (η = 20).
func TestOperatorsMoveVariables(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	never, err := (&nsga2.Real{Low: []float64{0, 0}, Up: []float64{1, 1}, Crossover: -1, Mutation: -1}).Problem(nsga2.ZDT1)
	if err != nil {
		t.Fatal(err)
	}
	a, b := []float64{0.2, 0.4}, []float64{0.6, 0.8}
	c1, c2 := never.Vary(rng, a, b)
	if c1[0] != a[0] || c1[1] != a[1] || c2[0] != b[0] || c2[1] != b[1] {
		t.Errorf("with no crossover nor mutation, children %v %v differ from parents %v %v", c1, c2, a, b)
	}

	x := []float64{0.5}
	var moved, far int
	for range 10000 {
		y := append([]float64(nil), x...)
		nsga2.PolynomialMutation(rng, y, 20, 1, []float64{0}, []float64{1})
		if y[0] != x[0] {
			moved++
		}
		if math.Abs(y[0]-x[0]) > 0.2 {
			far++
		}
	}
	// |Δ| > 0.2 needs r < 0.8²¹/2 on either side: probability 0.92%.
	if moved < 9990 || far < 50 || far > 150 {
		t.Errorf("polynomial mutation η=20: %d of 10000 moved, %d moved more than 0.2 (want about 92)", moved, far)
	}
}
