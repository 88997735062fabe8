package ctxbug

import (
	"cmp"
	"slices"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// stageGenerated is the first stage of the identification funnel: the
// variants a generator returned. The other stages are named by reason's
// text forms; a candidate counts in every stage it got through.
const stageGenerated = "generated"

// funnelGroup names a funnel group: "generator/rule", and for IsoBugs
// "generator/isobug/task".
func funnelGroup(c *Candidate) string {
	g := c.Generator + "/" + c.Job.Rule
	if c.Job.task != "" && c.Job.Rule == IsoRule {
		g += "/" + c.Job.task
	}
	return g
}

// funnel counts cands through the identification stages (the paper's
// Fig. 5), grouped by generator (in order of first appearance), rule (in
// the order of Rules, other rules after it, IsoRule last) and, for
// IsoBugs, adaptation task. Each stage counts the candidates left after
// it; the stage "kept" the instances.
func funnel(cands []*Candidate) report.Funnel {
	gens := map[string]int{}
	type group struct {
		name  string
		first *Candidate
		cands []*Candidate
	}
	var groups []*group
	idx := map[string]*group{}
	for _, c := range cands {
		if _, ok := gens[c.Generator]; !ok {
			gens[c.Generator] = len(gens)
		}
		k := funnelGroup(c)
		g := idx[k]
		if g == nil {
			g = &group{name: k, first: c}
			idx[k] = g
			groups = append(groups, g)
		}
		g.cands = append(g.cands, c)
	}
	rank := func(c *Candidate) [3]int {
		r := len(Rules)
		for i, s := range Rules {
			if s.Name == c.Job.Rule {
				r = i
			}
		}
		if c.Job.Rule == IsoRule {
			r = len(Rules) + 1
		}
		return [3]int{gens[c.Generator], r, slices.Index(adaptTasks, c.Job.task)}
	}
	slices.SortStableFunc(groups, func(a, b *group) int {
		ra, rb := rank(a.first), rank(b.first)
		return cmp.Or(cmp.Compare(ra[0], rb[0]), cmp.Compare(ra[1], rb[1]), cmp.Compare(ra[2], rb[2]))
	})
	var f report.Funnel
	f.Declare(stageGenerated)
	for _, s := range reasons {
		f.Declare(s.String())
	}
	for _, g := range groups {
		f.Add(g.name, stageGenerated, len(g.cands))
		for _, s := range reasons {
			left := 0
			for _, c := range g.cands {
				// A candidate dropped at a stage is not left after it.
				if c.reason > s || c.reason == reasonKept {
					left++
				}
			}
			f.Add(g.name, s.String(), left)
		}
	}
	return f
}
