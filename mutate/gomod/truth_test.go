package gomod_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/gomod"
)

// writeModule writes files (slash paths) under a new directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// panicModule's tests run in the order TestA, TestB, TestC, Example: a
// mutant of Pick that panics for 5 ends TestB and, with it, the binary.
var panicModule = map[string]string{
	"go.mod": "module example.com/pan\n\ngo 1.22\n",
	"pan.go": `package pan

import "fmt"

// Pick returns i when it is above 1, else 0.
func Pick(i int) int {
	if i > 1 {
		return i
	}
	return 0
}

// Hello prints a greeting.
func Hello() { fmt.Println("hello") }
`,
	"pan_test.go": `package pan

import "testing"

func TestA(t *testing.T) {
	if Pick(0) != 0 {
		t.Fatal("Pick(0)")
	}
}

func TestB(t *testing.T) {
	if Pick(5) != 5 {
		t.Fatal("Pick(5)")
	}
}

func TestC(t *testing.T) {
	if Pick(1) != 0 {
		t.Fatal("Pick(1)")
	}
}

func ExampleHello() {
	Hello()
	// Output: hello
}

func Example_noOutput() {
	Hello()
}
`,
}

// TestGoFailingAfterPanic checks that a test that panics is the only one
// recorded failing: the tests after it, which the panic kept from
// starting, are run again on their own (issue: spf13/cast's RemoveGuard
// at caste.go:931 recorded 10 failing tests where one fails alone), on
// the fast path (a schema arm) and the old one (a build per mutant). It
// also checks that an example with an output comment is a test (go-cmp's
// cmp has 9) and one without is not.
func TestGoFailingAfterPanic(t *testing.T) {
	sb := exectest.Sandbox(t)
	dir := writeModule(t, panicModule)
	orig := panicModule["pan.go"]
	src := []byte(strings.Replace(orig, "\t\treturn i\n", "\t\tpanic(i)\n", 1))
	for _, each := range []bool{false, true} {
		gm, err := gomod.Open(dir, sb, &gomod.Config{BuildEach: each})
		if err != nil {
			t.Fatal(err)
		}
		defer gm.Close()
		tests, err := gm.Tests(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"ExampleHello", "TestA", "TestB", "TestC"}; !slices.Equal(tests, want) {
			t.Fatalf("Tests() = %v, want %v", tests, want)
		}
		at := strings.Index(orig, "return i")
		rec := mutate.Record{Operator: "op", Changes: []mutate.Change{{Mut: mutate.Range{Start: at, End: at + 5}, New: "panic"}}}
		c := &mutate.Candidate{File: "pan.go", Frag: &mutate.Fragment{Line: 5}, Ops: []string{"op"}, Src: src,
			Records: []mutate.Record{rec}, Tests: tests}
		if _, _, err := mutate.CheckCandidates(context.Background(), gm, []*mutate.Candidate{c}, &mutate.Options{Runs: 2, Parallelism: 1}); err != nil {
			t.Fatal(err)
		}
		if c.Reason != mutate.ReasonNone || !slices.Equal(c.Failing, []string{"TestB"}) {
			t.Errorf("BuildEach=%v: reason %v, failing %v; want a valid mutant failing [TestB] alone\n%s", each, c.Reason, c.Failing, c.Detail)
		}
		run, err := gm.Check(context.Background(), "pan.go", src, tests)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(run.Failed, []string{"TestB"}) || !slices.Equal(run.Passed, []string{"ExampleHello", "TestA", "TestC"}) {
			t.Errorf("BuildEach=%v: Check: passed %v, failed %v; want failed [TestB] alone", each, run.Passed, run.Failed)
		}
	}
}

// sumModule's Sum has a change its test catches (the +) and one it does
// not (the label), so that their combination is an L2 whose effective
// level is L1.
var sumModule = map[string]string{
	"go.mod": "module example.com/sum\n\ngo 1.22\n",
	"sum.go": `package sum

// Sum returns a+b; its label is for people.
func Sum(a, b int) int {
	label := "sum"
	_ = label
	s := a + b
	return s
}
`,
	"sum_test.go": `package sum

import "testing"

func TestSum(t *testing.T) {
	if Sum(1, 2) != 3 {
		t.Fatal("Sum")
	}
}
`,
}

// TestEffectiveLevel checks that a combination one of whose changes no
// test catches alone has effective level L1, recorded in its tasks'
// label and provenance with the tests that caught it, and counted in the
// funnel's effective stage only when it equals the level; and that
// Options.RequireEffective discards it.
func TestEffectiveLevel(t *testing.T) {
	sb := exectest.Sandbox(t)
	dir := writeModule(t, sumModule)
	gm, err := gomod.Open(dir, sb, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer gm.Close()
	opts := mutate.Options{Seed: 1, Runs: 1, Ops: []*mutate.Operator{operator("updateconst"), mutate.ModifyLogic},
		Levels: []mutate.ComplexityLevel{mutate.L1, mutate.L2}, Contexts: []mutate.ContextLevel{mutate.C1}}
	res, err := mutate.Generate(context.Background(), gm, &opts)
	if err != nil {
		t.Fatal(err)
	}
	var l2 *mutate.Candidate
	for _, c := range res.Candidates {
		if c.Level == mutate.L2 {
			l2 = c
		}
	}
	if l2 == nil || !l2.Valid() {
		t.Fatalf("no valid L2 candidate: %+v", l2)
	}
	if l2.Effective() != mutate.L1 {
		t.Errorf("L2 %s: effective level %v, want L1 (the label change is caught by no test)", l2.Key(), l2.Effective())
	}
	for i, task := range res.Tasks {
		d, err := mutate.DetailOf(&task)
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		if got := task.Labels[mutate.LabelEffective]; got != "L1" || d.Effective != want {
			t.Errorf("%s: effective label %q, detail %d; want L1 and 1", task.ID, got, d.Effective)
		}
		if !slices.Equal(d.Failing, res.From[i].Failing) || res.From[i].Unresolved == (len(d.Failing) > 0) {
			t.Errorf("%s: provenance names the tests %v, the candidate failed %v", task.ID, d.Failing, res.From[i].Failing)
		}
	}
	if n, e := res.Funnel.Count(l2.Key(), mutate.StageDetected), res.Funnel.Count(l2.Key(), mutate.StageEffective); n != 1 || e != 0 {
		t.Errorf("funnel %s: detected %d, effective %d; want 1 and 0", l2.Key(), n, e)
	}
	if n, e := res.Funnel.Total(mutate.StageDetected)-1, res.Funnel.Total(mutate.StageEffective); n != e {
		t.Errorf("funnel: %d L1 detected, %d effective; every detected L1 is effective", n, e)
	}

	opts.RequireEffective = true
	res, err = mutate.Generate(context.Background(), gm, &opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Candidates {
		if c.Level == mutate.L2 && c.Reason != mutate.ReasonEffective {
			t.Errorf("RequireEffective: L2 %s reason %v, want %v", c.Key(), c.Reason, mutate.ReasonEffective)
		}
	}
}

// TestGoTaskEnvironment checks that the tasks of a module that requires
// other modules (spf13/cast's tests need frankban/quicktest) name them in
// their environment, and those of a module that requires none have none.
func TestGoTaskEnvironment(t *testing.T) {
	sb := exectest.Sandbox(t)
	dep := writeModule(t, map[string]string{
		"go.mod": "module example.com/dep\n\ngo 1.22\n\nrequire github.com/google/go-cmp v0.7.0\n",
		"dep.go": "package dep\n\n// F is one.\nfunc F() int { return 1 }\n",
	})
	for _, tc := range []struct {
		dir  string
		want *adapt.Environment
	}{
		{dep, &adapt.Environment{Runtime: "go1.22", Packages: []adapt.Package{{Name: "github.com/google/go-cmp", Version: "v0.7.0"}}}},
		{writeModule(t, sumModule), nil},
	} {
		gm, err := gomod.Open(tc.dir, sb, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer gm.Close()
		var task adapt.Task
		if err := gm.Task("dep.go", &task); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(task.Env, tc.want) {
			t.Errorf("task environment %+v, want %+v", task.Env, tc.want)
		}
	}
}

// vetModule's mutants compile but go test's vet rejects them: a suspect
// || (ModifyLogic on &&) and a format whose verb an UpdateConst broke.
var vetModule = map[string]string{
	"go.mod": "module example.com/vet\n\ngo 1.22\n",
	"vet.go": `package vet

import "fmt"

// Outside reports whether x is neither 1 nor 2.
func Outside(x int) bool {
	if x != 1 && x != 2 {
		return true
	}
	return false
}

// Label names n.
func Label(n int) string { return fmt.Sprintf("n=%d", n) }
`,
	"vet_test.go": `package vet

import "testing"

func TestOutside(t *testing.T) {
	if Outside(1) || !Outside(3) {
		t.Fatal("Outside")
	}
}

func TestLabel(t *testing.T) {
	if Label(1) != "n=1" {
		t.Fatal(Label(1))
	}
}
`,
}

// TestGoVetsMutants checks that a mutant go test's vet rejects is a
// compile error, on the fast path and the old one, as "go test" would
// fail it (issue: UpdateConst made "too large: %" of a format).
func TestGoVetsMutants(t *testing.T) {
	sb := exectest.Sandbox(t)
	dir := writeModule(t, vetModule)
	orig := vetModule["vet.go"]
	for _, each := range []bool{false, true} {
		gm, err := gomod.Open(dir, sb, &gomod.Config{BuildEach: each})
		if err != nil {
			t.Fatal(err)
		}
		defer gm.Close()
		var cands []*mutate.Candidate
		var want []string
		for _, r := range []struct{ old, new, want string }{
			{"x != 1 && x != 2", "x != 1 || x != 2", "suspect or"},
			{`"n=%d"`, `"n=%"`, "Sprintf"},
		} {
			at := strings.Index(orig, r.old)
			rec := mutate.Record{Operator: "op", Changes: []mutate.Change{{Mut: mutate.Range{Start: at, End: at + len(r.new)}, New: r.new}}}
			want = append(want, r.want)
			cands = append(cands, &mutate.Candidate{File: "vet.go", Frag: &mutate.Fragment{Line: 1}, Ops: []string{"op"},
				Src: []byte(strings.Replace(orig, r.old, r.new, 1)), Records: []mutate.Record{rec}, Tests: []string{"TestLabel", "TestOutside"}})
		}
		if _, _, err := mutate.CheckCandidates(context.Background(), gm, cands, &mutate.Options{Runs: 1, Parallelism: 1}); err != nil {
			t.Fatal(err)
		}
		for i, c := range cands {
			if c.Reason != mutate.ReasonCompile || !strings.Contains(c.Detail, want[i]) || !strings.Contains(c.Detail, "vet.go:") {
				t.Errorf("BuildEach=%v: mutant %d: reason %v, detail %q; want a compile error from vet saying %q at vet.go", each, i, c.Reason, c.Detail, want[i])
			}
		}
	}
}
