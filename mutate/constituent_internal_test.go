package mutate

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
)

// soloProject is a fake project of one file whose checks reject every
// mutant that changes the constant of `y > 10` and nothing else (as a
// compile error), and whose one test fails on every other mutant: a
// composed mutant hides the rejected constant change behind another.
type soloProject struct {
	taskProject
	src    []byte
	mu     sync.Mutex
	checks int
}

const soloSrc = "package p\n\nfunc F(x int) int {\n\ty := x * 3\n\tif y > 10 {\n\t\treturn y\n\t}\n\treturn y - x\n}\n"

func (p *soloProject) Lang() Lang                              { return Go }
func (p *soloProject) Sources() ([]string, error)              { return []string{"p.go"}, nil }
func (p *soloProject) ReadFile(string) ([]byte, error)         { return p.src, nil }
func (p *soloProject) Tests(context.Context) ([]string, error) { return []string{"TestF"}, nil }
func (p *soloProject) Close() error                            { return nil }
func (p *soloProject) Coverage(context.Context, string) (Lines, error) {
	return Lines{"p.go": {3, 4, 5, 6, 7, 8, 9}}, nil
}

func (p *soloProject) Check(_ context.Context, path string, src []byte, tests []string) (*TestRun, error) {
	p.mu.Lock()
	p.checks++
	p.mu.Unlock()
	if src == nil || bytes.Equal(src, p.src) {
		return &TestRun{Passed: []string{"TestF"}}, nil
	}
	s := string(src)
	if strings.Replace(s, "y > 10 {", "", 1) != s || !strings.Contains(s, "if y > ") {
		// The constant of y > 10 is unchanged, or the comparison is.
		return &TestRun{Failed: []string{"TestF"}}, nil
	}
	if strings.Count(s, "\n") != strings.Count(soloSrc, "\n") || strings.Replace(s, "x * 3", "", 1) == s || strings.Replace(s, "y - x", "", 1) == s {
		return &TestRun{Failed: []string{"TestF"}}, nil // another change too
	}
	return &TestRun{Compile: "p.go:5:9: constant overflows"}, nil
}

// TestConstituentValidity checks that every constituent of a composed
// mutant is valid on its own: an L2 mutant whose updateconst edit alone
// does not compile is discarded (ReasonConstituent), whether the L1
// verdict of that site exists (L1 and L2 generated) or not (L2 alone,
// when the constituent is checked on its own).
func TestConstituentValidity(t *testing.T) {
	for _, tc := range []struct {
		name   string
		levels []ComplexityLevel
	}{
		{"with L1", []ComplexityLevel{L1, L2}},
		{"L2 only", []ComplexityLevel{L2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &soloProject{src: []byte(soloSrc)}
			res, err := Generate(context.Background(), p, &Options{
				Ops: []*Operator{updateConst, ModifyLogic}, Seed: 3, Levels: tc.levels, PerLevel: 8, SitesPerOp: 4, Runs: 1, Contexts: []ContextLevel{C1},
			})
			if err != nil {
				t.Fatal(err)
			}
			hidden := 0
			for _, c := range res.Candidates {
				if c.Level != L2 || c.Reason == ReasonOverlap {
					continue
				}
				var constSite bool
				for _, r := range c.Records {
					if r.Operator == "updateconst" && len(r.Changes) == 1 && r.Changes[0].Old == "10" {
						constSite = true
					}
				}
				if !constSite {
					continue
				}
				hidden++
				if c.Valid() || c.Reason != ReasonConstituent {
					t.Errorf("%s: valid %v, reason %s (%s), want %s: its updateconst edit alone does not compile", c.Key(), c.Valid(), c.Reason, c.Detail, ReasonConstituent)
				}
			}
			if hidden == 0 {
				t.Fatal("no L2 candidate changes the constant 10: change the seed")
			}
			for _, c := range res.Candidates {
				t.Logf("%s %s %s %q", c.Level, c.Key(), c.Reason, c.Detail)
			}
		})
	}
}
