package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

func TestMain(m *testing.M) { exectest.Main(m) }

// TestProgressOnATerminal runs the quickstart as a person would, with its
// standard error on a terminal: one bar per model, each ending at 100%.
func TestProgressOnATerminal(t *testing.T) {
	exectest.Sandbox(t)
	bin := filepath.Join(t.TempDir(), "quickstart")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	term := testenv.OpenTerminal(t)
	cmd := exec.Command(bin)
	cmd.Dir = t.TempDir()
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, term.TTY
	require.NoError(t, cmd.Run())
	raw := term.Output()
	bars, other := testenv.Bars(raw)
	require.Len(t, bars, 2, "%q", raw)
	// Nothing lands in the current directory but a new directory named
	// after the run, and each file written is named.
	entries, err := os.ReadDir(cmd.Dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, "quickstart-1", entries[0].Name())
	for _, f := range []string{"report.html", "report.json"} {
		assert.FileExists(t, filepath.Join(cmd.Dir, "quickstart-1", f))
		assert.Contains(t, other, "wrote "+filepath.Join("quickstart-1", f))
	}
	assert.Regexp(t, `^reference samples \(\d+ passed\)$`, bars[0])
	assert.Regexp(t, `^identity samples \(\d+ passed\)$`, bars[1])
	assert.Contains(t, stdout.String(), "pass@1")
}
