package sandbox_test

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

// driverFixture copies exec's testdata/drivers/name to a fresh directory:
// the sandbox gives the workspace to the sandbox user, and tests write
// into it.
func driverFixture(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ws")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "drivers", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// requirePython skips the test when /usr/bin/python3 (with pytest, if
// asked) is missing: on developer machines only; CI installs both.
func requirePython(t testing.TB, pytest bool) {
	t.Helper()
	if _, err := os.Stat(exec.DefaultPython); err != nil {
		exectest.SkipWithout(t, "%s is missing (apt-get install python3)", exec.DefaultPython)
	}
	if pytest {
		pytestOnce.Do(func() {
			pytestOK = osexec.Command(exec.DefaultPython, "-c", "import pytest").Run() == nil
		})
		if !pytestOK {
			exectest.SkipWithout(t, "%s has no pytest (apt-get install python3-pytest)", exec.DefaultPython)
		}
	}
}

var (
	pytestOnce sync.Once
	pytestOK   bool
)
