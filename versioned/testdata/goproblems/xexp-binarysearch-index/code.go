package solution

import "golang.org/x/exp/slices"

// InsertSorted inserts v into the sorted slice s, before any equal
// elements, and returns the result, still sorted.
func InsertSorted(s []int, v int) []int {
	panic("not implemented")
}
