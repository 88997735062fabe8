package solution

import "golang.org/x/exp/slices"

// Job is a unit of work in a queue.
type Job struct {
	ID      int
	Payload []byte
}

// RemoveAt removes the job at index i from jobs and returns the shortened
// slice. The slots of the backing array past the new length must not keep
// pointers to jobs, so that removed jobs can be garbage collected.
func RemoveAt(jobs []*Job, i int) []*Job {
	return slices.Delete(jobs, i, i+1)
}
