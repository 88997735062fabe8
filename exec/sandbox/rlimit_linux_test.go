package sandbox_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// TestInitUnderAddressSpaceLimit starts jobs whose memory limit only
// RLIMIT_AS enforces (no cgroups), with a large environment, many times.
// The init is a Go program whose address space is already larger than the
// limit (the Go runtime reserves over a GiB), so the init must not need a
// new mapping once the limit is set: it sets the rlimits last, just before
// it starts the command, with the heap it needs already in hand. Before,
// it set them first and then built the seccomp filter and the command's
// environment, and died with "fatal error: runtime: out of memory" when
// that took a fresh heap span.
func TestInitUnderAddressSpaceLimit(t *testing.T) {
	exectest.Sandbox(t) // skips (or fails, under ADAPTBENCH_REQUIRE_SANDBOX) without a sandbox
	sb, err := sandbox.New(&sandbox.Config{NoCgroups: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	var env []string
	for i := range 12 {
		env = append(env, fmt.Sprintf("BIG%d=%s", i, strings.Repeat("x", 100<<10)))
	}
	for i := range 20 {
		res, err := sb.Run(context.Background(), exec.Job{Args: []string{"/bin/true"}, Env: env,
			Limits: exec.Limits{Memory: 64 * exec.MiB}})
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if res.Status != exec.StatusOK || res.ExitCode != 0 {
			t.Fatalf("run %d: %v (exit %d): %s", i, res.Status, res.ExitCode, res.Detail)
		}
	}
}
