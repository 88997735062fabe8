package main

import (
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/ptytest"
)

// TestProgressOnATerminal runs the example on its Go problems as a person
// would, standard error on a terminal: the environments' bar, then one
// bar for the protocol, each ending at 100%.
func TestProgressOnATerminal(t *testing.T) {
	exectest.Sandbox(t)
	bars, stdout := ptytest.RunProgram(t, ".", "-model", "identity", "-protocols", "greedy", "-cache", t.TempDir())
	if len(bars) != 2 || !strings.HasPrefix(bars[0], "versioned environments") || !strings.HasPrefix(bars[1], "identity greedy") {
		t.Errorf("bars %q, want the environments' then identity greedy's", bars)
	}
	if !strings.Contains(stdout, "Hidden") {
		t.Errorf("no table on stdout:\n%s", stdout)
	}
}
