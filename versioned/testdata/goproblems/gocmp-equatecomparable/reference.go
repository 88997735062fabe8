package solution

import (
	"net/netip"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Host is a name and an address.
type Host struct {
	Name string
	Addr netip.Addr
}

// SameHosts reports whether two host lists are equal, comparing them with
// cmp.Equal; netip.Addr values (which have unexported fields) compare
// with ==.
func SameHosts(a, b []Host) bool {
	return cmp.Equal(a, b, cmpopts.EquateComparable(netip.Addr{}))
}
