package nsga2

import (
	"cmp"
	"fmt"
	"slices"
)

// Hypervolume2D returns the exact hypervolume of a set of two-objective
// points (both minimised) with reference point ref: the area of the region
// that some point dominates and that ref bounds from above. Points that are
// not strictly below ref in both objectives, or that hold NaN, add nothing;
// dominated and repeated points add nothing. Each point must have exactly
// two values; Hypervolume2D panics otherwise.
//
// The points are sorted by the first objective and the area is summed as
// horizontal strips in that order, so the result does not depend on the
// order of points.
func Hypervolume2D(points [][]float64, ref [2]float64) float64 {
	ps := make([][2]float64, 0, len(points))
	for i, p := range points {
		if len(p) != 2 {
			panic(fmt.Sprintf("nsga2: Hypervolume2D: point %d has %d values, want 2", i, len(p)))
		}
		if p[0] < ref[0] && p[1] < ref[1] {
			ps = append(ps, [2]float64{p[0], p[1]})
		}
	}
	slices.SortFunc(ps, func(a, b [2]float64) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	var hv float64
	top := ref[1] // the lowest second objective seen so far
	for _, p := range ps {
		if p[1] < top {
			hv += (ref[0] - p[0]) * (top - p[1])
			top = p[1]
		}
	}
	return hv
}
