package exec_test

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/exec"
)

// BenchmarkSandboxOverhead measures the median cost the sandbox adds to one
// run of a command against a bare os/exec of the same command, the two
// interleaved in the same run. Reported: bare and sandboxed medians (ms),
// their difference and their ratio.
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
			sb := newSandbox(b)
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
			for b.Loop() {
				t := time.Now()
				cmd := osexec.Command(bc.args[0], bc.args[1:]...)
				cmd.Dir = dir
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				bare = append(bare, time.Since(t))
				t = time.Now()
				res, err := sb.Run(ctx, exec.Job{Dir: dir, Args: bc.args})
				if err != nil || res.Status != exec.StatusOK {
					b.Fatalf("%v %v", res.Status, err)
				}
				boxed = append(boxed, time.Since(t))
			}
			mb, ms := median(bare), median(boxed)
			b.ReportMetric(ms2(mb), "bare-ms")
			b.ReportMetric(ms2(ms), "sandbox-ms")
			b.ReportMetric(ms2(ms-mb), "overhead-ms")
			b.ReportMetric(float64(ms)/float64(mb), "x-bare")
		})
	}
}

// BenchmarkPoolPythonTest measures jobs per second through RunAll with the
// default parallelism on a trivial Python unittest, against the same jobs
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
		for i, o := range exec.RunAll(context.Background(), r, jobs, 0) {
			if o.Err != nil || o.Result.Status != exec.StatusOK {
				b.Fatalf("job %d: %v %v %s", i, o.Result.Status, o.Err, o.Result.Stderr)
			}
		}
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

func ms2(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
