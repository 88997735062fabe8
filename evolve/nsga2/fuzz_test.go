package nsga2_test

import (
	"math"
	"slices"
	"testing"

	"github.com/adaptbench/adaptbench/evolve/nsga2"
)

// vectors decodes data into up to 64 vectors of m objectives, each value
// one of 8 levels (many ties) or, for bytes above 0xf0, a raw float built
// from the next bytes.
func vectors(data []byte, m int) [][]float64 {
	var objs [][]float64
	for len(data) >= m && len(objs) < 64 {
		v := make([]float64, m)
		for j := range v {
			v[j] = float64(data[j]%8) - 2
			if data[j] > 0xf0 {
				v[j] = float64(data[j]) / 3.7
			}
		}
		objs = append(objs, v)
		data = data[m:]
	}
	return objs
}

// FuzzFronts checks Fronts and CrowdingDistance against their definitions:
// every index in exactly one front, in ascending order; no member of a front
// dominated by a member of the same or a later front; every member of a later
// front dominated by some member of the front before; crowding distances
// non-negative, +Inf at both ends of each objective.
func FuzzFronts(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(2))
	f.Add([]byte{1, 1, 1, 1, 2, 2, 0, 3, 3, 0}, uint8(2))
	f.Add([]byte{7, 0, 3, 3, 3, 1, 4, 2, 6, 5, 5, 5}, uint8(3))
	f.Add([]byte{250, 1, 2, 251, 3, 3}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, m uint8) {
		objs := vectors(data, 1+int(m%4))
		fronts := nsga2.Fronts(objs)
		seen := make([]int, len(objs))
		for k, front := range fronts {
			if len(front) == 0 {
				t.Fatalf("front %d is empty", k)
			}
			if !slices.IsSorted(front) {
				t.Fatalf("front %d not in ascending order: %v", k, front)
			}
			for _, i := range front {
				seen[i]++
				for _, later := range fronts[k:] {
					for _, j := range later {
						if nsga2.Dominates(objs[j], objs[i]) {
							t.Fatalf("%v (front %d) is dominated by %v in the same or a later front", objs[i], k, objs[j])
						}
					}
				}
				if k > 0 && !slices.ContainsFunc(fronts[k-1], func(j int) bool { return nsga2.Dominates(objs[j], objs[i]) }) {
					t.Fatalf("%v (front %d) is dominated by no member of front %d", objs[i], k, k-1)
				}
			}
			dist := nsga2.CrowdingDistance(objs, front)
			if len(dist) != len(front) {
				t.Fatalf("%d distances for %d members", len(dist), len(front))
			}
			for _, d := range dist {
				if !(d >= 0) {
					t.Fatalf("crowding distance %v", d)
				}
			}
			for obj := range objs[front[0]] {
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, i := range front {
					lo, hi = min(lo, objs[i][obj]), max(hi, objs[i][obj])
				}
				var atLo, atHi bool
				for j, i := range front {
					atLo = atLo || objs[i][obj] == lo && math.IsInf(dist[j], 1)
					atHi = atHi || objs[i][obj] == hi && math.IsInf(dist[j], 1)
				}
				if !atLo || !atHi {
					t.Fatalf("objective %d: no member at an end of the front has distance +Inf: %v", obj, dist)
				}
			}
		}
		for i, n := range seen {
			if n != 1 {
				t.Fatalf("index %d appears in %d fronts", i, n)
			}
		}
	})
}

// FuzzHypervolume2D checks that the hypervolume is non-negative, bounded by
// the reference box, independent of the order of points, never lower when a
// point is added, and unchanged by adding a dominated point.
func FuzzHypervolume2D(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5}, uint8(3), uint8(3))
	f.Add([]byte{1, 1, 1, 1, 0, 7}, uint8(8), uint8(1))
	f.Add([]byte{250, 251, 3, 252}, uint8(255), uint8(255))
	f.Fuzz(func(t *testing.T, data []byte, r0, r1 uint8) {
		pts := vectors(data, 2)
		ref := [2]float64{float64(r0%16) - 2, float64(r1%16) - 2}
		hv := nsga2.Hypervolume2D(pts, ref)
		tol := 1e-9 * max(1, math.Abs(hv))
		if !(hv >= 0) {
			t.Fatalf("hypervolume %v", hv)
		}
		lo := [2]float64{math.Inf(1), math.Inf(1)}
		for _, p := range pts {
			lo[0], lo[1] = min(lo[0], p[0]), min(lo[1], p[1])
		}
		if len(pts) > 0 && hv > max(0, ref[0]-lo[0])*max(0, ref[1]-lo[1])+tol {
			t.Fatalf("hypervolume %v exceeds the bounding box", hv)
		}
		rev := slices.Clone(pts)
		slices.Reverse(rev)
		if got := nsga2.Hypervolume2D(rev, ref); got != hv {
			t.Fatalf("reversed points: %v, want %v", got, hv)
		}
		for i := range pts {
			// Adding any point never lowers the hypervolume.
			p := []float64{pts[i][0] - 0.5, pts[(i+1)%len(pts)][1] + 0.25}
			if got := nsga2.Hypervolume2D(append(slices.Clone(pts), p), ref); got < hv-tol {
				t.Fatalf("adding %v lowered the hypervolume from %v to %v", p, hv, got)
			}
			// Adding a point that one of them dominates changes nothing.
			q := []float64{pts[i][0] + 1, pts[i][1]}
			if got := nsga2.Hypervolume2D(append(slices.Clone(pts), q), ref); math.Abs(got-hv) > tol {
				t.Fatalf("adding dominated %v changed the hypervolume from %v to %v", q, hv, got)
			}
		}
	})
}
