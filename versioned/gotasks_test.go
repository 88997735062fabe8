package versioned_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/versioned"
)

// goModCache returns a fresh module cache, as on a machine that never
// fetched the modules. The process's own GOMODCACHE is left alone: the
// provider points the host build at this one.
func goModCache(t *testing.T) string {
	t.Helper()
	if os.Getenv("GOPROXY") == "off" {
		t.Skip("GOPROXY=off: the Go problems need the Go module proxy")
	}
	return filepath.Join(cacheDir(t), "gomodcache")
}

// wantOther is what each reference gives at the other version of its
// module: most no longer compile (an API that was added, removed or
// changed its signature), two fail their tests (same signature, new
// behaviour).
var wantOther = map[string]report.Outcome{
	"gocmp-equatecomparable":  report.OutcomeCompileError, // cmpopts.EquateComparable is new in v0.6.0
	"uuid-v7":                 report.OutcomeCompileError, // uuid.NewV7 is new in v1.5.0
	"xexp-binarysearch-found": report.OutcomeCompileError, // BinarySearch returned only the index
	"xexp-binarysearch-index": report.OutcomeCompileError, // BinarySearch now also returns found
	"xexp-delete-clears":      report.OutcomeFailed,       // old Delete left the tail as it was
	"xexp-slices-max":         report.OutcomeCompileError, // slices.Max is new
	"xexp-sortfunc-cmp":       report.OutcomeCompileError, // SortFunc took a less func
	"xexp-sortfunc-less":      report.OutcomeCompileError, // SortFunc now takes a cmp func
	"xmod-semver-sort":        report.OutcomeCompileError, // semver.Sort is new in v0.5.0
	"xsync-errgroup-limit":    report.OutcomeCompileError, // Group.SetLimit is new
	"xsync-errgroup-panic":    report.OutcomeCompileError, // PanicValue/PanicError were removed in v0.16.0
}

// TestGoTasks fetches every module version the Go problems name through
// the Go module proxy into a fresh module cache, then checks in the
// sandbox, through adapt.Evaluate, that each reference passes at its
// stated version and fails at the other.
func TestGoTasks(t *testing.T) {
	tasks, err := versioned.GoTasks()
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != len(wantOther) {
		t.Fatalf("%d Go problems, want %d", len(tasks), len(wantOther))
	}
	mc := goModCache(t)
	sb := exectest.Sandbox(t)
	ctx := context.Background()
	cache := &versioned.Cache{Dir: filepath.Join(cacheDir(t), "envs"), Builder: &versioned.GoModules{ModCache: mc}}
	p := &versioned.Provider{Provisioner: cache, Strict: true}

	start := time.Now()
	// The reference model, without the gold check that would run the
	// same code twice.
	rep, err := adapt.Evaluate(ctx, tasks, adapt.Reference, &adapt.Options{Runner: sb, Environments: p, NoGold: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("stated versions: %d tasks in %v, %d environments built", len(tasks), time.Since(start).Round(time.Millisecond), cache.Builds())
	if score, _ := rep.Score(1); score != 1 || rep.Outcomes[report.OutcomePassed] != len(tasks) {
		t.Fatalf("references at their versions: pass@1 %v, outcomes %v", score, rep.Outcomes)
	}

	var other []adapt.Task
	for _, task := range tasks {
		d, err := versioned.DetailOf(&task)
		if err != nil {
			t.Fatal(err)
		}
		o, err := versioned.AtVersion(task, d.OtherVersion)
		if err != nil {
			t.Fatal(err)
		}
		other = append(other, o)
	}
	start = time.Now()
	rep, err = adapt.Evaluate(ctx, other, adapt.Reference, &adapt.Options{Runner: sb, Environments: p, NoGold: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("other versions: %d tasks in %v, outcomes %v", len(other), time.Since(start).Round(time.Millisecond), rep.Outcomes)
	got := map[string]report.Outcome{}
	for _, tr := range rep.PerTask {
		id, _, _ := strings.Cut(tr.TaskID, "@")
		if len(tr.Samples) != 1 {
			t.Fatalf("task %s: %d samples", tr.TaskID, len(tr.Samples))
		}
		got[id] = tr.Samples[0].Outcome
		// A compile error must be the compiler's, about solution.go: not the
		// go command failing to find a module or a hash.
		if o := tr.Samples[0]; o.Outcome != wantOther[id] || (o.Outcome == report.OutcomeCompileError && !strings.Contains(o.Detail, "./solution.go:")) {
			t.Errorf("%s: %s\n%s", tr.TaskID, o.Outcome, o.Detail)
		}
	}
	assert.Equal(t, wantOther, got, "references at the other version")
	// 14 module versions: two per problem, three problems sharing each of
	// x/exp's two 2023-2024 versions.
	if n := cache.Builds(); n != 14 {
		t.Errorf("built %d environments, want 14", n)
	}

	// A cleaned module cache is noticed: the environment is built again.
	env, err := cache.Provision(ctx, versioned.SpecOf(*tasks[0].Env))
	if err != nil || !env.Cached {
		t.Fatalf("provision again: %v (cached %v)", err, env != nil && env.Cached)
	}
	sum, err := versioned.GoSum(env)
	if err != nil || !strings.Contains(sum, tasks[0].Env.Packages[0].Name+" "+tasks[0].Env.Packages[0].Version+" h1:") {
		t.Errorf("go.sum of %s: %v\n%s", env.Dir, err, sum)
	}
	zip := filepath.Join(mc, "cache", "download", "github.com", "google", "go-cmp", "@v", "v0.6.0.zip")
	if err := os.Remove(zip); err != nil {
		t.Fatal(err)
	}
	before := cache.Builds()
	if env, err = cache.Provision(ctx, versioned.SpecOf(*tasks[0].Env)); err != nil || env.Cached || cache.Builds() != before+1 {
		t.Fatalf("after the module cache lost %s: err %v, cached %v, builds %d -> %d", zip, err, env != nil && env.Cached, before, cache.Builds())
	}
}

// TestGoTasksDataset checks the embedded dataset against its sources in
// testdata/goproblems: the same tasks, plus the go.sum, the releases and
// the year label the generator adds.
func TestGoTasksDataset(t *testing.T) {
	tasks, err := versioned.GoTasks()
	if err != nil {
		t.Fatal(err)
	}
	src, err := adapt.LoadDir(os.DirFS("testdata/goproblems"), ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(src) != len(tasks) {
		t.Fatalf("%d sources, %d tasks", len(src), len(tasks))
	}
	for i, task := range tasks {
		s := src[i]
		d, err := versioned.DetailOf(&task)
		if err != nil {
			t.Fatal(err)
		}
		sd, err := versioned.DetailOf(&s)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Release) != len("2023-07") || len(d.OtherRelease) != len("2023-07") {
			t.Errorf("%s: releases %q and %q", task.ID, d.Release, d.OtherRelease)
		}
		sd.Release, sd.OtherRelease = d.Release, d.OtherRelease
		if err := versioned.SetDetail(&s, sd); err != nil {
			t.Fatal(err)
		}
		s.Labels["category"] = versioned.Categorize(s.Labels["type_of_change"]).String()
		var sum string
		files := slices.DeleteFunc(slices.Clone(task.Files), func(f adapt.File) bool {
			if f.Path == "go.sum" {
				sum = f.Content
				return true
			}
			return false
		})
		task.Files = files
		assert.Equal(t, s, task, "%s: dataset and sources differ", task.ID)
		for _, v := range []string{d.Version, d.OtherVersion} {
			for _, suffix := range []string{" h1:", "/go.mod h1:"} {
				if !strings.Contains(sum, task.Labels["library"]+" "+v+suffix) {
					t.Errorf("%s: go.sum lacks %s %s%s", task.ID, task.Labels["library"], v, suffix)
				}
			}
		}
		if task.Reference != task.Target.Content {
			t.Errorf("%s: reference and target differ", task.ID)
		}
		if !strings.Contains(task.Requirement.Task, task.Labels["library"]+" at version "+d.Version) {
			t.Errorf("%s: the requirement does not name the module and version: %q", task.ID, task.Requirement.Task)
		}
		vis := versioned.VisibleTests(&task)
		if len(vis) != 1 || len(task.Tests) < 2 {
			t.Errorf("%s: visible %v of %d tests, want one visible and at least one hidden", task.ID, vis, len(task.Tests))
		}
	}
	// The dataset is what the generator writes: byte for byte what
	// adapt.WriteTasks gives for the tasks read back.
	var b bytes.Buffer
	raw, err := os.ReadFile("gotasks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	back, err := adapt.ReadTasks(bytes.NewReader(raw), "gotasks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := adapt.WriteTasks(&b, back); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), raw) {
		t.Error("gotasks.jsonl is not in adapt.WriteTasks form")
	}
}

func TestAtVersion(t *testing.T) {
	tasks, err := versioned.GoTasks()
	if err != nil {
		t.Fatal(err)
	}
	task := tasks[slices.IndexFunc(tasks, func(t adapt.Task) bool { return t.ID == "xsync-errgroup-panic" })]
	o, err := versioned.AtVersion(task, "v0.16.0")
	if err != nil {
		t.Fatal(err)
	}
	var gomod string
	for _, f := range o.Files {
		if f.Path == "go.mod" {
			gomod = f.Content
		}
	}
	want := "module example.com/solution\n\ngo 1.23.0\n\nrequire golang.org/x/sync v0.16.0\n"
	d, err := versioned.DetailOf(&task)
	if err != nil {
		t.Fatal(err)
	}
	od, err := versioned.DetailOf(&o)
	if err != nil {
		t.Fatal(err)
	}
	if gomod != want || o.ID != "xsync-errgroup-panic@v0.16.0" || o.Env.Packages[0].Version != "v0.16.0" ||
		od.Version != "v0.16.0" || od.OtherVersion != "v0.14.0" || od.Release != d.OtherRelease || od.OtherRelease != d.Release ||
		o.Labels["year"] != od.Release[:4] {
		t.Errorf("AtVersion: id %s, env %v, labels %v, detail %+v, go.mod:\n%s", o.ID, o.Env, o.Labels, od, gomod)
	}
	if d2, _ := versioned.DetailOf(&task); task.Env.Packages[0].Version != "v0.14.0" || d2.Version != "v0.14.0" || task.Labels["year"] != d.Release[:4] {
		t.Error("AtVersion changed its argument")
	}
	back, err := versioned.AtVersion(o, "v0.14.0")
	if err != nil || back.Files[0] != task.Files[0] {
		t.Errorf("AtVersion back: %v", err)
	}
	if _, err := versioned.AtVersion(adapt.Task{ID: "x"}, "v1"); err == nil {
		t.Error("AtVersion of a task with no module: no error")
	}
}

func TestGoModulesErrors(t *testing.T) {
	ctx := context.Background()
	g := &versioned.GoModules{ModCache: t.TempDir()}
	for _, c := range []struct {
		spec   versioned.EnvSpec
		want   string
		reason string
	}{
		{versioned.EnvSpec{Python: "3.10", Packages: []adapt.Package{{Name: "numpy", Version: "1.24"}}}, "names no Go version", "a Python spec"},
		{versioned.EnvSpec{Go: "1.x", Packages: []adapt.Package{{Name: "golang.org/x/sync", Version: "v0.1.0"}}}, `"1.x" is not a Go version`, "a bad Go version"},
		{versioned.EnvSpec{Go: "1.23"}, "names no modules", "nothing to fetch"},
		{versioned.EnvSpec{Go: "1.23", Packages: []adapt.Package{{Name: "golang.org/x/sync"}}}, "golang.org/x/sync has no version", "modules are pinned"},
	} {
		if _, err := g.Build(ctx, c.spec, t.TempDir()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.reason, err, c.want)
		}
	}
	if _, err := (&versioned.System{}).Build(ctx, versioned.EnvSpec{Go: "1.23"}, t.TempDir()); err == nil {
		t.Error("System built a Go spec")
	}

	// A version that does not exist is an error naming it, from the proxy,
	// and leaves nothing in the cache.
	mc := goModCache(t)
	cache := &versioned.Cache{Dir: cacheDir(t), Builder: &versioned.GoModules{ModCache: mc}}
	spec := versioned.EnvSpec{Go: "1.23", Packages: []adapt.Package{{Name: "golang.org/x/sync", Version: "v0.0.99"}}}
	if _, err := cache.Provision(ctx, spec); err == nil || !strings.Contains(err.Error(), "v0.0.99") {
		t.Errorf("golang.org/x/sync@v0.0.99: got %v, want an error naming the version", err)
	}
	if _, err := os.Stat(filepath.Join(cache.Dir, spec.Key())); !os.IsNotExist(err) {
		t.Errorf("a failed build left its directory: %v", err)
	}
	// A toolchain older than the spec asks for is not faithful.
	future := versioned.EnvSpec{Go: "1.99", Packages: []adapt.Package{{Name: "golang.org/x/sync", Version: "v0.1.0"}}}
	env, err := cache.Provision(ctx, future)
	if err != nil {
		t.Fatal(err)
	}
	if env.Manifest.Faithful || len(env.Manifest.Mismatches) != 1 || !strings.Contains(env.Manifest.Mismatches[0], "want go1.99 or later") {
		t.Errorf("go 1.99 spec: faithful %v, mismatches %v", env.Manifest.Faithful, env.Manifest.Mismatches)
	}
	if _, err := (&versioned.Provider{Provisioner: cache, Strict: true}).Provide(ctx, adapt.Environment{Runtime: "go1.99", Packages: future.Packages}); !errors.Is(err, versioned.ErrUnfaithful) {
		t.Errorf("strict provider, go 1.99: got %v, want ErrUnfaithful", err)
	}
}
