// Package exectest helps tests that run code in the sandbox: one sandbox
// shared by a test binary, skipped with a clear message where the kernel
// has none, and a TestMain that closes it and checks that nothing was left
// behind.
//
//	func TestMain(m *testing.M) { exectest.Main(m) }
//
//	func TestX(t *testing.T) {
//		sb := exectest.Sandbox(t)
//		res, err := sb.Run(ctx, exec.Job{...})
//	}
package exectest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/adaptbench/adaptbench/exec"
)

var (
	once    sync.Once
	shared  *exec.Sandbox
	openErr error

	fsOnce sync.Once
	fs     *exec.ForkServer
)

// ForkServer returns a fork server over the shared sandbox, shared by the
// tests of this binary and closed by Main.
func ForkServer(tb testing.TB) *exec.ForkServer {
	tb.Helper()
	sb := Sandbox(tb)
	fsOnce.Do(func() {
		var err error
		if fs, err = exec.NewForkServer(sb, nil); err != nil {
			tb.Fatal(err)
		}
	})
	return fs
}

// Sandbox returns the sandbox shared by the tests of this binary. Where the
// kernel does not allow one it skips the test, giving the reason; any other
// failure fails it.
func Sandbox(tb testing.TB) *exec.Sandbox {
	tb.Helper()
	once.Do(func() { shared, openErr = exec.NewSandbox(nil) })
	if errors.Is(openErr, exec.ErrNoNamespaces) {
		tb.Skipf("no sandbox on this machine: %v", openErr)
	}
	if openErr != nil {
		tb.Fatal(openErr)
	}
	return shared
}

// Main runs the tests, calls the cleanups (to close runners the tests
// share), closes the shared sandbox, and fails the run when a job cgroup of
// this process is left (a runner that was not closed, or a leak).
func Main(m *testing.M, cleanups ...func()) {
	code := m.Run()
	for _, c := range cleanups {
		c()
	}
	if fs != nil {
		fs.Close()
	}
	if shared != nil {
		shared.Close()
	}
	if left := CgroupsLeft(); len(left) > 0 && code == 0 {
		fmt.Fprintf(os.Stderr, "exectest: job cgroups left behind (a runner not closed?): %v\n", left)
		code = 1
	}
	os.Exit(code)
}

// CgroupsLeft lists the job cgroups of this process that exist now.
func CgroupsLeft() []string {
	var left []string
	for _, pattern := range []string{"/sys/fs/cgroup/*/adaptbench-%d-*", "/sys/fs/cgroup/*/*/*/adaptbench-%d-*", "/sys/fs/cgroup/adaptbench-%d-*"} {
		m, _ := filepath.Glob(fmt.Sprintf(pattern, os.Getpid()))
		left = append(left, m...)
	}
	return left
}
