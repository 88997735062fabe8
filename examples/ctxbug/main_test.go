package main

import (
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// TestProgressOnATerminal runs the whole flow on one ClassEval class,
// standard error on a terminal: a bar for each phase (infill and
// identification of CtxBugs and IsoBugs) and for each tested model, each
// ending at 100%.
func TestProgressOnATerminal(t *testing.T) {
	exectest.Sandbox(t)
	data := testenv.DataPath(t, "classeval/ClassEval_data.json")
	bars, stdout := testenv.RunProgram(t, ".", "-data", data, "-only", `ClassEval_1\.`, "-out", t.TempDir())
	want := []string{"CtxBugs infill", "CtxBugs", "IsoBugs infill", "IsoBugs", "reference", "copy"}
	if len(bars) != len(want) {
		t.Fatalf("bars %q, want one for each of %q", bars, want)
	}
	for i, w := range want {
		if !strings.HasPrefix(bars[i], w+" ") {
			t.Errorf("bar %d is %q, want %s's", i, bars[i], w)
		}
	}
	if stdout == "" {
		t.Error("nothing on stdout")
	}
}
