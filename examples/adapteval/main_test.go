package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// TestProgressOnATerminal evaluates the fixture repository of package
// adapteval (AdaptEval's layout, five tasks), standard error on a
// terminal: one bar, ending at 100%.
func TestProgressOnATerminal(t *testing.T) {
	exectest.Sandbox(t)
	repo, err := filepath.Abs(filepath.Join("..", "..", "adapt", "bench", "adapteval", "testdata", "repo"))
	if err != nil {
		t.Fatal(err)
	}
	bars, stdout := testenv.RunProgram(t, ".", "-repo", repo, "-n", "2", "-out", t.TempDir())
	if len(bars) != 1 || !strings.HasPrefix(bars[0], "reference ") {
		t.Errorf("bars %q, want the reference's", bars)
	}
	if !strings.Contains(stdout, "Leak Ratio") {
		t.Errorf("no Leak Ratio on stdout:\n%s", stdout)
	}
}
