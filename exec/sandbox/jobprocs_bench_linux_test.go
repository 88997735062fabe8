package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/adaptbench/adaptbench/exec"
)

// BenchmarkJobPoll measures what one poll of a job's processes costs the
// host in CPU time (this thread's, which the machine's load does not
// change as it does wall time), for a job of n Python processes of 16 MiB
// each, with no cgroups (Config.NoCgroups): "tree" is the walk of the
// process tree from the init the runner made before (CPU time only, its
// depth limited to 64: tree64 below), "cpu" the reading of every process
// of the job's PID namespace (CPU time and resident sets: every poll),
// "pss" the same with each process's PSS (a poll whose resident sets are
// over the limit or at a new high). Reported: cpu-µs/poll, and
// cpu-ms/job-s, the cost per second of a job at the 50 ms poll of a job
// with the default CPU limit.
func BenchmarkJobPoll(b *testing.B) {
	for _, n := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("procs=%d", n), func(b *testing.B) {
			cg, stop := startHeldJob(b, n)
			defer stop()
			for _, m := range []struct {
				name string
				poll func() bool
			}{
				{"tree", func() bool { _, ok := tree64(cg.tree); return ok }},
				{"cpu", func() bool { _, ok := cg.sample(func(exec.Size, int) bool { return false }); return ok }},
				{"pss", func() bool {
					s, ok := cg.sample(func(exec.Size, int) bool { return true })
					return ok && s.memory > exec.Size(n)*16*exec.MiB
				}},
			} {
				b.Run(m.name, func(b *testing.B) {
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					t0 := threadCPU()
					for b.Loop() {
						if !m.poll() {
							b.Fatal("the job's processes could not be read")
						}
					}
					per := (threadCPU() - t0) / time.Duration(b.N)
					b.ReportMetric(float64(per)/float64(time.Microsecond), "cpu-µs/poll")
					b.ReportMetric(float64(per*20)/float64(time.Millisecond), "cpu-ms/job-s")
				})
			}
		})
	}
}

// startHeldJob starts a sandboxed job, with no cgroups, of n Python
// processes that each hold 16 MiB, and returns its cgroup (the handle
// of its processes) once they all hold it; stop ends it.
func startHeldJob(b *testing.B, n int) (*jobCgroup, func()) {
	p := newProcRunner(true, &Config{NoCgroups: true})
	prog := `import os, sys, time
b = bytes([1]) * (16 << 20)
for i in range(int(sys.argv[1]) - 1):
    if os.fork() == 0:
        c = bytes([2]) * (16 << 20)
        time.sleep(600)
        os._exit(0)
time.sleep(1)
print("ready", flush=True)
time.sleep(600)
`
	ctx, cancel := context.WithCancel(context.Background())
	outR, outW := io.Pipe()
	cgs := make(chan *jobCgroup, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.runWith(ctx, exec.Job{Args: []string{"/usr/bin/python3", "-c", prog, strconv.Itoa(n)}, Stdout: outW,
			Limits: exec.Limits{CPUTime: -1, WallTime: 10 * time.Minute, Memory: exec.Unlimited}},
			runOpts{started: func(cg *jobCgroup) { cgs <- cg }})
		outW.Close()
	}()
	stop := func() { cancel(); <-done; p.close() }
	if line, err := bufio.NewReader(outR).ReadString('\n'); err != nil || line != "ready\n" {
		stop()
		b.Fatalf("the job did not start: %q %v", line, err)
	}
	go io.Copy(io.Discard, outR)
	return <-cgs, stop
}

func threadCPU() time.Duration {
	var ru unix.Rusage
	unix.Getrusage(unix.RUSAGE_THREAD, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// tree64 is how the runner read a job's CPU time with no cgroup before
// it read the job's PID namespace: the init's descendants, to a depth of
// 64, from the host's /proc (kept here as the benchmark's baseline).
func tree64(init int) (time.Duration, bool) {
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

// procStat returns utime, stime, cutime and cstime of pid (as the runner
// read them before).
func procStat(pid int) ([4]time.Duration, bool) {
	fd, err := unix.Open("/proc/"+strconv.Itoa(pid)+"/stat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return [4]time.Duration{}, false
	}
	defer unix.Close(fd)
	st, ok := readStatus(fd, make([]byte, 4096))
	return st.times, ok
}
