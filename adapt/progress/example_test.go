package progress_test

import (
	"os"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/progress"
)

// A display shows any loop that reports adapt.Progress: here a Tracker's,
// as a generator's identification reports it. Off a terminal (this
// example's output is a pipe) it writes plain lines; on one, a bar.
func ExampleDisplay() {
	d := progress.New(os.Stdout, "ctxbug")
	tr := adapt.NewTracker(d.Report, "identify", 3)
	for range 3 {
		tr.Done(true)
	}
	d.Close()
}
