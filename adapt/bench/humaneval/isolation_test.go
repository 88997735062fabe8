package humaneval_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// TestIsolationCoversAll: every HumanEval task runs its answers in a
// process of their own. With IsolationRequired the first check of each
// task runs its reference in-process and isolated and compares the
// verdicts of every test (a task whose verdicts differ is an error); then
// the canonical solutions all pass isolated.
func TestIsolationCoversAll(t *testing.T) {
	tasks, err := humaneval.LoadFile(dataFile(t))
	require.NoError(t, err)
	require.Len(t, tasks, 164)
	start := time.Now()
	rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{Runner: forkServer(t), NoGold: true,
		Isolation: adapt.IsolationRequired})
	require.NoError(t, err)
	p1, _ := rep.Score(1)
	assert.Equal(t, 1.0, p1, "outcomes %v, invalid %v", rep.Outcomes, rep.Invalid)
	isolated := 0
	for _, tr := range rep.PerTask {
		for _, s := range tr.Samples {
			if s.Isolation == "process" {
				isolated++
			} else {
				t.Errorf("%s: isolation %q", tr.TaskID, s.Isolation)
			}
		}
	}
	assert.Equal(t, 164, isolated, "samples run isolated")
	t.Logf("164 tasks, verdicts identical both ways, isolated in %v", time.Since(start))
}

// BenchmarkIsolation measures the CPU of one check of a canonical solution
// in-process and isolated, on the fork server, in the same run: the job's
// whole process tree (the tests' process and the answer's), each task's
// isolation decision made before the clock starts. Reported:
// cpu-ms/check of each, and their ratio (x-cpu) in the isolated one.
func BenchmarkIsolation(b *testing.B) {
	tasks, err := humaneval.LoadFile(dataFile(b))
	require.NoError(b, err)
	if testing.Short() {
		tasks = tasks[:40]
	}
	fs := forkServer(b)
	ctx := context.Background()
	var inProcess float64
	for _, mode := range []adapt.Isolation{adapt.IsolationOff, adapt.IsolationRequired} {
		name := map[adapt.Isolation]string{adapt.IsolationOff: "in-process", adapt.IsolationRequired: "isolated"}[mode]
		b.Run(name, func(b *testing.B) {
			tm := &timing{r: fs}
			chk := &adapt.Checker{Runner: tm, Isolation: mode}
			for i := range tasks {
				_, err := chk.Check(ctx, &tasks[i], adapt.Answer{Code: tasks[i].Reference})
				require.NoError(b, err)
			}
			tm.cpu.Store(0)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t := &tasks[i%len(tasks)]
				res, err := chk.Check(ctx, t, adapt.Answer{Code: t.Reference})
				if err != nil || res.Outcome != report.OutcomePassed {
					b.Fatalf("%s: %v %v", t.ID, res.Outcome, err)
				}
			}
			ms := float64(tm.cpu.Load()) / 1e6 / float64(b.N)
			b.ReportMetric(ms, "cpu-ms/check")
			if mode == adapt.IsolationOff {
				inProcess = ms
			} else if inProcess > 0 {
				b.ReportMetric(ms/inProcess, "x-cpu")
			}
		})
	}
}
