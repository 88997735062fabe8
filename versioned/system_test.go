package versioned_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/versioned"
)

// TestSystemDataset runs two published numpy problems (1.21.0 and 1.25.0,
// Python 3.10) with the machine's Debian python3 (3.11, numpy 1.24.2): a
// smoke test of the visible-test tasks, marked not faithful.
func TestSystemDataset(t *testing.T) {
	dir := dataDir(t)
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	ctx := context.Background()
	sys := &versioned.Cache{Dir: cacheDir(t), Builder: &versioned.System{}}
	env, err := sys.Provision(ctx, versioned.EnvSpec{Packages: []adapt.Package{{Name: "numpy"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !env.Manifest.Faithful {
		t.Skipf("the system python3 has no numpy: %v", env.Manifest.Mismatches)
	}
	sb := exectest.Sandbox(t)

	ps, err := versioned.LoadFile(filepath.Join(dir, "dataset.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var picked []versioned.Problem
	for _, p := range ps {
		if p.ID == "66" || p.ID == "69" {
			picked = append(picked, p)
		}
	}
	tasks, err := versioned.Tasks(picked, "dataset.jsonl")
	if err != nil || len(tasks) != 2 {
		t.Fatalf("tasks: %v (%d)", err, len(tasks))
	}
	for _, task := range tasks {
		env, err := sys.Provision(ctx, versioned.SpecOf(*task.Env))
		if err != nil {
			t.Fatal(err)
		}
		if env.Manifest.Faithful || len(env.Manifest.Mismatches) == 0 {
			t.Errorf("task %s: system env marked faithful: %+v", task.ID, env.Manifest)
		}
	}

	p := &versioned.Provider{Provisioner: sys}
	rep, err := adapt.Evaluate(ctx, tasks, adapt.Reference, &adapt.Options{Runner: sb, Environments: p})
	if err != nil {
		t.Fatal(err)
	}
	if score, _ := rep.Score(1); score != 1 {
		t.Fatalf("references in the system env: pass@1 %v, invalid %+v", score, rep.Invalid)
	}

	// The ground-truth solution file, scored as a model, passes too.
	sols, err := versioned.LoadSolutionsFile(filepath.Join(dir, "ground_truth_solutions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err = adapt.Evaluate(ctx, tasks, versioned.SolutionModel("ground-truth", sols), &adapt.Options{Runner: sb, Environments: p, NoGold: true})
	if err != nil {
		t.Fatal(err)
	}
	if score, _ := rep.Score(1); score != 1 {
		t.Fatalf("ground-truth solutions: pass@1 %v, outcomes %v", score, rep.Outcomes)
	}

	// The starter code alone leaves the function without a body.
	starter := append([]adapt.Task(nil), tasks...)
	for i := range starter {
		starter[i].Reference = starter[i].Code + "    pass\n"
	}
	rep, err = adapt.Evaluate(ctx, starter, adapt.Reference, &adapt.Options{Runner: sb, Environments: p, NoGold: true})
	if err != nil {
		t.Fatal(err)
	}
	if score, _ := rep.Score(1); score != 0 {
		t.Fatalf("starter code: pass@1 %v, want 0", score)
	}

	// A strict provider refuses the unfaithful environment: the task is
	// invalid, an environment problem, not a model failure.
	strict := &versioned.Provider{Provisioner: sys, Strict: true}
	if _, err := strict.Provide(ctx, *tasks[0].Env); !errors.Is(err, versioned.ErrUnfaithful) || !strings.Contains(err.Error(), "numpy") {
		t.Fatalf("strict provider: got %v, want ErrUnfaithful naming numpy", err)
	}
}
