package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/exec/exectest"
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
	noRoot := t.TempDir()
	os.WriteFile(filepath.Join(noRoot, "go.mod"), []byte("module example.com/a\n\ngo 1.22\n"), 0o644)
	os.Mkdir(filepath.Join(noRoot, "sub"), 0o755)
	os.WriteFile(filepath.Join(noRoot, "sub", "a.go"), []byte("package sub\n"), 0o644)
	for _, tc := range []struct {
		name, dir, want string
		args            []string
	}{
		{"no go.mod", noMod, "go.mod: no such file", nil},
		{"does not build", broken, "undefined: x", nil},
		{"no root package", noRoot, "has no Go package at its root; its packages: sub: choose with GoConfig.Packages", nil},
		{"no such package", noRoot, `has no Go package in "other"; its packages: sub`, []string{"-packages", "other"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-dir", tc.dir, "-out", filepath.Join(t.TempDir(), "t.jsonl")}, tc.args...)
			err := run(context.Background(), args, io.Discard)
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
