package sandbox_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// TestAsOrdinaryUser reruns the sandbox's limit and containment tests as
// uid 65534, with no cgroup access (this machine's cgroups are root's): the
// limits rest on rlimits and on the job's processes read from its PID
// namespace's /proc, and every verdict is the one root gets. Before, the
// first job panicked (a nil job cgroup); and memory, CPU time at depth
// and the kernel's per-user budgets held per process or per user, not
// per job.
func TestAsOrdinaryUser(t *testing.T) {
	testenv.RunUnprivileged(t,
		"TestSandboxIsolation",
		"TestSandboxAdversarial", // memory, CPU time, wall time, a fork bomb, output, writes, a daemon
		"TestSandboxProcessLimit",
		"TestSandboxCancel",
		"TestSandboxWorkspace",
		"TestSandboxEnvironmentAllowList",
		"TestJobLoopback",
		"TestJobSeesAMinimalRoot",
		"TestJobHasNoPrivilege",
		"TestHostNeverFollowsJobPaths",
		"TestNothingKeptBetweenJobs",
		"TestForkServerVerdicts",
		"TestForkServerJobStopsItsServer",
		"TestNoUserNamespaces",
		// Limits per job, not per process or per user (rlimits alone
		// held each process apart).
		"TestJobMemoryAcrossProcesses",
		"TestJobMemorySharedCountedOnce",
		"TestJobMemoryVforkCountedOnce",
		"TestJobCPUHiddenDeep",
		"TestJobKernelBudgets",
	)
}

// TestSandboxIsolation: the runner says what is in force, and it is what
// the caller's privilege allows.
func TestSandboxIsolation(t *testing.T) {
	sb := newSandbox(t)
	iso := sb.Isolation()
	t.Logf("Isolation: %s; Cgroups: %s", iso, sandbox.Cgroups(sb))
	if os.Geteuid() == 0 {
		assert.Contains(t, iso, "user namespaces, seccomp, a host uid per job;")
	} else {
		assert.Contains(t, iso, "user namespaces, seccomp, the caller's uid;")
	}
	if strings.HasSuffix(iso, "; rlimits only") {
		assert.Contains(t, sandbox.Cgroups(sb), "no usable memory cgroup")
		assert.Contains(t, sandbox.Cgroups(sb), "no usable pids cgroup")
	}
	assert.True(t, strings.HasPrefix(sandbox.NewUnsandboxed(nil).Isolation(), "none (unsandboxed); "))
}

// TestSandboxProcessLimit: a job forks sleeping children until it cannot;
// the process limit holds (a pids cgroup, or RLIMIT_NPROC counted in the
// job's own user namespace, not the caller's whole budget), and the next
// job is not short of processes.
func TestSandboxProcessLimit(t *testing.T) {
	exectest.RequirePython(t, false)
	sb := newSandbox(t)
	prog := `import os, time
n = 0
for _ in range(200):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    n += 1
print(n)
`
	const limit = 16
	for range 2 {
		res, err := sb.Run(context.Background(), exec.Job{Args: []string{python, "-c", prog}, Limits: exec.Limits{Processes: limit, WallTime: 20 * time.Second}})
		require.NoError(t, err)
		require.Equal(t, exec.StatusOK, res.Status, "%s: %s", res.Detail, res.Stderr)
		n, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
		require.NoError(t, err, "%q", res.Stdout)
		// One to spare: the runner allows for a thread the init's Go
		// runtime may start while the job runs.
		assert.LessOrEqual(t, n, limit+1, "children forked under a limit of %d processes", limit)
		assert.GreaterOrEqual(t, n, limit-4, "the job's own budget: nothing else counts against it")
	}
}
