package transform

import (
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// BenchmarkSuite lists the sites of every operator of All and Bugs on
// a HumanEval-sized program and applies each at its first site. It
// reports the cost as a multiple of one tree-sitter parse of the program
// (x-parse), measured in the same run: the operators parse the program
// for Sites and again for Apply, and analyse scopes where they need them.
func BenchmarkSuite(b *testing.B) {
	src, err := os.ReadFile("testdata/N1/input.py")
	if err != nil {
		b.Fatal(err)
	}
	// The baseline: the same number of parses, timed in this run.
	const baseline = 200
	start := time.Now()
	for range baseline {
		if _, err := syntax.ParseNodes(syntax.Python, src); err != nil {
			b.Fatal(err)
		}
	}
	parseNs := float64(time.Since(start).Nanoseconds()) / baseline
	p := &Program{Main: src, Protected: []string{"tally"}}
	all := append(All[:len(All):len(All)], Bugs...)
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		for _, tr := range all {
			if sites := tr.Sites(p); len(sites) > 0 {
				if _, err := tr.Apply(p, sites[0], rng); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/parseNs, "x-parse")
}
