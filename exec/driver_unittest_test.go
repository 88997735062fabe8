package exec_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

func TestPythonUnittest(t *testing.T) {
	exectest.RequirePython(t, false)
	ws := driverFixture(t, "unittest")
	d := exec.PythonUnittest{PerTestTimeout: time.Second}
	s := runDriver(t, d, exec.TestSpec{Dir: ws})
	checkSuite(t, s, []wantTest{
		{"test_calc.TestCalc.test_add", exec.TestPassed},
		{"test_calc.TestCalc.test_div_by_zero", exec.TestError},
		{"test_calc.TestCalc.test_expected_failure", exec.TestSkipped},
		{"test_calc.TestCalc.test_skipped", exec.TestSkipped},
		{"test_calc.TestCalc.test_sub", exec.TestFailed},
		{"test_calc.TestCalc.test_subtests", exec.TestFailed},
		{"test_fixtures.TestBrokenSetUpClass.test_one", exec.TestError},
		{"test_fixtures.TestBrokenSetUpClass.test_two", exec.TestError},
		{"test_fixtures.TestBrokenTearDownClass", exec.TestError},
		{"test_fixtures.TestBrokenTearDownClass.test_one", exec.TestPassed},
		{"test_hang.TestHang.test_sleeps_forever", exec.TestTimedOut},
		{"test_hang.TestHang.test_then_passes", exec.TestPassed},
	})
	if s.Run.Status != exec.StatusOK {
		t.Errorf("Run.Status = %s, want ok: the per-test timeout, not the suite's, stopped the hang", s.Run.Status)
	}
	checkMessages(t, s, map[string]string{
		"test_calc.TestCalc.test_sub":                 "AssertionError: 8 != 2",
		"test_calc.TestCalc.test_div_by_zero":         "ZeroDivisionError",
		"test_calc.TestCalc.test_skipped":             "not today",
		"test_calc.TestCalc.test_subtests":            "(a=3)",
		"test_fixtures.TestBrokenSetUpClass.test_one": "no database",
		"test_fixtures.TestBrokenTearDownClass":       "cannot clean up",
		"test_hang.TestHang.test_sleeps_forever":      "time limit of 1s",
	})
	if r, _ := s.Lookup("test_hang.TestHang.test_sleeps_forever"); r.Duration < time.Second {
		t.Errorf("the hanging test ran %v, want at least its 1s limit", r.Duration)
	}
	// No scratch files are left behind.
	ents, _ := os.ReadDir(ws)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".adaptbench") || e.Name() == "__pycache__" {
			t.Errorf("left behind in the workspace: %s", e.Name())
		}
	}
}

func TestPythonUnittestNames(t *testing.T) {
	exectest.RequirePython(t, false)
	ws := driverFixture(t, "unittest")
	s := runDriver(t, exec.PythonUnittest{}, exec.TestSpec{Dir: ws, Tests: []string{
		"test_calc.TestCalc.test_add",
		"test_calc.TestCalc.test_sub",
		"test_fixtures.TestBrokenTearDownClass",
		"test_calc.TestCalc.test_add", // twice: runs once
		"test_calc.TestCalc.test_nope",
		"test_nope",
		"test_calc.TestNope",
	}})
	checkSuite(t, s, []wantTest{
		{"test_calc.TestCalc.test_add", exec.TestPassed},
		{"test_calc.TestCalc.test_nope", exec.TestError},
		{"test_calc.TestCalc.test_sub", exec.TestFailed},
		{"test_calc.TestNope", exec.TestError},
		{"test_fixtures.TestBrokenTearDownClass", exec.TestError},
		{"test_fixtures.TestBrokenTearDownClass.test_one", exec.TestPassed},
		{"test_nope", exec.TestError},
	})
	if r, _ := s.Lookup("test_nope"); r.Message != "not found" {
		t.Errorf("test_nope: message %q, want %q", r.Message, "not found")
	}
}

func TestPythonUnittestBroken(t *testing.T) {
	exectest.RequirePython(t, false)
	for _, tc := range []struct {
		name   string
		tests  []string
		reason string
	}{
		{"discover", nil, "discovery imports every test module"},
		{"named", []string{"test_calc.TestCalc.test_add"}, "a named test's module does not import"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := runDriver(t, exec.PythonUnittest{}, exec.TestSpec{Dir: driverFixture(t, "unittest_broken"), Tests: tc.tests})
			checkCompile(t, s, "SyntaxError", "calc.py")
		})
	}
}

// TestPythonUnittestLimits shows what the suite's limits do to the tests:
// those that finished keep their wantTest, the one running gets the verdict,
// and those never reached say so.
func TestPythonUnittestLimits(t *testing.T) {
	exectest.RequirePython(t, false)
	const (
		quick    = "test_limits.TestLimits.test_a_quick"
		hang     = "test_limits.TestLimits.test_b_hang"
		hog      = "test_limits.TestLimits.test_c_hog"
		exit     = "test_limits.TestLimits.test_d_exit"
		stubborn = "test_limits.TestLimits.test_e_stubborn"
		last     = "test_limits.TestLimits.test_z_last"
	)
	for _, tc := range []struct {
		name       string
		driver     exec.PythonUnittest
		tests      []string
		limits     exec.Limits
		wantStatus exec.Status
		want       []wantTest
		wantMsg    map[string]string
	}{{
		name:       "wall-time",
		tests:      []string{quick, hang, last},
		limits:     exec.Limits{WallTime: 1500 * time.Millisecond},
		wantStatus: exec.StatusWallTime,
		want:       []wantTest{{quick, exec.TestPassed}, {hang, exec.TestTimedOut}, {last, exec.TestTimedOut}},
		wantMsg:    map[string]string{last: "not run: the suite hit its time limit", hang: "while this test ran"},
	}, {
		name:       "memory",
		tests:      []string{quick, hog, last},
		limits:     exec.Limits{Memory: 128 * exec.MiB},
		wantStatus: exec.StatusMemory,
		want:       []wantTest{{quick, exec.TestPassed}, {hog, exec.TestError}, {last, exec.TestError}},
		wantMsg:    map[string]string{hog: "memory use exceeded 128MiB", last: "not run"},
	}, {
		name:       "process-exits",
		tests:      []string{quick, exit, last},
		wantStatus: exec.StatusExit,
		want:       []wantTest{{quick, exec.TestPassed}, {exit, exec.TestError}, {last, exec.TestError}},
		wantMsg:    map[string]string{exit: "exit code 3", last: "not run"},
	}, {
		name:       "stubborn-per-test-timeout",
		driver:     exec.PythonUnittest{PerTestTimeout: 500 * time.Millisecond},
		tests:      []string{quick, stubborn, last},
		wantStatus: exec.StatusOK,
		want:       []wantTest{{quick, exec.TestPassed}, {stubborn, exec.TestTimedOut}, {last, exec.TestError}},
		wantMsg:    map[string]string{stubborn: "did not stop", last: "did not stop after its time limit"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			s := runDriver(t, tc.driver, exec.TestSpec{Dir: driverFixture(t, "unittest_limits"), Tests: tc.tests, Limits: tc.limits})
			if tc.name == "process-exits" {
				// os._exit in the middle of a test is evidence (the trust
				// boundary), besides the error it gives the test.
				if len(s.Tampered) == 0 || s.Tampered[0].Kind != "exit-during-test" {
					t.Errorf("Tampered = %+v, want exit-during-test first", s.Tampered)
				}
				s.Tampered = nil
			}
			checkSuite(t, s, tc.want)
			if s.Run.Status != tc.wantStatus {
				t.Errorf("Run.Status = %s, want %s", s.Run.Status, tc.wantStatus)
			}
			checkMessages(t, s, tc.wantMsg)
		})
	}
}

// TestPythonUnittestHarnessError checks that a broken interpreter is the
// harness's failure, not the code's.
func TestPythonUnittestHarnessError(t *testing.T) {
	exectest.RequirePython(t, false)
	ws := driverFixture(t, "unittest")
	s, err := exec.PythonUnittest{Python: "/nonexistent/python3"}.Test(context.Background(), driverSandbox(t), exec.TestSpec{Dir: ws})
	if err == nil {
		t.Fatalf("Test with a missing interpreter: no error; suite %+v", s)
	}
	if s == nil || s.Run.Status != exec.StatusInternal {
		t.Errorf("suite = %+v, want Run.Status internal", s)
	}
	if _, err := (exec.PythonUnittest{}).Test(context.Background(), driverSandbox(t), exec.TestSpec{Dir: filepath.Join(ws, "nope")}); err == nil {
		t.Error("Test with a missing workspace: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (exec.PythonUnittest{}).Test(ctx, driverSandbox(t), exec.TestSpec{Dir: ws}); err == nil {
		t.Error("Test with a canceled context: no error")
	}
}

func BenchmarkPythonUnittest(b *testing.B) {
	exectest.RequirePython(b, false)
	r := driverSandbox(b)
	ws := driverFixture(b, "unittest")
	spec := exec.TestSpec{Dir: ws, Tests: []string{"test_calc.TestCalc.test_add"}}
	start := time.Now()
	for b.Loop() {
		s, err := exec.PythonUnittest{}.Test(context.Background(), r, spec)
		if err != nil {
			b.Fatal(err)
		}
		if len(s.Tests) != 1 || s.Tests[0].Status != exec.TestPassed {
			b.Fatalf("tests = %+v", s.Tests)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "jobs/s")
}
