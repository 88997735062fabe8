package nsga2

import (
	"cmp"
	"math"
	"slices"
)

// Dominates reports whether a Pareto-dominates b when every objective is
// minimised: a is no worse than b in every objective and better in at least
// one. Equal vectors do not dominate each other. a and b must have the same
// length.
func Dominates(a, b []float64) bool {
	better := false
	for i, x := range a {
		y := b[i]
		if x > y {
			return false
		}
		if x < y {
			better = true
		}
	}
	return better
}

// Fronts sorts objective vectors into non-domination fronts (all objectives
// minimised): fronts[0] holds the indices of the vectors no other vector
// dominates, fronts[1] those dominated only by members of fronts[0], and so
// on. Every index appears in exactly one front, in ascending order within it;
// no front is empty. The vectors must have the same length and contain no
// NaN.
//
// The result is that of Deb et al.'s fast non-dominated sort; the algorithm
// is the efficient non-dominated sort with sequential search (Zhang et al.
// 2015), which sorts the vectors lexicographically and then compares each
// only with members of the fronts found so far: O(M·N²) in the worst case,
// and O(N log N) for two objectives.
func Fronts(objs [][]float64) [][]int {
	var s sorter
	fronts := s.fronts(objs)
	out := make([][]int, len(fronts))
	for i, f := range fronts {
		out[i] = slices.Clone(f)
		slices.Sort(out[i])
	}
	return out
}

// CrowdingDistance returns the crowding distance of each member of front
// (indices into objs), in the order of front: for each objective, the
// members are ordered by that objective (ties by their position in front),
// the two ends get +Inf, and every other member adds the gap between its two
// neighbours divided by the objective's range in the front. An objective
// whose range is zero adds nothing. This is Deb et al.'s definition; DEAP
// also divides by the number of objectives, which scales every distance
// alike and changes no comparison.
func CrowdingDistance(objs [][]float64, front []int) []float64 {
	var s sorter
	out := make([]float64, len(front))
	copy(out, s.crowding(objs, front))
	return out
}

// sorter holds buffers reused from one generation to the next.
type sorter struct {
	order []int
	pts   []point
	fr    [][]int
	last  []point // the newest member of each front (two objectives)
	dist  []float64
	keys  []key
	idx   []int
}

type point struct {
	x, y float64
	i    int
}

type key struct {
	v   float64
	pos int
}

// fronts is Fronts without copying, and with each front in lexicographic
// order of the vectors (ties by index) rather than in index order. The
// result is valid until the next call.
func (s *sorter) fronts(objs [][]float64) [][]int {
	if len(objs) > 0 && len(objs[0]) == 2 {
		return s.fronts2(objs)
	}
	s.order = s.order[:0]
	for i := range objs {
		s.order = append(s.order, i)
	}
	slices.SortFunc(s.order, func(a, b int) int {
		if c := lexCompare(objs[a], objs[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	nf := 0
	for _, p := range s.order {
		// A vector can be dominated only by one before it in
		// lexicographic order, so it belongs to the first front found so
		// far none of whose members dominates it. Scanning each front from
		// its newest member finds a dominating member soonest.
		k := 0
		for ; k < nf; k++ {
			f := s.fr[k]
			dominated := false
			for j := len(f) - 1; j >= 0; j-- {
				if Dominates(objs[f[j]], objs[p]) {
					dominated = true
					break
				}
			}
			if !dominated {
				break
			}
		}
		nf = s.add(k, nf, p)
	}
	return s.fr[:nf]
}

// add appends index p to front k, which is a new front if k == nf, and
// returns the new number of fronts.
func (s *sorter) add(k, nf, p int) int {
	if k == nf {
		if nf < len(s.fr) {
			s.fr[nf] = s.fr[nf][:0]
		} else {
			s.fr = append(s.fr, nil)
		}
		nf++
	}
	s.fr[k] = append(s.fr[k], p)
	return nf
}

// fronts2 is fronts for two objectives. In lexicographic order, the members
// of a front have increasing first and decreasing second objectives, so a
// new vector is dominated by a front if and only if it is dominated by the
// front's newest member, and the fronts' newest members have non-decreasing
// second objectives: a binary search over the fronts finds the vector's
// front, in O(N log N) for the whole sort.
func (s *sorter) fronts2(objs [][]float64) [][]int {
	s.pts = s.pts[:0]
	for i, o := range objs {
		s.pts = append(s.pts, point{o[0], o[1], i})
	}
	slices.SortFunc(s.pts, func(a, b point) int {
		switch {
		case a.x < b.x:
			return -1
		case a.x > b.x:
			return 1
		case a.y < b.y:
			return -1
		case a.y > b.y:
			return 1
		}
		return a.i - b.i
	})
	s.last = s.last[:0]
	nf := 0
	for _, p := range s.pts {
		// First front whose newest member q does not dominate p. q is
		// lexicographically no greater than p, so q dominates p unless
		// q.y > p.y or q equals p.
		lo, hi := 0, nf
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			q := s.last[mid]
			if q.y < p.y || (q.y == p.y && q.x < p.x) {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo == nf {
			s.last = append(s.last, p)
		} else {
			s.last[lo] = p
		}
		nf = s.add(lo, nf, p.i)
	}
	return s.fr[:nf]
}

func lexCompare(a, b []float64) int {
	for i, x := range a {
		if c := cmp.Compare(x, b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// crowding is CrowdingDistance without copying: the result is valid until
// the next call.
func (s *sorter) crowding(objs [][]float64, front []int) []float64 {
	n := len(front)
	s.dist = slices.Grow(s.dist[:0], n)[:n]
	dist := s.dist
	clear(dist)
	if n == 0 {
		return dist
	}
	if n <= 2 {
		for i := range dist {
			dist[i] = math.Inf(1)
		}
		return dist
	}
	s.keys = slices.Grow(s.keys[:0], n)[:n]
	keys := s.keys
	for m := range objs[front[0]] {
		for j, i := range front {
			keys[j] = key{objs[i][m], j}
		}
		slices.SortFunc(keys, func(a, b key) int {
			switch {
			case a.v < b.v:
				return -1
			case a.v > b.v:
				return 1
			}
			return a.pos - b.pos
		})
		dist[keys[0].pos] = math.Inf(1)
		dist[keys[n-1].pos] = math.Inf(1)
		span := keys[n-1].v - keys[0].v
		if span == 0 {
			continue
		}
		for j := 1; j < n-1; j++ {
			dist[keys[j].pos] += (keys[j+1].v - keys[j-1].v) / span
		}
	}
	return dist
}

// byCrowding reorders front by decreasing crowding distance, dist[i] being
// that of front[i], and keeps the order of equal distances. dist is left as
// it is.
func (s *sorter) byCrowding(front []int, dist []float64) {
	s.idx = slices.Grow(s.idx[:0], len(front))[:len(front)]
	idx := s.idx
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(dist[b], dist[a]) })
	s.order = append(s.order[:0], front...)
	for i, j := range idx {
		front[i] = s.order[j]
	}
}
