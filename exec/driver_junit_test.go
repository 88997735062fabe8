package exec_test

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

// requireJava skips the test when javac or the JUnit jars are missing: on
// developer machines only; CI installs them (apt-get install
// default-jdk-headless junit4 junit5).
func requireJava(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"javac", "java"} {
		if _, err := osexec.LookPath(tool); err != nil {
			exectest.SkipWithout(t, "no %s on PATH (apt-get install default-jdk-headless)", tool)
		}
	}
	for _, jar := range exec.DefaultJUnitClasspath {
		if _, err := os.Stat(jar); err != nil {
			exectest.SkipWithout(t, "%s is missing (apt-get install junit4 junit5)", jar)
		}
	}
}

func TestJUnit4(t *testing.T) {
	requireJava(t)
	s := runDriver(t, exec.JUnit{}, exec.TestSpec{Dir: driverFixture(t, "junit4")})
	checkSuite(t, s, []wantTest{
		{"calc.BrokenSetupTest#testOne", exec.TestError},
		{"calc.CalcTest#testAdd", exec.TestPassed},
		{"calc.CalcTest#testAssumption", exec.TestSkipped},
		{"calc.CalcTest#testDivByZero", exec.TestError},
		{"calc.CalcTest#testIgnored", exec.TestSkipped},
		{"calc.CalcTest#testSub", exec.TestFailed},
		{"calc.CalcTest#testTooSlow", exec.TestTimedOut},
	})
	checkMessages(t, s, map[string]string{
		"calc.CalcTest#testSub":        "expected:<2> but was:<8>",
		"calc.CalcTest#testDivByZero":  "ArithmeticException",
		"calc.CalcTest#testIgnored":    "not today",
		"calc.CalcTest#testAssumption": "needs a database",
		"calc.BrokenSetupTest#testOne": "no database",
	})
}

func TestJUnit5(t *testing.T) {
	requireJava(t)
	s := runDriver(t, exec.JUnit{}, exec.TestSpec{Dir: driverFixture(t, "junit5")})
	checkSuite(t, s, []wantTest{
		{"calc.CalcTest#add", exec.TestPassed},
		{"calc.CalcTest#disabled", exec.TestSkipped},
		{"calc.CalcTest#divByZero", exec.TestError},
		{"calc.CalcTest#sub", exec.TestFailed},
		{"calc.CalcTest#twice[1]", exec.TestPassed},
		{"calc.CalcTest#twice[2]", exec.TestFailed},
		{"calc.CalcTest$Inner#addZero", exec.TestPassed},
		{"calc.CleanupTest", exec.TestError},
		{"calc.CleanupTest#runs", exec.TestPassed},
	})
	checkMessages(t, s, map[string]string{
		"calc.CalcTest#sub":       "expected: <2> but was: <8>",
		"calc.CalcTest#divByZero": "ArithmeticException",
		"calc.CalcTest#disabled":  "not today",
		"calc.CleanupTest":        "cannot clean up",
	})
}

func TestJUnitNames(t *testing.T) {
	requireJava(t)
	s := runDriver(t, exec.JUnit{}, exec.TestSpec{Dir: driverFixture(t, "junit5"), Tests: []string{
		"calc.CalcTest#add",
		"calc.CalcTest#twice",
		"calc.CalcTest$Inner",
		"calc.CalcTest#nope",
		"calc.NopeTest",
	}})
	checkSuite(t, s, []wantTest{
		{"calc.CalcTest#add", exec.TestPassed},
		{"calc.CalcTest#nope", exec.TestError},
		{"calc.CalcTest#twice[1]", exec.TestPassed},
		{"calc.CalcTest#twice[2]", exec.TestFailed},
		{"calc.CalcTest$Inner#addZero", exec.TestPassed},
		{"calc.NopeTest", exec.TestError},
	})
}

func TestJUnitBroken(t *testing.T) {
	requireJava(t)
	s := runDriver(t, exec.JUnit{}, exec.TestSpec{Dir: driverFixture(t, "junit_broken")})
	checkCompile(t, s, "src/main/java/calc/Calc.java:4: error: ';' expected")
	if s.Build == nil || s.Build.Status != exec.StatusExit {
		t.Errorf("Build = %+v, want the javac run with status exit", s.Build)
	}
}

// TestJUnitTimeLimit shows the suite's time limit stopping a hanging test:
// the test before it keeps its wantTest and the one after is not run.
func TestJUnitTimeLimit(t *testing.T) {
	requireJava(t)
	ws := driverFixture(t, "junit5")
	src := `package calc;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@TestMethodOrder(MethodOrderer.MethodName.class)
class HangTest {
    @Test void a() {}
    @Test void b() throws InterruptedException { Thread.sleep(3_600_000); }
    @Test void c() {}
}
`
	if err := os.WriteFile(filepath.Join(ws, "src/test/java/calc/HangTest.java"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := runDriver(t, exec.JUnit{}, exec.TestSpec{
		Dir:    ws,
		Tests:  []string{"calc.HangTest", "calc.CalcTest#testTooSlow"},
		Limits: exec.Limits{WallTime: 3 * time.Second},
	})
	checkSuite(t, s, []wantTest{
		{"calc.CalcTest#testTooSlow", exec.TestError}, // not found: it is a JUnit 4 test
		{"calc.HangTest#a", exec.TestPassed},
		{"calc.HangTest#b", exec.TestTimedOut},
		{"calc.HangTest#c", exec.TestTimedOut},
	})
	if s.Run.Status != exec.StatusWallTime {
		t.Errorf("Run.Status = %s, want wall-time", s.Run.Status)
	}
	if r, _ := s.Lookup("calc.HangTest#c"); r.Message != "not run: the suite hit its time limit" {
		t.Errorf("HangTest#c: message %q", r.Message)
	}
}

// TestJUnitBuildSeam runs the driver with a JavaBuild of its own.
func TestJUnitBuildSeam(t *testing.T) {
	requireJava(t)
	var got exec.JavaBuildSpec
	build := exec.JavaBuildFunc(func(ctx context.Context, r exec.Runner, spec exec.JavaBuildSpec) (exec.JavaBuildResult, error) {
		got = spec
		return exec.JavaBuildResult{Compile: &exec.CompileError{Output: "mvn: BUILD FAILURE"}}, nil
	})
	ws := driverFixture(t, "junit4")
	s, err := exec.JUnit{Build: build}.Test(context.Background(), driverSandbox(t), exec.TestSpec{Dir: ws})
	if err != nil {
		t.Fatal(err)
	}
	checkCompile(t, s, "BUILD FAILURE")
	if got.Dir != ws || !strings.HasPrefix(got.Out, ".adaptbench-") || len(got.Classpath) == 0 {
		t.Errorf("the build got %+v", got)
	}
}
