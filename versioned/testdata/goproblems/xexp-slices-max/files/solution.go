package solution

import "golang.org/x/exp/slices"

// Highest returns the highest score. It panics when there are no scores.
func Highest(scores []int) int {
	return slices.Max(scores)
}
