package sandbox

import (
	"fmt"
	"os"
	osexec "os/exec"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/adaptbench/adaptbench/exec/internal/jobkit"
)

// Host users for jobs. When the caller is root, each init (and so each
// job) runs as a host uid of its own, taken from hostUIDs while the init
// lives: concurrent jobs share no per-user kernel budget (pipe buffers,
// inotify instances and watches, locked memory), and a job's files are
// owned by a user no other job is. The range is in the block systemd
// leaves unused (1879048192 to 2147352575, between the container ranges
// and the "foreign" range), and each process starts at its own offset in
// it, so that two adaptbench processes on one machine rarely meet.
//
// Per-user limits are charged to the owner of the job's user namespace as
// well as to the job's user: the owner is the effective uid of the thread
// that creates the namespace. So the init is started from a thread whose
// effective uid is the job's (startAs); the init itself is still uid 0 of
// its namespace, mapped to host root, so that it can reach any workspace.

const (
	firstJobUID = jobkit.FirstUID
	jobUIDCount = jobkit.UIDCount
)

type uidAllocator struct {
	mu    sync.Mutex
	next  int
	inUse map[int]bool
}

var hostUIDs = &uidAllocator{next: os.Getpid() % 256 * 256, inUse: map[int]bool{}}

// take returns a host uid no other live init of this process has.
func (a *uidAllocator) take() (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for range jobUIDCount {
		i := a.next
		a.next = (a.next + 1) % jobUIDCount
		if !a.inUse[i] {
			a.inUse[i] = true
			return firstJobUID + i, nil
		}
	}
	return 0, fmt.Errorf("exec: all %d job uids are in use", jobUIDCount)
}

func (a *uidAllocator) release(uid int) {
	a.mu.Lock()
	delete(a.inUse, uid-firstJobUID)
	a.mu.Unlock()
}

const secbitNoSetuidFixup = 1 << 2

// startAs starts cmd from a thread whose effective uid is uid, so that the
// user namespace cmd is cloned into is owned by uid. The thread keeps its
// capabilities (SECBIT_NO_SETUID_FIXUP) to write the namespace's id maps,
// and gets its own credentials back before any other goroutine may run on
// it. Credentials are per thread in Linux; the raw syscalls here change
// this thread's only.
func startAs(cmd *osexec.Cmd, uid int) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		bits, err := unix.PrctlRetInt(unix.PR_GET_SECUREBITS, 0, 0, 0, 0)
		if err != nil {
			runtime.UnlockOSThread()
			errc <- fmt.Errorf("securebits: %w", err)
			return
		}
		if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_SET_SECUREBITS, uintptr(bits|secbitNoSetuidFixup), 0, 0, 0, 0); e != 0 {
			runtime.UnlockOSThread()
			errc <- fmt.Errorf("securebits: %w", e)
			return
		}
		if _, _, e := syscall.RawSyscall(syscall.SYS_SETRESUID, ^uintptr(0), uintptr(uid), ^uintptr(0)); e != 0 {
			restored := restoreThread(bits)
			if restored {
				runtime.UnlockOSThread()
			}
			errc <- fmt.Errorf("become uid %d: %w", uid, e)
			return
		}
		err = cmd.Start()
		if !restoreThread(bits) {
			// This thread cannot be trusted with other goroutines: it ends
			// with this one (which kills what it started: Pdeathsig).
			if err == nil {
				cmd.Process.Kill()
				cmd.Wait()
			}
			errc <- fmt.Errorf("exec: restore the spawning thread's credentials after starting an init")
			return
		}
		runtime.UnlockOSThread()
		errc <- err
	}()
	return <-errc
}

// restoreThread gives the current thread uid 0 and the securebits it had.
func restoreThread(bits int) bool {
	if _, _, e := syscall.RawSyscall(syscall.SYS_SETRESUID, ^uintptr(0), 0, ^uintptr(0)); e != 0 {
		return false
	}
	_, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_SET_SECUREBITS, uintptr(bits), 0, 0, 0, 0)
	return e == 0
}
