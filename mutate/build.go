package mutate

import (
	"context"
	"slices"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
)

// A Project is a code base with tests behind its build system: what the
// validity pipeline needs to compile F′ in place and run the relevant
// tests. Packages mutate/gomod (Go modules) and mutate/maven (Maven
// projects) implement it; a build system of one's own implements it the
// same way, from outside. Implementations are safe for concurrent use by
// the pipeline (Check may run concurrently).
type Project interface {
	// Lang is the language of the sources.
	Lang() Lang
	// Sources lists the source files to draw fragments from (no tests), as
	// sorted slash-separated paths relative to the project root.
	Sources() ([]string, error)
	// ReadFile returns the content of a project file.
	ReadFile(path string) ([]byte, error)
	// Tests lists the project's tests, sorted, by the names Check and
	// Coverage take.
	Tests(ctx context.Context) ([]string, error)
	// Coverage runs one test on the unmodified project and returns the
	// source lines it executed.
	Coverage(ctx context.Context, test string) (Lines, error)
	// Check builds the project with the file at path replaced by src
	// (path "" means the unmodified project) and runs the given tests (nil
	// means all). A build that fails is TestRun.Compile; the error is for
	// the harness.
	Check(ctx context.Context, path string, src []byte, tests []string) (*TestRun, error)
	// Task fills in how adapt.Evaluate runs a task whose target is path:
	// the workspace files other than the target, and the framework.
	Task(path string, t *adapt.Task) error
	// Close removes the project's working files.
	Close() error
}

// A batchCoverage is a Project that collects the coverage of many tests in
// one run, which [Generate] then uses instead of Project.Coverage per test.
// mutate/maven implements it (one JVM for every test instead of one each).
type batchCoverage interface {
	// CoverageAll runs the tests on the unmodified project and returns
	// the source lines each one executed, by index, as Coverage would.
	CoverageAll(ctx context.Context, tests []string) ([]Lines, error)
}

// A preparer is a Project that decides on many mutants at once before they
// are checked one by one: mutate/gomod type-checks them and builds mutant
// schemata, mutate/maven compiles them in one JVM. Check then answers from
// what Prepare found until release.
type preparer interface {
	// Prepare decides on the candidates, all undecided (Reason
	// ReasonNone, neither Unresolved nor Failing set); of each it reads
	// File, Src and Policy (AllowUnresolved judges the compiler's
	// messages). It returns the time spent building and the release
	// that forgets them.
	Prepare(ctx context.Context, cands []*Candidate) (build time.Duration, release func(), err error)
}

// A batchChecker is a Project that checks many mutants at once
// (mutate/maven: their tests in shared JVMs, exec.JUnit.TestRounds).
type batchChecker interface {
	// CheckBatch makes the checks, as Check would, by index. A nil
	// TestRun is a check it did not decide, which Check then makes alone;
	// with an error (the batch failed as a whole), the TestRuns it did
	// decide still hold.
	CheckBatch(ctx context.Context, reqs []CheckRequest) ([]*TestRun, error)
}

// A CheckRequest is one check of a batch: Project.Check's arguments.
type CheckRequest struct {
	File  string
	Src   []byte
	Tests []string
}

// A typeChecker is a Project that tells quickly, without a build, whether
// a mutant of one of its files type-checks (mutate/gomod, with go/types
// against its packages' export data). Generate then proposes only the
// sites whose edits type-check.
type typeChecker interface {
	// TypeErrors returns the type errors of the project with file
	// replaced by src ("" when there are none); ok is false when it
	// cannot tell.
	TypeErrors(ctx context.Context, file string, src []byte) (msgs string, ok bool)
}

// Lines maps a source file (slash path relative to the project root) to
// the sorted line numbers that ran.
type Lines map[string][]int

// covers reports whether any line in [from, to] of path ran.
func (l Lines) covers(path string, from, to int) bool {
	ls := l[path]
	i, _ := slices.BinarySearch(ls, from)
	return i < len(ls) && ls[i] <= to
}

// A TestRun is one build and test run of a project.
type TestRun struct {
	// Compile holds the compiler's messages when the build failed; no test
	// ran then.
	Compile string
	// Passed and Failed name the tests that passed and those that did not
	// (failed, crashed, timed out or never reported), sorted.
	Passed, Failed []string
	// TimedOut is set when the test process was stopped by a limit.
	TimedOut bool
	// BuildTime and TestTime are the wall times of the build and of the
	// test process.
	BuildTime, TestTime time.Duration
}
