package sandbox

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/adaptbench/adaptbench/exec"
)

// Without a CPU accounting or memory cgroup (an ordinary user with no
// delegated cgroup v2 subtree, or Config.NoCgroups), rlimits bound each
// process of a job on its own, and a job that forks keeps going: each
// child starts with a fresh allowance. The runner then measures the job
// from outside, as it would read a cgroup's counters, at the watchdog's
// poll: the CPU time and the proportional set size (PSS) of every process
// of the job. An isolated job's processes are those of its PID namespace,
// listed by the job's own /proc (its init sends the host a descriptor of
// it): every one, however deep in the tree and whoever its parent. An
// unisolated job's are the init's descendants in the host's /proc.
//
// The processes are read one after the other, not at one instant, so a
// reading is corrected towards the low side: a job is never stopped for
// a figure it did not reach. A process that was reaped while the job was
// read is left out (its time may already be in its parent's cutime, read
// after it), and so is the memory of one that exited (it went, or moved
// to the process that shares it); a reading during which a process
// started is not stable (a fork changes what the pages the parent shares
// count for in each), and the memory of a child running in its parent's
// (vfork) is counted once.

// clockTick is the unit of /proc/<pid>/stat's times (USER_HZ, 100 on
// every Linux architecture Go supports).
const clockTick = 10 * time.Millisecond

// pfForkNoExec and pfExiting are flags of /proc/<pid>/stat: forked, and
// has not called execve since (PF_FORKNOEXEC); exiting (PF_EXITING).
const (
	pfForkNoExec = 0x40
	pfExiting    = 0x4
)

// jobSample is one reading of a job's processes.
type jobSample struct {
	cpu time.Duration
	rss exec.Size // the sum of their resident sets
	// memory is the sum of their PSS, when pss (it was read).
	memory exec.Size
	pss    bool
	// stable: no process of the job started while it was read.
	stable bool
}

// pageSize is the unit of /proc/<pid>/stat's rss.
var pageSize = exec.Size(os.Getpagesize())

// procStatus is what a job's reading takes from /proc/<pid>/stat.
type procStatus struct {
	state byte
	ppid  string
	flags uint64
	times [4]time.Duration // utime, stime, cutime, cstime
	start int64            // clock ticks after boot
	rss   int64            // pages
}

type procReading struct {
	name string
	fd   int // its stat, open until the reading is checked
	st   procStatus
	pss  exec.Size
	keep bool // counted: not reaped while the job was read
}

// sample reads the job's processes: their CPU time and resident sets,
// and their PSS (which costs a walk of each one's page tables) when pss,
// if set, says so given the resident sets' sum and the count of
// processes. ok is false when the job's processes cannot be read (no
// descriptor of its /proc and no init pid, or its init is gone).
func (c *jobCgroup) sample(pss func(rss exec.Size, procs int) bool) (s jobSample, ok bool) {
	if c == nil {
		return s, false
	}
	if c.proc != nil {
		rc, err := c.proc.SyscallConn()
		if err != nil {
			return s, false
		}
		// Control keeps the descriptor open while it is used.
		rc.Control(func(fd uintptr) {
			s, ok = sampleProcs(int(fd), "1", func() []string { return procNames(int(fd)) }, pss)
		})
		return s, ok
	}
	if c.tree == 0 {
		return s, false
	}
	init := strconv.Itoa(c.tree)
	return sampleProcs(unix.AT_FDCWD, "/proc/"+init, func() []string {
		out := []string{"/proc/" + init}
		for _, p := range treePids(c.tree) {
			out = append(out, "/proc/"+p)
		}
		return out
	}, pss)
}

// sampleProcs reads the processes list names, under dir, whose first is
// the init: the init's own CPU time and memory are not the job's, the
// time of the children it reaped is.
func sampleProcs(dir int, init string, list func() []string, pss func(exec.Size, int) bool) (s jobSample, ok bool) {
	names := list()
	if len(names) == 0 || names[0] != init {
		return s, false
	}
	buf := make([]byte, 4096)
	rs := make([]procReading, 0, len(names))
	defer func() {
		for _, r := range rs {
			unix.Close(r.fd)
		}
	}()
	for _, n := range names {
		fd, err := unix.Openat(dir, n+"/stat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		r := procReading{name: n, fd: fd}
		var ok bool
		if r.st, ok = readStatus(fd, buf); !ok {
			unix.Close(fd)
			continue
		}
		if n != init {
			s.rss += exec.Size(r.st.rss) * pageSize
		}
		rs = append(rs, r)
	}
	if len(rs) == 0 || rs[0].name != init {
		return s, false
	}
	if s.pss = pss != nil && pss(s.rss, len(rs)-1); s.pss {
		for i := range rs[1:] {
			// Reading holds a process's memory: one that is exiting would
			// release it (a SysV segment it attached, say) only when the
			// reading ends.
			if r := &rs[i+1]; r.st.flags&pfExiting == 0 && r.st.state != 'Z' && r.st.state != 'X' {
				r.pss = readPSS(dir, r.name, buf)
			}
		}
	}
	// Which were reaped meanwhile, and which exited.
	for i := range rs {
		st, alive := readStatus(rs[i].fd, buf)
		rs[i].keep = alive
		if !alive || st.state == 'Z' || st.state == 'X' {
			rs[i].pss = 0
		}
	}
	s.stable = !s.pss || !startedMeanwhile(names, list())
	s.cpu = rs[0].st.times[2] + rs[0].st.times[3]
	byPid := make(map[string]*procReading, len(rs))
	for i := range rs {
		byPid[strings.TrimPrefix(rs[i].name, "/proc/")] = &rs[i]
	}
	vforked := vforkChildren(dir, rs[1:], byPid)
	for i := range rs[1:] {
		r := &rs[i+1]
		if !r.keep {
			continue
		}
		s.cpu += r.st.times[0] + r.st.times[1] + r.st.times[2] + r.st.times[3]
		if !vforked[r.name] {
			s.memory += r.pss
		}
	}
	return s, true
}

// startedMeanwhile says whether after lists a process before does not.
func startedMeanwhile(before, after []string) bool {
	seen := make(map[string]bool, len(before))
	for _, n := range before {
		seen[n] = true
	}
	for _, n := range after {
		if !seen[n] {
			return true
		}
	}
	return false
}

// vforkChildren are the children that run in their parent's memory (a
// vfork child, until it calls execve), so that it is counted once. /proc
// shows no memory's identity, so they are told by what it does show: the
// parent waits in the kernel's clone in uninterruptible sleep (its wchan;
// where the kernel does not name it, the sleep alone), and the child is
// its newest, has not called execve, and has the same resident set. One
// child per parent at most: a parent waits for one vfork at a time.
func vforkChildren(dir int, rs []procReading, byPid map[string]*procReading) map[string]bool {
	var out map[string]bool
	newest := map[*procReading]*procReading{}
	for i := range rs {
		r := &rs[i]
		p := byPid[r.st.ppid]
		if p == nil || p.st.state != 'D' || r.st.flags&pfForkNoExec == 0 || r.st.rss != p.st.rss {
			continue
		}
		if q := newest[p]; q == nil || r.st.start > q.st.start {
			newest[p] = r
		}
	}
	for p, r := range newest {
		if !inClone(dir, p.name) {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[r.name] = true
	}
	return out
}

// inClone says whether process name under dir sleeps in the kernel's
// clone (kernel_clone, or _do_fork before Linux 5.10, with
// wait_for_vfork_done inlined or not), or its wchan cannot be told.
func inClone(dir int, name string) bool {
	b, err := readAt(dir, name+"/wchan")
	switch w := strings.TrimSpace(string(b)); {
	case err != nil || w == "" || w == "0":
		return true
	default:
		return w == "kernel_clone" || w == "wait_for_vfork_done" || w == "_do_fork" || w == "do_fork"
	}
}

// readAt reads file name under dir.
func readAt(dir int, name string) ([]byte, error) {
	fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	buf := make([]byte, 256)
	n, err := unix.Read(fd, buf)
	if err != nil {
		return nil, err
	}
	return buf[:max(n, 0)], nil
}

// procNames lists the pids of the proc file system at dir.
func procNames(dir int) []string {
	fd, err := unix.Openat(dir, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	var out []string
	buf := make([]byte, 8192)
	for {
		n, err := unix.ReadDirent(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			break
		}
		var names []string
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
		for _, name := range names {
			if name != "" && name[0] >= '1' && name[0] <= '9' {
				out = append(out, name)
			}
		}
	}
	// /proc lists pids in increasing order: the init, 1, comes first.
	return out
}

// readStatus reads a /proc/<pid>/stat open at fd, from its start.
func readStatus(fd int, buf []byte) (procStatus, bool) {
	var st procStatus
	n, err := unix.Pread(fd, buf, 0)
	for err == unix.EINTR {
		n, err = unix.Pread(fd, buf, 0)
	}
	if err != nil || n <= 0 {
		return st, false
	}
	b := buf[:n]
	// The command (field 2) may hold spaces and parentheses: the fields
	// that follow come after its last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return st, false
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state), f[1] the ppid, f[6] the flags;
	// utime..cstime are fields 14..17, starttime 22, rss 24.
	if len(f) < 22 || len(f[0]) != 1 {
		return st, false
	}
	st.state, st.ppid = f[0][0], f[1]
	st.flags, err = strconv.ParseUint(f[6], 10, 64)
	if err != nil {
		return st, false
	}
	for k := range st.times {
		n, err := strconv.ParseInt(f[11+k], 10, 64)
		if err != nil {
			return st, false
		}
		st.times[k] = time.Duration(n) * clockTick
	}
	if st.start, err = strconv.ParseInt(f[19], 10, 64); err != nil {
		return st, false
	}
	if st.rss, err = strconv.ParseInt(f[21], 10, 64); err != nil {
		return st, false
	}
	return st, true
}

// readPSS is the proportional set size of process name under dir: each
// page it maps counted as its share among the processes that map it
// (smaps_rollup's Pss). Zero when it cannot be read (the process exited,
// or has no memory: a zombie).
func readPSS(dir int, name string, buf []byte) exec.Size {
	fd, err := unix.Openat(dir, name+"/smaps_rollup", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0
	}
	defer unix.Close(fd)
	var b []byte
	for {
		n, err := unix.Read(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			break
		}
		b = append(b, buf[:n]...)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Pss:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return exec.Size(kb) * exec.KiB
		}
	}
	return 0
}

// treePids lists the processes below the init pid, every generation.
func treePids(init int) []string {
	var out []string
	next := []int{init}
	for len(next) > 0 && len(out) < 1<<20 {
		pid := next[len(next)-1]
		next = next[:len(next)-1]
		for _, c := range procChildren(pid) {
			out = append(out, strconv.Itoa(c))
			next = append(next, c)
		}
	}
	return out
}

// procChildren lists the children of every thread of pid.
func procChildren(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		b, err := readFile(dir+"/"+t.Name(), "children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}
