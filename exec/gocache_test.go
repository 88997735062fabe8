package exec_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// TestGoBuildAsOrdinaryUser reruns the tests below as uid 65534, the
// service account of the report: its home unwritable, the go command's
// default cache with it.
func TestGoBuildAsOrdinaryUser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the standard library into a cold cache (minutes on a busy machine)")
	}
	testenv.RunUnprivileged(t, "TestGoToolchainFaultIsNoCompileError", "TestGoBuildWithoutWritableHome")
}

// cacheWorkspace is a module with one passing test.
func cacheWorkspace(t *testing.T) string {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":       "module calc\n\ngo 1.21\n",
		"calc.go":      "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
		"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(Add(2, 3))\n\t}\n}\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	return dir
}

// TestGoToolchainFaultIsNoCompileError: a build cache the go command
// cannot use is the host's fault: an error saying what to set, with
// StatusInternal, never the code's compile error.
func TestGoToolchainFaultIsNoCompileError(t *testing.T) {
	requireGo(t)
	t.Setenv("GOCACHE", "/proc/adaptbench-no-cache")
	s, err := exec.GoTest{}.Test(context.Background(), driverSandbox(t), exec.TestSpec{Dir: cacheWorkspace(t)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the go toolchain could not start")
	assert.Contains(t, err.Error(), "set GOCACHE")
	require.NotNil(t, s)
	assert.Nil(t, s.Compile)
	require.NotNil(t, s.Build)
	assert.Equal(t, exec.StatusInternal, s.Build.Status)
}

// TestGoBuildWithoutWritableHome: with no GOCACHE set and a home the user
// cannot write (a service account, a container's read-only home), the
// build uses a private cache of its own and the tests run.
func TestGoBuildWithoutWritableHome(t *testing.T) {
	requireGo(t)
	if testing.Short() {
		t.Skip("builds the standard library into a cold cache (minutes on a busy machine)")
	}
	t.Setenv("GOCACHE", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "/proc/adaptbench-no-home")
	t.Setenv("GOMODCACHE", t.TempDir())
	s, err := exec.GoTest{}.Test(context.Background(), driverSandbox(t), exec.TestSpec{Dir: cacheWorkspace(t)})
	require.NoError(t, err)
	require.Nil(t, s.Compile)
	assert.Equal(t, 1, s.Count(exec.TestPassed), "%+v", s.Tests)
}
