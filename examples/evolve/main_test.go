package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// TestProgressOnATerminal evolves one HumanEval problem and checks its
// derived tasks, standard error on a terminal: the search's bar, then one
// bar per model of the check, each ending at 100%.
func TestProgressOnATerminal(t *testing.T) {
	exectest.Sandbox(t)
	data := testenv.DataPath(t, "humaneval/HumanEval.jsonl.gz")
	dir := t.TempDir()
	bars, stdout := testenv.RunProgram(t, ".", "-data", data, "-n", "1", "-budget", "4",
		"-out", dir, "-tasks", "-check")
	if len(bars) != 3 || !strings.HasPrefix(bars[0], "evolve") || !strings.HasPrefix(bars[1], "reference") || !strings.HasPrefix(bars[2], "identity") {
		t.Errorf("bars %q, want evolve's, then reference's and identity's", bars)
	}
	for _, f := range []string{"humaneval_evolved.jsonl", "tasks.jsonl", "report.html"} {
		if !strings.Contains(stdout, "wrote "+filepath.Join(dir, f)) {
			t.Errorf("no line says %s was written; stdout:\n%s", f, stdout)
		}
	}
}
