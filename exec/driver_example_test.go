package exec_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// The drivers need a sandbox and the toolchains, so this example is only
// compiled; the tests in driver_*_test.go run the same calls.
func ExamplePythonUnittest() {
	sb, err := sandbox.New(nil)
	if err != nil {
		log.Fatal(err) // wraps sandbox.ErrNoNamespaces where the kernel says no
	}
	d := exec.PythonUnittest{PerTestTimeout: 10 * time.Second}
	suite, err := d.Test(context.Background(), sb, exec.TestSpec{
		Dir:    "path/to/workspace",
		Tests:  []string{"test_calc"},
		Limits: exec.Limits{WallTime: time.Minute},
	})
	if err != nil {
		log.Fatal(err) // the harness failed: nothing is known about the code
	}
	if suite.Compile != nil {
		fmt.Println("does not import:", suite.Compile.Output)
		return
	}
	for _, t := range suite.Tests {
		fmt.Println(t.Name, t.Status)
	}
	fmt.Println(suite.Count(exec.TestPassed), "passed; run:", suite.Run.Status)
}

// JUnit selects one invocation of a parameterized test by the name it
// reports, and records per-test coverage with JaCoCo's agent in the same
// JVM. Compiled only, like the example above; driver_junit_test.go runs
// the same calls.
func ExampleJUnit() {
	sb, err := sandbox.New(nil)
	if err != nil {
		log.Fatal(err)
	}
	d := exec.JUnit{Coverage: &exec.JaCoCo{Agent: "lib/jacocoagent.jar", Includes: "com.example.*"}}
	suite, err := d.Test(context.Background(), sb, exec.TestSpec{
		Dir:   "path/to/workspace",
		Tests: []string{"com.example.ParserTest#parses[3]", "com.example.ParserTest$Errors#empty"},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range suite.Tests {
		fmt.Println(t.Name, t.Status)
	}
	fmt.Println(len(suite.Coverage), "bytes of JaCoCo execution data, a session per test and container")
}

// TestRounds runs the tests of many variants of a project's classes (two
// mutants here, their class files compiled into directories of the
// workspace) in shared JVMs, each in a class loader of its own, and
// leaves to Test what it could not decide. Compiled only; the test in
// driver_junit_rounds_test.go runs the same calls.
func ExampleJUnit_TestRounds() {
	sb, err := sandbox.New(nil)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	spec := exec.TestSpec{Dir: "path/to/workspace", Limits: exec.Limits{CPUTime: 10 * time.Second}}
	rounds := []exec.JUnitRound{
		{Classes: []string{"mutants/1"}, Tests: []string{"com.example.ParserTest"}},
		{Classes: []string{"mutants/2"}, Tests: []string{"com.example.ParserTest#parses[3]"}},
	}
	d := exec.JUnit{}
	suites, err := d.TestRounds(ctx, sb, spec, rounds)
	if err != nil {
		log.Fatal(err)
	}
	for i, s := range suites {
		if s == nil {
			// It looped, exited or killed its JVM: a JVM of its own
			// gives its verdict (a JavaBuild that puts its classes first).
			fmt.Println("round", i, "undecided")
			continue
		}
		fmt.Println("round", i, s.Count(exec.TestPassed), "passed of", len(s.Tests))
	}
}
