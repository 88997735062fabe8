// Package guest holds the test that runs the sandbox's limit and
// containment tests on a cgroup-v2 host whatever the machine: it boots a
// Debian 12 guest with systemd on the unified hierarchy under QEMU
// (scripts/cgroup2-guest.sh builds and caches the image), passes it a
// static build of exec/sandbox's tests over 9p, and runs them there as root and as
// an ordinary user under systemd's delegation (user@.service). It has no
// code of its own: it is a package so that go test runs it beside the other
// packages (it mostly waits on the guest) rather than inside exec/sandbox's tests,
// and so that exec/sandbox's test binary, which goes into the guest, does not hold
// it.
package guest
