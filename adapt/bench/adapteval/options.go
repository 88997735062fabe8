package adapteval

import (
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
)

// The protocol of the paper: five samples per task at temperature 0.2, and
// the artifact's time limit of 5 seconds for one run of a task's test class
// (the import of the test module included).
const (
	Samples     = 5
	temperature = 0.2
	timeLimit   = 5 * time.Second
)

// limits returns the limits of one test run: timeLimit of CPU time and of
// wall time. The artifact's limit is a thread-based timeout on the import
// and run of the class; here the sandbox stops the whole process.
func limits() exec.Limits {
	return exec.Limits{CPUTime: timeLimit, WallTime: timeLimit}
}

// Options returns the adapt.Options of the paper's protocol for a setting:
// samples completions per task (0 means Samples) at temperature 0.2, the
// setting's template, pass@1 and pass@samples, and the artifact's limit
// of 5 seconds (CPU and wall time) for one run of a task's test class,
// its import included. The caller adds
// a Runner, a Journal, Progress and the like.
//
// The function is taken out of an answer by name with tree-sitter
// (adapt.Extract), fenced or not, decorators kept; an answer that keeps the
// snippet's old name is report.OutcomeWrongName where the artifact counts
// an import error. A module that does not import is
// report.OutcomeCompileError, a run over the limit report.OutcomeTimeout,
// and every test's error type (report.TestOutcome.ErrorType) is kept.
func Options(s Setting, samples int) *adapt.Options {
	if samples <= 0 {
		samples = Samples
	}
	k := []int{1}
	if samples > 1 {
		k = append(k, samples)
	}
	return &adapt.Options{
		Samples:  samples,
		Sampling: report.Sampling{Temperature: temperature},
		Template: s.Template(),
		Limits:   limits(),
		K:        k,
	}
}
