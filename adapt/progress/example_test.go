package progress_test

import (
	"os"

	"github.com/adaptbench/adaptbench/adapt/progress"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// A display shows any loop that reports report.Progress: here a
// generator's identification, as adapt.Options.Progress or a generator's
// Progress option receives it. Off a terminal (this example's output is a
// pipe) it writes plain lines; on one, a bar.
func ExampleDisplay() {
	d := progress.New(os.Stdout, "ctxbug")
	for done := 1; done <= 3; done++ {
		d.Report(report.Progress{Phase: "identify", Done: done, Total: 3, Passed: done})
	}
	d.Close()
}
