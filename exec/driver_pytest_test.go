package exec_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

func TestPytest(t *testing.T) {
	exectest.RequirePython(t, true)
	s := runDriver(t, exec.Pytest{}, exec.TestSpec{Dir: driverFixture(t, "pytest")})
	checkSuite(t, s, []wantTest{
		{"test_calc.py::TestCalc::test_add_method", exec.TestPassed},
		{"test_calc.py::test_add", exec.TestPassed},
		{"test_calc.py::test_div_by_zero", exec.TestError},
		{"test_calc.py::test_double[1-2]", exec.TestPassed},
		{"test_calc.py::test_double[2-5]", exec.TestFailed},
		{"test_calc.py::test_skipped", exec.TestSkipped},
		{"test_calc.py::test_sub", exec.TestFailed},
		{"test_calc.py::test_with_broken_fixture", exec.TestError},
		{"test_calc.py::test_xfail", exec.TestSkipped},
	})
	checkMessages(t, s, map[string]string{
		"test_calc.py::test_sub":                 "assert 8 == 2",
		"test_calc.py::test_div_by_zero":         "ZeroDivisionError",
		"test_calc.py::test_skipped":             "not today",
		"test_calc.py::test_with_broken_fixture": "no database",
		"test_calc.py::test_xfail":               "sub is known to be broken",
	})
}

func TestPytestNames(t *testing.T) {
	exectest.RequirePython(t, true)
	s := runDriver(t, exec.Pytest{}, exec.TestSpec{Dir: driverFixture(t, "pytest"), Tests: []string{
		"test_calc.py::test_add",
		"test_calc.py::test_double",
		"test_calc.py::TestCalc",
		"test_calc.py::test_nope",
		"test_nope.py",
	}})
	checkSuite(t, s, []wantTest{
		{"test_calc.py::TestCalc::test_add_method", exec.TestPassed},
		{"test_calc.py::test_add", exec.TestPassed},
		{"test_calc.py::test_double[1-2]", exec.TestPassed},
		{"test_calc.py::test_double[2-5]", exec.TestFailed},
		{"test_calc.py::test_nope", exec.TestError},
		{"test_nope.py", exec.TestError},
	})
}

func TestPytestBroken(t *testing.T) {
	exectest.RequirePython(t, true)
	s := runDriver(t, exec.Pytest{}, exec.TestSpec{Dir: driverFixture(t, "pytest_broken")})
	checkCompile(t, s, "SyntaxError", "calc.py")
}

func TestPytestConftestBroken(t *testing.T) {
	exectest.RequirePython(t, true)
	ws := driverFixture(t, "pytest")
	if err := os.WriteFile(filepath.Join(ws, "conftest.py"), []byte("import nonexistent_module\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := runDriver(t, exec.Pytest{}, exec.TestSpec{Dir: ws})
	checkCompile(t, s, "nonexistent_module")
}

func TestPytestNoTests(t *testing.T) {
	exectest.RequirePython(t, true)
	s := runDriver(t, exec.Pytest{}, exec.TestSpec{Dir: t.TempDir()})
	checkSuite(t, s, nil)
}

func TestPytestLimits(t *testing.T) {
	exectest.RequirePython(t, true)
	ws := driverFixture(t, "pytest")
	err := os.WriteFile(filepath.Join(ws, "test_slow.py"), []byte(`import time

def test_a_quick():
    pass

def test_b_hang():
    while True:
        time.sleep(60)

def test_c_after():
    pass
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	spec := exec.TestSpec{Dir: ws, Tests: []string{"test_slow.py"}}
	t.Run("per-test", func(t *testing.T) {
		s := runDriver(t, exec.Pytest{PerTestTimeout: 500 * time.Millisecond}, spec)
		checkSuite(t, s, []wantTest{
			{"test_slow.py::test_a_quick", exec.TestPassed},
			{"test_slow.py::test_b_hang", exec.TestTimedOut},
			{"test_slow.py::test_c_after", exec.TestPassed},
		})
	})
	t.Run("suite", func(t *testing.T) {
		spec := spec
		// Long enough for pytest to start and run test_a_quick on a
		// loaded machine (a cold test command once took more than 1.5 s
		// of wall time for 162 ms of CPU).
		spec.Limits.WallTime = 4 * time.Second
		s := runDriver(t, exec.Pytest{}, spec)
		checkSuite(t, s, []wantTest{
			{"test_slow.py::test_a_quick", exec.TestPassed},
			{"test_slow.py::test_b_hang", exec.TestTimedOut},
			{"test_slow.py::test_c_after", exec.TestTimedOut},
		})
		if s.Run.Status != exec.StatusWallTime {
			t.Errorf("Run.Status = %s, want wall-time", s.Run.Status)
		}
	})
}
