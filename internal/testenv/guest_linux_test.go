package testenv

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/exec/exectest"
)

// guestTests are exec/sandbox's tests run in the guest: the limits the cgroups
// enforce, with their verdicts, details and figures (TestLimitVerdicts,
// which also checks that the sandbox uses cgroup v2 there), and the
// containment of hostile jobs (a fork bomb, a busy loop, a sleeper, an
// output flood, a write outside the workspace, a daemon). Code runs 10-20
// times slower under TCG, and CPU times in the guest grow with the host's
// load (see scripts/cgroup2-guest.sh): the suite stays small, and leaves
// out the cases whose default 10s CPU limit a slow guest can reach before
// the verdict they expect (TestSandboxAdversarial's memory bomb and
// TestForkServerOOMIsMemory; TestLimitVerdicts's memory case stands in,
// with room to spare). The job limits' attacks (memory split across
// processes, CPU time deep in the tree, a job taking the user's inotify
// instances) and their honest counterparts run too: the user's jobs all
// run as uid 1000 there.
var guestTests = []string{"TestLimitVerdicts", "TestSandboxAdversarial", "TestJobMemoryAcrossProcesses",
	"TestJobMemorySharedCountedOnce", "TestJobMemoryVforkCountedOnce", "TestJobCPUHiddenDeep", "TestJobKernelBudgets"}

const guestSubtests = "Sandbox|ForkServer|fork_bomb|infinite_loop|sleep_forever|100_MB_to_stdout|" +
	"write_outside_the_workspace|double_fork_ignoring_SIGTERM"

// runScript runs in the guest as root from the share (/mnt/host): each
// suite's output goes to NAME.out, its exit status to NAME.status and its
// start and end (seconds since the guest's boot) to NAME.time. The user's
// suite runs in a scope of uid 1000's user manager with Delegate=yes, the
// subtree user@.service delegates (cpu, memory, pids).
const runScript = `#!/bin/sh
cd /mnt/host || exit
cut -d' ' -f1 /proc/uptime >boot.time
export ADAPTBENCH_REQUIRE_SANDBOX=1 ADAPTBENCH_CGROUP_VERSION=2
args="-test.run '%s' -test.v -test.count=1 -test.timeout=20m"
suite() {
	name=$1
	shift
	start=$(cut -d' ' -f1 /proc/uptime)
	"$@" >"$name.out" 2>&1
	echo $? >"$name.status"
	echo "$start $(cut -d' ' -f1 /proc/uptime)" >"$name.time"
}
suite root sh -c "cat /proc/self/cgroup; exec ./sandbox.test $args"
i=0
until systemctl -q is-active user@1000.service || [ $i -ge 120 ]; do sleep 1; i=$((i + 1)); done
suite user runuser -u tester -- env HOME=/home/tester XDG_RUNTIME_DIR=/run/user/1000 \
	systemd-run --user --scope --quiet -p Delegate=yes -- sh -c "cat /proc/self/cgroup; exec /mnt/host/sandbox.test $args"
`

// TestCgroup2Guest runs exec/sandbox's limit and containment tests on a cgroup-v2
// host: a Debian 12 guest under QEMU, as root and as an ordinary user under
// systemd's delegation, and fails when either suite fails. It logs how long
// each step took (run with -v to see them). Without QEMU or mmdebstrap it is
// skipped, or fails under ADAPTBENCH_REQUIRE_SANDBOX=1.
func TestCgroup2Guest(t *testing.T) {
	if testing.Short() {
		t.Skip("boots a QEMU guest (1-5 min)")
	}
	for _, tool := range []string{"qemu-system-x86_64", "mmdebstrap", "busybox", "mke2fs"} {
		if _, err := osexec.LookPath(tool); err != nil {
			exectest.SkipWithout(t, "no %s for the cgroup-v2 guest: apt-get install qemu-system-x86 mmdebstrap busybox-static e2fsprogs", tool)
		}
	}
	if os.Geteuid() != 0 {
		exectest.SkipWithout(t, "building the cgroup-v2 guest's image needs root (mmdebstrap --mode=root)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(root, "scripts", "cgroup2-guest.sh")
	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-30*time.Second))
		defer cancel()
	}

	start := time.Now()
	image := run(t, ctx, root, script, "image")
	t.Logf("image %s: %s (built, or found in the cache)", strings.TrimSpace(image), since(start))

	share := t.TempDir()
	start = time.Now()
	build := osexec.CommandContext(ctx, "go", "test", "-c", "-ldflags=-w", "-o", filepath.Join(share, "sandbox.test"), "./exec/sandbox")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build exec/sandbox's tests: %v\n%s", err, out)
	}
	t.Logf("static build of exec/sandbox's tests: %s", since(start))
	if err := os.WriteFile(filepath.Join(share, "run.sh"), []byte(fmt.Sprintf(runScript, "^("+strings.Join(guestTests, "|")+")$/^("+guestSubtests+")$")), 0o755); err != nil {
		t.Fatal(err)
	}

	start = time.Now()
	out, err := boot(ctx, script, share)
	console, _ := os.ReadFile(filepath.Join(share, "console.log"))
	if ctx.Err() != nil {
		err = fmt.Errorf("%w (stopped at the test's deadline, after %s)", err, since(start))
	}
	if err != nil {
		t.Fatalf("QEMU: %v\n%s\nconsole (last 4 KiB):\n%s", err, out, tail(console, 4096))
	}
	t.Logf("guest (boot, suites, poweroff): %s", since(start))
	if b, err := os.ReadFile(filepath.Join(share, "boot.time")); err == nil {
		t.Logf("  boot to run.sh: %ss", strings.TrimSpace(string(b)))
	} else {
		log, _ := os.ReadFile(filepath.Join(share, "run.log"))
		t.Fatalf("the guest did not run run.sh\nrun.log: %s\nconsole (last 4 KiB):\n%s", log, tail(console, 4096))
	}
	for _, suite := range []string{"root", "user"} {
		checkSuite(t, share, suite)
	}
}

// checkSuite logs a guest suite's time and fails the test, with the
// suite's output, when it did not pass.
func checkSuite(t *testing.T, share, name string) {
	t.Helper()
	read := func(ext string) string {
		b, _ := os.ReadFile(filepath.Join(share, name+ext))
		return strings.TrimSpace(string(b))
	}
	if f := strings.Fields(read(".time")); len(f) == 2 {
		a, _ := strconv.ParseFloat(f[0], 64)
		b, _ := strconv.ParseFloat(f[1], 64)
		t.Logf("  %s suite: %.1fs", name, b-a)
	}
	out := read(".out")
	for _, line := range strings.Split(out, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "--- PASS") || strings.HasPrefix(l, "--- FAIL") || strings.HasPrefix(l, "--- SKIP") {
			t.Logf("    %s", line)
		}
	}
	switch status := read(".status"); {
	case status == "":
		t.Errorf("%s suite did not finish:\n%s", name, out)
	case status != "0":
		t.Errorf("%s suite failed (exit %s):\n%s", name, status, out)
	case !strings.HasSuffix(out, "\nPASS"):
		t.Errorf("%s suite exited 0 without PASS:\n%s", name, out)
	case strings.Contains(out, "--- SKIP"):
		t.Errorf("%s suite skipped tests: a skip here hides an untested path:\n%s", name, out)
	}
	for _, test := range guestTests {
		if !strings.Contains(out, "--- PASS: "+test+" ") {
			t.Errorf("%s suite: %s did not pass", name, test)
		}
	}
}

// run runs the script with args and returns its standard output.
func run(t *testing.T, ctx context.Context, dir, script string, args ...string) string {
	t.Helper()
	cmd := osexec.CommandContext(ctx, script, args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", script, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// boot runs the guest to its poweroff; QEMU, in a process group of its own,
// is killed when ctx ends.
func boot(ctx context.Context, script, share string) ([]byte, error) {
	cmd := osexec.CommandContext(ctx, script, "boot", share)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	return cmd.CombinedOutput()
}

func since(t time.Time) time.Duration { return time.Since(t).Round(100 * time.Millisecond) }

func tail(b []byte, n int) []byte { return b[max(0, len(b)-n):] }
