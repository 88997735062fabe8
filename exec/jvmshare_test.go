package exec_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/exec"
)

// outcomes is a suite's tests without their durations.
func outcomes(s *exec.Suite) []exec.TestResult {
	var out []exec.TestResult
	for _, r := range s.Tests {
		r.Duration = 0
		out = append(out, r)
	}
	return out
}

// TestJUnitClassSharing runs the JUnit fixture with the class-data sharing
// archives, forced on (-Xshare:on makes a JVM that cannot map its archive,
// in the sandbox, fail to start), and without them: the same outcomes. It
// then damages the test JVM's archive: the default flags run without it,
// with the same outcomes and nothing about it in the output.
func TestJUnitClassSharing(t *testing.T) {
	requireJava(t)
	dir := t.TempDir()
	defer exec.SetShareDir(dir)()
	spec := func() exec.TestSpec { return exec.TestSpec{Dir: driverFixture(t, "junit5")} }

	plain := runDriver(t, exec.JUnit{NoClassSharing: true}, spec())
	forced := runDriver(t, exec.JUnit{JVMFlags: append(slices.Clone(exec.DefaultJVMFlags), "-Xshare:on")}, spec())
	if forced.Compile != nil {
		t.Fatalf("with -Xshare:on, javac could not run with its archive: %s", forced.Compile.Output)
	}
	assert.Equal(t, outcomes(plain), outcomes(forced), "outcomes without and with the archives (-Xshare:on)")
	if len(plain.Tests) < 5 {
		t.Fatalf("%d tests ran, want the fixture's", len(plain.Tests))
	}
	junit, _ := filepath.Glob(filepath.Join(dir, "junit-*", "classes.jsa"))
	javac, _ := filepath.Glob(filepath.Join(dir, "javac-*", "classes.jsa"))
	if len(junit) != 1 || len(javac) != 1 {
		t.Fatalf("archives made: junit %v, javac %v; want one each", junit, javac)
	}

	shared := runDriver(t, exec.JUnit{}, spec())
	assert.Equal(t, outcomes(plain), outcomes(shared), "outcomes without and with the archives")
	junit, _ = filepath.Glob(filepath.Join(dir, "junit-*", "classes.jsa"))
	for _, a := range junit {
		if err := os.Chmod(a, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(a, []byte("not an archive"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	damaged := runDriver(t, exec.JUnit{}, spec())
	assert.Equal(t, outcomes(plain), outcomes(damaged), "outcomes without the archives and with a damaged one")
	for _, out := range []string{string(damaged.Run.Stdout), string(damaged.Run.Stderr)} {
		if strings.Contains(strings.ToLower(out), "shared archive") || strings.Contains(out, "[cds") {
			t.Errorf("the damaged archive shows in the JVM's output: %q", out)
		}
	}
}

// BenchmarkJUnitClassSharing runs the JUnit fixture (javac, then the test
// JVM) with and without the class-data sharing archives, interleaved, and
// reports the CPU time of each run (both JVMs, as the sandbox measures
// them) and the ratio.
func BenchmarkJUnitClassSharing(b *testing.B) {
	requireJava(b)
	if !testing.Short() {
		// Archives of this run's own. The smoke run of scripts/test.sh
		// (-short) uses the machine's, which its tests have made: making
		// them is most of its CPU time.
		defer exec.SetShareDir(b.TempDir())()
	}
	r := driverSandbox(b)
	// The archives are made once per machine: not in the measured runs.
	if _, err := (exec.JUnit{}).Test(b.Context(), r, exec.TestSpec{Dir: driverFixture(b, "junit5")}); err != nil {
		b.Fatal(err)
	}
	var cpu [2]time.Duration
	runs := 0
	for b.Loop() {
		for i, d := range []exec.JUnit{{NoClassSharing: true}, {}} {
			s, err := d.Test(b.Context(), r, exec.TestSpec{Dir: driverFixture(b, "junit5")})
			if err != nil || s.Compile != nil || s.Build == nil || s.Run.Status == exec.StatusInvalid {
				b.Fatalf("JUnit (sharing %v): %v", i == 1, err)
			}
			cpu[i] += s.Build.CPUTime + s.Run.CPUTime
		}
		runs++
	}
	plain, shared := cpu[0].Seconds()*1e3/float64(runs), cpu[1].Seconds()*1e3/float64(runs)
	b.ReportMetric(plain, "plain-cpu-ms/run")
	b.ReportMetric(shared, "shared-cpu-ms/run")
	b.ReportMetric(plain/shared, "x-cpu")
}
