package mutate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/gomod"
	"github.com/adaptbench/adaptbench/mutate/internal/mutatetest"
	"github.com/adaptbench/adaptbench/mutate/maven"
)

// leftovers returns the adaptbench-* entries of os.TempDir().
func leftovers(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir(os.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "adaptbench-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestNoTempDirsAfterFailure checks that a project that fails to open or
// to build, and a Maven project whose coverage ran, leave no
// adaptbench-* directory in os.TempDir() once closed (TMPDIR is a fresh
// directory, so other processes' runs do not count).
func TestNoTempDirsAfterFailure(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx := context.Background()
	sb := exectest.Sandbox(t)

	t.Run("go/no go.mod", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644)
		if _, err := gomod.Open(dir, sb, nil); err == nil {
			t.Fatal("opened a directory without go.mod")
		}
	})
	t.Run("go/does not build", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/a\n\ngo 1.22\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc F() int { return x }\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "a_test.go"), []byte("package a\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n"), 0o644)
		gm, err := gomod.Open(dir, sb, nil)
		if err != nil {
			return
		}
		if _, err := mutate.Generate(ctx, gm, nil); err == nil {
			t.Error("Generate succeeded on a module that does not build")
		}
		if err := gm.Close(); err != nil {
			t.Error(err)
		}
	})
	t.Run("maven/coverage", func(t *testing.T) {
		if testing.Short() {
			t.Skip("compiles the Maven project")
		}
		mutatetest.NeedMaven(t)
		mv, err := maven.Open(ctx, "maven/testdata/maven", sb, nil)
		if err != nil {
			t.Fatal(err)
		}
		tests, err := mv.Tests(ctx)
		if err != nil || len(tests) == 0 {
			mv.Close()
			t.Fatalf("tests: %v %v", tests, err)
		}
		if _, err := mv.Coverage(ctx, tests[0]); err != nil {
			t.Error(err)
		}
		if err := mv.Close(); err != nil {
			t.Error(err)
		}
	})
	t.Run("maven/no pom", func(t *testing.T) {
		if _, err := maven.Open(ctx, t.TempDir(), sb, nil); err == nil {
			t.Fatal("opened a directory without pom.xml")
		}
	})
	if l := leftovers(t); len(l) > 0 {
		t.Errorf("left in %s: %v", tmp, l)
	}
}
