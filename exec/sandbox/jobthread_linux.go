package sandbox

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// jobThread is the OS thread a job's command is forked from, confined
// ahead of the job, off its critical path. Capabilities, securebits,
// no_new_privs, the session keyring, the seccomp filter and namespaces
// are per thread in Linux, so the init itself keeps what it needs to make
// the next job's /tmp when it is reused. A confined thread gets an IPC
// namespace of its own, which the job's processes inherit: the SysV
// objects a job leaves go with that namespace when the thread and the job
// are gone, whether or not the init is reused; then it takes the job's
// confinement (an empty bounding set, no root at execve, no_new_privs, a
// fresh session keyring, the seccomp filter). The thread ends with its one
// job: its goroutine returns locked, and the Go runtime starts no other
// thread from a locked one.
type jobThread struct {
	work     chan func()
	done     chan struct{}
	confined bool
	stage    string // where confining the thread failed
	err      error
}

func newJobThread(confine bool) *jobThread {
	t := &jobThread{work: make(chan func()), done: make(chan struct{}), confined: confine}
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with this goroutine
		defer close(t.done)
		if confine {
			t.stage, t.err = confineThread()
		}
		f := <-t.work
		if t.err == nil {
			f()
		}
	}()
	return t
}

// confineThread confines the calling thread for a job (see jobThread).
func confineThread() (stage string, err error) {
	if err := unix.Unshare(unix.CLONE_NEWIPC); err != nil {
		return "ipc", fmt.Errorf("an IPC namespace for the job: %w", err)
	}
	if err := dropCapabilities(); err != nil {
		return "capabilities", err
	}
	if err := confineJob(); err != nil {
		return "seccomp", err
	}
	return "", nil
}

// run runs f on the thread and waits for it; f runs at most once per
// thread, and not at all if the thread could not be confined (the error
// says why, and the thread's stage where).
func (t *jobThread) run(f func()) error {
	t.work <- f
	<-t.done
	return t.err
}
