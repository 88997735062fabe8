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
	"io/fs"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/internal/jobkit"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

var (
	once    sync.Once
	shared  *sandbox.Sandbox
	openErr error

	fsOnce sync.Once
	fsrv   *sandbox.ForkServer
)

// ForkServer returns a fork server over the shared sandbox, shared by the
// tests of this binary and closed by Main.
func ForkServer(tb testing.TB) *sandbox.ForkServer {
	tb.Helper()
	sb := Sandbox(tb)
	fsOnce.Do(func() {
		var err error
		if fsrv, err = sandbox.NewForkServer(sb, nil); err != nil {
			tb.Fatal(err)
		}
	})
	return fsrv
}

// Sandbox returns the sandbox shared by the tests of this binary. Where the
// kernel does not allow one it skips the test, giving the reason; any other
// failure fails it.
func Sandbox(tb testing.TB) *sandbox.Sandbox {
	tb.Helper()
	once.Do(func() { shared, openErr = sandbox.New(nil) })
	if errors.Is(openErr, sandbox.ErrNoNamespaces) {
		SkipWithout(tb, "no sandbox on this machine: %v", openErr)
	}
	if openErr != nil {
		tb.Fatal(openErr)
	}
	return shared
}

// Main runs the tests, calls the cleanups (to close runners the tests
// share), closes the shared sandbox, and fails the run when anything a job
// could leave on the host is left: a job cgroup of this process (a runner
// not closed, or a leak), a child process, a mount, a SysV IPC object, or a
// key charged to a job's user.
func Main(m *testing.M, cleanups ...func()) {
	before := snapshot()
	code := m.Run()
	for _, c := range cleanups {
		c()
	}
	if fsrv != nil {
		fsrv.Close()
	}
	if shared != nil {
		shared.Close()
	}
	if code == 0 {
		if leaked := left(before); len(leaked) > 0 {
			fmt.Fprintf(os.Stderr, "exectest: left behind on the host:\n  %s\n", strings.Join(leaked, "\n  "))
			code = 1
		}
	}
	os.Exit(code)
}

// hostState is what left compares: the host's mounts and SysV IPC objects
// as this process sees them.
type hostState struct {
	mounts, ipc []string
}

// snapshot records the host state left compares against.
func snapshot() hostState {
	var st hostState
	if b, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if f := strings.Fields(l); len(f) > 4 {
				st.mounts = append(st.mounts, f[4]) // the mount point
			}
		}
	}
	for _, kind := range []string{"shm", "msg", "sem"} {
		b, _ := os.ReadFile("/proc/sysvipc/" + kind)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		for _, l := range lines[min(1, len(lines)):] {
			if f := strings.Fields(l); len(f) > 1 {
				st.ipc = append(st.ipc, kind+" "+f[1])
			}
		}
	}
	return st
}

// left lists what exists now that did not in before and that a job or a
// runner could have left: job cgroups of this process, child processes of
// this process, new mounts and SysV IPC objects on the host, and keys
// charged to job users. Main calls it after closing the runners.
func left(before hostState) []string {
	var left []string
	for _, c := range cgroupsLeft() {
		left = append(left, "job cgroup "+c)
	}
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, t := range tasks {
		b, _ := os.ReadFile(t)
		for _, pid := range strings.Fields(string(b)) {
			cmd, _ := os.ReadFile("/proc/" + pid + "/cmdline")
			left = append(left, "child process "+pid+": "+strings.TrimSpace(strings.ReplaceAll(string(cmd), "\x00", " ")))
		}
	}
	now := snapshot()
	for _, m := range now.mounts {
		if !slices.Contains(before.mounts, m) {
			left = append(left, "mount "+m)
		}
	}
	for _, o := range now.ipc {
		if !slices.Contains(before.ipc, o) {
			left = append(left, "SysV IPC object "+o)
		}
	}
	if b, err := os.ReadFile("/proc/key-users"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			uid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(l, ":", 2)[0]))
			if err == nil && isJobUID(uid) {
				left = append(left, "keys of job user "+strings.TrimSpace(l))
			}
		}
	}
	return left
}

func isJobUID(uid int) bool {
	return uid >= jobkit.FirstUID && uid < jobkit.FirstUID+jobkit.UIDCount
}

// Workspace returns a new temporary directory for a job's workspace and,
// when the test ends, fails it if anything in the directory is owned by
// another user than the test's (a job's user: the runner did not give the
// workspace back).
func Workspace(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	uid := os.Getuid()
	tb.Cleanup(func() {
		var foreign []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if fi, err := d.Info(); err == nil {
				if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != uid {
					rel, _ := filepath.Rel(dir, p)
					foreign = append(foreign, fmt.Sprintf("%s (uid %d)", rel, st.Uid))
				}
			}
			return nil
		})
		if len(foreign) > 0 {
			tb.Errorf("exectest: files in the workspace owned by another user after the run: %s", strings.Join(foreign, ", "))
		}
	})
	return dir
}

// cgroupsLeft lists the job cgroups of this process that exist now.
func cgroupsLeft() []string {
	var left []string
	for _, pattern := range []string{"/sys/fs/cgroup/*/adaptbench-%d-*", "/sys/fs/cgroup/*/*/*/adaptbench-%d-*", "/sys/fs/cgroup/adaptbench-%d-*"} {
		m, _ := filepath.Glob(fmt.Sprintf(pattern, os.Getpid()))
		left = append(left, m...)
	}
	return left
}

// requireSandboxEnv names the environment variable that turns a missing
// sandbox or test tool into a failure instead of a skip: the test command
// (scripts/test.sh) sets it, so that a CI host lacking namespaces, Python,
// Go, a JDK or Maven cannot go green by skipping.
const requireSandboxEnv = "ADAPTBENCH_REQUIRE_SANDBOX"

// SkipWithout skips the test because what it runs on is missing here (the
// sandbox, an interpreter, a toolchain), or fails it when
// ADAPTBENCH_REQUIRE_SANDBOX=1.
func SkipWithout(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if os.Getenv(requireSandboxEnv) == "1" {
		tb.Fatalf("required by %s=1: "+format, append([]any{requireSandboxEnv}, args...)...)
	}
	tb.Skipf(format, args...)
}

// RequirePython skips the test when exec.DefaultPython (with pytest, if
// asked) is missing: on developer machines only; the test command, which
// sets ADAPTBENCH_REQUIRE_SANDBOX=1, fails instead (CI installs both).
func RequirePython(tb testing.TB, pytest bool) {
	tb.Helper()
	if _, err := os.Stat(exec.DefaultPython); err != nil {
		SkipWithout(tb, "%s is missing (apt-get install python3)", exec.DefaultPython)
	}
	if pytest {
		pytestOnce.Do(func() {
			pytestOK = osexec.Command(exec.DefaultPython, "-c", "import pytest").Run() == nil
		})
		if !pytestOK {
			SkipWithout(tb, "%s has no pytest (apt-get install python3-pytest)", exec.DefaultPython)
		}
	}
}

var (
	pytestOnce sync.Once
	pytestOK   bool
)
