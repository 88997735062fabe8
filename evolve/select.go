package evolve

import (
	"cmp"
	"math"
	"slices"

	"github.com/adaptbench/adaptbench/evolve/nsga2"
)

// frontByRC returns the first non-domination front of pop over (RC, RR),
// both maximised, sorted by decreasing RC, then decreasing RR, then
// increasing ID. The sort is nsga2's (which minimises, hence the negated
// objectives).
func frontByRC(pop []*Individual) []*Individual {
	if len(pop) == 0 {
		return nil
	}
	objs := make([][]float64, len(pop))
	for i, ind := range pop {
		objs[i] = []float64{-ind.RC, -ind.RR}
	}
	fronts := nsga2.Fronts(objs)
	front := make([]*Individual, len(fronts[0]))
	for i, j := range fronts[0] {
		front[i] = pop[j]
	}
	slices.SortFunc(front, func(a, b *Individual) int {
		if c := cmp.Compare(b.RC, a.RC); c != 0 {
			return c
		}
		if c := cmp.Compare(b.RR, a.RR); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return front
}

// parents returns the breeding individuals: the top Breed fraction of the
// first front by RC, rounded to the nearest count, at least one.
func (r *run) parents() []*Individual {
	front := frontByRC(r.res.Population)
	k := max(1, int(math.Round(r.c.breed*float64(len(front)))))
	return front[:min(k, len(front))]
}
