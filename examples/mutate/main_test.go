package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/source/sourcetest"
)

func TestMain(m *testing.M) { exectest.Main(m) }

// TestRunErrors checks that the command reports the real error of a
// project it cannot open or build, and leaves no adaptbench-* directory
// in os.TempDir() (TMPDIR is a fresh directory here).
func TestRunErrors(t *testing.T) {
	exectest.Sandbox(t) // skips where the sandbox cannot run
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	noMod := t.TempDir()
	os.WriteFile(filepath.Join(noMod, "a.go"), []byte("package a\n"), 0o644)
	broken := t.TempDir()
	os.WriteFile(filepath.Join(broken, "go.mod"), []byte("module example.com/a\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(broken, "a.go"), []byte("package a\n\nfunc F() int { return x }\n"), 0o644)
	os.WriteFile(filepath.Join(broken, "a_test.go"), []byte("package a\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n"), 0o644)
	for _, tc := range []struct {
		name, dir, want string
	}{
		{"no go.mod", noMod, "go.mod: no such file"},
		{"does not build", broken, "undefined: x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := run(context.Background(), []string{"-dir", tc.dir, "-out", filepath.Join(t.TempDir(), "t.jsonl")}, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
			ents, _ := os.ReadDir(tmp)
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), "adaptbench-") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

// TestRunRepoErrors checks -repo: a revision the repository lacks, or a
// directory that is not a repository, is an error naming it, and nothing
// is left in the temporary directory.
func TestRunRepoErrors(t *testing.T) {
	exectest.Sandbox(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	repo := sourcetest.Init(t, true)
	repo.Commit(fstest.MapFS{"go.mod": {Data: []byte("module example.com/a\n\ngo 1.22\n")}}, "first")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing revision", []string{"-repo", repo.Dir, "-rev", "v9"}, "v9"},
		{"not a repository", []string{"-repo", t.TempDir(), "-rev", "main"}, "not a git repository"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := run(context.Background(), append(tc.args, "-out", filepath.Join(t.TempDir(), "t.jsonl")), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
			ents, _ := os.ReadDir(tmp)
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), "adaptbench-") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}
