package sandbox

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
)

// Without a CPU accounting cgroup (an ordinary user with no delegated
// cgroup v2 subtree, or Config.NoCgroups), RLIMIT_CPU bounds each process
// of a job on its own, and a job that forks keeps going: each child starts
// with a fresh allowance. The runner then measures the job from outside,
// as it would read the cgroup's counter: the CPU time of every process
// below the init, read from /proc.

// clockTick is the unit of /proc/<pid>/stat's times (USER_HZ, 100 on
// every Linux architecture Go supports).
const clockTick = 10 * time.Millisecond

// treeCPU is the CPU time used so far by the processes below the init pid:
// those running, and those that have exited and were waited for (their
// time is in their parent's cutime and cstime). The init's own time is
// not the job's. A process's stat is read before its children's, so a
// child reaped in between is missed, never counted twice: the figure errs
// low, and a job is never stopped early for it.
func treeCPU(init int) (time.Duration, bool) {
	var total time.Duration
	st, ok := procStat(init)
	if !ok {
		return 0, false
	}
	total += st[2] + st[3]
	var walk func(pid, depth int)
	walk = func(pid, depth int) {
		if depth > 64 {
			return
		}
		for _, c := range procChildren(pid) {
			st, ok := procStat(c)
			if !ok {
				continue
			}
			total += st[0] + st[1] + st[2] + st[3]
			walk(c, depth+1)
		}
	}
	walk(init, 0)
	return total, true
}

// treePids lists the processes below the init pid.
func treePids(init int) []string {
	var out []string
	var walk func(pid, depth int)
	walk = func(pid, depth int) {
		if depth > 64 {
			return
		}
		for _, c := range procChildren(pid) {
			out = append(out, strconv.Itoa(c))
			walk(c, depth+1)
		}
	}
	walk(init, 0)
	return out
}

// procStat returns utime, stime, cutime and cstime of pid.
func procStat(pid int) ([4]time.Duration, bool) {
	var out [4]time.Duration
	b, err := readFile("/proc/"+strconv.Itoa(pid), "stat")
	if err != nil {
		return out, false
	}
	// The command (field 2) may hold spaces and parentheses: the fields
	// that follow come after its last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return out, false
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state); utime..cstime are fields 14..17.
	if len(f) < 15 {
		return out, false
	}
	for k := range out {
		n, err := strconv.ParseInt(f[11+k], 10, 64)
		if err != nil {
			return out, false
		}
		out[k] = time.Duration(n) * clockTick
	}
	return out, true
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
