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
// in-process and isolated, on the fork server: the job's whole process
// tree (the tests' process and the answer's), each task's isolation
// decision made before the clock starts. Each iteration checks one task
// both ways, one after the other, so that on a shared machine both see
// the same load. Reported: cpu-ms/check of each (in-process-cpu-ms,
// isolated-cpu-ms) and their ratio (x-cpu).
func BenchmarkIsolation(b *testing.B) {
	tasks, err := humaneval.LoadFile(dataFile(b))
	require.NoError(b, err)
	if testing.Short() {
		tasks = tasks[:40]
	}
	fs := forkServer(b)
	ctx := context.Background()
	modes := []adapt.Isolation{adapt.IsolationOff, adapt.IsolationRequired}
	var tm [2]*timing
	var chk [2]*adapt.Checker
	for m, mode := range modes {
		tm[m] = &timing{r: fs}
		chk[m] = &adapt.Checker{Runner: tm[m], Isolation: mode}
		for i := range tasks {
			_, err := chk[m].Check(ctx, &tasks[i], adapt.Answer{Code: tasks[i].Reference})
			require.NoError(b, err)
		}
		tm[m].cpu.Store(0)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := &tasks[i%len(tasks)]
		for m := range modes {
			// Which goes first alternates: neither always follows the other.
			m = (m + i) % 2
			res, err := chk[m].Check(ctx, t, adapt.Answer{Code: t.Reference})
			if err != nil || res.Outcome != report.OutcomePassed {
				b.Fatalf("%s: %v %v", t.ID, res.Outcome, err)
			}
		}
	}
	in := float64(tm[0].cpu.Load()) / 1e6 / float64(b.N)
	iso := float64(tm[1].cpu.Load()) / 1e6 / float64(b.N)
	b.ReportMetric(in, "in-process-cpu-ms")
	b.ReportMetric(iso, "isolated-cpu-ms")
	b.ReportMetric(iso/in, "x-cpu")
}
