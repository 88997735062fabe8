// Package jobuid is the block of host uids the sandbox's jobs run as when
// the caller is root: each init (one job at a time) takes one of its own
// while it lives, so that concurrent jobs share no per-user kernel budget.
// The block is one systemd leaves unused. exectest looks for what a job
// user left on the host in the same block.
package jobuid

const (
	// First is the first uid of the block.
	First = 1879048192
	// Count is how many uids the block holds.
	Count = 65536
)
