package sandbox_test

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// cgroupVersionEnv names the cgroup version TestLimitVerdicts must find the
// sandbox using ("1" or "2"): the cgroup-v2 guest (TestCgroup2Guest of
// internal/testenv) sets it to 2, so that a sandbox that fell back to
// rlimits there fails instead of passing with weaker limits.
const cgroupVersionEnv = "ADAPTBENCH_CGROUP_VERSION"

// TestLimitVerdicts: each limit the cgroups enforce ends a job with the same
// verdict, detail and figures on every host: the expectations here are the
// same on a cgroup-v1 host and in the cgroup-v2 guest, run through a
// Sandbox and a ForkServer. CPU time counts every process of the job.
func TestLimitVerdicts(t *testing.T) {
	sb := newSandbox(t)
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	if want := os.Getenv(cgroupVersionEnv); want != "" {
		require.Equal(t, want, strconv.Itoa(sandbox.CgroupVersion(sb)), "the sandbox's cgroups (%s): %q", cgroupVersionEnv, sandbox.Cgroups(sb))
	}
	if sandbox.CgroupVersion(sb) == 0 {
		t.Skipf("no memory and pids cgroups: %s", sandbox.Cgroups(sb))
	}
	duration := `[0-9.]+(µs|ms|s)` // time.Duration's String, rounded to ms
	tests := []struct {
		name   string
		code   string
		limits exec.Limits
		want   exec.Status
		detail string // a regular expression matching all of Result.Detail
		// sandboxOnly: the ForkServer's jobs share their server's pids
		// cgroup, whose events are not the job's, and its wall time is the
		// Sandbox's.
		sandboxOnly bool
		check       func(t *testing.T, r exec.Result)
	}{
		{
			name:   "memory",
			code:   "x = []\nwhile True: x.append(bytearray(16 << 20))",
			limits: exec.Limits{Memory: 128 * exec.MiB, CPUTime: time.Minute, WallTime: 2 * time.Minute},
			want:   exec.StatusMemory, detail: `memory use exceeded 128MiB( \(killed by the memory cgroup\))?`,
			check: func(t *testing.T, r exec.Result) {
				assert.Greater(t, r.PeakMemory, 96*exec.MiB, "the cgroup's peak")
				assert.LessOrEqual(t, r.PeakMemory, 128*exec.MiB+exec.MiB, "the cgroup's peak")
			},
		},
		{
			name: "processes",
			code: "import os, time\nn = 0\nfor _ in range(64):\n  try: pid = os.fork()\n  except OSError: break\n" +
				"  if pid == 0:\n    time.sleep(60)\n    os._exit(0)\n  n += 1\nprint(n)",
			limits: exec.Limits{Processes: 8, WallTime: 60 * time.Second},
			want:   exec.StatusOK, detail: `process limit reached`, sandboxOnly: true,
			check: func(t *testing.T, r exec.Result) {
				// Processes counts a few tasks of slack (the init's
				// threads, one spare), the same on every host.
				n, err := strconv.Atoi(strings.TrimSpace(string(r.Stdout)))
				require.NoError(t, err, "stdout %q stderr %q", r.Stdout, r.Stderr)
				assert.True(t, n >= 1 && n < 16, "%d children forked under Processes 8", n)
				t.Logf("%d children forked under Processes 8", n)
			},
		},
		{
			name:   "CPU time of two processes",
			code:   "import os\nos.fork()\nwhile True: pass",
			limits: exec.Limits{CPUTime: time.Second, WallTime: 120 * time.Second},
			want:   exec.StatusCPUTime, detail: `CPU time ` + duration + ` exceeded the limit 1s`,
			check: func(t *testing.T, r exec.Result) {
				// A ForkServer may judge a tree that stopped its server
				// from three quarters of the limit (see ForkServer.Run).
				assert.GreaterOrEqual(t, r.CPUTime, 750*time.Millisecond)
			},
		},
		{
			name:   "wall time",
			code:   "import time\ntime.sleep(600)",
			limits: exec.Limits{CPUTime: 60 * time.Second, WallTime: 3 * time.Second},
			want:   exec.StatusWallTime, detail: `wall time exceeded the limit 3s \(CPU time ` + duration + `\)`,
			sandboxOnly: true,
		},
	}
	runners := []struct {
		name string
		run  func(context.Context, exec.Job) (exec.Result, error)
	}{{"Sandbox", sb.Run}, {"ForkServer", forkServer(t).Run}}
	for _, r := range runners {
		for _, tc := range tests {
			if tc.sandboxOnly && r.name != "Sandbox" {
				continue
			}
			t.Run(r.name+"/"+tc.name, func(t *testing.T) {
				m := marker(t)
				res, err := r.run(context.Background(), exec.Job{Args: []string{python, "-c", tc.code, m}, Limits: tc.limits})
				require.NoError(t, err)
				assert.Equal(t, tc.want, res.Status, "detail %q stderr %q", res.Detail, res.Stderr)
				assert.Regexp(t, regexp.MustCompile(`^(`+tc.detail+`)$`), res.Detail)
				assert.Greater(t, res.CPUTime, time.Duration(0), "the job's CPU time")
				if tc.check != nil {
					tc.check(t, res)
				}
				assert.Empty(t, processesWith(m), "processes left behind")
			})
		}
	}
}
