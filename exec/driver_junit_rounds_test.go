package exec_test

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/exec"
)

// calcVariant compiles a calc.Calc whose add has the given body into
// dir/variants/name (class files only: the build compiles the
// workspace's .java files) and returns that directory, relative to dir.
func calcVariant(t *testing.T, dir, name, add string) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "Calc.java")
	code := "package calc;\npublic final class Calc {\n" +
		"    static int calls;\n" +
		"    public static int add(int a, int b) { " + add + " }\n" +
		"    public static int sub(int a, int b) { return a - b; }\n" +
		"    public static int div(int a, int b) { return a / b; }\n}\n"
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	rel := filepath.Join("variants", name)
	if out, err := osexec.Command("javac", "-d", filepath.Join(dir, rel), src).CombinedOutput(); err != nil {
		t.Fatalf("javac %s: %v\n%s", name, err, out)
	}
	return rel
}

// TestJUnitRounds runs rounds of the junit5 fixture, each with a variant
// of calc.Calc first on its class path, in shared JVMs: a round with no
// classes of its own gives what Test gives; each round sees its own
// classes and static state; a round that loops or exits is left undecided
// (nil) and the rounds after it still run; one that leaves a thread
// running keeps its outcomes and the next starts in a new JVM; the others
// share a JVM.
func TestJUnitRounds(t *testing.T) {
	requireJava(t)
	dir := driverFixture(t, "junit5")
	fixed := calcVariant(t, dir, "fixed", "return a + b;")
	// Right on its first call only: a round that saw another round's
	// statics would fail.
	once := calcVariant(t, dir, "once", "return calls++ == 0 ? a + b : -1;")
	loop := calcVariant(t, dir, "loop", "while (b >= 0) { calls++; } return a + b;")
	exit := calcVariant(t, dir, "exit", "System.exit(0); return 0;")
	thread := calcVariant(t, dir, "thread", "Thread th = new Thread(() -> { try { Thread.sleep(600_000); } catch (InterruptedException e) {} }); th.start(); return a + b;")
	// Empties the results files it finds, its own round's events too.
	wipe := calcVariant(t, dir, "wipe", "try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.walk(java.nio.file.Paths.get(\".\"))) { s.filter(p -> p.toString().endsWith(\".jsonl\")).forEach(p -> { try { java.nio.file.Files.write(p, new byte[0]); } catch (java.io.IOException e) {} }); } catch (java.io.IOException e) {} return a + b;")
	// Waits 4 s: past the CPU time of a round (3 s), within its wall time
	// (7 s), and a round's limit is the JVM's CPU time, as for a JVM of
	// its own.
	sleepy := calcVariant(t, dir, "sleepy", "try { Thread.sleep(4000); } catch (InterruptedException e) {} return a + b;")
	add := []string{"calc.CalcTest#add"}
	rounds := []exec.JUnitRound{
		{}, // 0: the fixture as built
		{Classes: []string{fixed}, Tests: []string{"calc.CalcTest#sub", "calc.CalcTest#add"}}, // 1
		{Classes: []string{once}, Tests: add},                                                 // 2
		{Classes: []string{once}, Tests: add},                                                 // 3: fresh statics again
		{Classes: []string{loop}, Tests: add},                                                 // 4: undecided
		{Classes: []string{fixed}, Tests: []string{"calc.CalcTest#sub"}},                      // 5
		{Classes: []string{thread}, Tests: add},                                               // 6: decided, then a new JVM
		{Classes: []string{fixed}, Tests: add},                                                // 7
		{Classes: []string{exit}, Tests: add},                                                 // 8: undecided
		{Classes: []string{fixed}, Tests: []string{"calc.CalcTest#nope"}},                     // 9
		{Classes: []string{sleepy}, Tests: add},                                               // 10
	}
	spec := exec.TestSpec{Dir: dir, Limits: exec.Limits{CPUTime: 3 * time.Second}}
	// Count the JVMs: a round that loops or exits ends its JVM, one that
	// leaves a thread running ends it after its outcomes, and the others
	// share one: 0 to 4 (4 loops), 5 and 6 (a thread), 7 and 8 (exits), 9
	// and 10.
	sb := driverSandbox(t)
	jvms := 0
	counting := exec.RunnerFunc(func(ctx context.Context, j exec.Job) (exec.Result, error) {
		for _, a := range j.Args {
			if strings.HasPrefix(a, "--rounds=") {
				jvms++
			}
		}
		return sb.Run(ctx, j)
	})
	suites, err := exec.JUnit{}.TestRounds(context.Background(), counting, spec, rounds)
	if err != nil {
		t.Fatal(err)
	}
	if jvms != 4 {
		t.Errorf("%d JVMs ran the rounds, want 4", jvms)
	}
	if len(suites) != len(rounds) {
		t.Fatalf("%d suites for %d rounds", len(suites), len(rounds))
	}
	alone := runDriver(t, exec.JUnit{}, exec.TestSpec{Dir: dir})
	want := make([]wantTest, 0, len(alone.Tests))
	for _, r := range alone.Tests {
		want = append(want, wantTest{r.Name, r.Status})
	}
	for i, s := range suites {
		if s == nil {
			continue
		}
		logSuite(t, s)
		if s.Compile != nil {
			t.Errorf("round %d: compile error %s", i, s.Compile.Output)
		}
	}
	if suites[0] == nil {
		t.Fatal("round 0 undecided")
	}
	// A round that empties the results file leaves itself undecided (and
	// the rounds before it in its JVM, whose events it took); the next
	// starts in a new JVM.
	wiped, err := exec.JUnit{}.TestRounds(context.Background(), sb, spec, []exec.JUnitRound{
		{Classes: []string{wipe}, Tests: add}, {Classes: []string{fixed}, Tests: add}})
	if err != nil {
		t.Fatalf("a round that empties the results file: %v", err)
	}
	if wiped[0] != nil || wiped[1] == nil {
		t.Errorf("a round that empties the results file: decided %v, want only the round after it", wiped)
	} else {
		checkSuite(t, wiped[1], []wantTest{{"calc.CalcTest#add", exec.TestPassed}})
	}
	checkSuite(t, suites[0], want)
	wants := map[int][]wantTest{
		1:  {{"calc.CalcTest#add", exec.TestPassed}, {"calc.CalcTest#sub", exec.TestPassed}},
		2:  {{"calc.CalcTest#add", exec.TestPassed}},
		3:  {{"calc.CalcTest#add", exec.TestPassed}},
		5:  {{"calc.CalcTest#sub", exec.TestPassed}},
		6:  {{"calc.CalcTest#add", exec.TestPassed}},
		7:  {{"calc.CalcTest#add", exec.TestPassed}},
		9:  {{"calc.CalcTest#nope", exec.TestError}},
		10: {{"calc.CalcTest#add", exec.TestPassed}},
	}
	for i, s := range suites[1:] {
		i++
		w, decided := wants[i]
		switch {
		case !decided && s != nil:
			t.Errorf("round %d: decided %+v, want nil (run it alone)", i, s.Tests)
		case decided && s == nil:
			t.Errorf("round %d: undecided, want %v", i, w)
		case decided:
			t.Run(fmt.Sprintf("round%d", i), func(t *testing.T) { checkSuite(t, s, w) })
			if s.Run.Status != exec.StatusOK || s.Run.WallTime <= 0 {
				t.Errorf("round %d: Run %s in %v, want ok with its wall time", i, s.Run.Status, s.Run.WallTime)
			}
		}
	}
}
