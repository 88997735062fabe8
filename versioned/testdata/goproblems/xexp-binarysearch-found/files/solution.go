package solution

import "golang.org/x/exp/slices"

// Lookup searches the sorted slice names for name. It returns the
// position where name is, or where it would be inserted, and whether it
// is there.
func Lookup(names []string, name string) (int, bool) {
	return slices.BinarySearch(names, name)
}
