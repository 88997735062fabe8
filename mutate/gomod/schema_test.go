package gomod_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	osexec "os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/gomod"
	"github.com/adaptbench/adaptbench/mutate/internal/mutatetest"
)

// TestGoFastPathSameVerdicts runs the pipeline twice on the same
// fragments of github.com/google/uuid with the same seed: once building
// every mutant alone (gomod.Config.BuildEach, the reference) and once with
// type checking and mutant schemata. Every candidate must get the same
// verdict (reason, kept unresolved, failing tests) and the funnels must be
// equal.
func TestGoFastPathSameVerdicts(t *testing.T) {
	t.Parallel() // minutes: beside the other slow tests of the package
	if testing.Short() {
		t.Skip("builds every mutant of three fragments alone: a few minutes")
	}
	sb := exectest.Sandbox(t)
	opts := mutate.Options{Seed: 2, Fragments: 3, Runs: 2, Levels: []mutate.ComplexityLevel{mutate.L1, mutate.L2}, Contexts: []mutate.ContextLevel{mutate.C1}}
	var results [2]*mutate.Result
	for i, each := range []bool{true, false} {
		gm := mutatetest.OpenUUID(t, sb, each)
		o := opts
		res, err := mutate.Generate(context.Background(), gm, &o)
		if err != nil {
			t.Fatal(err)
		}
		results[i] = res
		t.Logf("BuildEach=%v: %d candidates, %d tasks; validation %v (build %v, tests %v)", each, len(res.Candidates), len(res.Tasks), res.Total, res.BuildTime, res.TestTime)
	}
	old, fast := results[0], results[1]
	if len(old.Candidates) != len(fast.Candidates) {
		t.Fatalf("%d candidates, %d on the old path", len(fast.Candidates), len(old.Candidates))
	}
	verdict := func(c *mutate.Candidate) string {
		return fmt.Sprintf("%s %s:%d %v unresolved=%v failing=%v", c.Key(), c.File, c.Frag.Line, c.Reason, c.Unresolved, c.Failing)
	}
	valid := 0
	for i := range old.Candidates {
		if o, f := verdict(old.Candidates[i]), verdict(fast.Candidates[i]); o != f {
			t.Errorf("candidate %d: %s\n\twant (old path) %s", i, f, o)
		}
		if old.Candidates[i].Valid() {
			valid++
		}
	}
	if !reflect.DeepEqual(old.Funnel, fast.Funnel) {
		t.Errorf("funnels differ:\nold:\n%v\nfast:\n%v", old.Funnel, fast.Funnel)
	}
	if valid == 0 {
		t.Error("no valid mutant: the comparison says nothing")
	}
}

// calcModule is a small module whose mutants exercise each way the fast
// path decides: schema arms (two mutants of one function, one of
// another), a type error, a function with labels and a change outside
// function bodies (both built alone).
var calcModule = map[string]string{
	"go.mod": "module example.com/calc\n\ngo 1.22\n",
	"calc.go": `package calc

import (
	"reflect"
	"runtime"
)

// Sum adds xs.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// Max returns the larger of a and b.
func Max(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// Loop counts to n.
func Loop(n int) int {
	i := 0
outer:
	for {
		i++
		if i >= n {
			break outer
		}
	}
	return i
}

// Line reports the line it asks the runtime for its caller.
func Line() int {
	_, _, line, _ := runtime.Caller(0)
	return line
}

// Name reports the name of a closure.
func Name() string {
	f := func() {}
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}
`,
	"calc_test.go": `package calc

import "testing"

func TestMax(t *testing.T) {
	if Max(1, 2) != 2 || Max(3, 2) != 3 {
		t.Fatal("Max")
	}
}

func TestLoop(t *testing.T) {
	if Loop(3) != 3 {
		t.Fatal("Loop")
	}
}

func TestLine(t *testing.T) {
	if l := Line(); l != 40 {
		t.Fatalf("Line() = %d, want 40", l)
	}
}

func TestName(t *testing.T) {
	if n := Name(); n != "example.com/calc.Name.func1" {
		t.Fatalf("Name() = %q", n)
	}
}
`,
	"x_test.go": `package calc_test

import (
	"testing"

	"example.com/calc"
)

func TestSum(t *testing.T) {
	if calc.Sum([]int{1, 2}) != 3 {
		t.Fatal("Sum")
	}
}
`,
}

// TestGoFastPath checks the fast path's verdicts against the old path's on
// calcModule, and that it builds one schema binary for the mutants that
// type-check and can share one, no binary for a mutant with a type error,
// and each of the others alone as before (counting the go command's
// "test -c" runs through gomod.Config.Go).
func TestGoFastPath(t *testing.T) {
	sb := exectest.Sandbox(t)
	dir := t.TempDir()
	for name, text := range calcModule {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	srcs := fastPathMutants(t)
	goBin, err := osexec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	verdicts := map[bool][]string{}
	builds := map[bool]int{}
	for _, each := range []bool{true, false} {
		verdicts[each], builds[each] = checkFastPath(t, sb, dir, goBin, each, srcs)
	}
	want := []string{
		"none unresolved=false failing=[TestSum]",
		"none unresolved=false failing=[TestSum]",
		"no_test_failure unresolved=false failing=[]",
		"none unresolved=false failing=[TestMax]",
		"compile_error unresolved=false failing=[]",
		"none unresolved=true failing=[]",
		"none unresolved=false failing=[TestLoop]",
		"none unresolved=false failing=[TestLine]",
		"none unresolved=false failing=[TestLine]",
		"no_test_failure unresolved=false failing=[]",
		"no_test_failure unresolved=false failing=[]",
	}
	if !slices.Equal(verdicts[true], want) {
		t.Errorf("old path:\n%s\nwant\n%s", strings.Join(verdicts[true], "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(verdicts[false], verdicts[true]) {
		t.Errorf("fast path:\n%s\nold path:\n%s", strings.Join(verdicts[false], "\n"), strings.Join(verdicts[true], "\n"))
	}
	// Old: 11 builds and a second one for each of the 6 caught mutants.
	// Fast: the schema (3 caught mutants, 2 survivors), once each the
	// labeled one, the change outside bodies and the one that moves
	// lines (the run confirming their failures reuses the binary), and
	// the closure's (a survivor); the type error, under either policy,
	// builds nothing.
	if builds[true] != 17 || builds[false] != 5 {
		t.Errorf("go test -c ran %d times on the old path, %d on the fast path; want 17 and 5", builds[true], builds[false])
	}
}

// A policyMutant is a mutant of calc.go and its compile policy.
type policyMutant struct {
	src    []byte
	policy mutate.Policy
}

// fastPathMutants are the mutants of calc.go TestGoFastPath checks, each
// exercising one way the fast path decides.
func fastPathMutants(t *testing.T) []policyMutant {
	orig := calcModule["calc.go"]
	mutant := func(old, new string) []byte {
		if !strings.Contains(orig, old) {
			t.Fatalf("calc.go has no %q", old)
		}
		return []byte(strings.Replace(orig, old, new, 1))
	}
	return []policyMutant{
		{mutant("s += x", "s -= x"), mutate.RequireCompile},
		{mutant("s := 0", "s := 1"), mutate.RequireCompile},
		{mutant("s := 0", "var s int"), mutate.RequireCompile},                         // no test fails
		{mutant("if a > b", "if a < b"), mutate.RequireCompile},                        // a schema arm of another function
		{mutant("return a\n", "return c\n"), mutate.RequireCompile},                    // a type error: no build
		{mutant("return a\n", "return c\n"), mutate.AllowUnresolved},                   // kept on go/types' message, no build
		{mutant("i++", "i += 2"), mutate.RequireCompile},                               // labels: built alone
		{mutant("// Sum adds", "var Extra = 1\n\n// Sum adds"), mutate.RequireCompile}, // outside bodies: built alone
		{mutant("\tif a > b", "\t_ = 0\n\tif a > b"), mutate.RequireCompile},           // moves Line's line: built alone
		{mutant("f := func() {}", "f := func() { _ = 0 }"), mutate.RequireCompile},     // a closure the tests name: built alone
		{mutant("return line", "return line + 0"), mutate.RequireCompile},              // an arm at the mutant's lines: TestLine passes
	}
}

// checkFastPath checks srcs on calcModule at dir on the old path (each)
// or the fast one, through a go command wrapper that logs its runs, and
// returns the verdicts and how many "test -c" builds ran.
func checkFastPath(t *testing.T, sb exec.Runner, dir, goBin string, each bool, srcs []policyMutant) (verdicts []string, builds int) {
	orig := calcModule["calc.go"]
	log := filepath.Join(t.TempDir(), "go.log")
	wrapper := filepath.Join(t.TempDir(), "go")
	script := fmt.Sprintf("#!/bin/sh\necho \"$1 $2\" >>%q\nexec %q \"$@\"\n", log, goBin)
	if err := os.WriteFile(wrapper, []byte(script), 0o777); err != nil {
		t.Fatal(err)
	}
	// A schema binary is bound read-only into its jobs, not copied
	// into their workspace with the module.
	bound := 0
	runner := exec.RunnerFunc(func(ctx context.Context, j exec.Job) (exec.Result, error) {
		if len(j.ReadOnly) == 1 && strings.HasSuffix(j.ReadOnly[0], ".test") {
			bound++
			if j.Args[4] != j.ReadOnly[0] {
				t.Errorf("a job binds %s and runs %s", j.ReadOnly[0], j.Args[4])
			}
			filepath.WalkDir(j.Dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(p, ".test") {
					t.Errorf("a job that binds its binary has %s in its workspace", p)
				}
				return nil
			})
		}
		return sb.Run(ctx, j)
	})
	gm, err := gomod.Open(dir, runner, &gomod.Config{Go: wrapper, BuildEach: each})
	if err != nil {
		t.Fatal(err)
	}
	defer gm.Close()
	var cands []*mutate.Candidate
	for _, s := range srcs {
		// The change's range: where the mutant first differs.
		at := 0
		for at < len(s.src) && at < len(orig) && s.src[at] == orig[at] {
			at++
		}
		rec := mutate.Record{Operator: "op", Changes: []mutate.Change{{Mut: mutate.Range{Start: at, End: at + 1}, New: string(s.src[at : at+1])}}}
		cands = append(cands, &mutate.Candidate{File: "calc.go", Frag: &mutate.Fragment{Line: 1}, Ops: []string{"op"},
			Src: s.src, Policy: s.policy, Records: []mutate.Record{rec}, Tests: []string{"TestLine", "TestLoop", "TestMax", "TestName", "TestSum"}})
	}
	os.Remove(log)
	if _, _, err := mutate.CheckCandidates(context.Background(), gm, cands, &mutate.Options{Runs: 2, Parallelism: 1}); err != nil {
		t.Fatal(err)
	}
	for _, c := range cands {
		verdicts = append(verdicts, fmt.Sprintf("%v unresolved=%v failing=%v", c.Reason, c.Unresolved, c.Failing))
		if c.Reason == mutate.ReasonCompile && !strings.Contains(c.Detail, "undefined: c") {
			t.Errorf("BuildEach=%v: compile error %q does not name the undefined name", each, c.Detail)
		}
	}
	b, _ := os.ReadFile(log)
	builds = strings.Count(string(b), "test -c")
	if each && bound > 0 || !each && bound == 0 {
		t.Errorf("BuildEach=%v: %d jobs bound their test binary, want none on the old path and some on the fast one", each, bound)
	}
	return verdicts, builds
}
