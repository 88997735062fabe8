package adapt_test

import (
	"context"
	"fmt"
	osexec "os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/demo"
	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// TestVerdictsUnderLoad: a busy machine does not change verdicts. The
// reference answers of the demo benchmark and of 40 HumanEval problems
// run under a tight wall-time limit, on a quiet machine and then beside
// six busy loops on the machine's CPUs; the outcomes are the same, sample
// for sample. Before, runs starved by the busy loops came back as
// timeouts (a wall-time verdict that measured the machine).
func TestVerdictsUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the reference set twice, once beside six busy loops")
	}
	tasks, err := demo.Tasks()
	require.NoError(t, err)
	he, err := humaneval.LoadFile(testenv.DataPath(t, "humaneval/HumanEval.jsonl.gz"))
	require.NoError(t, err)
	tasks = append(tasks, he[:40]...)
	// A wall-time limit short enough that a starved run meets it: every
	// reference here needs a fraction of it on a quiet machine.
	opts := adapt.Options{Runner: exectest.Sandbox(t), NoGold: true,
		Limits: exec.Limits{CPUTime: 10 * time.Second, WallTime: 700 * time.Millisecond}}
	outcomes := func() map[string]report.Outcome {
		o := opts
		rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &o)
		require.NoError(t, err)
		got := map[string]report.Outcome{}
		for _, tr := range rep.PerTask {
			for i, s := range tr.Samples {
				got[fmt.Sprintf("%s#%d", tr.TaskID, i)] = s.Outcome
				if s.Outcome != report.OutcomePassed {
					t.Logf("%s: %s: %s", tr.TaskID, s.Outcome, s.Detail)
				}
			}
		}
		return got
	}
	start := time.Now()
	quiet := outcomes()
	t.Logf("quiet: %d samples in %v", len(quiet), time.Since(start).Round(time.Millisecond))

	var hogs []*osexec.Cmd
	defer func() {
		for _, h := range hogs {
			h.Process.Kill()
			h.Wait()
		}
	}()
	for range 6 {
		h := osexec.Command("sh", "-c", "while :; do :; done")
		h.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		require.NoError(t, h.Start())
		hogs = append(hogs, h)
	}
	start = time.Now()
	busy := outcomes()
	t.Logf("beside 6 busy loops: %d samples in %v", len(busy), time.Since(start).Round(time.Millisecond))
	assert.Equal(t, quiet, busy, "the same outcomes on a busy machine")
	for k, o := range quiet {
		assert.Equal(t, report.OutcomePassed, o, "%s: the reference passes", k)
	}
}
