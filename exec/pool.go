package exec

import "runtime"

// DefaultParallelism is how many jobs run at once when a caller does not
// say: one per CPU. Verdicts rest on CPU time, which contention does not
// inflate, but wall-time limits (2×CPU time + 1s by default) and the
// machine's memory are shared, so running more jobs than CPUs buys little
// and risks wall-time verdicts caused by load rather than by the code.
func DefaultParallelism() int { return runtime.NumCPU() }
