//go:build unix

package store

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// selfLockWait bounds the wait for a journal lock held by this process.
const selfLockWait = 2 * time.Second

// Lock takes a lock on f without waiting for another process: exclusive
// for a run that appends, shared for a reader. The lock goes with the
// file's close (or the process's end, however it ends).
//
// A lock this process holds is waited for, up to selfLockWait: a journal
// closed a moment ago can still be held by a child this process is
// starting (a fork shares the open file until the child's exec closes it),
// so a run resumed right after a stopped one would otherwise be refused.
func Lock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	deadline := time.Now().Add(selfLockWait)
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == syscall.EINTR {
			continue
		}
		if err == nil {
			return nil
		}
		if err != syscall.EWOULDBLOCK {
			return fmt.Errorf("adapt: lock journal %s: %w", f.Name(), err)
		}
		holder := "another process"
		if pid := lockHolder(f); pid > 0 {
			holder = "process " + strconv.Itoa(pid)
		} else if time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		what := "is being written by"
		if exclusive {
			what = "is held by"
		}
		return fmt.Errorf("%w: %s %s %s; wait for it to finish, or stop it", ErrLocked, f.Name(), what, holder)
	}
}

// lockHolder finds the PID holding a flock on f in /proc/locks, or 0.
func lockHolder(f *os.File) int {
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	major, minor := (st.Dev>>8)&0xfff|(st.Dev>>32)&^0xfff, st.Dev&0xff|(st.Dev>>12)&^0xff
	dev := fmt.Sprintf("%02x:%02x:%d", major, minor, st.Ino)
	pl, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer pl.Close()
	sc := bufio.NewScanner(pl)
	for sc.Scan() {
		// 1: FLOCK  ADVISORY  WRITE 12345 08:01:123456 0 EOF
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[5] != dev {
			continue
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil && pid != os.Getpid() {
			return pid
		}
	}
	return 0
}
