package solution

import "golang.org/x/mod/semver"

// SortVersions sorts semantic versions ("v1.2.3") in place in increasing
// semver order.
func SortVersions(versions []string) {
	panic("not implemented")
}
