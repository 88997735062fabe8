package humaneval_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/exec"
)

// timing records how long the runner spent on each check, by verdict.
type timing struct {
	r        exec.Runner
	mu       sync.Mutex
	okTime   time.Duration
	okCount  int
	badCount int
	cpu      atomic.Int64
}

func (t *timing) Run(ctx context.Context, j exec.Job) (exec.Result, error) {
	start := time.Now()
	res, err := t.r.Run(ctx, j)
	d := time.Since(start)
	t.cpu.Add(int64(res.CPUTime))
	t.mu.Lock()
	if res.Status == exec.StatusOK {
		t.okTime += d
		t.okCount++
	} else {
		t.badCount++
	}
	t.mu.Unlock()
	return res, err
}

// hostile answers with the reference, except every tenth sample, which is
// a loop, a memory bomb, a fork bomb or an output flood in turn.
type hostile struct{ n atomic.Int64 }

func (h *hostile) Name() string { return "hostile-mix" }
func (h *hostile) Complete(ctx context.Context, req adapt.Request) ([]adapt.Completion, error) {
	out, err := adapt.Reference.Complete(ctx, req)
	if err != nil {
		return nil, err
	}
	for i := range out {
		k := h.n.Add(1)
		if k%10 != 3 {
			continue
		}
		body := [...]string{
			"while True:\n        pass",
			"x = []\n    while True:\n        x.append(bytearray(32 << 20))",
			"import os\n    while True:\n        try:\n            os.fork()\n        except OSError:\n            pass",
			"import sys\n    while True:\n        sys.stdout.write('x' * 65536)",
		}[(k/10)%4]
		out[i].Text = fmt.Sprintf("```python\ndef %s(*args, **kwargs):\n    %s\n```\n", req.Task.Target.Function, body)
	}
	return out, nil
}

// BenchmarkThroughput evaluates 820 HumanEval samples (the 164 canonical
// solutions, 5 samples each) through adapt.Evaluate with every check in the
// sandbox: clean (Reference), then a hostile mix in which every tenth
// sample attacks. Reported: samples/s (clean), CPU ms per sample, and the
// rate of correct samples per worker-second in each run.
func BenchmarkThroughput(b *testing.B) {
	tasks, err := humaneval.LoadFile(dataFile(b))
	if err != nil {
		b.Fatal(err)
	}
	fs := forkServer(b)
	// Per check: 1 s of CPU for the whole process tree, 128 MiB of address
	// space (ample for every canonical solution; a memory bomb faults in its
	// whole allowance, and that kernel work slows the other core in
	// proportion: the correct samples beside 82 memory bombs keep 0.65 of
	// their clean rate at 128 MiB, 0.46 at 256 MiB, 0.20 at 512 MiB), 32
	// processes, 1 MiB of output. The wall limit is only a backstop.
	limits := exec.Limits{CPUTime: time.Second, WallTime: 10 * time.Second, Memory: 128 * exec.MiB, Processes: 32, Output: exec.MiB}
	run := func(m adapt.Model) (*adapt.Report, *timing, time.Duration) {
		tm := &timing{r: fs}
		start := time.Now()
		rep, err := adapt.Evaluate(context.Background(), tasks, m, &adapt.Options{Runner: tm, Samples: 5, NoGold: true, Limits: limits, ModelConcurrency: 8})
		if err != nil {
			b.Fatal(err)
		}
		return rep, tm, time.Since(start)
	}
	var clean, mixed time.Duration
	var cleanT, mixedT *timing
	for b.Loop() {
		rep, tm, d := run(adapt.Reference)
		if p, _ := rep.Score(1); p != 1 {
			b.Fatalf("clean pass@1 = %v, outcomes %v", p, rep.Outcomes)
		}
		clean, cleanT = clean+d, tm
		rep, tm, d = run(&hostile{})
		mixed, mixedT = mixed+d, tm
		bad := 0
		for o, n := range rep.Outcomes {
			if o != adapt.OutcomePassed {
				bad += n
			}
			_ = o
		}
		if rep.Outcomes[adapt.OutcomePassed] != 820-82 || bad != 82 {
			b.Fatalf("hostile mix: outcomes %v (want 738 passed, 82 hostile)", rep.Outcomes)
		}
		var kinds []string
		for _, o := range adapt.Outcomes {
			if n := rep.Outcomes[o]; n > 0 && o != adapt.OutcomePassed {
				kinds = append(kinds, fmt.Sprintf("%s=%d", o, n))
			}
		}
		b.Logf("hostile verdicts: %s", strings.Join(kinds, " "))
	}
	n := float64(b.N)
	b.ReportMetric(820*n/clean.Seconds(), "samples/s")
	b.ReportMetric(float64(cleanT.cpu.Load())/1e6/820, "cpu-ms/sample")
	cleanRate := float64(cleanT.okCount) / cleanT.okTime.Seconds()
	mixedRate := float64(mixedT.okCount) / mixedT.okTime.Seconds()
	b.ReportMetric(cleanRate, "clean-ok/worker-s")
	b.ReportMetric(mixedRate, "hostile-ok/worker-s")
	b.ReportMetric(mixedRate/cleanRate, "x-clean")
	b.ReportMetric(820*n/mixed.Seconds(), "hostile-samples/s")
}
