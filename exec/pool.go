package exec

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

// DefaultParallelism is how many jobs run at once when a caller does not
// say: one per CPU. Verdicts rest on CPU time, which contention does not
// inflate, but wall-time limits (2×CPU time + 1s by default) and the
// machine's memory are shared, so running more jobs than CPUs buys little
// and risks wall-time verdicts caused by load rather than by the code.
func DefaultParallelism() int { return runtime.NumCPU() }

// Limited returns a Runner that lets at most n jobs of r run at once; the
// others wait (and give up when their context ends). n <= 0 means
// DefaultParallelism().
func Limited(r Runner, n int) Runner {
	if n <= 0 {
		n = DefaultParallelism()
	}
	sem := semaphore.NewWeighted(int64(n))
	return RunnerFunc(func(ctx context.Context, job Job) (Result, error) {
		if err := sem.Acquire(ctx, 1); err != nil {
			return Result{Status: StatusCanceled, ExitCode: -1}, err
		}
		defer sem.Release(1)
		return r.Run(ctx, job)
	})
}

// JobResult is the result of one job of RunAll.
type JobResult struct {
	Result Result
	Err    error
}

// RunAll runs every job with r, at most parallelism at once (<= 0 means
// DefaultParallelism()), and returns the outcomes in the order of jobs. A
// job's error does not stop the others; cancel ctx to stop them all.
func RunAll(ctx context.Context, r Runner, jobs []Job, parallelism int) []JobResult {
	if parallelism <= 0 {
		parallelism = DefaultParallelism()
	}
	out := make([]JobResult, len(jobs))
	var g errgroup.Group
	g.SetLimit(parallelism)
	for i, j := range jobs {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				out[i] = JobResult{Result{Status: StatusCanceled, ExitCode: -1}, err}
				return nil
			}
			res, err := r.Run(ctx, j)
			out[i] = JobResult{res, err}
			return nil
		})
	}
	g.Wait()
	return out
}
