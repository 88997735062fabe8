package evolve

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/evolve/transform"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// Verdict says whether a program passed its suite. The zero value,
// verdictInvalid, marks a verdict that was never set. Text forms are
// stable.
type Verdict uint8

// The verdicts.
const (
	verdictInvalid Verdict = iota
	// VerdictPassed: every test of the suite passed.
	VerdictPassed
	// VerdictFailed: a test failed or raised.
	VerdictFailed
	// VerdictTimeout: a test or the suite hit a time limit.
	VerdictTimeout
	// VerdictBroken: the program (or a test module) did not import, or the
	// test process hit a memory, output or process limit.
	VerdictBroken
)

var verdictNames = [...]string{"invalid", "passed", "failed", "timeout", "broken"}

// String returns the text form, such as "passed".
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}

// MarshalText returns the text form; it fails for undefined values.
func (v Verdict) MarshalText() ([]byte, error) {
	if int(v) >= len(verdictNames) {
		return nil, fmt.Errorf("evolve: invalid Verdict %d", uint8(v))
	}
	return []byte(verdictNames[v]), nil
}

// UnmarshalText parses the text form; "" is rejected.
func (v *Verdict) UnmarshalText(b []byte) error {
	for i, n := range verdictNames {
		if n == string(b) {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("evolve: unknown verdict %q (want one of %s)", b, strings.Join(verdictNames[:], ", "))
}

// TestRun is the result of testing one program.
type TestRun struct {
	Verdict Verdict
	// Detail says why a program did not pass: the first failing test and
	// its message, cut short. Empty when it passed.
	Detail string
	// Cached reports that the verdict came from the cache: the same
	// program was tested against the same suite before.
	Cached bool
}

// Passed reports whether the verdict is VerdictPassed.
func (o TestRun) Passed() bool { return o.Verdict == VerdictPassed }

// Tester runs suites in the sandbox and remembers every verdict by suite
// and program hash, so that no program is ever tested twice against the
// same suite, even by concurrent callers. It is safe for concurrent use.
// Create one with [DefaultTester].
type Tester struct {
	checker *adapt.Checker

	mu    sync.Mutex
	cache map[string]*entry
	stats TesterStats
}

// entry is one cache slot; done is closed when out is set.
type entry struct {
	done chan struct{}
	out  TestRun
	err  error
}

// TesterStats counts what a Tester did.
type TesterStats struct {
	// Runs is the number of suites run in the sandbox.
	Runs int
	// Hits is the number of Test calls answered from the cache (including
	// calls that waited for a concurrent run of the same program).
	Hits int
	// Passed is how many of the Runs passed.
	Passed int
	// TestTime is the wall time spent in the test drivers, summed over the
	// runs (so it can exceed the elapsed time when runs overlap).
	TestTime time.Duration
}

// DefaultLimits bound each test run of a Tester (and, as
// adapt.Options.Limits, the evaluation of the evolved tasks): 3 s of CPU
// time for the whole process tree, 10 s of wall time (A8 puts sleeps of up
// to 0.3 s into the code, and a program whose S4 thread died waits for the
// wall limit), 1 GiB of memory (numpy and scipy, which the API operators
// import, need several hundred MiB of address space), 64 processes (S4
// starts threads).
var DefaultLimits = exec.Limits{CPUTime: 3 * time.Second, WallTime: 10 * time.Second, Memory: exec.GiB, Processes: 64}

// testerConfig configures newTester (the tests set other limits). A nil
// *testerConfig and the zero value mean the defaults.
type testerConfig struct {
	// Limits bound each test run. The zero value means DefaultLimits.
	Limits exec.Limits
}

// newTester returns a Tester that runs suites through r: a sandbox.Sandbox,
// or, faster, a sandbox.ForkServer over one (see [DefaultTester]).
func newTester(r exec.Runner, cfg *testerConfig) *Tester {
	var c testerConfig
	if cfg != nil {
		c = *cfg
	}
	if c.Limits == (exec.Limits{}) {
		c.Limits = DefaultLimits
	}
	return &Tester{checker: &adapt.Checker{Runner: r, Limits: c.Limits}, cache: map[string]*entry{}}
}

// Stats returns the counts so far.
func (t *Tester) Stats() TesterStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stats
}

// Test runs s's tests on program p in the sandbox, or answers from the
// cache when the same program was tested against the same suite before.
// A test failure is a TestRun; the error is for a harness failure (the
// sandbox, ctx), and such results are not cached.
func (t *Tester) Test(ctx context.Context, s *TestSuite, p *transform.Program) (TestRun, error) {
	if t == nil || t.checker == nil || t.checker.Runner == nil {
		return TestRun{}, errors.New("evolve: Tester has no runner (use DefaultTester)")
	}
	key := s.key() + "/" + p.Hash()
	t.mu.Lock()
	if e, ok := t.cache[key]; ok {
		t.stats.Hits++
		t.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return TestRun{}, ctx.Err()
		}
		if e.err != nil {
			return TestRun{}, e.err
		}
		out := e.out
		out.Cached = true
		return out, nil
	}
	e := &entry{done: make(chan struct{})}
	t.cache[key] = e
	t.mu.Unlock()

	start := time.Now()
	e.out, e.err = t.run(ctx, s, p)
	d := time.Since(start)
	t.mu.Lock()
	if e.err != nil {
		delete(t.cache, key) // a harness failure says nothing about the program
	} else {
		t.stats.Runs++
		t.stats.TestTime += d
		if e.out.Passed() {
			t.stats.Passed++
		}
	}
	t.mu.Unlock()
	close(e.done)
	return e.out, e.err
}

// run tests p through an adapt.Checker: p.Main is the target file, the
// suite's files and p's modules the rest of the workspace.
func (t *Tester) run(ctx context.Context, s *TestSuite, p *transform.Program) (TestRun, error) {
	task := adapt.Task{ID: "evolve", Language: adapt.Python, Framework: s.framework(),
		Target: adapt.Target{Path: s.Path, Content: string(p.Main)}}
	seen := map[string]bool{}
	for _, f := range s.files(p) {
		if seen[f.Path] {
			return TestRun{Verdict: VerdictBroken, Detail: fmt.Sprintf("module %q collides with a file of the suite", f.Path)}, nil
		}
		seen[f.Path] = true
		if f.Path != s.Path {
			task.Files = append(task.Files, f)
		}
	}
	for _, name := range s.Tests {
		task.Tests = append(task.Tests, adapt.Test{Name: name})
	}
	suite, err := t.checker.Test(ctx, &task, task.Target.Content)
	if err != nil {
		if ctx.Err() != nil {
			return TestRun{}, ctx.Err()
		}
		return TestRun{}, fmt.Errorf("evolve: running tests: %w", err)
	}
	return judge(s, suite), nil
}

// judge turns a driver's exec.Suite (a result) into a TestRun: passed only when every
// named test passed.
func judge(s *TestSuite, suite *exec.Suite) TestRun {
	if suite.Compile != nil {
		return TestRun{Verdict: VerdictBroken, Detail: clip("does not import: " + suite.Compile.Output)}
	}
	for _, name := range s.Tests {
		r, ok := suite.Lookup(name)
		switch {
		case !ok:
			return TestRun{Verdict: VerdictBroken, Detail: clip(fmt.Sprintf("%s: not reported (run %v)", name, suite.Run.Status))}
		case r.Status == exec.TestPassed:
			continue
		case r.Status == exec.TestTimedOut, r.Status == exec.TestError && (suite.Run.Status == exec.StatusCPUTime || suite.Run.Status == exec.StatusWallTime):
			return TestRun{Verdict: VerdictTimeout, Detail: clip(name + ": " + r.Message)}
		case r.Status == exec.TestError && limitHit(suite.Run.Status):
			return TestRun{Verdict: VerdictBroken, Detail: clip(fmt.Sprintf("%s: %v: %s", name, suite.Run.Status, r.Message))}
		default:
			return TestRun{Verdict: VerdictFailed, Detail: clip(fmt.Sprintf("%s %v: %s", name, r.Status, r.Message))}
		}
	}
	return TestRun{Verdict: VerdictPassed}
}

func limitHit(s exec.Status) bool {
	switch s {
	case exec.StatusMemory, exec.StatusOutput, exec.StatusSignal:
		return true
	}
	return false
}

func clip(s string) string {
	const n = 2000
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// preload lists the modules DefaultTester's fork server imports once, on
// top of sandbox.DefaultPreload: those the API operators and S4 and S9 inject
// (A1–A8), so that a test run forks them ready instead of importing numpy
// and scipy again each time.
var preload = []string{"base64", "datetime", "http.client", "queue", "threading", "numpy", "scipy.stats", "dateutil.parser", "cryptography.fernet", "sklearn.utils"}

// DefaultTester returns a Tester over a new sandbox.ForkServer that preloads
// [PreloadList] (the modules the machine's Python has) in a new sandbox.Sandbox,
// with DefaultLimits, and the function that closes both.
func DefaultTester() (*Tester, func(), error) {
	fs, err := sandbox.NewPythonRunner(&sandbox.ForkServerConfig{Preload: PreloadList()})
	if err != nil {
		return nil, nil, err
	}
	return newTester(fs, nil), func() { fs.Close() }, nil
}

// PreloadList is what DefaultTester's fork server imports once:
// sandbox.DefaultPreload followed by the modules the API operators and S4
// and S9 inject (numpy, scipy.stats, dateutil, cryptography, …), for a
// fork server of one's own.
func PreloadList() []string { return append(slices.Clone(sandbox.DefaultPreload), preload...) }
