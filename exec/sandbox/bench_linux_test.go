package sandbox_test

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// BenchmarkSandboxOverhead measures the median cost the sandbox adds to one
// run of a command against a bare os/exec of the same command, the two
// interleaved in the same run. Reported: bare and sandboxed medians (ms),
// their difference and their ratio; and CPU time per run, which the load
// of the machine does not change as it does wall time: the bare command's
// (bare-cpu-ms), the sandboxed job's with its init, every init the runner
// started, reused and ended included (sandbox-cpu-ms, from the rusage of
// this process's children once the runner is closed, less the bare
// commands'), and this process's own for both runs (host-cpu-ms).
func BenchmarkSandboxOverhead(b *testing.B) {
	for _, bc := range []struct {
		name  string
		args  []string
		files int // a workspace of this many 4 KiB files (a test suite's)
	}{
		{"true", []string{"/bin/true"}, 0},
		{"python", []string{python, "-S", "-c", "pass"}, 0},
		{"python-workspace", []string{python, "-S", "-c", "pass"}, 8},
	} {
		b.Run(bc.name, func(b *testing.B) {
			newSandbox(b) // skips where there is no sandbox
			var self0, kids0 syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &self0)
			syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids0)
			sb, err := sandbox.New(nil)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			dir := ""
			if bc.files > 0 {
				dir = b.TempDir()
				for i := range bc.files {
					if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.py", i)), make([]byte, 4096), 0o644); err != nil {
						b.Fatal(err)
					}
				}
			}
			var bare, boxed []time.Duration
			var bareCPU time.Duration
			for b.Loop() {
				t := time.Now()
				cmd := osexec.Command(bc.args[0], bc.args[1:]...)
				cmd.Dir = dir
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				bare = append(bare, time.Since(t))
				bareCPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				t = time.Now()
				res, err := sb.Run(ctx, exec.Job{Dir: dir, Args: bc.args})
				if err != nil || res.Status != exec.StatusOK {
					b.Fatalf("%v %v", res.Status, err)
				}
				boxed = append(boxed, time.Since(t))
			}
			sb.Close()
			var self1, kids1 syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &self1)
			syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids1)
			n := float64(len(bare))
			b.ReportMetric(ms2(bareCPU)/n, "bare-cpu-ms")
			b.ReportMetric(ms2(cpuTime(kids1)-cpuTime(kids0)-bareCPU)/n, "sandbox-cpu-ms")
			b.ReportMetric(ms2(cpuTime(self1)-cpuTime(self0))/n, "host-cpu-ms")
			mb, ms := median(bare), median(boxed)
			b.ReportMetric(ms2(mb), "bare-ms")
			b.ReportMetric(ms2(ms), "sandbox-ms")
			b.ReportMetric(ms2(ms-mb), "overhead-ms")
			b.ReportMetric(float64(ms)/float64(mb), "x-bare")
		})
	}
}

// BenchmarkPoolPythonTest measures jobs per second run at once, one per
// CPU (exec.DefaultParallelism), on a trivial Python unittest, against the same jobs
// run with a bare os/exec through the same pool in the same run.
func BenchmarkPoolPythonTest(b *testing.B) {
	sb := newSandbox(b)
	test := "import unittest\nclass T(unittest.TestCase):\n    def test_ok(self):\n        self.assertEqual(1 + 1, 2)\nunittest.main()\n"
	const n = 32
	jobs := make([]exec.Job, n)
	for i := range jobs {
		jobs[i] = exec.Job{Args: []string{python, "-S", "-c", test}}
	}
	bare := exec.RunnerFunc(func(ctx context.Context, j exec.Job) (exec.Result, error) {
		err := osexec.CommandContext(ctx, j.Args[0], j.Args[1:]...).Run()
		if err != nil {
			return exec.Result{Status: exec.StatusExit}, nil
		}
		return exec.Result{Status: exec.StatusOK}, nil
	})
	var bareTotal, poolTotal time.Duration
	run := func(r exec.Runner) time.Duration {
		t := time.Now()
		runAll(b, r, jobs)
		return time.Since(t)
	}
	for b.Loop() {
		bareTotal += run(bare)
		poolTotal += run(sb)
	}
	iters := float64(b.N)
	b.ReportMetric(n*iters/poolTotal.Seconds(), "sandbox-jobs/s")
	b.ReportMetric(n*iters/bareTotal.Seconds(), "bare-jobs/s")
	b.ReportMetric(poolTotal.Seconds()/bareTotal.Seconds(), "x-bare-time")
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func cpuTime(ru syscall.Rusage) time.Duration {
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func ms2(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// runAll runs every job with r, exec.DefaultParallelism() at once, and
// fails b unless each passed.
func runAll(b *testing.B, r exec.Runner, jobs []exec.Job) {
	var g errgroup.Group
	g.SetLimit(exec.DefaultParallelism())
	for i, j := range jobs {
		g.Go(func() error {
			res, err := r.Run(context.Background(), j)
			if err != nil || res.Status != exec.StatusOK {
				return fmt.Errorf("job %d: %v %v %s", i, res.Status, err, res.Stderr)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		b.Fatal(err)
	}
}
