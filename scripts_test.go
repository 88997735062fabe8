package adaptbench_test

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// datasets runs scripts/datasets.sh's adaptbench_datasets on root with
// env, a go command on PATH that records its arguments and, for "run
// ./examples/datasets -out DIR", makes DIR (the fetch itself needs the
// network, which the tests do not have; examples/datasets' tests check
// it against local mirrors). It returns the output, the ADAPTBENCH_DATA
// it left and the go commands run.
func datasets(t *testing.T, root string, fail bool, env ...string) (out, data string, calls []string, err error) {
	t.Helper()
	repo, err := filepath.Abs(".")
	require.NoError(t, err)
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "calls")
	exit := "0"
	if fail {
		exit = "1"
	}
	stub := "#!/bin/sh\necho \"$PWD: $*\" >> " + log + "\n[ " + exit + " = 0 ] || exit 1\nwhile [ $# -gt 0 ]; do [ \"$1\" = -out ] && mkdir -p \"$2\"; shift; done\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "go"), []byte(stub), 0o755))
	cmd := osexec.Command("bash", "-c", `. "$1/scripts/datasets.sh" && adaptbench_datasets "$2" && echo "ADAPTBENCH_DATA=${ADAPTBENCH_DATA:-}"`, "bash", repo, root)
	cmd.Env = append([]string{"PATH=" + bin + ":/usr/bin:/bin"}, env...)
	b, err := cmd.CombinedOutput()
	out = string(b)
	if i := strings.LastIndex(out, "ADAPTBENCH_DATA="); i >= 0 {
		data = strings.TrimSpace(out[i+len("ADAPTBENCH_DATA="):])
		out = out[:i]
	}
	if c, rerr := os.ReadFile(log); rerr == nil {
		calls = strings.Split(strings.TrimSpace(string(c)), "\n")
	}
	return out, data, calls, err
}

// TestCommandFetchesDatasets: the test command finds the datasets where
// they are, and where they are not fetches them once into the user's
// cache, says where, and points ADAPTBENCH_DATA there.
func TestCommandFetchesDatasets(t *testing.T) {
	home := t.TempDir()
	clone := filepath.Join(t.TempDir(), "adaptbench") // a fresh clone, no shared/data above it
	require.NoError(t, os.MkdirAll(clone, 0o755))
	cache := filepath.Join(home, ".cache", "adaptbench", "data")

	out, data, calls, err := datasets(t, clone, false, "HOME="+home)
	require.NoError(t, err, out)
	assert.Equal(t, []string{clone + ": run ./examples/datasets -out " + cache}, calls, "fetched with the checked fetch, from the checkout")
	assert.Contains(t, out, "fetching the published datasets into "+cache+" (every file checked)")
	assert.Contains(t, out, "reading them from "+cache+" (ADAPTBENCH_DATA="+cache+")")
	assert.Equal(t, cache, data)

	// Once: the next run reads them.
	out, data, calls, err = datasets(t, clone, false, "HOME="+home)
	require.NoError(t, err, out)
	assert.Empty(t, calls)
	assert.Equal(t, cache, data)

	// $ADAPTBENCH_DATA, or shared/data above the checkout: nothing fetched.
	_, data, calls, err = datasets(t, clone, false, "HOME="+t.TempDir(), "ADAPTBENCH_DATA=/somewhere")
	require.NoError(t, err)
	assert.Empty(t, calls)
	assert.Equal(t, "/somewhere", data)
	beside := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(beside, "shared", "data"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(beside, "src", "adaptbench"), 0o755))
	_, data, calls, err = datasets(t, filepath.Join(beside, "src", "adaptbench"), false, "HOME="+t.TempDir())
	require.NoError(t, err)
	assert.Empty(t, calls)
	assert.Empty(t, data, "internal/testenv finds shared/data itself")

	// A failed fetch fails, says what to do, and marks nothing done.
	home = t.TempDir()
	out, _, calls, err = datasets(t, clone, true, "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, "xdg"))
	require.Error(t, err)
	assert.Len(t, calls, 1)
	assert.Contains(t, out, "the fetch failed")
	assert.NoFileExists(t, filepath.Join(home, "xdg", "adaptbench", "data", ".complete"))
}
