package transform

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// stmtPair is a statement (or a loop or if condition) that an original
// program and its evolved version share: the same text, matched by
// syntax.Match, at Original in one and at Evolved in the other.
type stmtPair struct {
	Original, Evolved syntax.Range
}

// sharedStatements returns the units of evolved.Main that are unchanged
// from original.Main, in the document order of evolved: simple statements,
// and the conditions of if, elif and while and the iterables of for
// statements (whose bodies may have changed around them). GeneBench
// injects bugs only there, so that the original and the evolved program
// get the same bugs.
func sharedStatements(original, evolved *Program) ([]stmtPair, error) {
	fa, err := parse(original.Main)
	if err != nil {
		return nil, fmt.Errorf("transform: original: %w", err)
	}
	fb, err := parse(evolved.Main)
	if err != nil {
		return nil, fmt.Errorf("transform: evolved: %w", err)
	}
	m := syntax.Match(fa.root, fa.src, fb.root, fb.src)
	var out []stmtPair
	for _, u := range fb.units() {
		a := m.ToA(u)
		if a == nil || a.Type != u.Type || !bytes.Equal(fa.src[a.Start:a.End], fb.src[u.Start:u.End]) || !fa.isUnit(a) {
			continue
		}
		out = append(out, stmtPair{Original: syntax.Range{Start: a.Start, End: a.End}, Evolved: syntax.Range{Start: u.Start, End: u.End}})
	}
	return out, nil
}

// units returns the nodes sharedStatements compares.
func (f *file) units() []*syntax.Node {
	return f.find(f.isUnit)
}

func (f *file) isUnit(n *syntax.Node) bool {
	if f.isStatement(n) {
		return n.Child("body") == nil && n.Child("consequence") == nil && !n.Has("block")
	}
	p := f.parent[n]
	if p == nil {
		return false
	}
	switch p.Type {
	case "if_statement", "elif_clause", "while_statement":
		return n.Field == "condition"
	case "for_statement":
		return n.Field == "right"
	}
	return false
}

// BugSite is a site of a bug mutator in a shared statement: the same
// place in the original and in the evolved program.
type BugSite struct {
	Original, Evolved Site
}

// BugSites returns the sites of the bug mutator t in evolved that lie in a
// statement evolved shares with original, each with its counterpart in
// original, in the document order of evolved.
func BugSites(t *Transform, original, evolved *Program) ([]BugSite, error) {
	pairs, err := sharedStatements(original, evolved)
	if err != nil {
		return nil, err
	}
	so, se := t.Sites(original), t.Sites(evolved)
	var out []BugSite
	for _, s := range se {
		for _, p := range pairs {
			if s.Start < p.Evolved.Start || s.End > p.Evolved.End {
				continue
			}
			d := p.Original.Start - p.Evolved.Start
			for _, o := range so {
				if o.Start == s.Start+d && o.End == s.End+d && o.Kind == s.Kind {
					out = append(out, BugSite{Original: o, Evolved: s})
					break
				}
			}
			break
		}
	}
	return out, nil
}

// InjectBug applies the bug mutator t at s in both programs, with the same
// random choices, and checks that both got the same change (the same bytes
// replaced by the same bytes). It returns the two buggy programs.
func InjectBug(t *Transform, original, evolved *Program, s BugSite, rng *rand.Rand) (bugOriginal, bugEvolved *Program, err error) {
	s1, s2 := rng.Uint64(), rng.Uint64()
	bo, err := t.Apply(original, s.Original, rand.New(rand.NewPCG(s1, s2)))
	if err != nil {
		return nil, nil, fmt.Errorf("transform: %s on the original: %w", t.ID, err)
	}
	be, err := t.Apply(evolved, s.Evolved, rand.New(rand.NewPCG(s1, s2)))
	if err != nil {
		return nil, nil, fmt.Errorf("transform: %s on the evolved program: %w", t.ID, err)
	}
	co, ce := change(original.Main, bo.Main), change(evolved.Main, be.Main)
	if co != ce {
		return nil, nil, fmt.Errorf("transform: %s made different changes: %q in the original, %q in the evolved program", t.ID, co, ce)
	}
	if err := Check(bo); err != nil {
		return nil, nil, err
	}
	if err := Check(be); err != nil {
		return nil, nil, err
	}
	return bo, be, nil
}

// change describes how b differs from a: the replaced bytes and their
// replacement, after the common prefix and suffix.
func change(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	j := 0
	for j < len(a)-i && j < len(b)-i && a[len(a)-1-j] == b[len(b)-1-j] {
		j++
	}
	return fmt.Sprintf("%q -> %q", a[i:len(a)-j], b[i:len(b)-j])
}

// injection is one bug injectBugs injected: the mutator's ID and the site
// in each program (in the programs as they were before this bug).
type injection struct {
	ID                string
	Original, Evolved Site
}

// injectBugs builds a higher-order mutant (GeneBench uses order ≤ 3): it
// injects order bugs one after the other into both programs, each with
// InjectBug at a (mutator of ts, shared site) pair drawn uniformly among
// all pairs of the programs as they are by then, never at a site that
// overlaps what an earlier bug changed (so a later bug cannot undo an
// earlier one). It returns ErrNoSite when no pair is left before order
// bugs are in.
func injectBugs(ts []*Transform, original, evolved *Program, order int, rng *rand.Rand) (bugOriginal, bugEvolved *Program, applied []injection, err error) {
	bo, be := original, evolved
	for range order {
		lo, hi := changed(evolved.Main, be.Main)
		type cand struct {
			t *Transform
			s BugSite
		}
		var cands []cand
		for _, t := range ts {
			sites, err := BugSites(t, bo, be)
			if err != nil {
				return nil, nil, nil, err
			}
			for _, s := range sites {
				if lo < hi && s.Evolved.Start < hi && s.Evolved.End > lo {
					continue
				}
				cands = append(cands, cand{t, s})
			}
		}
		if len(cands) == 0 {
			return nil, nil, nil, fmt.Errorf("transform: bug %d of %d: %w", len(applied)+1, order, ErrNoSite)
		}
		c := cands[rng.IntN(len(cands))]
		no, ne, err := InjectBug(c.t, bo, be, c.s, rng)
		if err != nil {
			return nil, nil, nil, err
		}
		applied = append(applied, injection{ID: c.t.ID, Original: c.s.Original, Evolved: c.s.Evolved})
		bo, be = no, ne
	}
	return bo, be, applied, nil
}

// changed returns the byte range of b that differs from a (after their
// common prefix and suffix); lo == hi when they are equal.
func changed(a, b []byte) (lo, hi int) {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	j := 0
	for j < len(a)-i && j < len(b)-i && a[len(a)-1-j] == b[len(b)-1-j] {
		j++
	}
	return i, len(b) - j
}
