package mutate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/mutate"
)

func TestMain(m *testing.M) { exectest.Main(m) }

// The real module the Go acceptance test mutates, fetched through the Go
// module proxy into the default module cache (or found there); its root
// package is the one studied.
const (
	realModule  = "github.com/google/uuid"
	realVersion = "v1.6.0"
)

// fetchModule downloads a pinned module with "go mod download" and returns
// its directory; it skips when the module cannot be had (no proxy).
func fetchModule(tb testing.TB, path, version string) string {
	tb.Helper()
	cmd := osexec.Command("go", "mod", "download", "-json", path+"@"+version)
	cmd.Dir = tb.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); err != nil || jerr != nil || info.Dir == "" {
		tb.Skipf("cannot fetch %s@%s through the module proxy: %v %s", path, version, err, info.Error)
	}
	return info.Dir
}

func openReal(tb testing.TB, r exec.Runner) *mutate.GoModule {
	dir := fetchModule(tb, realModule, realVersion)
	gm, err := mutate.OpenGoModule(dir, r, &mutate.GoConfig{Limits: realLimits})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { gm.Close() })
	return gm
}

// realLimits bound each test process of the real module.
var realLimits = exec.Limits{CPUTime: 20 * time.Second, WallTime: 30 * time.Second}

// realConfig keeps the acceptance run near a minute: 10 sampled
// fragments, L1 and L2.
var realConfig = mutate.Options{Seed: 1, Fragments: 8, Source: "uuid", Levels: []mutate.Level{mutate.L1, mutate.L2}}

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
		realModule, realVersion, len(res.Tests), len(res.Stable), res.Flaky, res.Fragments, res.Covered, res.Sampled,
		len(res.Candidates), len(res.Tasks), time.Since(start).Round(time.Millisecond), res.BuildTime.Round(time.Millisecond), res.TestTime.Round(time.Millisecond))
	res.Funnel.WriteTable(t.Output())
	g := res.Gates()
	t.Logf("gates:\n%s", g)

	if len(res.Tests) != 40 {
		t.Errorf("%d tests, want the 40 top-level tests of %s@%s", len(res.Tests), realModule, realVersion)
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
	checkTaskFile(t, tasks)
	// Evaluating costs a build per check (4 s on a loaded 2-core
	// machine): identity runs on every mutant, the reference and the
	// snippet answer on one mutant per operator combination.
	all, some := perMutant(t, tasks, len(tasks))
	checkTasks(t, all, some, sb, gm.ReadFile)
}

// perMutant returns the C3 task of every mutant, having checked that its
// C1 and C2 tasks differ from it only in the prompt's context (same code,
// reference, target and tests), so that checking the C3 task checks all
// three; and, of those, the first of each operator combination, at most
// max.
func perMutant(t *testing.T, tasks []adapt.Task, max int) (all, some []adapt.Task) {
	t.Helper()
	c3 := map[string]*adapt.Task{}
	mutant := func(task *adapt.Task) string {
		return strings.TrimSuffix(task.ID, ":"+task.Labels[mutate.LabelContext])
	}
	for i := range tasks {
		if tasks[i].Labels[mutate.LabelContext] == "C3" {
			c3[mutant(&tasks[i])] = &tasks[i]
			all = append(all, tasks[i])
		}
	}
	seen := map[string]bool{}
	for _, task := range all {
		if k := task.Labels[mutate.LabelOperators]; !seen[k] && len(some) < max {
			seen[k] = true
			some = append(some, task)
		}
	}
	for i := range tasks {
		task := &tasks[i]
		top := c3[mutant(task)]
		if top == nil {
			t.Errorf("%s: no C3 task of its mutant", task.ID)
			continue
		}
		if task.Code != top.Code || task.Reference != top.Reference || task.Target != top.Target || !reflect.DeepEqual(task.Tests, top.Tests) {
			t.Errorf("%s differs from %s in more than its context", task.ID, top.ID)
		}
	}
	if 3*len(all) != len(tasks) {
		t.Errorf("%d tasks, %d mutants: want three context levels each", len(tasks), len(all))
	}
	return all, some
}

// checkTasks evaluates tasks with adapt.Reference, which answers with the
// whole function (every one must pass, with every mutation reversed), and
// adapt.Identity (every one must fail), and the tasks of some with a model
// that answers with F alone, the snippet form Prompt asks for (every one
// must pass). The reference's answer, spliced as Evaluate splices it,
// must give back the project's file (read gives it) byte for byte on
// every task: the task's workspace is then the project's own, whose tests
// all pass (Generate checked), so the reference's tests run on the tasks
// of some only.
func checkTasks(t *testing.T, tasks, some []adapt.Task, r exec.Runner, read func(path string) ([]byte, error)) {
	t.Helper()
	ctx := context.Background()
	if len(tasks) == 0 {
		t.Fatal("no tasks")
	}
	for i := range tasks {
		task := &tasks[i]
		msgs, err := mutate.Prompt.Render(task)
		if err != nil {
			t.Fatal(err)
		}
		snip, _ := mutate.Snippet(task)
		p := msgs[0].Content
		first, _, _ := strings.Cut(strings.TrimSpace(snip), "\n")
		if !strings.Contains(p, first) {
			t.Errorf("%s: prompt lacks the snippet's first line %q", task.ID, first)
		}
		for _, op := range task.Provenance.Operators {
			if strings.Contains(p, op) {
				t.Errorf("%s: the instruction-free prompt names operator %s", task.ID, op)
			}
		}
		if strings.Contains(p, task.Reference) {
			t.Errorf("%s: the prompt holds the reference", task.ID)
		}
	}
	for i := range tasks {
		task := &tasks[i]
		original, err := read(task.Target.Path)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := adapt.Reference.Complete(ctx, adapt.Request{Task: task})
		if err != nil {
			t.Fatal(err)
		}
		a, err := mutate.Answer(task, cs[0])
		if err != nil {
			t.Fatal(err)
		}
		if spliced, err := adapt.Splice(task, a); err != nil || spliced != string(original) {
			t.Errorf("%s: the reference spliced into the file is not the project's file (%v)", task.ID, err)
		}
		// Prose with no code is no code, as adapt.Extract says of it for
		// every other benchmark; code without a fence is still code.
		if _, err := mutate.Answer(task, adapt.Completion{Text: "I would rename the variable, and return early when the list is empty."}); !errors.Is(err, adapt.ErrNoCode) {
			t.Errorf("%s: a prose answer: %v, want ErrNoCode", task.ID, err)
		}
		snip, _ := mutate.Snippet(task)
		if _, err := mutate.Answer(task, adapt.Completion{Text: snip}); err != nil {
			t.Errorf("%s: the snippet without a fence: %v", task.ID, err)
		}
	}
	opts := &adapt.Options{Template: mutate.Prompt, Runner: r, NoGold: true, Answer: mutate.Answer}
	for _, tc := range []struct {
		name   string
		model  adapt.Model
		tasks  []adapt.Task
		pass   bool
		reason string
	}{
		{"reference", adapt.Reference, some, true, "the reference is F in its function"},
		{"identity", adapt.Identity, tasks, false, "F′ fails a relevant test or does not compile"},
		// The reference answers with the whole function (a bare method in
		// Java): its run shows that such an answer is not spliced again.
		{"snippet", fragmentModel{}, some, true, "F alone, spliced in place of F′"},
	} {
		rep, err := adapt.Evaluate(ctx, tc.tasks, tc.model, opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, tr := range rep.PerTask {
			for _, s := range tr.Samples {
				if passed := s.Outcome == adapt.OutcomePassed; passed != tc.pass {
					t.Errorf("%s on %s: passed=%v, want %v (%s): %s %s%s", tc.name, tr.TaskID, passed, tc.pass, tc.reason, s.Outcome, s.Detail, testMessages(s.Tests))
				}
			}
		}
		t.Logf("%s: %d tasks, pass@1 %.3f, outcomes %v", tc.name, rep.Tasks, rep.PassAtK[0].Value, rep.Outcomes)
	}
	for i := range tasks {
		task := &tasks[i]
		d, err := mutate.DetailOf(task)
		if err != nil {
			t.Fatal(err)
		}
		recs := d.Mutations
		for _, tc := range []struct {
			name   string
			output string
			want   mutate.Verdict
		}{{"reference", task.Reference, mutate.Reversed}, {"identity", task.Code, mutate.Unchanged}} {
			in, err := mutate.Inspect(task, tc.output)
			if err != nil {
				t.Fatal(err)
			}
			for j, v := range in.Verdicts {
				if v != tc.want {
					t.Errorf("%s: %s output: mutation %d (%s) is %s, want %s", task.ID, tc.name, j, recs[j].Operator, v, tc.want)
				}
			}
		}
	}
}

// fragmentModel answers with F alone: the reference's fragment.
type fragmentModel struct{}

func (fragmentModel) Name() string { return "fragment" }

func (fragmentModel) Complete(_ context.Context, req adapt.Request) ([]adapt.Completion, error) {
	t := req.Task
	d, err := mutate.DetailOf(t)
	if err != nil {
		return nil, err
	}
	text := "Here it is:\n```" + t.Language + "\n" + t.Reference[d.Reference.Start:d.Reference.End] + "\n```\n"
	return []adapt.Completion{{Text: text, FinishReason: "stop"}}, nil
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
	dir := fetchModule(t, cmpModule, cmpVersion)
	never := exec.RunnerFunc(func(context.Context, exec.Job) (exec.Result, error) {
		t.Fatal("nothing runs before the packages are resolved")
		return exec.Result{}, nil
	})
	for _, tc := range []struct {
		name string
		pkgs []string
		want string
	}{
		{"root", nil, "module github.com/google/go-cmp (" + dir + ") has no Go package at its root; its packages: cmp, cmp/cmpopts, cmp/internal/diff, cmp/internal/flags, cmp/internal/function, cmp/internal/testprotos, cmp/internal/teststructs, cmp/internal/teststructs/foo1, cmp/internal/teststructs/foo2, cmp/internal/value: choose with GoConfig.Packages"},
		{"missing", []string{"cmp/nope"}, `has no Go package in "cmp/nope"; its packages: cmp,`},
		{"outside", []string{"../x"}, `GoConfig.Packages: "../x" is not a package directory relative to the module root`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gm, err := mutate.OpenGoModule(dir, never, &mutate.GoConfig{Packages: tc.pkgs})
			if err == nil {
				gm.Close()
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q\nwant it to contain %q", err, tc.want)
			}
		})
	}
	gm, err := mutate.OpenGoModule(dir, never, &mutate.GoConfig{Packages: []string{mutate.AllPackages}})
	if err != nil {
		t.Fatal(err)
	}
	defer gm.Close()
	// Packages with both sources and tests.
	if got, want := strings.Join(gm.Packages(), " "), "cmp cmp/cmpopts cmp/internal/diff cmp/internal/function cmp/internal/value"; got != want {
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
	dir := fetchModule(t, cmpModule, cmpVersion)
	sb := exectest.Sandbox(t)
	gm, err := mutate.OpenGoModule(dir, sb, &mutate.GoConfig{
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
	checkTaskFile(t, res.Tasks)
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
			if passed := s.Outcome == adapt.OutcomePassed; passed != tc.pass {
				t.Errorf("%s on %s: %s, want passed=%v: %s%s", tc.model.Name(), tr.TaskID, s.Outcome, tc.pass, s.Detail, testMessages(s.Tests))
			}
		}
	}
}

// testMessages lists each test's status and message, for the report of
// an outcome that was not the one wanted.
func testMessages(tests []adapt.TestOutcome) string {
	var b strings.Builder
	for _, to := range tests {
		fmt.Fprintf(&b, "\n  %s %s: %s", to.Name, to.Status, to.Message)
	}
	return b.String()
}

// checkTaskFile writes tasks as adapt.WriteTasks does and checks that the
// file holds each shared base once: no larger than the tasks without any
// workspace file, plus one line per base, plus a reference to it per task.
// It logs the size beside that of the same tasks with the base copied
// into every task (the format before bases).
func checkTaskFile(t *testing.T, tasks []adapt.Task) {
	t.Helper()
	size := func(ts []adapt.Task) int {
		var b bytes.Buffer
		if err := adapt.WriteTasks(&b, ts); err != nil {
			t.Fatal(err)
		}
		return b.Len()
	}
	var inline, bare []adapt.Task
	bases := map[string]*adapt.Base{}
	for _, task := range tasks {
		if task.Base == nil {
			t.Fatalf("%s: no base", task.ID)
		}
		bases[task.Base.Digest()] = task.Base
		in := task
		in.Files, in.Base = task.WorkspaceFiles(), nil
		inline = append(inline, in)
		b := task
		b.Base = nil
		bare = append(bare, b)
	}
	baseLines := 0
	for _, b := range bases {
		one := size([]adapt.Task{{ID: "x", Language: adapt.Go, Target: adapt.Target{Path: "x.go"}, Tests: []adapt.Test{{Name: "TestX"}}, Base: b}})
		alone := size([]adapt.Task{{ID: "x", Language: adapt.Go, Target: adapt.Target{Path: "x.go"}, Tests: []adapt.Test{{Name: "TestX"}}}})
		baseLines += one - alone
	}
	got, before, own := size(tasks), size(inline), size(bare)
	ref := len(`,"base":"sha256:`) + 64 + 1
	if limit := own + baseLines + len(tasks)*ref; got > limit {
		t.Errorf("task file %d bytes, more than its tasks' own %d bytes plus %d of bases plus the references (%d)", got, own, baseLines, limit)
	}
	if len(bases) != 1 {
		t.Errorf("%d bases, want the project's one", len(bases))
	}
	t.Logf("task file of %d tasks: %d bytes with %d shared base (%d files, %d bytes of content); %d bytes with the base in every task (%.1fx)",
		len(tasks), got, len(bases), tasks[0].Base.Len(), tasks[0].Base.Size(), before, float64(before)/float64(got))
	var file bytes.Buffer
	if err := adapt.WriteTasks(&file, tasks); err != nil {
		t.Fatal(err)
	}
	back, err := adapt.ReadTasks(&file, "tasks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(tasks) || back[0].Base.Digest() != tasks[0].Base.Digest() {
		t.Errorf("read back %d tasks, want %d on the same base", len(back), len(tasks))
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
	gm, err := mutate.OpenGoModule(dir, sb, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer gm.Close()
	var validated int
	_, err = mutate.Generate(context.Background(), gm, &mutate.Options{Runs: 1, Progress: func(p adapt.Progress) { validated = p.Done }})
	if err == nil || !strings.Contains(err.Error(), `the project's tasks cannot be made`) || !strings.Contains(err.Error(), dir+`: adapt: task base: file "testdata/logo.png" is not UTF-8 text`) {
		t.Fatalf("error %v, want one naming testdata/logo.png", err)
	}
	if validated != 0 {
		t.Errorf("%d mutants validated before the error", validated)
	}
}
