// Package sandbox is the Linux isolation behind exec's runners: every job
// in namespaces of its own, under an init process, in a minimal read-only
// root, with cgroup or rlimit limits and a seccomp filter; and a Python
// fork server that runs short Python jobs fast inside it. Its runners
// implement exec.Runner, so exec's test drivers run over them as over any
// other runner.
//
//	sb, err := sandbox.New(nil) // wraps ErrNoNamespaces, saying how to enable them
//	if err != nil { ... }
//	defer sb.Close()
//	res, err := sb.Run(ctx, exec.Job{Dir: dir, Args: []string{"python3", "main.py"}})
//
// # Runners
//
// [Sandbox] runs each job in user, mount, PID, network and UTS namespaces
// no other running job shares and an IPC namespace of its own, in a
// minimal root, with only its own loopback (a server it starts answers on
// its 127.0.0.1, not the host's), an environment built from an allow list
// ([Config].PassEnv), no capabilities, a seccomp filter, and a host uid no
// other running job has when the caller is root (the caller's own uid,
// uid 0 of the namespace with no capability, otherwise). [ForkServer] keeps
// warmed Python interpreters, each in a Sandbox job with the test drivers'
// reporters and [DefaultPreload] imported, and forks a child per job; jobs
// it cannot take run through its Sandbox. [NewPythonRunner] is a
// ForkServer over a new Sandbox, and [Default] the runner every caller
// that takes an optional exec.Runner uses when given none (ctxbug,
// versioned; adapt.Evaluate makes its own with the tasks' preloads): the
// choice of sandbox is made here, never in exec. [Unsandboxed] runs jobs with the same limits and no
// isolation: callers must choose it by name. Isolation says, in a line for
// a run's record, which isolation and which limits are in force.
//
// # Limits
//
// Limits hold per job, in every mode. CPU time is measured, not inferred
// from the wall clock: a job is stopped when its processes together used
// Limits.CPUTime (a cpuacct cgroup polled every few milliseconds, else
// every process of the job's PID namespace read from the job's own /proc
// at the same poll, however deep; and RLIMIT_CPU per process). Memory and
// process counts use memory and pids cgroups where the machine has them
// (v1, or v2: as an ordinary user, the subtree systemd delegates). Else a
// job is stopped, with the memory verdict, when the proportional set
// sizes (PSS) of its processes together exceed Limits.Memory, read at
// that poll (at least every 50ms) once their resident sets together near
// it, for a tenth of the time at most (Result.PeakMemory is the largest
// total read), RLIMIT_AS bounds each process, and RLIMIT_NPROC counted in
// the job's own user namespace the processes. Output is capped across
// stdout and stderr (the first and last Limits.Keep bytes kept),
// RLIMIT_FSIZE caps files, and Limits.Disk and DiskFiles the workspace, a
// tmpfs of its own.
//
// # Nothing left behind
//
// A job's command runs under an init, PID 1 of its PID namespace: this
// program started again through /proc/self/exe (this package's init
// function recognises it and never returns to main). When the command
// exits the init kills and reaps every other process before it reports;
// when a limit or the context ends the job the runner kills the init and
// the kernel the namespace. So when Run returns every process of the job
// is gone. Inits are started ahead of need and, where allowed, reused for
// the next job of the same shape; Close stops them.
//
// # Trust boundary
//
// Everything a job touched is hostile. As built and tested
// (hostile_linux_test.go, reuse_linux_test.go and
// forkserver_parents_linux_test.go, on the Sandbox and the ForkServer):
//
//   - What a job sees: a read-only tmpfs root with read-only, nosuid,
//     nodev binds of /usr, /etc and the /bin, /sbin, /lib* links; /dev
//     with null, zero, full, random, urandom and tty, its own devpts and
//     /dev/shm; a private /tmp (TmpSize) with the workspace at exec.WorkDir;
//     its own /proc. No /run (no host socket), /home, /root, /sys or /var.
//     Paths the caller names ([Config].ReadOnly, Job.ReadOnly) are added
//     read-only.
//   - What it can reach in the kernel: the seccomp filter (seccomp_linux.go
//     lists it and says why a deny list) refuses new namespaces, mounts,
//     the key store, io_uring, userfaultfd, perf_event_open, bpf,
//     modify_ldt, ptrace, POSIX message queues, AF_VSOCK, AF_KEY,
//     AF_PACKET, netlink but NETLINK_ROUTE, the clock, modules, reboot,
//     swap and the kernel log, and any change to another process (rlimits,
//     scheduling, affinity, priorities, CLONE_PARENT, F_SETOWN and its
//     ioctls): a job changes its own by pid 0 only. Each job has a fresh
//     session keyring; its user namespace allows no nested one.
//   - What a job keeps for the next one: nothing. A reused init (caller
//     root, v1 memory, pids and CPU cgroups, the same rlimits, /tmp size
//     and read-only paths) runs jobs one at a time as the same host user:
//     between two, every process is gone; /tmp, /dev/shm and the workspace
//     are mounted afresh; SysV objects went with the job's IPC namespace;
//     the PID counter, the cgroup counters and the host name start again;
//     an init that still sees a unix socket in flight is not reused. Its
//     confinement is made on a thread of its own that ends with the job;
//     the init is not dumpable. The fork server wipes /tmp and /dev/shm by
//     descriptor (following no link), removes SysV objects, resets the PID
//     counter through its init, and replaces a server that keeps a unix
//     socket in flight; a job cannot change its server or zygote (rlimits,
//     scheduling, CLONE_PARENT, armed signals are filtered), and the
//     zygote reaps every child before forking the next.
//   - What it can read of earlier jobs: nothing. A fork-server child comes
//     from a zygote that never holds a job's data and reports from a
//     cleared buffer; the server, which holds outputs and files, is not
//     dumpable and never a job's parent.
//   - What the host takes back: the workspace is a copy of Job.Dir on a
//     detached tmpfs, copied back through os.Root once the job is gone; the
//     fork server copies back regular files only (lstat, O_NOFOLLOW), within
//     the output limit and 8 MiB, naming what it skipped in
//     Result.NotCopied. Its stdout and stderr are pipes the server counts,
//     and a job's CPU time and OOM kills are read through the server's
//     cgroup, so a job that stops its server still gets its verdict.
//   - What concurrent jobs share: no budget the kernel counts per user
//     namespace. Each job's has ceilings of its own, set by its init
//     before the job starts (budgets_linux.go): inotify instances and
//     watches, fanotify groups and marks, 1/16 of the host's each; no
//     namespaces (but its init's IPC namespaces, one per job: 1/16 too).
//     As root, each init also runs as a host uid of its own
//     and makes its user namespace from a thread with that uid. As an
//     ordinary user, jobs run as the caller's uid, and share with it what
//     the kernel counts per user outside user namespaces: pipe buffers
//     (past pipe-user-pages-soft a new pipe gets one page), epoll
//     watches, pending signals and locked shared memory (RLIMIT_SIGPENDING,
//     RLIMIT_MEMLOCK); and 16 jobs at their inotify ceilings at once would
//     hold the caller's whole budget.
//   - What a job may choose: any verdict it could earn (a fork-server job
//     can print the MemoryError mark), never StatusInternal: a server that
//     fails once a job started failed by the job's doing, which is the
//     job's verdict, and one that fails before leaves the job to the
//     Sandbox.
//   - What remains: concurrent jobs share the files of the read-only binds,
//     and flock on one passes bits between them, as timing and the load
//     average can; no verdict depends on them. With no memory cgroup, a
//     job's memory is read at each poll, not charged at each page: it may
//     exceed the limit between two polls (each process within RLIMIT_AS),
//     and memory no process maps is not in it (a file in /tmp, /dev/shm
//     or a memfd, bounded by TmpSize, FileSize and OpenFiles; a SysV
//     segment no process attaches). /proc shows no memory's identity: a
//     vfork child is told from a fork (jobprocs_linux.go), and a child
//     that shares its parent's memory otherwise (clone with CLONE_VM and
//     no thread) is counted twice.
//
// Figures (the sandbox's cost per run, where it goes, the fork server's
// throughput) are in BENCHMARKS.md.
package sandbox
