package sandbox_test

import (
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/adaptbench/adaptbench/exec/sandbox"
)

const envDenyUserns = "ADAPTBENCH_TEST_DENY_USERNS"

// In the child of TestNoUserNamespaces: deny user namespaces as Docker's
// default seccomp profile does, then ask for a sandbox and print the error.
func init() {
	if os.Getenv(envDenyUserns) != "1" {
		return
	}
	if err := denyUserNamespaces(); err != nil {
		fmt.Println("filter:", err)
		os.Exit(2)
	}
	sb, err := sandbox.New(nil)
	if sb != nil {
		sb.Close()
	}
	fmt.Printf("wraps=%v\n%v\n", errors.Is(err, sandbox.ErrNoNamespaces), err)
	os.Exit(0)
}

// denyUserNamespaces loads, on every thread, a seccomp filter that fails
// clone and unshare with CLONE_NEWUSER (EPERM) and clone3 (ENOSYS, whose
// flags a filter cannot read), as container runtimes' default profiles do.
func denyUserNamespaces() error {
	const (
		allow = unix.SECCOMP_RET_ALLOW
		eperm = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		enosy = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	)
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	jump := func(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: code, K: k, Jt: jt, Jf: jf}
	}
	prog := []unix.SockFilter{
		stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, 0), // syscall number
		jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, unix.SYS_CLONE3, 0, 1),
		stmt(unix.BPF_RET|unix.BPF_K, enosy),
		jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, unix.SYS_CLONE, 1, 0),
		jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, unix.SYS_UNSHARE, 0, 3),
		stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, 16), // low half of the first argument (flags)
		jump(unix.BPF_JMP|unix.BPF_JSET|unix.BPF_K, unix.CLONE_NEWUSER, 0, 1),
		stmt(unix.BPF_RET|unix.BPF_K, eperm),
		stmt(unix.BPF_RET|unix.BPF_K, allow),
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	if e != 0 {
		return e
	}
	return nil
}

// TestNoUserNamespaces: where user namespaces are denied (a container's
// default seccomp profile), New fails at once with one line that
// wraps ErrNoNamespaces, says what is denied and names the fix.
func TestNoUserNamespaces(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := osexec.Command(exe, "-test.run", "^$")
	cmd.Env = append(os.Environ(), envDenyUserns+"=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, 2, "wraps=…, then the error on one line: %s", out)
	assert.Equal(t, "wraps=true", lines[0])
	msg := lines[1]
	t.Log(msg)
	for _, want := range []string{"user namespace is denied", "--security-opt seccomp=unconfined", "seccompProfile", "NewUnsandboxed"} {
		assert.Contains(t, msg, want)
	}
}
