package adaptbench_test

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// firstExperiment is the README's "A first experiment" made a program: the
// README's Go block is the body of main, so the two cannot drift apart.
func firstExperiment(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "## A first experiment")
	if ok {
		_, rest, ok = strings.Cut(rest, "```go\n")
	}
	block, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatal("README.md: no Go block under \"## A first experiment\"")
	}
	return `package main

import (
	"context"
	"log"
	"os"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/demo"
	"github.com/adaptbench/adaptbench/adapt/report"
)

func main() {
	ctx := context.Background()
` + block + "}\n"
}

// TestFromAnotherModule writes a throwaway module that requires this one
// (a replace to the checkout), with the README's first experiment as its
// main and a copy of every public package's Example files, and builds and
// vets it: what users write from outside compiles, and no exported API
// needs a type from internal/.
func TestFromAnotherModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module (-short)")
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// The user's module asks for what this one asks for, at the same
	// versions (in the module cache once this module is built).
	var req []string
	for _, line := range strings.Split(string(gomod), "\n") {
		if strings.HasPrefix(line, "go ") || strings.HasPrefix(line, "require") || strings.HasPrefix(line, "\t") || strings.HasPrefix(line, ")") {
			req = append(req, line)
		}
	}
	mod := "module example.com/user\n\n" + strings.Join(req, "\n") +
		"\nrequire github.com/adaptbench/adaptbench v0.0.0\n\nreplace github.com/adaptbench/adaptbench => " + root + "\n"
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", mod)
	sum, _ := os.ReadFile(filepath.Join(root, "go.sum"))
	write("go.sum", string(sum))
	write("experiment/main.go", firstExperiment(t, root))
	examples, _ := filepath.Glob(filepath.Join(root, "*", "example*_test.go"))
	more, _ := filepath.Glob(filepath.Join(root, "*", "*", "example*_test.go"))
	more2, _ := filepath.Glob(filepath.Join(root, "*", "*", "*", "example*_test.go"))
	examples = append(append(examples, more...), more2...)
	n := 0
	for _, ex := range examples {
		rel, _ := filepath.Rel(root, ex)
		if strings.HasPrefix(rel, "internal/") || strings.HasPrefix(rel, "examples/") {
			continue
		}
		b, err := os.ReadFile(ex)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "_test\n") {
			continue // an in-package example sees unexported names: not what a user writes
		}
		write(filepath.Join("examples", filepath.Dir(rel), filepath.Base(rel)), string(b))
		n++
	}
	if n < 8 {
		t.Fatalf("found only %d example files to build", n)
	}
	for _, args := range [][]string{{"vet", "./..."}} {
		cmd := osexec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in a module outside the checkout: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	t.Logf("built the README's experiment and %d example files from another module", n)
}
