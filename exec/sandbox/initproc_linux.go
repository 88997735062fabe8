package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/adaptbench/adaptbench/exec"
)

// The sandbox runs a job in two steps. The host process re-executes its own
// binary (/proc/self/exe) inside new namespaces with argv[0] set to
// initArg0; this package's init function sees that and, instead of running
// the program's main, becomes the job's init process: PID 1 of the job's
// PID namespace. It reads an initConfig from fd 3, prepares the mounts,
// applies the rlimits, drops every capability, starts the job's command,
// reaps every process until the command exits, writes an initStatus to fd 4
// and exits. Its exit makes the kernel kill whatever the command left
// behind in the namespace.
const initArg0 = "adaptbench-sandbox-init"

const (
	initConfigFD = 3
	initStatusFD = 4
	initDiskFD   = 5
)

// initConfig is what the host sends the init process.
type initConfig struct {
	Isolate bool `json:"isolate"`
	// HostWorkspace is the workspace's path on the host; Workspace is where
	// the command sees it.
	HostWorkspace string   `json:"host_workspace"`
	Workspace     string   `json:"workspace"`
	Args          []string `json:"args"`
	Env           []string `json:"env"`
	// UID and GID are the identity of the command inside the namespace
	// (they differ from the init's own when the host is root).
	UID       int      `json:"uid"`
	GID       int      `json:"gid"`
	Rlimits   []rlimit `json:"rlimits"`
	TmpSize   uint64   `json:"tmp_size"`
	TmpFiles  int      `json:"tmp_files"`
	DropCaps  bool     `json:"drop_caps"`
	SetUser   bool     `json:"set_user"`
	Subreaper bool     `json:"subreaper"`
	// Confine loads the job's seccomp filter and keyring (confineJob).
	Confine bool `json:"confine"`
	// DiskWorkspace: the workspace is a mount the host sends on initDiskFD
	// (a tmpfs holding a copy, or a clone of the host's tree), not
	// HostWorkspace.
	DiskWorkspace bool `json:"disk_workspace,omitempty"`
	// Stdio: the job's stdin, stdout and stderr come on initDiskFD (before
	// the workspace), not as this process's own (a reused init's).
	Stdio bool `json:"stdio,omitempty"`
	// Recycle: after the report, get ready for another job of the same
	// shape (recycle) and say so, instead of waiting to be released.
	Recycle bool `json:"recycle,omitempty"`
	// Binds are host paths the job sees read-only besides rootPaths.
	Binds []string `json:"binds,omitempty"`
	// PIDReset: the command gets a PID-counter reset socket as
	// descriptor 3 (servePIDReset).
	PIDReset bool `json:"pid_reset,omitempty"`
	// Results: the job's results channel (Job.Results) comes on
	// initDiskFD after the workspace, for the command's descriptor 3.
	Results bool `json:"results,omitempty"`
	// UserCeilings are the job's kernel budgets (budgets_linux.go), set
	// in its user namespace before its first process starts.
	UserCeilings map[string]int64 `json:"user_ceilings,omitempty"`
}

type rlimit struct {
	Resource int    `json:"resource"`
	Soft     uint64 `json:"soft"`
	Hard     uint64 `json:"hard"`
}

// initStatus is what the init process reports back.
type initStatus struct {
	// Stage and Err are set when the init failed before or while starting
	// the command: an infrastructure error.
	Stage string `json:"stage,omitempty"`
	Err   string `json:"err,omitempty"`
	// Ready follows a report when the init is ready for another job.
	Ready bool `json:"ready,omitempty"`
	// NotFound is set when the command's executable does not exist.
	NotFound bool `json:"not_found,omitempty"`
	Exited   bool `json:"exited"`
	ExitCode int  `json:"exit_code"`
	Signal   int  `json:"signal"`
	// UserNS and SysNS are the CPU time of the command and the processes it
	// waited for; MaxRSS is the largest resident set in KiB.
	UserNS int64 `json:"user_ns"`
	SysNS  int64 `json:"sys_ns"`
	MaxRSS int64 `json:"max_rss"`
}

func init() {
	if len(os.Args) > 0 && os.Args[0] == initArg0 {
		// Package initialisation runs on the main thread, locked; keep it so
		// that the per-thread capability state set below is the state the
		// command is forked from.
		runtime.LockOSThread()
		os.Exit(sandboxInit())
	}
}

// reserveHeap grows the heap by more than what the init allocates after
// setting the rlimits (ForkExec copies the arguments and the environment;
// the report is small), then frees it: later allocations reuse those
// pages and need no new mapping.
func reserveHeap(args int, env []string) {
	n := 1 << 20
	for _, e := range env {
		n += 2 * (len(e) + 16)
	}
	n += 64 * args
	b := make([]byte, n)
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
}

func sandboxInit() int {
	status := os.NewFile(initStatusFD, "status")
	send := func(st initStatus) {
		b, _ := json.Marshal(st)
		status.Write(b)
	}
	syscall.CloseOnExec(initConfigFD)
	syscall.CloseOnExec(initStatusFD)
	syscall.CloseOnExec(initDiskFD)
	cfgFile := os.NewFile(initConfigFD, "config")
	// An isolating init builds most of the job's root before it has a job,
	// and starts the thread the job will be forked from (jobThread).
	var prepErr error
	isolating := len(os.Args) > 1 && os.Args[1] == "isolate"
	if isolating {
		// A job's processes cannot read this one's memory (it holds the
		// last job's command and environment once it is reused).
		unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
		prepErr = prepareRoot()
		if prepErr == nil {
			prepErr = loopbackUp()
		}
		// Jobs are confined, from their thread, with these.
		noNestedUserNamespaces()
		assembleJobFilter()
		sendProc(prepErr)
	}
	thread := newJobThread(isolating)
	dec := json.NewDecoder(cfgFile)
	for n := 0; ; n++ {
		var cfg initConfig
		if err := dec.Decode(&cfg); err != nil {
			if n > 0 && errors.Is(err, io.EOF) {
				return 0 // released
			}
			send(initStatus{Stage: "read config", Err: err.Error()})
			return 0
		}
		st := runJob(cfg, n, isolating, prepErr, thread)
		// The job's output ends here, not when this process has exited.
		nullStdio()
		send(st)
		if !cfg.Recycle || st.Stage != "" {
			// The host releases this process by closing the config pipe,
			// once it has moved on; exiting tears down the namespaces.
			io.Copy(io.Discard, cfgFile)
			return 0
		}
		thread = newJobThread(true)
		if err := recycle(cfg); err != nil {
			send(initStatus{Stage: "recycle", Err: err.Error()})
			io.Copy(io.Discard, cfgFile)
			return 0
		}
		send(initStatus{Ready: true})
	}
}

// sendProc sends the host a descriptor of the job's /proc, its PID
// namespace's (see jobprocs_linux.go), with one byte on initDiskFD; the
// byte alone when the root could not be prepared (the job then fails).
func sendProc(prepErr error) {
	fd := -1
	if prepErr == nil {
		fd, _ = unix.Open(newRoot+"/proc", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	}
	var rights []byte
	if fd >= 0 {
		rights = unix.UnixRights(fd)
		defer unix.Close(fd)
	}
	unix.Sendmsg(initDiskFD, []byte{'p'}, rights, nil, 0)
}

// nullStdio points descriptors 0, 1 and 2 at /dev/null: the job's pipes
// are closed (the host sees the end of its output) and nothing this process
// opens later takes their numbers.
func nullStdio() {
	fd, err := unix.Open("/dev/null", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		syscall.Close(0)
		syscall.Close(1)
		syscall.Close(2)
		return
	}
	for i := range 3 {
		unix.Dup3(fd, i, 0)
	}
	unix.Close(fd)
}

// runJob runs the n-th job (from 0) of this init and returns its report.
func runJob(cfg initConfig, n int, isolating bool, prepErr error, thread *jobThread) initStatus {
	fail := func(stage string, err error) initStatus {
		thread.run(func() {})
		return initStatus{Stage: stage, Err: err.Error()}
	}
	ws, results, err := receiveJobFDs(cfg)
	if err != nil {
		return fail("receive", err)
	}
	if ws >= 0 {
		defer unix.Close(ws)
	}
	files := []uintptr{0, 1, 2}
	if results >= 0 {
		defer unix.Close(results)
		files = append(files, uintptr(results))
	}
	if cfg.Isolate {
		if stage, err := mountJob(cfg, n, isolating, prepErr, ws); err != nil {
			return fail(stage, err)
		}
	}
	if cfg.Subreaper {
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			return fail("subreaper", err)
		}
	}
	if err := os.Chdir(cfg.Workspace); err != nil {
		return fail("chdir", err)
	}
	path, err := lookPath(cfg.Args[0], cfg.Env)
	if err != nil {
		thread.run(func() {})
		return initStatus{NotFound: true, Err: err.Error()}
	}
	attr := &syscall.ProcAttr{
		Dir:   cfg.Workspace,
		Env:   cfg.Env,
		Files: files,
		Sys:   &syscall.SysProcAttr{Setsid: true},
	}
	if cfg.SetUser {
		attr.Sys.Credential = &syscall.Credential{Uid: uint32(cfg.UID), Gid: uint32(cfg.GID), Groups: []uint32{}}
	}
	if cfg.PIDReset {
		fd, stop, err := servePIDReset()
		if err != nil {
			return fail("pid reset", err)
		}
		defer stop()
		attr.Files = append(attr.Files, uintptr(fd))
	}
	if (cfg.DropCaps || cfg.Confine) && !thread.confined {
		return fail("seccomp", errors.New("the job thread is not confined"))
	}
	pid, st := forkJob(cfg, path, attr, thread)
	if st != nil {
		return *st
	}
	return waitJob(cfg, pid)
}

// receiveJobFDs receives the descriptors the host sends with a job (see
// handOff): a reused init's new stdio, which become 0, 1 and 2, the
// workspace's mount and the results channel, each -1 when there is none.
func receiveJobFDs(cfg initConfig) (ws, results int, err error) {
	want := 0
	if cfg.Stdio {
		want += 3
	}
	if cfg.DiskWorkspace {
		want++
	}
	if cfg.Results {
		want++
	}
	var fds []int
	if want > 0 {
		if fds, err = receiveFDs(initDiskFD, want); err != nil {
			return -1, -1, err
		}
	}
	if cfg.Stdio {
		for i := range 3 {
			if err := unix.Dup3(fds[i], i, 0); err != nil {
				return -1, -1, err
			}
			unix.Close(fds[i])
		}
		fds = fds[3:]
	}
	ws, results = -1, -1
	if cfg.DiskWorkspace {
		ws = fds[0]
	}
	if cfg.Results {
		results = fds[len(fds)-1]
	}
	return ws, results, nil
}

// mountJob makes an isolated job's root: the whole of it for an init's
// first job, the workspace (ws, when the host sent one) for a reused
// init's. It returns the failed stage with the error.
func mountJob(cfg initConfig, n int, isolating bool, prepErr error, ws int) (string, error) {
	switch {
	case !isolating:
		return "mounts", errors.New("an isolating init was not started as one")
	case prepErr != nil:
		return "mounts", prepErr
	case n == 0:
		if err := finishRoot(cfg, ws); err != nil {
			return "mounts", err
		}
		// After the root (open_tree's clones count as mount namespaces)
		// and before any process of the job.
		if err := setUserCeilings(cfg.UserCeilings); err != nil {
			return "kernel budgets", err
		}
		if err := unix.Sethostname([]byte("sandbox")); err != nil {
			return "hostname", err
		}
		if err := unix.Setdomainname([]byte("sandbox")); err != nil {
			return "domainname", err
		}
	case ws >= 0:
		// A reused init: its root, /tmp and /dev/shm are ready
		// (recycle); only the workspace is the job's.
		if err := unix.MoveMount(ws, "", unix.AT_FDCWD, exec.WorkDir, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return "mounts", fmt.Errorf("move workspace to %s: %w", exec.WorkDir, err)
		}
	}
	return "", nil
}

// forkJob starts the command from the job thread, confined ahead of the
// job (jobThread), under the job's rlimits. A non-nil status is the
// report of a failed start.
func forkJob(cfg initConfig, path string, attr *syscall.ProcAttr, thread *jobThread) (int, *initStatus) {
	var pid int
	var stage string
	var err error
	terr := thread.run(func() {
		// The rlimits go last. This process is a Go program whose
		// address space (over a GiB of reservations) is already larger
		// than a job's RLIMIT_AS: once that is set, any new mapping fails
		// and the runtime dies ("out of memory"). So everything that
		// allocates much (the seccomp filter, the capability state) is
		// done before, and the heap the rest needs (ForkExec's copies of
		// the command and environment, the report) is grown now and
		// freed, to be reused without mapping. Lowering a limit needs no
		// capability, and the seccomp filter allows setrlimit. Rlimits
		// are the process's: a reused init only runs jobs with the same
		// ones (the host's shape).
		for _, rl := range cfg.Rlimits {
			if rl.Resource == unix.RLIMIT_AS {
				// Only an address-space limit (no memory cgroup) needs it.
				reserveHeap(len(cfg.Args), cfg.Env)
				break
			}
		}
		// The job shares this process's user when it does not run as a
		// user of its own: this process's threads count for RLIMIT_NPROC.
		threads := uint64(0)
		if !cfg.SetUser {
			threads = uint64(ownThreads())
		}
		for _, rl := range cfg.Rlimits {
			if rl.Resource == unix.RLIMIT_NPROC {
				rl.Soft, rl.Hard = rl.Soft+threads, rl.Hard+threads
			}
			if err = unix.Setrlimit(rl.Resource, &unix.Rlimit{Cur: rl.Soft, Max: rl.Hard}); err != nil {
				stage, err = "rlimit", fmt.Errorf("resource %d: %w", rl.Resource, err)
				return
			}
		}
		if pid, err = syscall.ForkExec(path, cfg.Args, attr); err != nil {
			stage = "start"
		}
	})
	if terr != nil {
		return 0, &initStatus{Stage: thread.stage, Err: terr.Error()}
	}
	if stage != "" {
		return 0, &initStatus{Stage: stage, Err: err.Error()}
	}
	return pid, nil
}

// waitJob reaps everything until the command (pid) itself has exited,
// then kills and reaps what is left of the job, and returns its report.
func waitJob(cfg initConfig, pid int) initStatus {
	for {
		var ws syscall.WaitStatus
		var ru syscall.Rusage
		wpid, err := syscall.Wait4(-1, &ws, 0, &ru)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return initStatus{Stage: "wait", Err: err.Error()}
		}
		if wpid != pid {
			continue
		}
		st := initStatus{
			Exited:   ws.Exited(),
			ExitCode: ws.ExitStatus(),
			UserNS:   ru.Utime.Nano(),
			SysNS:    ru.Stime.Nano(),
			MaxRSS:   ru.Maxrss,
		}
		if ws.Signaled() {
			st.Signal = int(ws.Signal())
		}
		if cfg.Isolate {
			// This is PID 1: kill every other process of the namespace
			// and reap them, so that none is left when the host reads
			// the report.
			syscall.Kill(-1, syscall.SIGKILL)
			for {
				var ws syscall.WaitStatus
				if _, err := syscall.Wait4(-1, &ws, 0, nil); err == syscall.ECHILD {
					break
				} else if err != nil && err != syscall.EINTR {
					break
				}
			}
		} else {
			killDescendants()
		}
		return st
	}
}

// recycle readies this init for another job of the same shape, after it
// reported the last one (every process of which is gone): a fresh /tmp and
// /dev/shm, PIDs counted from the start again, the host name set again.
// It fails, and the init is not reused, when anything of the last job
// could outlive it here: a unix socket (one in flight in a cycle of its own
// lives until the kernel collects it, and an abstract one keeps its name
// in this network namespace), or when this process's own CPU time nears
// the job's RLIMIT_CPU. The job's IPC namespace went with its thread.
func recycle(cfg initConfig) error {
	for _, rl := range cfg.Rlimits {
		if rl.Resource != unix.RLIMIT_CPU {
			continue
		}
		var ru unix.Rusage
		if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
			return err
		}
		if used := ru.Utime.Sec + ru.Stime.Sec + 1; uint64(used)*2 > rl.Soft {
			return fmt.Errorf("its own CPU time (%d s) nears RLIMIT_CPU (%d s)", used, rl.Soft)
		}
	}
	b, err := os.ReadFile("/proc/net/unix")
	if err != nil {
		return err
	}
	if n := strings.Count(string(b), "\n"); n > 1 {
		return fmt.Errorf("%d unix sockets of the last job outlived it", n-1)
	}
	// The last job's /tmp/work was this process's working directory: it
	// would keep the detached /tmp, and the memory its files hold, alive.
	if err := os.Chdir("/"); err != nil {
		return err
	}
	for _, d := range []string{"/tmp", "/dev/shm"} {
		if err := unix.Unmount(d, unix.MNT_DETACH); err != nil {
			return fmt.Errorf("unmount %s: %w", d, err)
		}
	}
	if err := mountTmp("", cfg); err != nil {
		return err
	}
	if err := os.WriteFile("/proc/sys/kernel/ns_last_pid", []byte("1"), 0); err != nil {
		return fmt.Errorf("reset the PID counter: %w", err)
	}
	if err := unix.Sethostname([]byte("sandbox")); err != nil {
		return err
	}
	return unix.Setdomainname([]byte("sandbox"))
}

// mountTmp mounts the job's /tmp and /dev/shm under root and makes the
// workspace's mount point (owned by the job's user: with no workspace
// from the host, it is the workspace).
func mountTmp(root string, cfg initConfig) error {
	tmpOpts := fmt.Sprintf("size=%d,mode=1777", cfg.TmpSize)
	if cfg.TmpFiles > 0 {
		tmpOpts += fmt.Sprintf(",nr_inodes=%d", cfg.TmpFiles)
	}
	for _, d := range []string{"/tmp", "/dev/shm"} {
		if err := unix.Mount("tmpfs", root+d, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, tmpOpts); err != nil {
			return fmt.Errorf("mount tmpfs on %s: %w", d, err)
		}
	}
	if err := os.Mkdir(root+exec.WorkDir, 0o755); err != nil {
		return err
	}
	if cfg.SetUser {
		if err := os.Chown(root+exec.WorkDir, cfg.UID, cfg.GID); err != nil {
			return err
		}
	}
	return nil
}

// rootPaths are the host trees every job sees, read-only: the system's
// programs and libraries (the toolchains under /usr: Python and its
// dist-packages, the JDK, Go in /usr/local/go, Maven's repository) and
// /etc (the dynamic linker's cache, alternatives, users, time zone, TLS
// roots). A path that is a symbolic link on the host (/bin -> usr/bin on a
// merged-/usr system) is the same link in the job's root.
var rootPaths = []string{"/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

// devNodes are the devices a job gets, bound from the host's.
var devNodes = []string{"null", "zero", "full", "random", "urandom", "tty"}

// The job's root is built in two steps. prepareRoot runs as soon as the
// init starts, before it has a job (inits are started ahead of need, so
// this is off the job's critical path): a tmpfs mounted over the host's
// /sys (no workspace or caller's path is ever there), holding read-only
// binds of
// rootPaths, a /dev of devNodes and a devpts of its own, and a /proc of
// the job's PID namespace. finishRoot adds what depends on the job: its
// /tmp and /dev/shm of TmpSize, the workspace at WorkDir, the caller's
// read-only paths; then it switches to the new root, lets the host's go
// and makes the root read-only. Nothing else of the host is there: no /run
// (and so no host sockets), no /home or /root, no /sys, no /var.

// newRoot is where the root is built: a tmpfs mounted over the host's
// /sys, the one host tree that never holds a workspace, a caller's path or
// something the init still needs.
const newRoot = "/sys"

// prepareRoot is the first step (see above).
func prepareRoot() error {
	// Nothing mounted here propagates to the host.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make / private: %w", err)
	}
	var trees []treeBind
	defer func() { closeTrees(trees) }()
	for _, p := range rootPaths {
		b, ok, err := takeTree(p)
		if err != nil {
			return err
		}
		if ok {
			trees = append(trees, b)
		}
	}
	var nodes []treeBind
	defer func() { closeTrees(nodes) }()
	for _, n := range devNodes {
		b, ok, err := takeDevice("/dev/" + n)
		if err != nil {
			return err
		}
		if ok {
			nodes = append(nodes, b)
		}
	}
	if err := unix.Mount("tmpfs", newRoot, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=1m,mode=755"); err != nil {
		return fmt.Errorf("mount root tmpfs: %w", err)
	}
	for _, b := range trees {
		if err := b.attach(newRoot, b.path); err != nil {
			return err
		}
	}
	dev := newRoot + "/dev"
	if err := os.Mkdir(dev, 0o755); err != nil {
		return err
	}
	if err := unix.Mount("tmpfs", dev, "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "size=64k,mode=755"); err != nil {
		return fmt.Errorf("mount /dev: %w", err)
	}
	for _, b := range nodes {
		if err := b.attach(dev, "/"+filepath.Base(b.path)); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dev+"/pts", 0o755); err != nil {
		return err
	}
	if err := unix.Mount("devpts", dev+"/pts", "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620"); err != nil {
		return fmt.Errorf("mount devpts: %w", err)
	}
	links := map[string]string{"ptmx": "pts/ptmx", "fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"}
	for n, target := range links {
		if err := os.Symlink(target, dev+"/"+n); err != nil {
			return err
		}
	}
	for _, d := range []string{dev + "/shm", newRoot + "/tmp", newRoot + "/proc"} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	// A /proc of the job's PID namespace, mounted while the host's is
	// still visible (the kernel lets a user namespace mount proc only
	// then).
	if err := unix.Mount("proc", newRoot+"/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	return nil
}

// ownThreads is how many threads this process has, and one to spare
// should the Go runtime start another while the job runs.
func ownThreads() int {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return 16
	}
	return len(ents) + 1
}

// loopbackUp brings up lo in the job's network namespace, as bubblewrap
// and nsjail do: code under test that talks to itself over 127.0.0.1 (a
// server and its client, a free-port probe expecting ECONNREFUSED) works,
// and the namespace still has no other interface and no route out. A
// socket in the namespace and one ioctl: no ip(8) in the job's root.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("loopback: socket: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback: get lo's flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("loopback: bring lo up: %w", err)
	}
	return nil
}

// finishRoot is the second step (see above). ws is the workspace's mount
// when the host sent one.
func finishRoot(cfg initConfig, ws int) error {
	// No host workspace means an empty one in the private /tmp.
	if ws < 0 && cfg.HostWorkspace != "" {
		var err error
		ws, err = unix.OpenTree(unix.AT_FDCWD, cfg.HostWorkspace, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
		if err != nil {
			return fmt.Errorf("open_tree %s: %w", cfg.HostWorkspace, err)
		}
		defer unix.Close(ws)
	}
	var binds []treeBind
	defer func() { closeTrees(binds) }()
	for _, p := range cfg.Binds {
		b, ok, err := takeTree(p)
		if err != nil {
			return err
		}
		if ok {
			binds = append(binds, b)
		}
	}
	if err := mountTmp(newRoot, cfg); err != nil {
		return err
	}
	if ws >= 0 {
		if err := unix.MoveMount(ws, "", unix.AT_FDCWD, newRoot+exec.WorkDir, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return fmt.Errorf("move workspace to %s: %w", exec.WorkDir, err)
		}
	}
	// The caller's paths last, so that one under /tmp lands on the job's
	// /tmp.
	for _, b := range binds {
		if err := b.attach(newRoot, b.path); err != nil {
			return err
		}
	}
	// Switch to the new root and let the host's go.
	if err := os.Mkdir(newRoot+"/.old", 0o700); err != nil {
		return err
	}
	if err := unix.PivotRoot(newRoot, newRoot+"/.old"); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := os.Chdir("/"); err != nil {
		return err
	}
	if err := unix.Unmount("/.old", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach the host's root: %w", err)
	}
	if err := os.Remove("/.old"); err != nil {
		return err
	}
	// The root tmpfs itself: read-only (what is mounted on it stays as it
	// is: /tmp, /dev/shm and the workspace writable).
	if err := unix.Mount("", "/", "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return fmt.Errorf("make the root read-only: %w", err)
	}
	return nil
}

// receiveFDs receives n descriptors, sent in one message, on the unix
// socket fd.
func receiveFDs(fd, n int) ([]int, error) {
	buf := make([]byte, 1)
	oob := make([]byte, unix.CmsgSpace(4*n))
	_, oobn, flags, _, err := unix.Recvmsg(fd, buf, oob, unix.MSG_CMSG_CLOEXEC)
	if err != nil {
		return nil, err
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, fmt.Errorf("no descriptors (%v)", err)
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err == nil && (len(fds) != n || flags&unix.MSG_CTRUNC != 0) {
		err = fmt.Errorf("%d descriptors, %d expected", len(fds), n)
	}
	if err != nil {
		for _, f := range fds {
			unix.Close(f)
		}
		return nil, err
	}
	return fds, nil
}

func closeTrees(trees []treeBind) {
	for _, b := range trees {
		if b.fd >= 0 {
			unix.Close(b.fd)
		}
	}
}

// treeBind is a host path the job's root shows: a detached copy of its
// mount tree, or the target of a symbolic link.
type treeBind struct {
	path   string
	fd     int // open_tree clone, or -1 for a link
	dir    bool
	target string
}

// takeTree clones the mount tree at host path p (a missing path: ok is
// false), or reads it as a link.
func takeTree(p string) (b treeBind, ok bool, err error) { return takeTreeAs(p, true) }

// takeDevice clones a device node: writable (/dev/null is written to),
// and with device access, which takeTree's read-only trees lack.
func takeDevice(p string) (treeBind, bool, error) { return takeTreeAs(p, false) }

func takeTreeAs(p string, readOnly bool) (b treeBind, ok bool, err error) {
	fi, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return b, false, nil
	}
	if err != nil {
		return b, false, err
	}
	b = treeBind{path: p, fd: -1, dir: fi.IsDir()}
	if fi.Mode()&os.ModeSymlink != 0 {
		b.target, err = os.Readlink(p)
		return b, err == nil, err
	}
	b.fd, err = unix.OpenTree(unix.AT_FDCWD, p, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
	if err != nil {
		return b, false, fmt.Errorf("open_tree %s: %w", p, err)
	}
	attr := &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NOEXEC, Attr_clr: unix.MOUNT_ATTR_NODEV}
	if readOnly {
		attr = &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
	}
	if err := unix.MountSetattr(b.fd, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, attr); err != nil {
		return b, false, fmt.Errorf("mount_setattr %s read-only: %w (needs Linux 5.12 or later)", p, err)
	}
	return b, true, nil
}

// attach puts b at path at under root: read-only, nosuid, nodev.
func (b treeBind) attach(root, at string) error {
	dst := root + at
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	switch {
	case b.fd < 0:
		return os.Symlink(b.target, dst)
	case b.dir:
		if err := os.Mkdir(dst, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return err
		}
	default:
		f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		f.Close()
	}
	if err := unix.MoveMount(b.fd, "", unix.AT_FDCWD, dst, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
		return fmt.Errorf("mount %s: %w", b.path, err)
	}
	return nil
}

const (
	secbitNoRoot             = 1 << 0
	secbitNoRootLocked       = 1 << 1
	secbitNoCapAmbientRaise  = 1 << 6
	secbitNoCapAmbientLocked = 1 << 7
)

// dropCapabilities makes sure the command runs with no capability, even as
// uid 0 of the namespace: it empties the bounding set, stops root from
// regaining capabilities at execve, and sets no_new_privs.
func dropCapabilities() error {
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
			return fmt.Errorf("drop bounding capability %d: %w", c, err)
		}
	}
	bits := uintptr(secbitNoRoot | secbitNoRootLocked | secbitNoCapAmbientRaise | secbitNoCapAmbientLocked)
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, bits, 0, 0, 0); err != nil {
		return fmt.Errorf("securebits: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	return nil
}

// killDescendants kills the processes that were re-parented to this init
// (it is a child subreaper when not isolated) and reaps them.
func killDescendants() {
	for range 100 {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/children", unix.Gettid()))
		kids := strings.Fields(string(b))
		if len(kids) == 0 {
			return
		}
		for _, k := range kids {
			var pid int
			fmt.Sscan(k, &pid)
			if pid > 0 {
				unix.Kill(pid, unix.SIGKILL)
			}
		}
		for {
			var ws syscall.WaitStatus
			if pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil); pid <= 0 || err != nil {
				break
			}
		}
	}
}

// lookPath finds file in the PATH of env.
func lookPath(file string, env []string) (string, error) {
	if strings.Contains(file, "/") {
		if _, err := os.Stat(file); err != nil {
			return "", err
		}
		return file, nil
	}
	path := ""
	for _, kv := range env {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = p
		}
	}
	for _, dir := range strings.Split(path, ":") {
		if dir == "" {
			continue
		}
		p := dir + "/" + file
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w", file, osexec.ErrNotFound)
}

// servePIDReset returns a socket for the command (the fork server), on
// which each byte it sends makes this process, which holds the
// capability, set the namespace's PID counter back to 1 and answer one
// byte. The server asks between two jobs, so that the next job's PIDs
// are the first free ones, whatever the last job forked: the counter
// would otherwise carry its bits to the next. stop closes both ends and
// ends the goroutine that answers.
func servePIDReset() (int, func(), error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK, 0)
	if err != nil {
		return -1, nil, err
	}
	// The command's end blocks; ours goes through the poller, so that
	// closing it ends the read below.
	if err := unix.SetNonblock(fds[1], false); err != nil {
		unix.Close(fds[0])
		unix.Close(fds[1])
		return -1, nil, err
	}
	ours := os.NewFile(uintptr(fds[0]), "pid-reset")
	go func() {
		var b [1]byte
		for {
			if n, err := ours.Read(b[:]); n == 0 || err != nil {
				return
			}
			b[0] = 'k'
			if err := os.WriteFile("/proc/sys/kernel/ns_last_pid", []byte("1"), 0); err != nil {
				b[0] = 'e'
			}
			if _, err := ours.Write(b[:]); err != nil {
				return
			}
		}
	}()
	return fds[1], func() { ours.Close(); unix.Close(fds[1]) }, nil
}
