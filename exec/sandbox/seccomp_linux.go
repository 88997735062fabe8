package sandbox

import (
	"fmt"
	"os"
	"sync"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The seccomp filter of every sandboxed job, loaded by the init before it
// starts the job's command (and so inherited by the fork server's jobs).
//
// It is a deny list modelled on the denials of Docker's default profile
// (moby/profiles/seccomp), built with github.com/elastic/go-seccomp-bpf,
// which assembles the BPF program in pure Go (the init is this binary,
// which builds with CGO_ENABLED=0; libseccomp would need cgo) and guards
// the architecture and the x32 ABI. A deny list rather than Docker's allow
// list: the test drivers run interpreters, JVMs and Go test binaries whose
// needs an allow list would have to track, while what is denied here is
// the kernel surface no test needs and the known ways out of a sandbox:
//
//   - new namespaces: unshare and setns, clone with any CLONE_NEW* flag, and
//     clone3 (ENOSYS, whose flags a filter cannot read, so that the C
//     library falls back to clone); the job's user namespace also gets
//     user.max_user_namespaces=0;
//   - changes to another process of the job's user, which under the fork
//     server are its zygote and its server, whose later jobs would inherit
//     them: prlimit64, sched_setscheduler, sched_setparam,
//     sched_setaffinity and sched_setattr but on pid 0 (the caller),
//     setpriority and ioprio_set but on who 0 of a process or a process
//     group (never a whole user), and clone with CLONE_PARENT (a child
//     given to the zygote, which it would not reap); and naming a process
//     to signal later: fcntl F_SETOWN but to 0, F_SETOWN_EX, and the
//     FIOSETOWN and SIOCSPGRP ioctls (an inotify descriptor kept in
//     flight, owned by the server with F_SETSIG SIGKILL, would kill it
//     when it writes the next job's files);
//   - mounts and root changes: mount, umount2, pivot_root, chroot and the
//     new mount API;
//   - the key store (keyctl, add_key, request_key), io_uring, userfaultfd,
//     perf_event_open, bpf, modify_ldt, ptrace and process_vm_readv/writev,
//     POSIX message queues (a channel between jobs of one fork server);
//   - sockets of the families a job has no use for and that reach past its
//     network namespace: AF_VSOCK, AF_KEY, AF_PACKET and AF_NETLINK but
//     NETLINK_ROUTE (the C library's getaddrinfo asks it for the
//     interfaces);
//   - the host's clock, modules, kexec, reboot, swap, accounting, quotas,
//     the kernel log, ioperm/iopl and file handles.
//
// A denied call fails with EPERM (clone3: ENOSYS). The filter is loaded on
// the init's job thread only (jobThread), with no_new_privs, and assembled
// once per init, before its first job (assembleJobFilter).
var jobSeccomp = seccomp.Filter{
	NoNewPrivs: true,
	Policy: seccomp.Policy{
		DefaultAction: seccomp.ActionAllow,
		Syscalls: []seccomp.SyscallGroup{
			{
				Action: seccomp.ActionErrno,
				Names: []string{
					"unshare", "setns",
					"mount", "umount2", "pivot_root", "chroot",
					"open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
					"keyctl", "add_key", "request_key",
					"io_uring_setup", "io_uring_enter", "io_uring_register",
					"userfaultfd", "perf_event_open", "bpf", "modify_ldt",
					"ptrace", "process_vm_readv", "process_vm_writev",
					"mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
					"kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
					"reboot", "swapon", "swapoff", "acct", "quotactl", "syslog", "lookup_dcookie", "vhangup",
					"settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
					"sethostname", "setdomainname", "iopl", "ioperm",
					"name_to_handle_at", "open_by_handle_at", "fanotify_init",
				},
				NamesWithCondtions: []seccomp.NameWithConditions{
					{Name: "clone", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.BitsSet, Value: cloneNewFlags}}},
					{Name: "clone", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.BitsSet, Value: unix.CLONE_PARENT}}},
					{Name: "prlimit64", Conditions: notSelf(0)},
					{Name: "sched_setscheduler", Conditions: notSelf(0)},
					{Name: "sched_setparam", Conditions: notSelf(0)},
					{Name: "sched_setaffinity", Conditions: notSelf(0)},
					{Name: "sched_setattr", Conditions: notSelf(0)},
					{Name: "setpriority", Conditions: notSelf(1)},
					{Name: "setpriority", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.Equal, Value: unix.PRIO_USER}}},
					{Name: "ioprio_set", Conditions: notSelf(1)},
					{Name: "ioprio_set", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.Equal, Value: ioprioWhoUser}}},
					{Name: "fcntl", Conditions: seccomp.ArgumentConditions{
						{Argument: 1, Operation: seccomp.Equal, Value: unix.F_SETOWN},
						{Argument: 2, Operation: seccomp.NotEqual, Value: 0},
					}},
					{Name: "fcntl", Conditions: seccomp.ArgumentConditions{{Argument: 1, Operation: seccomp.Equal, Value: unix.F_SETOWN_EX}}},
					{Name: "ioctl", Conditions: seccomp.ArgumentConditions{{Argument: 1, Operation: seccomp.Equal, Value: fioSetOwn}}},
					{Name: "ioctl", Conditions: seccomp.ArgumentConditions{{Argument: 1, Operation: seccomp.Equal, Value: unix.SIOCSPGRP}}},
					{Name: "socket", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.Equal, Value: unix.AF_VSOCK}}},
					{Name: "socket", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.Equal, Value: unix.AF_KEY}}},
					{Name: "socket", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.Equal, Value: unix.AF_PACKET}}},
					{Name: "socket", Conditions: seccomp.ArgumentConditions{
						{Argument: 0, Operation: seccomp.Equal, Value: unix.AF_NETLINK},
						{Argument: 2, Operation: seccomp.NotEqual, Value: unix.NETLINK_ROUTE},
					}},
				},
			},
			{
				Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS),
				Names:  []string{"clone3"},
			},
		},
	},
}

// notSelf matches a call whose pid argument (argument i) is not 0, the
// caller itself: a job may change its own rlimits, scheduling, affinity
// and priorities, not those of another process of its user (the fork
// server and its zygote, whose later children would inherit them). A
// static filter cannot know the caller's own pid, so prlimit64 and the
// like aimed at the caller by its number are refused too: the C library,
// Python (resource.setrlimit, os.nice, os.sched_setaffinity(0, ...)) and
// the Go and Java runtimes name the caller by 0.
func notSelf(i uint32) seccomp.ArgumentConditions {
	return seccomp.ArgumentConditions{{Argument: i, Operation: seccomp.NotEqual, Value: 0}}
}

// ioprioWhoUser is IOPRIO_WHO_USER: every process of a user.
const ioprioWhoUser = 3

// fioSetOwn is FIOSETOWN (asm-generic/sockios.h), which x/sys/unix lacks.
const fioSetOwn = 0x8901

const cloneNewFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET | unix.CLONE_NEWTIME

var jobFilter struct {
	once sync.Once
	prog []unix.SockFilter
	err  error
}

// assembleJobFilter assembles jobSeccomp into a BPF program, once.
func assembleJobFilter() ([]unix.SockFilter, error) {
	jobFilter.once.Do(func() {
		insts, err := jobSeccomp.Policy.Assemble()
		if err != nil {
			jobFilter.err = err
			return
		}
		raw, err := bpf.Assemble(insts)
		if err != nil {
			jobFilter.err = err
			return
		}
		for _, in := range raw {
			jobFilter.prog = append(jobFilter.prog, unix.SockFilter{Code: in.Op, Jt: in.Jt, Jf: in.Jf, K: in.K})
		}
	})
	return jobFilter.prog, jobFilter.err
}

// noNestedUserNamespaces sets user.max_user_namespaces to 0 in this
// process's user namespace, as soon as the init starts, best effort: the
// seccomp filter denies the ways to a new namespace in any case, and the
// job's other ceilings (budgets_linux.go) follow with its first job.
func noNestedUserNamespaces() {
	os.WriteFile("/proc/sys/user/max_user_namespaces", []byte("0\n"), 0)
}

// confineJob is the last step of the job thread before it starts the
// command: a fresh session keyring (the caller's keys are not the job's)
// and the seccomp filter, with no_new_privs.
func confineJob() error {
	// KEYCTL_JOIN_SESSION_KEYRING with a NULL name: a new anonymous one.
	if _, _, e := unix.Syscall(unix.SYS_KEYCTL, unix.KEYCTL_JOIN_SESSION_KEYRING, 0, 0); e != 0 && e != unix.ENOSYS {
		return fmt.Errorf("join a new session keyring: %w", e)
	}
	prog, err := assembleJobFilter()
	if err != nil {
		return fmt.Errorf("assemble the seccomp filter: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	// SECCOMP_SET_MODE_FILTER, no flags: this thread only.
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, 1, 0, uintptr(unsafe.Pointer(&fprog))); e != 0 {
		return fmt.Errorf("load the seccomp filter: %w", e)
	}
	return nil
}
