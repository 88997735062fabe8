// Package testenv is what this module's tests share to reach the machine
// they run on: the published datasets, git repositories made commit by
// commit, a pseudo-terminal, a rerun as an ordinary user, and a cgroup-v2
// guest. Only tests import it, and examples/evolve for the datasets'
// default path.
//
// # Datasets
//
// [DataPath] finds the published datasets for the tests and examples that
// read them: $ADAPTBENCH_DATA when it is set, else shared/data beside the
// checkout (../shared/data in development and CI). A test skips with a
// clear message where they are absent, and fails instead when
// ADAPTBENCH_REQUIRE_DATA=1, as the test command sets. [DataDir] is the
// same search without a test. `go run ./examples/datasets -out DIR`
// fetches them.
//
// # Git repositories
//
// [InitRepo] builds a git repository with go-git in a test's temporary
// directory: each commit's tree is given whole as an fstest.MapFS, and
// authors and times are fixed, so that the same commits give the same
// hashes on every run and machine.
//
//	r := testenv.InitRepo(t, false)
//	first := r.Commit(fstest.MapFS{"data/a.jsonl": {Data: []byte("…")}}, "first")
//	r.Tag("v1", first)
//	snap, err := source.Open(ctx, r.Dir, "v1")
//
// A MapFile whose Mode has fs.ModeSymlink is a symbolic link to its
// Data; a Mode with an executable bit makes an executable file.
//
// # Terminals
//
// [OpenTerminal] and [RunProgram] run code with its progress output on a
// pseudo-terminal, as a person's terminal would show it, for the tests of
// the progress display and of the examples that use it.
//
// # Ordinary user
//
// [RunUnprivileged] reruns tests of the running test binary as an
// ordinary user (uid and gid 65534, nobody), so that the test command,
// which CI and this project run as root, also shows that the sandbox
// works for the users most researchers and CI runners are: no cgroup
// access, a user namespace of their own.
//
//	func TestAsOrdinaryUser(t *testing.T) {
//		testenv.RunUnprivileged(t, "TestSandboxAdversarial", "TestJobLoopback")
//	}
//
// The binary is copied to a directory that user can read, and run with a
// writable HOME, GOCACHE and TMPDIR of its own in the package directory
// (which must be readable by everyone, as a checkout is). Each named test
// must pass: a skip is a failure here.
//
// # The cgroup-v2 guest
//
// TestCgroup2Guest runs the sandbox's limit and containment tests on a
// cgroup-v2 host whatever the machine: it boots a Debian 12 guest with
// systemd on the unified hierarchy under QEMU (scripts/cgroup2-guest.sh
// builds and caches the image), passes it a static build of
// exec/sandbox's tests over 9p, and runs them there as root and as an
// ordinary user under systemd's delegation (user@.service). It is a test
// of this package so that go test runs it beside the other packages (it
// mostly waits on the guest) rather than inside exec/sandbox's tests, and
// so that exec/sandbox's test binary, which goes into the guest, does not
// hold it.
package testenv
