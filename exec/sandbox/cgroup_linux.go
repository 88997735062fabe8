package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/adaptbench/adaptbench/exec"
)

// Cgroup handling is written against cgroupfs directly rather than with a
// library such as containerd/cgroups: a job needs six files (a memory limit
// and its peak and OOM counters, a pids limit, a CPU usage counter, the
// process list), the v1/v2 hybrid of these machines needs detection per
// controller, and the library would bring systemd, D-Bus, eBPF and protobuf
// modules into every program that imports this package.

// cgroupLayout is where this process may create job cgroups, per controller.
// An empty directory means the controller is not available.
type cgroupLayout struct {
	memory  string // v1 memory hierarchy, or a v2 directory
	pids    string
	cpuacct string
	// sched is the v1 cpu controller's hierarchy: a group of its own makes
	// the scheduler share the CPUs fairly between jobs, however many
	// processes a job runs (a fork bomb gets one job's share).
	sched string
	v2    bool // memory/pids/cpu come from a cgroup2 directory
	memsw bool // v1 memory.memsw.limit_in_bytes exists
	note  string
}

var cgroupSeq atomic.Uint64

// detectCgroups finds, for each controller, the cgroup this process is in
// and checks that a child can be made there.
func detectCgroups() cgroupLayout {
	var l cgroupLayout
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		l.note = "no /proc/self/mountinfo"
		return l
	}
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		l.note = "no /proc/self/cgroup"
		return l
	}
	paths := selfCgroups(self)
	m := parseCgroupMounts(mounts)
	notes := l.useV1(m, paths)
	if l.memory == "" && l.pids == "" && m.v2mount != "" {
		notes = append(notes, l.useV2(cgroupBase(m.v2mount, m.v2root, paths[""]))...)
	}
	if l.memory == "" && l.pids == "" && m.v2mount != "" && os.Geteuid() == 0 {
		// cgroup v2 gives controllers only to the children of a cgroup with
		// no processes of its own (the no-internal-process rule): the
		// cgroup of a service or a login session can hold no job cgroups
		// unless delegated. Root makes them under the hierarchy's root
		// instead, as it does under its own cgroups with v1; the notes on
		// its own cgroup then no longer apply.
		ctl, _ := os.ReadFile(filepath.Join(m.v2mount, "cgroup.subtree_control"))
		have := strings.Fields(string(ctl))
		if contains(have, "memory") && contains(have, "pids") && probeCgroupDir(m.v2mount) == nil {
			l.memory, l.pids, l.cpuacct, l.v2 = m.v2mount, m.v2mount, m.v2mount, true
			kept := notes[:0]
			for _, n := range notes {
				if !strings.HasPrefix(n, "cgroup2 ") {
					kept = append(kept, n)
				}
			}
			notes = kept
		}
	}
	for _, dir := range []string{l.memory, l.pids, l.cpuacct, l.sched} {
		removeStaleCgroups(dir)
	}
	if l.memory == "" {
		notes = append(notes, "no usable memory cgroup: memory is bounded per job by its processes' total PSS read at each poll, and per process with RLIMIT_AS")
	}
	if l.pids == "" {
		notes = append(notes, "no usable pids cgroup: processes are bounded with RLIMIT_NPROC, counted in the job's own user namespace")
	}
	l.note = strings.Join(notes, "; ")
	return l
}

// selfCgroups reads /proc/self/cgroup: controller (or "" for v2) -> path.
func selfCgroups(self []byte) map[string]string {
	paths := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(self)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[1] == "" {
			paths[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			paths[c] = parts[2]
		}
	}
	return paths
}

// cgroupMounts are the cgroup file systems of /proc/self/mountinfo.
type cgroupMounts struct {
	v2mount, v2root string
	v1              map[string][2]string // controller -> {mountpoint, root}
}

// parseCgroupMounts reads mountinfo: id parent major:minor root mountpoint
// opts ... - fstype source superopts.
func parseCgroupMounts(mounts []byte) cgroupMounts {
	m := cgroupMounts{v1: map[string][2]string{}}
	sc := bufio.NewScanner(bytes.NewReader(mounts))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		sep := -1
		for i, x := range f {
			if x == "-" {
				sep = i
				break
			}
		}
		if sep < 0 || sep+3 >= len(f) || len(f) < 5 {
			continue
		}
		fstype, super := f[sep+1], f[sep+3]
		switch fstype {
		case "cgroup2":
			m.v2mount, m.v2root = f[4], f[3]
		case "cgroup":
			for _, o := range strings.Split(super, ",") {
				if o == "memory" || o == "pids" || o == "cpuacct" || o == "cpu" {
					m.v1[o] = [2]string{f[4], f[3]}
				}
			}
		}
	}
	return m
}

// cgroupBase is the directory of the cgroup cur of a hierarchy mounted at
// mnt from its root.
func cgroupBase(mnt, root, cur string) string {
	rel, err := filepath.Rel(root, cur)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = "."
	}
	return filepath.Join(mnt, rel)
}

// useV1 takes this process's cgroup v1 controllers where a child can be
// made, and returns notes on those that cannot.
func (l *cgroupLayout) useV1(m cgroupMounts, paths map[string]string) (notes []string) {
	for _, c := range []string{"memory", "pids", "cpuacct", "cpu"} {
		mp, ok := m.v1[c]
		if !ok {
			continue
		}
		dir := cgroupBase(mp[0], mp[1], paths[c])
		if err := probeCgroupDir(dir); err != nil {
			notes = append(notes, fmt.Sprintf("%s cgroup %s: %v", c, dir, err))
			continue
		}
		switch c {
		case "memory":
			l.memory = dir
			_, err := os.Stat(filepath.Join(dir, "memory.memsw.limit_in_bytes"))
			l.memsw = err == nil
		case "pids":
			l.pids = dir
		case "cpuacct":
			l.cpuacct = dir
		case "cpu":
			l.sched = dir
		}
	}
	return notes
}

// useV2 takes this process's own cgroup v2 directory dir where it has (or
// can be given) the memory and pids controllers, and returns notes on why
// it cannot.
func (l *cgroupLayout) useV2(dir string) (notes []string) {
	ctl, _ := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
	have := strings.Fields(string(ctl))
	if !contains(have, "memory") || !contains(have, "pids") {
		if err := enableV2(dir); err != nil {
			notes = append(notes, fmt.Sprintf("cgroup2 %s: %v", dir, err))
		}
		ctl, _ = os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
		have = strings.Fields(string(ctl))
	}
	if !contains(have, "memory") || !contains(have, "pids") {
		return append(notes, fmt.Sprintf("cgroup2 %s delegates only %q", dir, strings.TrimSpace(string(ctl))))
	}
	if err := probeCgroupDir(dir); err != nil {
		return append(notes, fmt.Sprintf("cgroup2 %s: %v", dir, err))
	}
	l.memory, l.pids, l.cpuacct, l.v2 = dir, dir, dir, true
	return notes
}

// enableV2 makes the cgroup v2 directory dir, this process's own, able to
// hold job cgroups with memory and pids limits, where it is delegated to
// this process's user (systemd's user@.service delegates memory, pids and
// cpu; so does a unit or scope with Delegate=yes) but its controllers are
// not yet enabled for children. The "no internal processes" rule of
// cgroup v2 forbids that while dir holds processes, so this process moves
// first into a leaf of its own, adaptbench-host-<pid>, as rootless
// container engines do. Where dir holds other processes too, nothing is
// changed and the error says so.
func enableV2(dir string) error {
	ctl, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
	if err != nil {
		return err
	}
	avail := strings.Fields(string(ctl))
	if !contains(avail, "memory") || !contains(avail, "pids") {
		return fmt.Errorf("delegates only %q", strings.TrimSpace(string(ctl)))
	}
	if unix.Access(filepath.Join(dir, "cgroup.subtree_control"), unix.W_OK) != nil ||
		unix.Access(filepath.Join(dir, "cgroup.procs"), unix.W_OK) != nil {
		return errors.New("not delegated to this user (cgroup.subtree_control or cgroup.procs is not writable)")
	}
	procs, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return err
	}
	self := strconv.Itoa(os.Getpid())
	for _, p := range strings.Fields(string(procs)) {
		if p != self {
			return fmt.Errorf("holds processes other than this one (%s): run the program in a cgroup of its own, e.g. systemd-run --user --scope -p Delegate=yes", p)
		}
	}
	leaf := filepath.Join(dir, fmt.Sprintf("adaptbench-host-%d", os.Getpid()))
	if err := os.Mkdir(leaf, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	if err := writeFile(leaf, "cgroup.procs", self); err != nil {
		os.Remove(leaf)
		return err
	}
	want := "+memory +pids"
	if contains(avail, "cpu") {
		want += " +cpu"
	}
	if err := writeFile(dir, "cgroup.subtree_control", want); err != nil {
		writeFile(dir, "cgroup.procs", self)
		os.Remove(leaf)
		return fmt.Errorf("enable %s for job cgroups: %w", want, err)
	}
	return nil
}

// removeStaleCgroups removes the empty job cgroups that processes no longer
// running left in dir (a program that exited without closing its runners).
func removeStaleCgroups(dir string) {
	if dir == "" {
		return
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), "adaptbench-")
		if !ok || !e.IsDir() {
			continue
		}
		rest = strings.TrimPrefix(rest, "host-") // enableV2's leaf
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
			continue // still running
		}
		os.Remove(filepath.Join(dir, e.Name())) // fails, harmlessly, if not empty
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func probeCgroupDir(dir string) error {
	p := filepath.Join(dir, fmt.Sprintf("adaptbench-probe-%d", os.Getpid()))
	if err := os.Mkdir(p, 0o755); err != nil {
		return err
	}
	return os.Remove(p)
}

// jobCgroup is the set of cgroups of one job.
type jobCgroup struct {
	layout *cgroupLayout
	dirs   []string // every directory created, for add and remove
	memory string
	pids   string
	cpu    string
	// tree is the init's pid, and proc the job's /proc (its PID
	// namespace's, nil for an unisolated job): with no CPU or memory
	// cgroup, the job's figures are read there (jobprocs_linux.go).
	tree int
	proc *os.File
	// The counters' values when the job began (rebase): a reused init
	// keeps its cgroups from job to job.
	cpuBase           time.Duration
	oomBase, pidsBase int64
	// What setLimits last wrote, and the init's own tasks (its threads)
	// when its job began: a reused init's limits are written again only
	// when they change.
	memLimit  exec.Size
	pidsMax   int
	initTasks int64
}

// rebase starts the job's figures again from here: CPU time, OOM kills and
// process-limit hits are counted from their present values, and the
// memory peak is reset (cgroup v1, where writing 0 sets it to the present
// usage). Every process of the last job must be gone.
func (c *jobCgroup) rebase() error {
	if c == nil {
		return nil
	}
	if c.layout.v2 {
		return errors.New("exec: cgroup v2 has no memory peak to reset")
	}
	c.cpuBase, c.oomBase, c.pidsBase = 0, 0, 0
	c.cpuBase, _ = c.cpuUsage()
	c.oomBase = c.oomCount()
	c.pidsBase = c.pidsEvents()
	c.initTasks = 0
	if c.pids != "" {
		c.initTasks, _ = readInt(c.pids, "pids.current")
	}
	if c.memory != "" {
		return writeFile(c.memory, "memory.max_usage_in_bytes", "0")
	}
	return nil
}

// create makes an empty set of cgroups for one job, with no limits yet.
func (l *cgroupLayout) create() (*jobCgroup, error) {
	if l.memory == "" && l.pids == "" && l.cpuacct == "" {
		return nil, nil
	}
	name := fmt.Sprintf("adaptbench-%d-%d", os.Getpid(), cgroupSeq.Add(1))
	c := &jobCgroup{layout: l}
	mk := func(base string) (string, error) {
		if base == "" {
			return "", nil
		}
		d := filepath.Join(base, name)
		for _, x := range c.dirs {
			if x == d {
				return d, nil
			}
		}
		if err := os.Mkdir(d, 0o755); err != nil {
			return "", err
		}
		c.dirs = append(c.dirs, d)
		return d, nil
	}
	var err error
	if c.memory, err = mk(l.memory); err != nil {
		return nil, c.fail(err)
	}
	if c.pids, err = mk(l.pids); err != nil {
		return nil, c.fail(err)
	}
	if c.cpu, err = mk(l.cpuacct); err != nil {
		return nil, c.fail(err)
	}
	if _, err = mk(l.sched); err != nil {
		return nil, c.fail(err)
	}
	return c, nil
}

// setLimits writes the job's memory and process limits.
func (c *jobCgroup) setLimits(lim exec.Limits) error {
	if c == nil {
		return nil
	}
	var err error
	memory := lim.Memory
	if !set(memory) {
		memory = exec.Unlimited
	}
	// A new cgroup has no limit; a reused one the last job's.
	if c.memory != "" && memory != c.memLimit && (set(memory) || c.memLimit != 0) {
		mem := strconv.FormatUint(uint64(memory), 10)
		if !set(memory) {
			mem = "-1" // v1
			if c.layout.v2 {
				mem = "max"
			}
		}
		if c.layout.v2 {
			err = writeFile(c.memory, "memory.max", mem)
			if err == nil {
				err = writeFile(c.memory, "memory.swap.max", "0")
				if errors.Is(err, os.ErrNotExist) {
					err = nil
				}
			}
		} else {
			// The memory limit may not exceed memory+swap's: a reused
			// init's cgroup raises both, memory+swap first.
			if c.layout.memsw {
				writeFile(c.memory, "memory.memsw.limit_in_bytes", mem)
			}
			err = writeFile(c.memory, "memory.limit_in_bytes", mem)
			if err == nil && c.layout.memsw {
				err = writeFile(c.memory, "memory.memsw.limit_in_bytes", mem)
			}
		}
		if err != nil {
			return fmt.Errorf("exec: set memory limit: %w", err)
		}
		c.memLimit = memory
	}
	if c.pids != "" && lim.Processes <= 0 && c.pidsMax != 0 {
		if err := writeFile(c.pids, "pids.max", "max"); err != nil {
			return fmt.Errorf("exec: set process limit: %w", err)
		}
		c.pidsMax = 0
	}
	if c.pids != "" && lim.Processes > 0 {
		// More for the init process: its threads (the Go runtime's) are
		// tasks of the cgroup too, and one to spare should the runtime
		// start another while the job runs.
		if c.initTasks <= 0 {
			init, ok := readInt(c.pids, "pids.current")
			if !ok {
				init = 1
			}
			c.initTasks = init
		}
		if want := lim.Processes + int(c.initTasks) + 1; want != c.pidsMax {
			if err := writeFile(c.pids, "pids.max", strconv.Itoa(want)); err != nil {
				return fmt.Errorf("exec: set process limit: %w", err)
			}
			c.pidsMax = want
		}
	}
	return nil
}

func (c *jobCgroup) fail(err error) error {
	c.remove()
	return fmt.Errorf("exec: create cgroup: %w", err)
}

// writeFile and readFile use the system calls directly: a job's cgroup
// files are read and written on its critical path, where os.File's
// bookkeeping (fstat, the poller) costs as much as the reading.
func writeFile(dir, name, value string) error {
	p := filepath.Join(dir, name)
	fd, err := unix.Open(p, unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: p, Err: err}
	}
	defer unix.Close(fd)
	if _, err := unix.Write(fd, []byte(value)); err != nil {
		return &os.PathError{Op: "write", Path: p, Err: err}
	}
	return nil
}

func readFile(dir, name string) ([]byte, error) {
	p := filepath.Join(dir, name)
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: p, Err: err}
	}
	defer unix.Close(fd)
	var out []byte
	buf := make([]byte, 1024)
	for {
		n, err := unix.Read(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: p, Err: err}
		}
		if n == 0 {
			return out, nil
		}
		out = append(out, buf[:n]...)
	}
}

func readInt(dir, name string) (int64, bool) {
	b, err := readFile(dir, name)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n, err == nil
}

// readKey reads "key value" lines (memory.oom_control, memory.events, cpu.stat).
func readKey(dir, name, key string) (int64, bool) {
	b, err := readFile(dir, name)
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+" "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// add moves pid into every cgroup of the job.
func (c *jobCgroup) add(pid int) error {
	if c == nil {
		return nil // no cgroups: limits rest on rlimits
	}
	for _, d := range c.dirs {
		if err := writeFile(d, "cgroup.procs", strconv.Itoa(pid)); err != nil {
			return fmt.Errorf("exec: add process to cgroup %s: %w", d, err)
		}
	}
	return nil
}

func (c *jobCgroup) cpuUsage() (time.Duration, bool) {
	if c != nil && c.cpu == "" {
		s, ok := c.sample(nil)
		return s.cpu, ok
	}
	if c == nil || c.cpu == "" {
		return 0, false
	}
	if c.layout.v2 {
		us, ok := readKey(c.cpu, "cpu.stat", "usage_usec")
		return time.Duration(us)*time.Microsecond - c.cpuBase, ok
	}
	ns, ok := readInt(c.cpu, "cpuacct.usage")
	return time.Duration(ns) - c.cpuBase, ok
}

// countsMemory says whether the job's memory is read from its processes
// (no memory cgroup).
func (c *jobCgroup) countsMemory() bool {
	return c != nil && c.memory == "" && (c.proc != nil || c.tree != 0)
}

func (c *jobCgroup) peakMemory() (exec.Size, bool) {
	if c == nil || c.memory == "" {
		return 0, false
	}
	name := "memory.max_usage_in_bytes"
	if c.layout.v2 {
		name = "memory.peak"
	}
	n, ok := readInt(c.memory, name)
	return exec.Size(n), ok
}

func (c *jobCgroup) oomKilled() bool { return c.oomCount() > 0 }

// oomCount is how often the memory limit has killed a process of the
// cgroup (or, where the kernel does not count that, hit the limit) since
// it was made.
func (c *jobCgroup) oomCount() int64 {
	if c == nil || c.memory == "" {
		return 0
	}
	if c.layout.v2 {
		n, _ := readKey(c.memory, "memory.events", "oom_kill")
		return n - c.oomBase
	}
	if n, ok := readKey(c.memory, "memory.oom_control", "oom_kill"); ok {
		return n - c.oomBase
	}
	n, _ := readInt(c.memory, "memory.failcnt")
	return n - c.oomBase
}

func (c *jobCgroup) pidsLimited() bool { return c.pidsEvents() > 0 }

// pidsEvents is how often the process limit was hit since the job began.
func (c *jobCgroup) pidsEvents() int64 {
	if c == nil || c.pids == "" {
		return 0
	}
	// pids.events has the same "max N" line in v1 and v2.
	n, _ := readKey(c.pids, "pids.events", "max")
	return n - c.pidsBase
}

// killAll kills every process in the job's cgroups until none is left.
func (c *jobCgroup) killAll() {
	if c == nil {
		return
	}
	for _, d := range c.dirs {
		if c.layout.v2 {
			if writeFile(d, "cgroup.kill", "1") == nil {
				continue
			}
		}
		for range 50 {
			b, err := os.ReadFile(filepath.Join(d, "cgroup.procs"))
			if err != nil || len(bytes.TrimSpace(b)) == 0 {
				break
			}
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// remove deletes the job's cgroups; it retries briefly while the kernel
// finishes tearing down the last processes.
func (c *jobCgroup) remove() error {
	if c == nil {
		return nil
	}
	if c.proc != nil {
		c.proc.Close()
	}
	var errs []error
	for _, d := range c.dirs {
		var err error
		for i := range 100 {
			if err = os.Remove(d); err == nil || errors.Is(err, os.ErrNotExist) {
				err = nil
				break
			}
			time.Sleep(time.Duration(i+1) * 100 * time.Microsecond)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
