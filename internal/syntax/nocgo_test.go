package syntax_test

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildWithoutCgo: CGO_ENABLED=0 (a common CI default for Go tools)
// stops the module's build with one error that names what is needed,
// not a screen of errors from inside go-tree-sitter; exec and metrics,
// which import no C, still build (static test binaries are made that way).
func TestBuildWithoutCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module twice")
	}
	goTool, err := osexec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	build := func(pkgs ...string) (string, error) {
		cmd := osexec.Command(goTool, append([]string{"build"}, pkgs...)...) // several packages: nothing written
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := build("./...")
	if err == nil {
		t.Fatal("CGO_ENABLED=0 go build ./... succeeded; tree-sitter needs cgo")
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], "adaptbench_requires_cgo_and_a_C_compiler") {
		t.Errorf("CGO_ENABLED=0 go build ./... should fail with the one error naming the requirement; got:\n%s", out)
	}
	if out, err := build("./exec", "./metrics"); err != nil {
		t.Errorf("exec and metrics must build without cgo: %v\n%s", err, out)
	}
}
