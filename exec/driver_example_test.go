package exec_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/adaptbench/adaptbench/exec"
)

// The drivers need a sandbox and the toolchains, so this example is only
// compiled; the tests in driver_*_test.go run the same calls.
func ExamplePythonUnittest() {
	sb, err := exec.NewSandbox(nil)
	if err != nil {
		log.Fatal(err) // wraps exec.ErrNoNamespaces where the kernel says no
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
