package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

// TestOutputsAgree runs the command as a person would, from a directory
// of their own: everything lands in -out, each file is named as it is
// written, and the one summary line's numbers are those of the funnel
// CSV, the mutant CSV, the task file and the HTML page. A second model
// then evaluates the task file, with no regeneration.
func TestOutputsAgree(t *testing.T) {
	exectest.Sandbox(t)
	mod := clampModule(t)
	cwd := t.TempDir()
	t.Chdir(cwd)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	var stdout bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-dir", mod, "-levels", "2", "-evaluate", "-gates=warn"}, &stdout), stdout.String())
	out := stdout.String()
	dir := "mutate-1" // the default: a new directory named after the run
	for _, f := range []string{"funnel.csv", "mutants.csv", "tasks.jsonl", "report.html"} {
		assert.Regexp(t, "(?m)^wrote "+regexp.QuoteMeta(filepath.Join(dir, f))+"\\b", out)
	}
	ents, err := os.ReadDir(cwd)
	require.NoError(t, err)
	require.Len(t, ents, 1, "nothing else in the current directory")

	m := regexp.MustCompile(`(?m)^(\d+) mutants kept → (\d+) tasks \(× (\d+) contexts((?:; \d+ withheld at C\d)*)\)$`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	require.Len(t, regexp.MustCompile(`mutants kept`).FindAllString(out, -1), 1, "one summary line")
	kept, _ := strconv.Atoi(m[1])
	tasks, _ := strconv.Atoi(m[2])
	contexts, _ := strconv.Atoi(m[3])
	require.NotZero(t, kept)
	withheld := 0
	for _, w := range regexp.MustCompile(`(\d+) withheld`).FindAllStringSubmatch(m[4], -1) {
		n, _ := strconv.Atoi(w[1])
		withheld += n
	}
	assert.Equal(t, kept*contexts-withheld, tasks, "a task per kept mutant and context, less those withheld")

	// The funnel CSV's detected column and the mutant CSV's valid rows.
	rows := readCSV(t, filepath.Join(dir, "funnel.csv"))
	col := -1
	for i, h := range rows[0] {
		if h == "detected" {
			col = i
		}
	}
	require.GreaterOrEqual(t, col, 0, rows[0])
	detected := 0
	for _, r := range rows[1:] {
		n, err := strconv.Atoi(r[col])
		require.NoError(t, err)
		detected += n
	}
	assert.Equal(t, kept, detected, "funnel.csv")
	valid := 0
	for _, r := range readCSV(t, filepath.Join(dir, "mutants.csv"))[1:] {
		if r[6] == "valid" {
			valid++
		}
	}
	assert.Equal(t, kept, valid, "mutants.csv")
	saved, err := adapt.LoadFile(filepath.Join(dir, "tasks.jsonl"))
	require.NoError(t, err)
	assert.Len(t, saved, tasks, "tasks.jsonl")
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	require.NoError(t, err)
	assert.Contains(t, string(page), m[0], "the page says the same")
	assert.Contains(t, string(page), "↳ unresolved", "unresolved is a side branch of the funnel")

	// A second model on the task file: no regeneration, its page where
	// asked, nothing overwritten.
	stdout.Reset()
	html := filepath.Join(t.TempDir(), "identity.html")
	require.NoError(t, run(context.Background(), []string{"-tasks", filepath.Join(dir, "tasks.jsonl"), "-model", "identity", "-html", html}, &stdout), stdout.String())
	assert.NotContains(t, stdout.String(), "mutants kept", "nothing generated")
	assert.Contains(t, stdout.String(), "wrote "+html+"\n")
	assert.Contains(t, stdout.String(), "model identity: ")
	assert.FileExists(t, html)
	assert.FileExists(t, filepath.Join(dir, "report.html"), "the first model's page stays")
	ents, err = os.ReadDir(cwd)
	require.NoError(t, err)
	assert.Len(t, ents, 1, "no directory made for nothing")
}

func readCSV(t *testing.T, path string) [][]string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.NotEmpty(t, rows)
	return rows
}

// TestHelp: -h prints the usage and exits 0; no work named exits 2.
func TestHelp(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mutate")
	out, err := osexec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	out, err = osexec.Command(bin, "-h").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "-tasks")
	cmd := osexec.Command(bin)
	cmd.Dir = t.TempDir()
	err = cmd.Run()
	var ee *osexec.ExitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, 2, ee.ExitCode())
}
