package mutate

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// TestDrawComboDistinct checks the digest's levels: an L2 combination
// has two distinct operators, even when the second operator's only site
// overlaps the first's pick (it used to wrap back to the first operator),
// and L3 and L4 keep at least two distinct operators.
func TestDrawComboDistinct(t *testing.T) {
	site := func(s, e int) Site { return Site{Start: s, End: e, node: &syntax.Node{Start: s, End: e}} }
	a, b, c := ModifyLogic, updateConst, renameVar
	sites := map[*Operator][]Site{
		a: {site(0, 5), site(10, 15), site(20, 25), site(30, 35)},
		b: {site(0, 5)},
		c: {site(10, 15)},
	}
	for _, tc := range []struct {
		name   string
		lv     ComplexityLevel
		avail  []*Operator
		minOps int
		reason string
	}{
		{"L2/overlap", L2, []*Operator{a, b}, 2, "b's only site may overlap a's pick: then no combination, not a+a"},
		{"L2/three", L2, []*Operator{a, b, c}, 2, "another operator fits when one overlaps"},
		{"L3", L3, []*Operator{a, b, c}, 2, "L3 may repeat an operator but keeps two distinct"},
		{"L4", L4, []*Operator{a, b, c}, 2, "L4 likewise"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			drawn := 0
			for seed := range uint64(200) {
				rng := rand.New(rand.NewPCG(seed, 1))
				picks := (&fragmentSites{tc.avail, sites, nil}).drawCombo(tc.lv, map[string]int{}, rng)
				if picks == nil {
					continue
				}
				drawn++
				if len(picks) != int(tc.lv) {
					t.Fatalf("seed %d: %d picks, want %d", seed, len(picks), tc.lv)
				}
				ops := map[*Operator]bool{}
				for _, pk := range picks {
					ops[pk.Op] = true
				}
				if tc.lv == L2 && len(ops) != 2 || len(ops) < tc.minOps {
					var names []string
					for _, pk := range picks {
						names = append(names, pk.Op.Name)
					}
					t.Fatalf("seed %d: %s combination %v has %d distinct operators (%s)", seed, tc.lv, names, len(ops), tc.reason)
				}
			}
			if drawn == 0 {
				t.Errorf("no %s combination drawn in 200 seeds", tc.lv)
			}
		})
	}
}

// TestDrawComboEdits checks that a combination's picks are drawn by their
// edits, not their sites: a rename's site is one use of its variable but
// it edits every use, and 17 of go-cmp's 100 combinations were discarded
// as overlapping, every one with renamevar. With the sites' ranges alone
// (a nil table: the old rule) some draws overlap; with the edits none
// does.
func TestDrawComboEdits(t *testing.T) {
	src := []byte(`package p

func f(a, b int) int {
	c := a + b
	if c > 10 {
		return c
	}
	d := c * 2
	return d + a - 1
}
`)
	frags, err := Fragments(Go, src)
	if err != nil || len(frags) == 0 {
		t.Fatal(frags, err)
	}
	f := &frags[0]
	avail := []*Operator{renameVar, ModifyLogic, updateConst, RemoveGuard}
	sites := map[*Operator][]Site{}
	for _, op := range avail {
		sites[op] = op.Sites(f)
		if len(sites[op]) == 0 {
			t.Fatalf("no %s site", op.Name)
		}
	}
	table, err := selectSites(context.Background(), nil, "p.go", sites, defaultPolicy)
	if err != nil {
		t.Fatal(err)
	}
	overlapping := map[bool]int{}
	for _, byEdits := range []bool{false, true} {
		tab := table
		if !byEdits {
			tab = nil
		}
		for seed := range uint64(100) {
			for _, lv := range []ComplexityLevel{L2, L3, L4} {
				rng := rand.New(rand.NewPCG(seed, 1))
				picks := (&fragmentSites{avail, sites, tab}).drawCombo(lv, map[string]int{}, rng)
				if picks == nil {
					continue
				}
				c, err := compose(picks, rand.New(rand.NewPCG(seed, 2)))
				if err != nil {
					t.Fatal(err)
				}
				if c.Fate == FateBadEdit {
					overlapping[byEdits]++
				}
			}
		}
	}
	if overlapping[true] != 0 {
		t.Errorf("%d combinations drawn by their edits overlap", overlapping[true])
	}
	if overlapping[false] == 0 {
		t.Errorf("no combination drawn by its sites overlaps: the test shows nothing")
	}
}
