package adapt_test

import (
	"context"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/demo"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// BenchmarkHarnessOverhead evaluates the embedded demo benchmark with the
// Reference model, one check at a time, and reports the share of the wall time that
// is the harness's own (prompts, extraction, tree-sitter splicing,
// workspaces, journal, report) rather than running tests: the baseline is
// the time spent in the test drivers in the same run.
func BenchmarkHarnessOverhead(b *testing.B) {
	tasks, err := demo.Tasks()
	if err != nil {
		b.Fatal(err)
	}
	runner := newSandbox(b)
	var wall, tested time.Duration
	var checks int
	for b.Loop() {
		var last report.Progress
		start := time.Now()
		_, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{
			Runner: runner, Parallelism: 1, ModelConcurrency: 1,
			Journal:  b.TempDir() + "/j.jsonl",
			Progress: func(p report.Progress) { last = p },
		})
		if err != nil {
			b.Fatal(err)
		}
		wall += time.Since(start)
		tested += last.TestTime
		checks += last.Done
	}
	b.ReportMetric(100*float64(wall-tested)/float64(wall), "overhead-%")
	b.ReportMetric(float64(wall-tested)/float64(time.Millisecond)/float64(checks), "overhead-ms/check")
	b.ReportMetric(float64(tested)/float64(time.Millisecond)/float64(checks), "test-ms/check")
}
