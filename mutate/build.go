package mutate

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
)

// A Project is a code base with tests behind its build system: what the
// validity pipeline needs to compile F′ in place and run the relevant
// tests. [GoModule] and [Maven] implement it. Implementations are safe for
// concurrent use by the pipeline (Check may run concurrently).
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

// A BatchCoverage is a Project that collects the coverage of many tests in
// one run, which [Generate] then uses instead of Project.Coverage per test.
// [Maven] implements it (one JVM for every test instead of one each).
type BatchCoverage interface {
	// CoverageAll runs the tests on the unmodified project and returns
	// the source lines each one executed, by index, as Coverage would.
	CoverageAll(ctx context.Context, tests []string) ([]Lines, error)
}

// Lines maps a source file (slash path relative to the project root) to
// the sorted line numbers that ran.
type Lines map[string][]int

// Covers reports whether any line in [from, to] of path ran.
func (l Lines) Covers(path string, from, to int) bool {
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

// sort records each of tests (nil: every test in passed) as passed or
// failed, in order; a test missing from passed did not pass.
func (o *TestRun) sort(tests []string, passed map[string]bool) {
	if tests == nil {
		tests = slices.Sorted(maps.Keys(passed))
	}
	for _, t := range tests {
		if passed[t] {
			o.Passed = append(o.Passed, t)
		} else {
			o.Failed = append(o.Failed, t)
		}
	}
}

// decided holds what a preparer decided about mutants, by file and source,
// from its prepare until that prepare's release. The zero value is empty
// and ready to use.
type decided[T any] struct {
	mu sync.Mutex
	m  map[string]*T
}

// get returns what was decided about the mutant, or nil.
func (d *decided[T]) get(file string, src []byte) *T {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.m[mutantKey(file, src)]
}

// has reports whether a prepare not yet released decided on key.
func (d *decided[T]) has(key string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.m[key] != nil
}

// keep records found and returns the release that forgets it.
func (d *decided[T]) keep(found map[string]*T) (release func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.m == nil {
		d.m = map[string]*T{}
	}
	maps.Copy(d.m, found)
	return func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		for k := range found {
			delete(d.m, k)
		}
	}
}

// mutantKey keys decided mutants.
func mutantKey(file string, src []byte) string { return file + "\x00" + string(src) }
