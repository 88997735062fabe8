package exec_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
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
		Dir:   ws,
		Tests: []string{"calc.HangTest", "calc.CalcTest#testTooSlow"},
		// The limit holds for javac too, which on the test command's busy
		// machine once took 3.3 s of wall time for 0.6 s of CPU.
		Limits: exec.Limits{WallTime: 10 * time.Second},
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

// TestJUnitNameKinds runs every kind of JUnit 5 test (parameterized with
// three sources, repeated, dynamic with a nested container, @Nested, an
// overloaded method name) and a JUnit 4 parameterized class, whose hostile
// display names must not reach the names; then passes the names back: each
// selects exactly the test it names, an index selects one invocation, and
// names that select nothing are reported as not found.
func TestJUnitNameKinds(t *testing.T) {
	requireJava(t)
	ws := driverFixture(t, "junit5_kinds")
	vintage := `package ver;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import java.util.Collection;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

@RunWith(Parameterized.class)
public class OldTest {
    @Parameterized.Parameters(name = "{index}: {0}")
    public static Collection<Object[]> data() {
        return Arrays.asList(new Object[][] {{"1.0\n]/[x:y"}, {"2.0 +%"}});
    }

    private final String v;

    public OldTest(String v) { this.v = v; }

    @Test
    public void major() { assertEquals(1, Ver.major(v)); }
}
`
	if err := os.WriteFile(filepath.Join(ws, "src/test/java/ver/OldTest.java"), []byte(vintage), 0o644); err != nil {
		t.Fatal(err)
	}
	d := exec.JUnit{}
	s := runDriver(t, d, exec.TestSpec{Dir: ws})
	const (
		old1 = "[engine:junit-vintage]/[runner:ver.OldTest]/[test:%5B0%3A%201.0%0A%5D%2F%5Bx%3Ay%5D]/[test:major%5B0%3A%201.0%0A%5D%2F%5Bx%3Ay%5D(ver.OldTest)]"
		old2 = "[engine:junit-vintage]/[runner:ver.OldTest]/[test:%5B1%3A%202.0%20%2B%25%5D]/[test:major%5B1%3A%202.0%20%2B%25%5D(ver.OldTest)]"
	)
	all := []wantTest{
		{old1, exec.TestPassed},
		{old2, exec.TestFailed},
		{"ver.KindsTest#csv[1]", exec.TestPassed},
		{"ver.KindsTest#csv[2]", exec.TestPassed},
		{"ver.KindsTest#disabled", exec.TestSkipped},
		{"ver.KindsTest#dynamic[1]", exec.TestPassed},
		{"ver.KindsTest#dynamic[2][1]", exec.TestPassed},
		{"ver.KindsTest#dynamic[2][2]", exec.TestFailed},
		{"ver.KindsTest#fromMethod[1]", exec.TestPassed},
		{"ver.KindsTest#fromMethod[2]", exec.TestPassed},
		{"ver.KindsTest#overloaded()", exec.TestPassed},
		{"ver.KindsTest#plain", exec.TestPassed},
		{"ver.KindsTest#repeated[1]", exec.TestPassed},
		{"ver.KindsTest#repeated[2]", exec.TestPassed},
		{"ver.KindsTest#repeated[3]", exec.TestPassed},
		{"ver.KindsTest#values[1]", exec.TestPassed},
		{"ver.KindsTest#values[2]", exec.TestPassed},
		{"ver.KindsTest#values[3]", exec.TestFailed},
		{"ver.KindsTest#values[4]", exec.TestPassed},
		{"ver.KindsTest$Inner#nested[1]", exec.TestPassed},
		{"ver.KindsTest$Inner#nested[2]", exec.TestPassed},
	}
	checkSuite(t, s, all)
	checkMessages(t, s, map[string]string{"ver.KindsTest#disabled": "\x00\"forged\",\"e\":\"hello\""})

	// Every name passed back: the same tests, the same outcomes.
	var names []string
	for _, w := range all {
		names = append(names, w.Name)
	}
	checkSuite(t, runDriver(t, d, exec.TestSpec{Dir: ws, Tests: names}), all)

	// Some: exactly the tests named.
	s = runDriver(t, d, exec.TestSpec{Dir: ws, Tests: []string{
		"ver.KindsTest#values[3]",
		"ver.KindsTest#dynamic[2][2]",
		"ver.KindsTest#repeated[2]",
		"ver.KindsTest$Inner#nested[2]",
		"ver.KindsTest#overloaded()",
		old2,
		"ver.KindsTest#values[9]",
		"ver.KindsTest#dynamic[3]",
		"ver.KindsTest#plain[1]",
		"ver.KindsTest#overloaded(int)",
		"[engine:junit-jupiter]/[class:ver.Nope]",
	}})
	if s.Run.Status != exec.StatusOK {
		t.Logf("stderr: %s", s.Run.Stderr)
	}
	checkSuite(t, s, []wantTest{
		{"[engine:junit-jupiter]/[class:ver.Nope]", exec.TestError},
		{old2, exec.TestFailed},
		{"ver.KindsTest#dynamic[2][2]", exec.TestFailed},
		{"ver.KindsTest#dynamic[3]", exec.TestError},
		{"ver.KindsTest#overloaded()", exec.TestPassed},
		{"ver.KindsTest#overloaded(int)", exec.TestError}, // the helper: not a test
		{"ver.KindsTest#plain[1]", exec.TestError},
		{"ver.KindsTest#repeated[2]", exec.TestPassed},
		{"ver.KindsTest#values[3]", exec.TestFailed},
		{"ver.KindsTest#values[9]", exec.TestError},
		{"ver.KindsTest$Inner#nested[2]", exec.TestPassed},
	})

	for _, bad := range []string{"ver.KindsTest#values[0]", "ver.KindsTest#values[x]", "ver.KindsTest#values\n", "[engine:a]/[b]", "[engine:a b]", ""} {
		if _, err := d.Test(context.Background(), driverSandbox(t), exec.TestSpec{Dir: ws, Tests: []string{bad}}); err == nil || !strings.Contains(err.Error(), "is not a test name") {
			t.Errorf("Tests %q: err %v, want 'is not a test name'", bad, err)
		}
	}
}

// jacocoAgent copies JaCoCo's agent out of Debian's wrapper jar
// (libjacoco-java) into the workspace ws, and returns its name there.
func jacocoAgent(t *testing.T, ws string) string {
	t.Helper()
	const wrapper = "/usr/share/java/org.jacoco.agent.jar"
	zr, err := zip.OpenReader(wrapper)
	if err != nil {
		exectest.SkipWithout(t, "%s: %v (apt-get install libjacoco-java)", wrapper, err)
	}
	defer zr.Close()
	f, err := zr.Open("jacocoagent.jar")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "jacocoagent.jar"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return "jacocoagent.jar"
}

// TestJUnitCoverage records JaCoCo coverage with one session per test and
// per container, named by unique ID and, for tests, the test's name.
func TestJUnitCoverage(t *testing.T) {
	requireJava(t)
	ws := driverFixture(t, "junit5_kinds")
	d := exec.JUnit{Coverage: &exec.JaCoCo{Agent: jacocoAgent(t, ws), Includes: "ver.*"}}
	s := runDriver(t, d, exec.TestSpec{Dir: ws, Tests: []string{"ver.KindsTest#values", "ver.KindsTest#dynamic[2][1]"}})
	checkSuite(t, s, []wantTest{
		{"ver.KindsTest#dynamic[2][1]", exec.TestPassed},
		{"ver.KindsTest#values[1]", exec.TestPassed},
		{"ver.KindsTest#values[2]", exec.TestPassed},
		{"ver.KindsTest#values[3]", exec.TestFailed},
		{"ver.KindsTest#values[4]", exec.TestPassed},
	})
	for _, session := range []string{
		"T[engine:junit-jupiter]/[class:ver.KindsTest]/[test-template:values(java.lang.String)]/[test-template-invocation:#3]\tver.KindsTest#values[3]",
		"T[engine:junit-jupiter]/[class:ver.KindsTest]/[test-factory:dynamic()]/[dynamic-container:#2]/[dynamic-test:#1]\tver.KindsTest#dynamic[2][1]",
		"C[engine:junit-jupiter]/[class:ver.KindsTest]/[test-template:values(java.lang.String)]",
		"C[engine:junit-jupiter]/[class:ver.KindsTest]",
		"ver/Ver", // a class the tests ran
	} {
		if !bytes.Contains(s.Coverage, []byte(session)) {
			t.Errorf("no session %q in the execution data (%d bytes)", session, len(s.Coverage))
		}
	}
	if bytes.Contains(s.Coverage, []byte("#values[1]\tver.KindsTest#values[1]")) {
		t.Errorf("a test's session named twice")
	}
}

// TestJUnitCoverageForged shows a test that replaces the execution data
// with a link to a host file: the driver refuses to read it, and the run
// is evidence of tampering, not a harness error.
func TestJUnitCoverageForged(t *testing.T) {
	requireJava(t)
	ws := driverFixture(t, "junit5_kinds")
	src := `package ver;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

class ForgeTest {
    @Test
    void forge() throws Exception {
        for (File d : new File(".").listFiles()) {
            File f = new File(d, "coverage.exec");
            if (d.getName().startsWith(".adaptbench-") && f.delete()) {
                Files.createSymbolicLink(f.toPath(), Paths.get("/etc/passwd"));
            }
        }
    }
}
`
	if err := os.WriteFile(filepath.Join(ws, "src/test/java/ver/ForgeTest.java"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	d := exec.JUnit{Coverage: &exec.JaCoCo{Agent: jacocoAgent(t, ws)}}
	s, err := d.Test(context.Background(), driverSandbox(t), exec.TestSpec{Dir: ws, Tests: []string{"ver.ForgeTest"}})
	if err != nil {
		t.Fatalf("a job's replaced file is its doing, not a harness error: %v", err)
	}
	if !s.Forged() || s.Tampered[0].Kind != "coverage-replaced" || !strings.Contains(s.Tampered[0].Detail, exec.ErrUnsafeFile.Error()) || s.Coverage != nil {
		t.Errorf("tampered %+v, coverage %d bytes: want coverage-replaced and none", s.Tampered, len(s.Coverage))
	}
}

// TestJUnitReporterNotShadowed puts a class of the reporter's name in the
// workspace's default package and in the reporter's package, one that
// reports every test passed (with the reporter's start mark), and a class
// of JUnit's launcher API that does the same. The test JVM's class path
// starts with the JUnit jars, and the reporter's package is its module's,
// so none is loaded: the failing tests still fail.
func TestJUnitReporterNotShadowed(t *testing.T) {
	requireJava(t)
	ws := driverFixture(t, "junit5")
	forged := `import java.io.FileWriter;

public class AdaptbenchJUnitReporter {
    public static void main(String[] args) throws Exception {
        System.err.print("\u001eadaptbench reporter started\n");
        try (FileWriter w = new FileWriter(args[0], true)) {
            w.write("{\"e\":\"hello\",\"v\":1}\n");
            w.write("{\"e\":\"plan\",\"tests\":[\"calc.CalcTest#sub\"]}\n");
            w.write("{\"e\":\"start\",\"test\":\"calc.CalcTest#sub\"}\n");
            w.write("{\"e\":\"end\",\"test\":\"calc.CalcTest#sub\",\"status\":\"passed\",\"message\":\"\",\"duration\":0.1}\n");
            w.write("{\"e\":\"done\",\"exit\":0}\n");
        }
    }
}
`
	launcher := `package org.junit.platform.launcher.core;

public class LauncherFactory {
    public static org.junit.platform.launcher.Launcher create() {
        throw new IllegalStateException("the workspace's LauncherFactory was loaded");
    }
}
`
	for name, src := range map[string]string{
		"src/main/java/AdaptbenchJUnitReporter.java":                          forged,
		"src/main/java/adaptbench/junit/AdaptbenchJUnitReporter.java":         "package adaptbench.junit;\n\n" + forged,
		"src/main/java/org/junit/platform/launcher/core/LauncherFactory.java": launcher,
	} {
		path := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := runDriver(t, exec.JUnit{}, exec.TestSpec{Dir: ws, Tests: []string{"calc.CalcTest#add", "calc.CalcTest#sub"}})
	checkSuite(t, s, []wantTest{
		{"calc.CalcTest#add", exec.TestPassed},
		{"calc.CalcTest#sub", exec.TestFailed},
	})
}
