package mutate_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/testenv"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/gomod"
	"github.com/adaptbench/adaptbench/source"
)

// clampModule is a small Go module with a test that catches changes to
// Clamp's logic.
var clampModule = fstest.MapFS{
	"go.mod": {Data: []byte("module example.com/clamp\n\ngo 1.22\n")},
	"clamp.go": {Data: []byte(`package clamp

// Clamp returns x limited to [lo, hi].
func Clamp(x, lo, hi int) int {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}
`)},
	"clamp_test.go": {Data: []byte(`package clamp

import "testing"

func TestClamp(t *testing.T) {
	for _, c := range [][4]int{{5, 0, 10, 5}, {-1, 0, 10, 0}, {11, 0, 10, 10}, {0, 0, 10, 0}, {10, 0, 10, 10}} {
		if got := Clamp(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("Clamp(%d, %d, %d) = %d, want %d", c[0], c[1], c[2], got, c[3])
		}
	}
}
`)},
}

// TestGenerateAtRevision checks mutate on a project read from a git
// repository at a revision: every task records the repository and the
// commit, generating twice from the same revision gives byte-identical
// tasks, and a revision the repository lacks is an error naming both.
func TestGenerateAtRevision(t *testing.T) {
	sb := exectest.Sandbox(t)
	repo := testenv.InitRepo(t, true)
	first := repo.Commit(clampModule, "clamp")
	repo.Tag("v1", first, false)
	ctx := context.Background()

	generate := func(rev string) ([]adapt.Task, *source.Snapshot) {
		t.Helper()
		snap, err := source.Open(ctx, repo.Dir, rev)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "clamp")
		if err := snap.Materialize(ctx, ".", dir); err != nil {
			t.Fatal(err)
		}
		gm, err := gomod.Open(dir, sb, &gomod.Config{Limits: exec.Limits{CPUTime: 20 * time.Second, WallTime: 30 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		defer gm.Close()
		res, err := mutate.Generate(ctx, gm, &mutate.Options{Seed: 1, Runs: 1, Source: "clamp",
			Contexts: []mutate.ContextLevel{mutate.C1}, Repo: snap.Repo(), Commit: snap.Commit()})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tasks) == 0 {
			t.Fatal("no tasks")
		}
		return res.Tasks, snap
	}
	tasks, snap := generate("v1")
	if len(snap.Commit()) != 40 {
		t.Fatalf("commit %q, want a full hash", snap.Commit())
	}
	for _, task := range tasks {
		if p := task.Provenance; p.Repo != repo.Dir || p.Commit != snap.Commit() || p.Generator != "mutate" {
			t.Errorf("%s: provenance repo %q commit %q generator %q, want %q, %q, mutate", task.ID, p.Repo, p.Commit, p.Generator, repo.Dir, snap.Commit())
		}
	}
	again, _ := generate(snap.Commit()[:10])
	var a, b bytes.Buffer
	if err := adapt.WriteTasks(&a, tasks); err != nil {
		t.Fatal(err)
	}
	if err := adapt.WriteTasks(&b, again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the same revision gave different tasks")
	}

	_, err := source.Open(ctx, repo.Dir, "v2")
	if !errors.Is(err, source.ErrRevision) || !strings.Contains(err.Error(), "v2") || !strings.Contains(err.Error(), repo.Dir) {
		t.Errorf("missing revision: %v, want ErrRevision naming the repository and v2", err)
	}
	if _, err := mutate.Generate(ctx, nil, &mutate.Options{Repo: repo.Dir}); err == nil || !strings.Contains(err.Error(), "set both") {
		t.Errorf("Repo without Commit: %v, want an error", err)
	}
}
