package exec_test

import (
	"context"
	"testing"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// TestJUnitWithoutCgroups checks that the JVM flags fit a memory limit that
// RLIMIT_AS enforces (which counts reserved address space), as on machines
// without cgroups.
func TestJUnitWithoutCgroups(t *testing.T) {
	requireJava(t)
	driverSandbox(t)
	sb, err := sandbox.New(&sandbox.Config{NoCgroups: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	s, err := exec.JUnit{}.Test(context.Background(), sb, exec.TestSpec{
		Dir:    driverFixture(t, "junit4"),
		Tests:  []string{"calc.CalcTest#testAdd"},
		Limits: exec.Limits{Memory: 512 * exec.MiB},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkSuite(t, s, []wantTest{{"calc.CalcTest#testAdd", exec.TestPassed}})
	if t.Failed() {
		t.Logf("stderr: %s", s.Run.Stderr)
	}
}
