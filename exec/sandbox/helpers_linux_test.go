package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"
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
