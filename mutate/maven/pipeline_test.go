package maven_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/internal/mutatetest"
	"github.com/adaptbench/adaptbench/mutate/maven"
)

func TestMain(m *testing.M) { exectest.Main(m) }

var update = flag.Bool("update", false, "rewrite testdata/*.coverage.json")

// openMaven opens the Maven project at dir with the sandbox, closed when
// the test ends; slow says how long the test takes, for -short.
func openMaven(t *testing.T, dir, slow string) *maven.Project {
	t.Helper()
	if testing.Short() {
		t.Skip(slow)
	}
	mutatetest.NeedMaven(t)
	mv, err := maven.Open(context.Background(), dir, exectest.Sandbox(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mv.Close() })
	return mv
}

func TestMavenProject(t *testing.T) {
	t.Parallel() // minutes: beside the other slow tests of the package
	if testing.Short() {
		t.Skip("builds and tests dozens of mutants: 1.5 to 5 minutes")
	}
	mutatetest.NeedMaven(t)
	ctx := context.Background()
	sb := exectest.Sandbox(t)
	start := time.Now()
	mv, err := maven.Open(ctx, "testdata/maven", sb, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mv.Close()
	t.Logf("mvn test-compile: %v", time.Since(start).Round(time.Millisecond))
	res, err := mutate.Generate(ctx, mv, &mutate.Options{Seed: 1, Source: "shop", Fragments: 8, Levels: []mutate.ComplexityLevel{mutate.L1, mutate.L2}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d tests, %d stable, flaky %v; fragments %d, covered %d, sampled %d; %d candidates, %d tasks in %v (build %v, tests %v)",
		len(res.Tests), len(res.Stable), res.Flaky, res.Fragments, res.Covered, res.Sampled,
		len(res.Candidates), len(res.Tasks), time.Since(start).Round(time.Millisecond), res.BuildTime.Round(time.Millisecond), res.TestTime.Round(time.Millisecond))
	res.Funnel.WriteTable(t.Output())
	g := res.Gates()
	t.Logf("gates:\n%s", g)
	if len(res.Tests) != 11 || len(res.Stable) != 11 {
		t.Errorf("%d tests, %d stable, want the 11 of testdata/maven, all passing", len(res.Tests), len(res.Stable))
	}
	if res.Covered == 0 || res.Covered != res.Fragments {
		t.Errorf("%d of %d fragments covered: every fragment of testdata/maven is tested", res.Covered, res.Fragments)
	}
	t.Logf("generated in %v", time.Since(start))
	if g.CompileShare < 0.70 || g.DetectShare < 0.60 {
		t.Errorf("gates missed: compile %.2f (>= 0.70), detect %.2f (>= 0.60)", g.CompileShare, g.DetectShare)
	}
	if len(g.Valid) < 6 {
		t.Errorf("valid L1 tasks for %d operators (%v), want at least 6", len(g.Valid), g.Valid)
	}
	for _, c := range res.Candidates {
		if c.Reason == mutate.ReasonInfra {
			t.Errorf("%s at %s:%d: harness failure: %s", c.Key(), c.File, c.Frag.Line, c.Detail)
		}
	}
	// Every check goes through the shared JVMs, and none of testdata/maven's
	// mutants loops or exits, so the batches decide them (all of them here;
	// a round past its wall-time backstop on a loaded machine would be
	// made alone, at most a few).
	t.Logf("batches: %+v", res.Batches)
	if b := res.Batches; b.Checks == 0 || b.Alone > b.Checks/10 || len(b.Errors) != 0 {
		t.Errorf("batches: %+v; want the checks decided in shared JVMs", b)
	}
	// adapt's JUnit driver compiles the whole workspace for every check
	// (seconds on a loaded machine): identity runs on every mutant, the
	// reference and the snippet answer on four.
	tasks := res.Tasks
	all, some := mutatetest.PerMutant(t, tasks, 4)
	mutatetest.CheckTasks(t, all, some, sb, mv.ReadFile)
}

// TestMavenParameterized runs the pipeline on testdata/semver, a semantic
// version parser tested with JUnit 5 parameterized tests (@ValueSource,
// @MethodSource, @CsvSource), dynamic tests with a nested container,
// @Nested classes and a @RepeatedTest: the baseline lists and runs every
// invocation by a name that selects it, per-test coverage comes from one
// JVM, and mutants are generated and validated with the invocations that
// kill them, each of which, selected alone, passes on the original and
// fails on the mutant.
func TestMavenParameterized(t *testing.T) {
	t.Parallel() // minutes: beside the other slow tests of the package
	mv := openMaven(t, "testdata/semver", "builds and tests dozens of mutants: minutes")
	ctx := context.Background()
	start := time.Now()
	res, err := mutate.Generate(ctx, mv, &mutate.Options{Seed: 1, Source: "semver", Fragments: 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d tests, %d stable, flaky %v; fragments %d, covered %d, sampled %d; %d candidates, %d tasks in %v",
		len(res.Tests), len(res.Stable), res.Flaky, res.Fragments, res.Covered, res.Sampled,
		len(res.Candidates), len(res.Tasks), time.Since(start).Round(time.Millisecond))
	res.Funnel.WriteTable(t.Output())
	if len(res.Tests) != 60 || len(res.Stable) != 60 {
		t.Errorf("%d tests, %d stable, want the 60 of testdata/semver, all passing", len(res.Tests), len(res.Stable))
	}
	for _, n := range []string{
		"com.example.semver.ParserErrorHandlingTest#shouldCorrectlyHandleParseErrors[10]",
		"com.example.semver.VersionParsingTest#roundTrips[1]",
		"com.example.semver.VersionParsingTest#fields[4]",
		"com.example.semver.VersionComparisonTest#precedence[10]",
		"com.example.semver.VersionComparisonTest#equality[1][2]",
		"com.example.semver.VersionComparisonTest#equality[2]",
		"com.example.semver.VersionTest#hashMatchesEquals[4]",
		"com.example.semver.VersionTest$Increments#patch",
		"com.example.semver.VersionTest#nullInput",
	} {
		if !slices.Contains(res.Stable, n) {
			t.Errorf("no stable test %s in %v", n, res.Stable)
		}
	}
	again, err := mv.Tests(ctx)
	if err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, res.Tests, again, "the tests' names changed between two runs (first, second)")
	if res.Covered == 0 {
		t.Fatalf("no fragment covered")
	}
	for _, c := range res.Candidates {
		if c.Reason == mutate.ReasonInfra {
			t.Errorf("%s at %s:%d: harness failure: %s", c.Key(), c.File, c.Frag.Line, c.Detail)
		}
	}
	// Each valid mutant is killed by tests that, selected alone by their
	// names, pass on the original and fail on the mutant.
	valid, byInvocation, checked := 0, 0, map[bool]int{}
	for _, c := range res.Candidates {
		if !c.Valid() || c.Unresolved { // the compiler detects an unresolved one
			continue
		}
		valid++
		if len(c.Failing) == 0 {
			t.Errorf("%s at %s:%d: valid with no failing test", c.Key(), c.File, c.Frag.Line)
			continue
		}
		killer := c.Failing[len(c.Failing)-1]
		if strings.HasSuffix(killer, "]") {
			byInvocation++
		}
		// Two checks a mutant take seconds: six killed by an invocation,
		// two by a plain test.
		kind := strings.HasSuffix(killer, "]")
		if checked[kind]++; checked[kind] > map[bool]int{true: 6, false: 2}[kind] {
			continue
		}
		orig, err := mv.Check(ctx, "", nil, []string{killer})
		if err != nil {
			t.Fatal(err)
		}
		mut, err := mv.Check(ctx, c.File, c.Src, []string{killer})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(orig.Passed, []string{killer}) || !slices.Equal(mut.Failed, []string{killer}) {
			t.Errorf("%s at %s:%d: %s alone: original passed %v, mutant failed %v (compile %q)", c.Key(), c.File, c.Frag.Line, killer, orig.Passed, mut.Failed, mut.Compile)
		}
	}
	t.Logf("%d valid mutants, %d killed by an invocation of a parameterized, repeated or dynamic test", valid, byInvocation)
	if valid < 5 || byInvocation == 0 {
		t.Errorf("%d valid mutants, %d killed by an invocation: want at least 5, and some by an invocation", valid, byInvocation)
	}
	// adapt.Evaluate runs the tasks' tests by the same names: the
	// reference passes, F′ fails, on one task per operator (of four).
	_, some := mutatetest.PerMutant(t, res.Tasks, 4)
	mutatetest.CheckTasks(t, some, some, exectest.Sandbox(t), mv.ReadFile)
}

// TestMavenCoverageOneJVM checks per-test coverage taken in one JVM
// (CoverageAll over every test) against each test run alone in a JVM of its
// own (Coverage), the oracle, on both fixtures. Running the oracle for every
// test starts a JVM per test (60 for semver: a minute and a half of CPU),
// so its results are recorded beside each fixture
// (testdata/<fixture>.coverage.json, rewritten with -update) and each run
// holds the one-JVM coverage of every test to the recording, and runs the
// oracle again for coverageRechecks tests spread over the list, each of
// which must give its recorded lines. Coverage is deterministic (the same
// classes, the same JaCoCo); a test that does not reproduce its recording
// means the recording is of another fixture or toolchain, and then the
// oracle runs for every test, as with -update.
func TestMavenCoverageOneJVM(t *testing.T) {
	t.Parallel() // minutes: beside the other slow tests of the package
	ctx := context.Background()
	updating := *update
	for _, fixture := range []string{"testdata/maven", "testdata/semver"} {
		t.Run(filepath.Base(fixture), func(t *testing.T) {
			mv := openMaven(t, fixture, "starts a JVM per test: minutes")
			tests, err := mv.Tests(ctx)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			all, err := mv.CoverageAll(ctx, tests)
			if err != nil {
				t.Fatal(err)
			}
			one := time.Since(start)
			golden := fixture + ".coverage.json"
			var recorded map[string]mutate.Lines
			if !updating {
				recorded = readCoverage(t, golden)
			}
			if recorded != nil {
				var names []string
				for name := range recorded {
					names = append(names, name)
				}
				slices.Sort(names)
				if !assert.Equal(t, names, slices.Sorted(slices.Values(tests)), "%s records other tests than the fixture has (recorded, fixture)", golden) {
					recorded = nil
				}
			}
			alone := make(map[string]mutate.Lines)
			runAlone := func(i int) mutate.Lines {
				ls, err := mv.Coverage(ctx, tests[i])
				if err != nil {
					t.Fatal(err)
				}
				assert.Equal(t, ls, all[i], "%s: coverage alone and in one JVM differ (alone, one JVM)", tests[i])
				if len(ls) == 0 {
					t.Errorf("%s covers nothing", tests[i])
				}
				alone[tests[i]] = ls
				return ls
			}
			start = time.Now()
			if recorded != nil {
				for _, i := range spread(coverageRechecks, len(tests)) {
					if d := cmp.Diff(recorded[tests[i]], runAlone(i)); d != "" {
						t.Logf("%s: %s does not reproduce its recording in %s (-recorded +now):\n%s\nrunning every test alone", fixture, tests[i], golden, d)
						recorded = nil
						break
					}
				}
			}
			if recorded == nil {
				for i := range tests {
					if _, done := alone[tests[i]]; !done {
						runAlone(i)
					}
				}
			} else {
				for i, test := range tests {
					assert.Equal(t, recorded[test], all[i], "%s: coverage alone (recorded) and in one JVM differ (alone, one JVM)", test)
				}
			}
			each := time.Since(start)
			t.Logf("%d tests: one JVM per test: %d JVM starts, %.1f s (%d tests recorded, not run alone); one JVM for all: 1 JVM start, %.1f s",
				len(tests), len(alone), each.Seconds(), len(tests)-len(alone), one.Seconds())
			if updating && !t.Failed() {
				writeCoverage(t, golden, alone)
			}
		})
	}
}

// coverageRechecks is how many tests of a fixture TestMavenCoverageOneJVM
// runs alone again when their coverage is recorded.
const coverageRechecks = 6

// spread returns n indices of 0..total-1 spread evenly from 0 (all of
// them when n >= total).
func spread(n, total int) []int {
	n = min(n, total)
	out := make([]int, n)
	for i := range n {
		out[i] = i * total / n
	}
	return out
}

// readCoverage reads the per-test coverage recorded in path; nil when
// there is none.
func readCoverage(t *testing.T, path string) map[string]mutate.Lines {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Logf("%s is missing: running every test alone (write it with -update)", path)
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]mutate.Lines
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rec
}

func writeCoverage(t *testing.T, path string, rec map[string]mutate.Lines) {
	t.Helper()
	// One test a line, in name order.
	names := slices.Sorted(maps.Keys(rec))
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, name := range names {
		k, _ := json.Marshal(name)
		v, err := json.Marshal(rec[name])
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s: %s", k, v)
		if i < len(names)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMavenOpts: maven.Config.MavenOpts reaches Maven's JVM (one that does
// not start fails maven.Open with the JVM's message).
func TestMavenOpts(t *testing.T) {
	mutatetest.NeedMaven(t)
	_, err := maven.Open(context.Background(), "testdata/maven", exectest.Sandbox(t), &maven.Config{MavenOpts: "-XX:+AdaptbenchNoSuchOption"})
	if err == nil || !strings.Contains(err.Error(), "AdaptbenchNoSuchOption") {
		t.Fatalf("maven.Open with a JVM option that does not exist: %v", err)
	}
}

// TestMavenOverloads checks testdata/overload, whose parse and clamp are
// overloaded (as zafarkhaja/jsemver's VersionParser's parseVersionCore and
// kin, 19 of its 77 fragments): a fragment in an overload is kept, its
// tasks name their method by its signature ("Range.parse(String,int)"),
// and adapt.Evaluate splices answers into that overload: the reference
// passes, F′ fails.
func TestMavenOverloads(t *testing.T) {
	t.Parallel() // a minute: beside the other slow tests of the package
	mv := openMaven(t, "testdata/overload", "builds and tests a dozen mutants: a minute")
	ctx := context.Background()
	res, err := mutate.Generate(ctx, mv, &mutate.Options{Seed: 1, Source: "overload", Runs: 1,
		Ops: []*mutate.Operator{mutate.ModifyLogic, mutate.RemoveGuard}})
	if err != nil {
		t.Fatal(err)
	}
	res.Funnel.WriteTable(t.Output())
	if res.Covered != res.Fragments || res.Fragments < 6 {
		t.Errorf("%d fragments, %d covered: want every fragment, overloads' too", res.Fragments, res.Covered)
	}
	sigs := map[string]bool{}
	for _, task := range res.Tasks {
		sigs[task.Target.Function] = true
	}
	for _, want := range []string{"Range.parse(String,int)", "Range.clamp(int)", "Range.clamp(long)", "Range.width"} {
		if !sigs[want] {
			t.Errorf("no task of %s; tasks of %v", want, slices.Sorted(maps.Keys(sigs)))
		}
	}
	all, some := mutatetest.PerMutant(t, res.Tasks, len(res.Tasks))
	mutatetest.CheckTasks(t, all, some, exectest.Sandbox(t), mv.ReadFile)
}
