package exec_test

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/exec"
)

// hostCPU is the CPU time of this process and of the children it waited
// for (the go command, test2json).
func hostCPU() time.Duration {
	var self, children syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(children.Utime) + tv(children.Stime)
}

// BenchmarkGoTestCheck runs one GoTest check a loop: a changed answer
// (so that its package compiles again, as each model answer does) built
// on the host and its two tests run in the sandbox. It reports the wall
// time, the host's CPU time (the build, test2json, this process) and the
// job's, per check.
func BenchmarkGoTestCheck(b *testing.B) {
	requireGo(b)
	ws := b.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("go.mod", "module example.com/x\n\ngo 1.22\n")
	write("x_test.go", "package x\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n\nfunc TestAddZero(t *testing.T) {\n\tif Add(0, 3) != 3 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n")
	r := driverSandbox(b)
	var host, job, wall time.Duration
	n := 0
	for b.Loop() {
		write("x.go", fmt.Sprintf("package x\n\nconst v = %d\n\nfunc Add(a, b int) int { return a + b + v - v }\n", n))
		h0, t0 := hostCPU(), time.Now()
		s, err := exec.GoTest{}.Test(b.Context(), r, exec.TestSpec{Dir: ws})
		if err != nil || s.Count(exec.TestPassed) != 2 {
			b.Fatalf("GoTest: %v %+v", err, s)
		}
		wall += time.Since(t0)
		host += hostCPU() - h0
		job += s.Run.CPUTime
		n++
	}
	ms := func(d time.Duration) float64 { return d.Seconds() * 1e3 / float64(n) }
	b.ReportMetric(ms(wall), "wall-ms/check")
	b.ReportMetric(ms(host), "host-cpu-ms/check")
	b.ReportMetric(ms(job), "job-cpu-ms/check")
}

// BenchmarkJUnitCheck runs the JUnit 5 fixture a loop and reports the
// wall time and the test JVM's CPU time per check (javac's, in the
// sandbox, is the build's and the same either way).
func BenchmarkJUnitCheck(b *testing.B) {
	requireJava(b)
	r := driverSandbox(b)
	ws := driverFixture(b, "junit5")
	if _, err := (exec.JUnit{}).Test(b.Context(), r, exec.TestSpec{Dir: ws}); err != nil {
		b.Fatal(err)
	}
	var run, wall time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		s, err := exec.JUnit{}.Test(b.Context(), r, exec.TestSpec{Dir: ws})
		if err != nil || s.Compile != nil || len(s.Tests) == 0 {
			b.Fatalf("JUnit: %v", err)
		}
		wall += time.Since(t0)
		run += s.Run.CPUTime
		n++
	}
	ms := func(d time.Duration) float64 { return d.Seconds() * 1e3 / float64(n) }
	b.ReportMetric(ms(wall), "wall-ms/check")
	b.ReportMetric(ms(run), "jvm-cpu-ms/check")
}
