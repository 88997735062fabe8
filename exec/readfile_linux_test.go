package exec_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

// bothPaths runs f once with the Sandbox and once with the ForkServer.
func bothPaths(t *testing.T, f func(t *testing.T, r exec.Runner)) {
	t.Run("sandbox", func(t *testing.T) { f(t, exectest.Sandbox(t)) })
	t.Run("forkserver", func(t *testing.T) { f(t, exectest.ForkServer(t)) })
}

func TestReadWorkspaceFile(t *testing.T) {
	dir := exectest.Workspace(t)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "ok"), []byte("fine"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big"), []byte(strings.Repeat("x", 100)), 0o644))
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(dir, "link")))
	require.NoError(t, os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "dirlink")))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero")))
	tests := []struct {
		name, rel string
		want      string
		err       error
		reason    string
	}{
		{"regular", "a/ok", "fine", nil, "a plain file"},
		{"link", "link", "", exec.ErrUnsafeFile, "a symbolic link is not followed"},
		{"link in the path", "dirlink/ok", "", exec.ErrUnsafeFile, "nor a link to a directory on the way"},
		{"device", "zero", "", exec.ErrUnsafeFile, "nor a link to a device"},
		{"escape", "../" + filepath.Base(dir) + "/a/ok", "", exec.ErrUnsafeFile, "nothing outside the workspace"},
		{"absolute", "/etc/passwd", "", exec.ErrUnsafeFile, "an absolute path"},
		{"directory", "a", "", exec.ErrUnsafeFile, "a directory is not a regular file"},
		{"missing", "nope", "", os.ErrNotExist, "a missing file"},
		{"too large", "big", strings.Repeat("x", 10), exec.ErrFileTooLarge, "the first limit bytes and an error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := exec.ReadWorkspaceFile(dir, tc.rel, 10)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err, tc.reason)
			} else {
				require.NoError(t, err, tc.reason)
			}
			assert.Equal(t, tc.want, string(b), tc.reason)
		})
	}
}
