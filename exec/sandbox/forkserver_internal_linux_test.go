package sandbox

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/internal/jobkit"
)

// TestPreadKey reads cgroup-like files through one descriptor, again and
// again from their start, as cgCounters does: each read gives the file's
// current content.
func TestPreadKey(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) *os.File {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		f, err := os.Open(p)
		require.NoError(t, err)
		t.Cleanup(func() { f.Close() })
		return f
	}
	usage := write("cpuacct.usage", "36477561914404\n")
	n, ok := preadKey(usage, "")
	assert.True(t, ok)
	assert.Equal(t, int64(36477561914404), n)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cpuacct.usage"), []byte("36477581925624\n"), 0o644))
	n, ok = preadKey(usage, "")
	assert.True(t, ok)
	assert.Equal(t, int64(36477581925624), n, "read again from the start")

	oom := write("memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n")
	n, ok = preadKey(oom, "oom_kill")
	assert.True(t, ok)
	assert.Equal(t, int64(3), n, "the oom_kill line, not oom_kill_disable")
	_, ok = preadKey(oom, "oom_kills")
	assert.False(t, ok)

	stat := write("cpu.stat", "usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n")
	c := &cgCounters{cg: &jobCgroup{cpu: dir, layout: &cgroupLayout{v2: true}}, cpu: stat, cpuKey: "usage_usec"}
	d, ok := c.cpuUsage()
	assert.True(t, ok)
	assert.Equal(t, 1500*time.Microsecond, d)

	bad := write("bad", "x\n")
	_, ok = preadKey(bad, "")
	assert.False(t, ok)
	bad.Close()
	_, ok = preadKey(bad, "")
	assert.False(t, ok, "a closed descriptor is no value")
}

// TestParseNamesProgram: a request for a test driver's reporter names it
// by number instead of carrying its source; any other program is sent.
func TestParseNamesProgram(t *testing.T) {
	f := &ForkServer{python: exec.DefaultPython, maxIn: 8 * exec.MiB}
	lim := exec.Limits{}.WithDefaults()
	req, ok := f.parse(exec.Job{Args: []string{exec.DefaultPython, "-s", "-B", "-c", jobkit.UnittestReporter, "results.jsonl", "0"}}, nil, lim, nil)
	require.True(t, ok)
	assert.Equal(t, 1, req.Program)
	assert.Empty(t, req.Target)
	assert.Equal(t, []string{"results.jsonl", "0"}, req.Args)
	req, ok = f.parse(exec.Job{Args: []string{exec.DefaultPython, "-c", jobkit.PytestReporter}}, nil, lim, nil)
	require.True(t, ok)
	assert.Equal(t, 2, req.Program)
	req, ok = f.parse(exec.Job{Args: []string{exec.DefaultPython, "-c", "print(1)"}}, nil, lim, nil)
	require.True(t, ok)
	assert.Zero(t, req.Program)
	assert.Equal(t, "print(1)", req.Target)
}
