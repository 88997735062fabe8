package sandbox

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/internal/jobkit"
)

// watchdog kills a running job at its limits or when its context ends,
// and says why.
type watchdog struct {
	reason atomic.Int32
	// polled is the job's CPU time when last read: a job killed from
	// outside has no report, and without a CPU cgroup no figure after.
	polled atomic.Int64
	// peak is the largest memory of the job's processes together read
	// (with no memory cgroup: see jobprocs_linux.go).
	peak atomic.Int64
	// rssHigh is the largest sum of their resident sets for which their
	// PSS was read (the watchdog's goroutine's alone).
	rssHigh exec.Size
	// pssNext is when their PSS may be read again.
	pssNext time.Time
	done    chan struct{}
	wg      sync.WaitGroup
}

// watch starts a watchdog over a job that has just started.
func watch(ctx context.Context, lim exec.Limits, cg *jobCgroup, budget *jobkit.Budget, kill func()) *watchdog {
	w := &watchdog{done: make(chan struct{})}
	// With no memory cgroup, the job's processes are read together at
	// each poll, and their memory is held to the limit there.
	memory := cg.countsMemory()
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		wall := time.NewTimer(lim.WallTime)
		defer wall.Stop()
		var tick <-chan time.Time
		if lim.CPUTime > 0 || (memory && set(lim.Memory)) {
			period := 50 * time.Millisecond
			if lim.CPUTime > 0 {
				period = min(max(lim.CPUTime/20, 5*time.Millisecond), period)
			}
			t := time.NewTicker(period)
			defer t.Stop()
			tick = t.C
		}
		if lim.WallTime < 0 {
			wall.Stop()
		}
		for {
			select {
			case <-w.done:
				return
			case <-ctx.Done():
				w.reason.CompareAndSwap(0, int32(reasonCanceled))
			case <-wall.C:
				w.reason.CompareAndSwap(0, int32(reasonWall))
			case <-budget.Over():
				w.reason.CompareAndSwap(0, int32(reasonOutput))
			case <-tick:
				why := w.poll(cg, lim, memory)
				if why == reasonNone {
					continue
				}
				w.reason.CompareAndSwap(0, int32(why))
			}
			kill()
			return
		}
	}()
	return w
}

// poll reads the job's CPU time, and its processes' memory when memory
// is set, and says which limit it is over, if any. Their PSS costs a walk
// of their page tables (about a millisecond for a process of 32 MiB on a
// busy machine): it is read only when their resident sets together
// (never less, but for the kernel's counters' lag, allowed for) are over
// the limit, or above any sum read before (the peak may have grown), and
// for a tenth of the time at most, so that a job whose processes share
// much (each one's resident set counting it all) costs the host little
// more. A PSS reading during which a process started may count shared
// pages more than once (see jobprocs_linux.go): it is taken again, a few
// times at most.
func (w *watchdog) poll(cg *jobCgroup, lim exec.Limits, memory bool) killReason {
	var used time.Duration
	var s jobSample
	ok := false
	if memory {
		pss := func(rss exec.Size, procs int) bool {
			return time.Now().After(w.pssNext) &&
				(rss > w.rssHigh || (set(lim.Memory) && rss+exec.Size(procs)*exec.MiB > lim.Memory))
		}
		start := time.Now()
		for range 3 {
			if s, ok = cg.sample(pss); !ok || s.stable {
				break
			}
		}
		if ok && s.pss {
			w.pssNext = time.Now().Add(9 * time.Since(start))
			w.rssHigh = max(w.rssHigh, s.rss)
			if int64(s.memory) > w.peak.Load() {
				w.peak.Store(int64(s.memory))
			}
		}
	}
	if cg.cpu != "" || !memory {
		used, _ = cg.cpuUsage()
	} else if ok {
		used = s.cpu
	}
	w.polled.Store(int64(max(used, time.Duration(w.polled.Load()))))
	switch {
	case ok && s.pss && set(lim.Memory) && s.memory > lim.Memory:
		return reasonMemory
	case lim.CPUTime > 0 && used >= lim.CPUTime:
		return reasonCPU
	}
	return reasonNone
}

// stop ends the watch once the job's report came or the init ended.
func (w *watchdog) stop() {
	close(w.done)
	w.wg.Wait()
}
