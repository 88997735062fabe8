package gomod_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/gomod"
	"github.com/adaptbench/adaptbench/mutate/internal/mutatetest"
)

func TestMain(m *testing.M) { exectest.Main(m) }

func openReal(tb testing.TB, r exec.Runner) *gomod.Module {
	dir := mutatetest.FetchModule(tb, mutatetest.UUIDModule, mutatetest.UUIDVersion)
	gm, err := gomod.Open(dir, r, &gomod.Config{Limits: mutatetest.UUIDLimits})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { gm.Close() })
	return gm
}

// realConfig keeps the acceptance run near a minute: 10 sampled
// fragments, L1 and L2.
var realConfig = mutate.Options{Seed: 1, Fragments: 8, Source: "uuid", Levels: []mutate.ComplexityLevel{mutate.L1, mutate.L2}}

func TestGoModuleReal(t *testing.T) {
	t.Parallel() // minutes: beside the other slow tests of the package
	if testing.Short() {
		t.Skip("builds and tests dozens of mutants: 1.5 to 5 minutes")
	}
	sb := exectest.Sandbox(t)
	gm := openReal(t, sb)
	ctx := context.Background()
	start := time.Now()
	cfg := realConfig
	res, err := mutate.Generate(ctx, gm, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s@%s: %d tests, %d stable, flaky %v; fragments %d, covered %d, sampled %d; %d candidates, %d tasks in %v (build %v, tests %v)",
		mutatetest.UUIDModule, mutatetest.UUIDVersion, len(res.Tests), len(res.Stable), res.Flaky, res.Fragments, res.Covered, res.Sampled,
		len(res.Candidates), len(res.Tasks), time.Since(start).Round(time.Millisecond), res.BuildTime.Round(time.Millisecond), res.TestTime.Round(time.Millisecond))
	res.Funnel.WriteTable(t.Output())
	g := res.Gates()
	t.Logf("gates:\n%s", g)

	if len(res.Tests) != 40 {
		t.Errorf("%d tests, want the 40 top-level tests of %s@%s", len(res.Tests), mutatetest.UUIDModule, mutatetest.UUIDVersion)
	}
	if g.CompileShare < 0.70 {
		t.Errorf("compile share %.2f below the paper's 0.70 gate", g.CompileShare)
	}
	// Valid tasks for most operators (the sample's fragments have no site
	// of some operators, and the tests catch no mutant of others).
	if len(g.Valid) < 4 {
		t.Errorf("valid L1 tasks for %d operators (%v), want at least 4", len(g.Valid), g.Valid)
	}
	for _, c := range res.Candidates {
		if c.Reason == mutate.ReasonInfra {
			t.Errorf("%s at %s:%d: harness failure: %s", c.Key(), c.File, c.Frag.Line, c.Detail)
		}
	}
	tasks := res.Tasks
	mutatetest.CheckTaskFile(t, tasks)
	// Evaluating costs a build per check (4 s on a loaded 2-core
	// machine): identity runs on every mutant, the reference and the
	// snippet answer on one mutant per operator combination.
	all, some := mutatetest.PerMutant(t, tasks, len(tasks))
	mutatetest.CheckTasks(t, all, some, sb, gm.ReadFile)
}

// A module with no package at its root: its code is in cmp/ and below.
const (
	cmpModule  = "github.com/google/go-cmp"
	cmpVersion = "v0.7.0"
)

// TestGoModuleNoRootPackage: a module without a root package is an error
// that lists its packages, not the go command's "no Go files"; a package
// named that the module lacks is one too.
func TestGoModuleNoRootPackage(t *testing.T) {
	dir := mutatetest.FetchModule(t, cmpModule, cmpVersion)
	never := exec.RunnerFunc(func(context.Context, exec.Job) (exec.Result, error) {
		t.Fatal("nothing runs before the packages are resolved")
		return exec.Result{}, nil
	})
	for _, tc := range []struct {
		name string
		pkgs []string
		want string
	}{
		{"root", nil, "module github.com/google/go-cmp (" + dir + ") has no Go package at its root; its packages: cmp, cmp/cmpopts, cmp/internal/diff, cmp/internal/flags, cmp/internal/function, cmp/internal/testprotos, cmp/internal/teststructs, cmp/internal/teststructs/foo1, cmp/internal/teststructs/foo2, cmp/internal/value: choose with gomod.Config.Packages"},
		{"missing", []string{"cmp/nope"}, `has no Go package in "cmp/nope"; its packages: cmp,`},
		{"outside", []string{"../x"}, `gomod.Config.Packages: "../x" is not a package directory relative to the module root`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gm, err := gomod.Open(dir, never, &gomod.Config{Packages: tc.pkgs})
			if err == nil {
				gm.Close()
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q\nwant it to contain %q", err, tc.want)
			}
		})
	}
	gm, err := gomod.Open(dir, never, &gomod.Config{Packages: []string{gomod.AllPackages}})
	if err != nil {
		t.Fatal(err)
	}
	defer gm.Close()
	// Packages with both sources and tests.
	if got, want := strings.Join(gomod.Packages(gm), " "), "cmp cmp/cmpopts cmp/internal/diff cmp/internal/function cmp/internal/value"; got != want {
		t.Errorf("Packages() = %s, want %s", got, want)
	}
}

// TestGoModuleSubpackage: go-cmp's cmp package is studied, and its tasks
// are evaluable: adapt.Evaluate runs them in that package (where TestDiff
// reads its testdata), the reference passes and the mutant fails.
func TestGoModuleSubpackage(t *testing.T) {
	t.Parallel() // minutes: beside the other slow tests of the package
	if testing.Short() {
		t.Skip("builds and tests a few mutants of go-cmp")
	}
	dir := mutatetest.FetchModule(t, cmpModule, cmpVersion)
	sb := exectest.Sandbox(t)
	gm, err := gomod.Open(dir, sb, &gomod.Config{
		Packages: []string{"cmp"},
		Limits:   exec.Limits{CPUTime: 30 * time.Second, WallTime: 60 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer gm.Close()
	ctx := context.Background()
	res, err := mutate.Generate(ctx, gm, &mutate.Options{Seed: 1, Fragments: 3, Source: "go-cmp", Contexts: []mutate.ContextLevel{mutate.C3}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s@%s cmp: tests %v, stable %v; fragments %d, covered %d, sampled %d; %d candidates, %d tasks",
		cmpModule, cmpVersion, res.Tests, res.Stable, res.Fragments, res.Covered, res.Sampled, len(res.Candidates), len(res.Tasks))
	res.Funnel.WriteTable(t.Output())
	// Two tests and the nine examples with an output comment.
	want := []string{"cmp.ExampleDiff_testing", "cmp.ExampleOption_approximateFloats", "cmp.ExampleOption_avoidEqualMethod",
		"cmp.ExampleOption_equalEmpty", "cmp.ExampleOption_equalNaNs", "cmp.ExampleOption_equalNaNsAndApproximateFloats",
		"cmp.ExampleOption_sortedSlice", "cmp.ExampleOption_transformComplex", "cmp.ExampleReporter", "cmp.TestDiff", "cmp.TestOptionPanic"}
	if !reflect.DeepEqual(res.Tests, want) {
		t.Errorf("tests %v, want %v (qualified by their package)", res.Tests, want)
	}
	if len(res.Tasks) == 0 {
		t.Fatal("no task")
	}
	mutatetest.CheckTaskFile(t, res.Tasks)
	tasks := res.Tasks[:min(2, len(res.Tasks))]
	for _, task := range tasks {
		if !strings.HasPrefix(task.Target.Path, "cmp/") {
			t.Errorf("%s: target %s, want a file of cmp/", task.ID, task.Target.Path)
		}
		for _, tc := range task.Tests {
			if strings.Contains(tc.Name, ".") {
				t.Errorf("%s: test %q: want the bare name the driver reports", task.ID, tc.Name)
			}
		}
	}
	for _, tc := range []struct {
		model adapt.Model
		pass  bool
	}{{adapt.Reference, true}, {adapt.Identity, false}} {
		rep, err := adapt.Evaluate(ctx, tasks, tc.model, &adapt.Options{Template: mutate.Prompt, Runner: sb, NoGold: true, Answer: mutate.Answer})
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range rep.PerTask {
			s := tr.Samples[0]
			if passed := s.Outcome == report.OutcomePassed; passed != tc.pass {
				t.Errorf("%s on %s: %s, want passed=%v: %s%s", tc.model.Name(), tr.TaskID, s.Outcome, tc.pass, s.Detail, mutatetest.TestMessages(s.Tests))
			}
		}
	}
}

// TestGoModuleBinaryFile: a module holding a file the task format cannot
// hold (not UTF-8 text) fails Generate with an error naming the file
// before any mutant is validated, rather than writing tasks whose
// workspace would differ from the module.
func TestGoModuleBinaryFile(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":            "module example.com/a\n\ngo 1.22\n",
		"a.go":              "package a\n\nfunc Clamp(v, lo, hi int) int {\n\tif v < lo {\n\t\treturn lo\n\t}\n\tif v > hi {\n\t\treturn hi\n\t}\n\treturn v\n}\n",
		"a_test.go":         "package a\n\nimport \"testing\"\n\nfunc TestClamp(t *testing.T) {\n\tif Clamp(5, 0, 3) != 3 || Clamp(-1, 0, 3) != 0 || Clamp(2, 0, 3) != 2 {\n\t\tt.Fatal()\n\t}\n}\n",
		"testdata/logo.png": "\x89PNG\r\n\x1a\n\xff\x00",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sb := exectest.Sandbox(t)
	gm, err := gomod.Open(dir, sb, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer gm.Close()
	var validated int
	_, err = mutate.Generate(context.Background(), gm, &mutate.Options{Runs: 1, Progress: func(p report.Progress) { validated = p.Done }})
	if err == nil || !strings.Contains(err.Error(), `the project's tasks cannot be made`) || !strings.Contains(err.Error(), dir+`: adapt: task base: file "testdata/logo.png" is not UTF-8 text`) {
		t.Fatalf("error %v, want one naming testdata/logo.png", err)
	}
	if validated != 0 {
		t.Errorf("%d mutants validated before the error", validated)
	}
}
