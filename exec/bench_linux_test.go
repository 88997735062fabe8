package exec_test

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/exec"
)

// BenchmarkSandboxOverhead measures the median cost the sandbox adds to one
// run of /bin/true against a bare os/exec of the same command, both in the
// same run. Reported: bare and sandboxed medians (ms) and their difference.
func BenchmarkSandboxOverhead(b *testing.B) {
	sb := newSandbox(b)
	ctx := context.Background()
	var bare, boxed []time.Duration
	for b.Loop() {
		t := time.Now()
		if err := osexec.Command("/bin/true").Run(); err != nil {
			b.Fatal(err)
		}
		bare = append(bare, time.Since(t))
		t = time.Now()
		res, err := sb.Run(ctx, exec.Job{Args: []string{"/bin/true"}})
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
}

// BenchmarkPoolPythonTest measures jobs per second through RunAll with the
// default parallelism on a trivial Python test, against the same jobs run
// one at a time with a bare os/exec.
func BenchmarkPoolPythonTest(b *testing.B) {
	sb := newSandbox(b)
	dir := b.TempDir()
	test := "import unittest\nclass T(unittest.TestCase):\n    def test_ok(self):\n        self.assertEqual(1 + 1, 2)\nunittest.main()\n"
	if err := os.WriteFile(filepath.Join(dir, "t.py"), []byte(test), 0o644); err != nil {
		b.Fatal(err)
	}
	const n = 32
	jobs := make([]exec.Job, n)
	for i := range jobs {
		jobs[i] = exec.Job{Args: []string{python, "-S", "-c", test}}
	}
	var bareTotal, poolTotal time.Duration
	for b.Loop() {
		t := time.Now()
		for range n {
			if err := osexec.Command(python, "-S", "-c", test).Run(); err != nil {
				b.Fatal(err)
			}
		}
		bareTotal += time.Since(t)
		t = time.Now()
		for i, o := range exec.RunAll(context.Background(), sb, jobs, 0) {
			if o.Err != nil || o.Result.Status != exec.StatusOK {
				b.Fatalf("job %d: %v %v %s", i, o.Result.Status, o.Err, o.Result.Stderr)
			}
		}
		poolTotal += time.Since(t)
	}
	iters := float64(b.N)
	b.ReportMetric(n*iters/poolTotal.Seconds(), "pool-jobs/s")
	b.ReportMetric(n*iters/bareTotal.Seconds(), "bare-serial-jobs/s")
	b.ReportMetric(bareTotal.Seconds()/poolTotal.Seconds(), "x-bare-serial")
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms2(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
