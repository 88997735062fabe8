package adapt_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
)

// TestReportManifest: a report says what its checks ran on (the runner's
// isolation and limits in force, the kernel, the Python it used and a
// digest of what that Python sees), the same in the report of the run,
// of its resume and of Merge; and a manifest is not part of the
// evaluation's identity.
func TestReportManifest(t *testing.T) {
	tasks := pyTasks(2)
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{Runner: runner(t), Journal: journal})
	require.NoError(t, err)
	m := rep.Run.Manifest
	require.NotNil(t, m)
	kernel, err := os.ReadFile("/proc/sys/kernel/osrelease")
	require.NoError(t, err)
	assert.Equal(t, strings.TrimSpace(string(kernel)), m.Kernel)
	assert.Contains(t, m.Isolation, "user namespaces, seccomp")
	assert.Contains(t, m.Isolation, "Python jobs forked from a warm server")
	assert.Regexp(t, `^Python 3\.\d+\.\d+$`, m.Python)
	assert.Regexp(t, `^\d+ distributions, sha256 [0-9a-f]{16}$`, m.PythonEnv)
	assert.Empty(t, m.Java, "no Java task")
	assert.Regexp(t, `^go1\.\d+`, m.Harness)

	again, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{Runner: runner(t), Journal: journal})
	require.NoError(t, err)
	assert.Equal(t, m, again.Run.Manifest)
	merged, err := adapt.Merge(tasks, []string{journal}, nil)
	require.NoError(t, err)
	assert.Equal(t, m, merged.Run.Manifest)

	var page strings.Builder
	require.NoError(t, htmlreport.Write(&page, rep, nil))
	assert.Contains(t, page.String(), "measured on "+m.Harness+" · kernel "+m.Kernel)
}
