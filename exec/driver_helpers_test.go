package exec_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

// driverSandbox returns the real sandbox, or skips the test where the
// kernel does not allow it.
func driverSandbox(t testing.TB) exec.Runner { return exectest.Sandbox(t) }

// driverFixture copies testdata/drivers/name to a fresh directory: the sandbox
// gives the workspace to the sandbox user, and tests write into it.
func driverFixture(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ws")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "drivers", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// wantTest is the part of a TestResult the tests compare exactly.
type wantTest struct {
	Name   string
	Status exec.TestStatus
}

// checkSuite compares the per-test outcomes of s with want, checks that
// every test that did not pass says why, and logs the timings.
func checkSuite(t *testing.T, s *exec.Suite, want []wantTest) {
	t.Helper()
	checkOutcomes(t, s, want)
	if s.Forged() {
		t.Errorf("an honest fixture is taken for tampering: %+v", s.Tampered)
	}
}

// checkOutcomes is checkSuite for a fixture that may tamper: its outcomes
// only.
func checkOutcomes(t *testing.T, s *exec.Suite, want []wantTest) {
	t.Helper()
	logSuite(t, s)
	if s.Compile != nil {
		t.Fatalf("Compile = %q, want nil", s.Compile.Output)
	}
	var got []wantTest
	for _, r := range s.Tests {
		got = append(got, wantTest{r.Name, r.Status})
		switch r.Status {
		case exec.TestFailed, exec.TestError, exec.TestTimedOut:
			if strings.TrimSpace(r.Message) == "" {
				t.Errorf("%s: %s with an empty message", r.Name, r.Status)
			}
		case exec.TestInvalid:
			t.Errorf("%s: invalid status", r.Name)
		}
	}
	assert.Empty(t, cmp.Diff(want, got, cmpopts.EquateEmpty()), "outcomes mismatch (-want +got)")
}

// checkCompile checks that s is a compile error mentioning every one of
// words.
func checkCompile(t *testing.T, s *exec.Suite, words ...string) {
	t.Helper()
	logSuite(t, s)
	if s.Compile == nil {
		t.Fatalf("Compile = nil, want a compile error; tests: %+v", s.Tests)
	}
	if len(s.Tests) != 0 {
		t.Errorf("Tests = %+v, want none with a compile error", s.Tests)
	}
	for _, w := range words {
		if !strings.Contains(s.Compile.Output, w) {
			t.Errorf("compile output does not mention %q:\n%s", w, s.Compile.Output)
		}
	}
}

func logSuite(t *testing.T, s *exec.Suite) {
	t.Helper()
	if s == nil {
		return
	}
	if s.Build != nil {
		t.Logf("build: %s in %v (cpu %v, peak %v)", s.Build.Status, s.Build.WallTime.Round(time.Millisecond), s.Build.CPUTime.Round(time.Millisecond), s.Build.PeakMemory)
	}
	t.Logf("run: %s in %v (cpu %v, peak %v) %s", s.Run.Status, s.Run.WallTime.Round(time.Millisecond), s.Run.CPUTime.Round(time.Millisecond), s.Run.PeakMemory, s.Run.Detail)
	if testing.Verbose() {
		for _, r := range s.Tests {
			msg := r.Message
			if i := strings.IndexByte(msg, '\n'); i >= 0 {
				msg = msg[:i] + " ..."
			}
			t.Logf("  %-8s %s %s", r.Status, r.Name, msg)
		}
	}
}

// runDriver runs d and fails the test on a harness error, timing the whole
// call.
func runDriver(t *testing.T, d exec.Driver, spec exec.TestSpec) *exec.Suite {
	t.Helper()
	start := time.Now()
	s, err := d.Test(context.Background(), driverSandbox(t), spec)
	if err != nil {
		if s != nil {
			logSuite(t, s)
			t.Logf("stderr: %s", s.Run.Stderr)
		}
		t.Fatalf("Test: %v", err)
	}
	t.Logf("suite wall time (driver call): %v", time.Since(start).Round(time.Millisecond))
	return s
}

// checkMessages checks that each named test's message mentions the text.
func checkMessages(t *testing.T, s *exec.Suite, want map[string]string) {
	t.Helper()
	for name, w := range want {
		if r, _ := s.Lookup(name); !strings.Contains(r.Message, w) {
			t.Errorf("%s: message %q does not mention %q", name, r.Message, w)
		}
	}
}

// TestLimitsWithDefaults: zero fields take their defaults (the wall limit
// follows the CPU limit), set ones and Unlimited stay.
func TestLimitsWithDefaults(t *testing.T) {
	got := exec.Limits{CPUTime: 2 * time.Second, Memory: exec.Unlimited}.WithDefaults()
	if got.CPUTime != 2*time.Second || got.WallTime != 5*time.Second || got.Memory != exec.Unlimited || got.Processes != 128 || got.Output != 16*exec.MiB {
		t.Errorf("WithDefaults: %+v", got)
	}
	if d := (exec.Limits{}).WithDefaults(); d.CPUTime != 10*time.Second || d.WallTime != 21*time.Second || d.Memory != exec.GiB {
		t.Errorf("zero Limits: %+v", d)
	}
}
