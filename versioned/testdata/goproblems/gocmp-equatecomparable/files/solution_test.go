package solution

import (
	"net/netip"
	"testing"
)

func hosts(pairs ...string) []Host {
	var out []Host
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, Host{Name: pairs[i], Addr: netip.MustParseAddr(pairs[i+1])})
	}
	return out
}

func TestVisibleSameHosts(t *testing.T) {
	a := hosts("db", "10.0.0.1", "web", "10.0.0.2")
	b := hosts("db", "10.0.0.1", "web", "10.0.0.2")
	if !SameHosts(a, b) {
		t.Fatal("SameHosts of equal lists = false")
	}
}

func TestSameHostsDiffers(t *testing.T) {
	a := hosts("db", "10.0.0.1", "web", "10.0.0.2")
	if SameHosts(a, hosts("db", "10.0.0.1", "web", "10.0.0.3")) {
		t.Error("SameHosts ignores a different address")
	}
	if SameHosts(a, hosts("db", "10.0.0.1")) {
		t.Error("SameHosts ignores a missing host")
	}
	if !SameHosts(hosts("v6", "::1"), hosts("v6", "0:0:0:0:0:0:0:1")) {
		t.Error("SameHosts: ::1 and its long form differ")
	}
}
