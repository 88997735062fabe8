// Package mutatetest holds the checks the tests of mutate and of its build
// systems share: fetching a real module, and evaluating generated tasks
// with the reference, the identity and a snippet model.
package mutatetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
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
)

// FetchModule downloads a pinned module with "go mod download" and returns
// its directory; it skips when the module cannot be had (no proxy).
func FetchModule(tb testing.TB, path, version string) string {
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

// PerMutant returns the C3 task of every mutant, having checked that its
// C1 and C2 tasks differ from it only in the prompt's context (same code,
// reference, target and tests), so that checking the C3 task checks all
// three; and, of those, the first of each operator combination, at most
// max.
func PerMutant(t *testing.T, tasks []adapt.Task, max int) (all, some []adapt.Task) {
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
	// Every mutant has its C2 and C3 tasks; C1 is withheld only from a
	// mutant that restores a name (renamevar, dropreceiver) its snippet
	// hides.
	levels := map[string]int{}
	for i := range tasks {
		levels[mutant(&tasks[i])]++
	}
	for _, top := range all {
		ops := top.Labels[mutate.LabelOperators]
		n := levels[mutant(&top)]
		if n != 3 && (n != 2 || !strings.Contains(ops, "renamevar") && !strings.Contains(ops, "dropreceiver")) {
			t.Errorf("%s (%s): %d context levels, want three (two where C1 is withheld from a name-restoring mutant)", mutant(&top), ops, n)
		}
	}
	if len(tasks) > 3*len(all) || len(tasks) < 2*len(all) {
		t.Errorf("%d tasks, %d mutants: want three context levels each", len(tasks), len(all))
	}
	return all, some
}

// CheckTasks evaluates tasks with adapt.Reference, which answers with the
// whole function (every one must pass, with every mutation reversed), and
// adapt.Identity (every one must fail), and the tasks of some with a model
// that answers with F alone, the snippet form Prompt asks for (every one
// must pass). The reference's answer, spliced as Evaluate splices it,
// must give back the project's file (read gives it) byte for byte on
// every task: the task's workspace is then the project's own, whose tests
// all pass (Generate checked), so the reference's tests run on the tasks
// of some only.
func CheckTasks(t *testing.T, tasks, some []adapt.Task, r exec.Runner, read func(path string) ([]byte, error)) {
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
		if _, err := mutate.Answer(task, report.Completion{Text: "I would rename the variable, and return early when the list is empty."}); !errors.Is(err, adapt.ErrNoCode) {
			t.Errorf("%s: a prose answer: %v, want ErrNoCode", task.ID, err)
		}
		snip, _ := mutate.Snippet(task)
		if _, err := mutate.Answer(task, report.Completion{Text: snip}); err != nil {
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
		{"snippet", FragmentModel{}, some, true, "F alone, spliced in place of F′"},
	} {
		rep, err := adapt.Evaluate(ctx, tc.tasks, tc.model, opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, tr := range rep.PerTask {
			for _, s := range tr.Samples {
				if passed := s.Outcome == report.OutcomePassed; passed != tc.pass {
					t.Errorf("%s on %s: passed=%v, want %v (%s): %s %s%s", tc.name, tr.TaskID, passed, tc.pass, tc.reason, s.Outcome, s.Detail, TestMessages(s.Tests))
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

// FragmentModel answers with F alone: the reference's fragment.
type FragmentModel struct{}

func (FragmentModel) Name() string { return "fragment" }

func (FragmentModel) Complete(_ context.Context, req adapt.Request) ([]report.Completion, error) {
	t := req.Task
	d, err := mutate.DetailOf(t)
	if err != nil {
		return nil, err
	}
	text := "Here it is:\n```" + t.Language + "\n" + t.Reference[d.Reference.Start:d.Reference.End] + "\n```\n"
	return []report.Completion{{Text: text, FinishReason: "stop"}}, nil
}

// TestMessages lists each test's status and message, for the report of
// an outcome that was not the one wanted.
func TestMessages(tests []report.TestOutcome) string {
	var b strings.Builder
	for _, to := range tests {
		fmt.Fprintf(&b, "\n  %s %s: %s", to.Name, to.Status, to.Message)
	}
	return b.String()
}

// CheckTaskFile writes tasks as adapt.WriteTasks does and checks that the
// file holds each shared base once: no larger than the tasks without any
// workspace file, plus one line per base, plus a reference to it per task.
// It logs the size beside that of the same tasks with the base copied
// into every task (the format before bases).
func CheckTaskFile(t *testing.T, tasks []adapt.Task) {
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

// The real module the Go acceptance test mutates, fetched through the Go
// module proxy into the default module cache (or found there); its root
// package is the one studied.
const (
	UUIDModule  = "github.com/google/uuid"
	UUIDVersion = "v1.6.0"
)

// UUIDLimits bound each test process of the real module.
var UUIDLimits = exec.Limits{CPUTime: 20 * time.Second, WallTime: 30 * time.Second}

// NeedMaven skips when the Debian packages the Maven project needs are
// missing.
func NeedMaven(t testing.TB) {
	t.Helper()
	if _, err := osexec.LookPath("mvn"); err != nil {
		exectest.SkipWithout(t, "mvn not installed (Debian package maven)")
	}
	for _, f := range []string{"/etc/maven/settings-debian.xml", "/usr/share/java/org.jacoco.agent.jar", exec.DefaultJUnitClasspath[0],
		"/usr/share/maven-repo/org/apache/maven/plugins/maven-surefire-plugin"} {
		if _, err := os.Stat(f); err != nil {
			exectest.SkipWithout(t, "%s missing (Debian packages maven-debian-helper, libjacoco-java, junit5, libsurefire-java)", f)
		}
	}
}

// OpenUUID opens github.com/google/uuid on the old path (buildEach) or
// the fast one, with env after the pipeline's environment (gomod.Config.Env).
func OpenUUID(tb testing.TB, r exec.Runner, buildEach bool, env ...string) *gomod.Module {
	tb.Helper()
	gm, err := gomod.Open(FetchModule(tb, UUIDModule, UUIDVersion), r, &gomod.Config{
		Limits:    UUIDLimits,
		BuildEach: buildEach,
		Env:       env,
	})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { gm.Close() })
	return gm
}
