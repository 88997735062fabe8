// Package jobkit is what exec, exec/sandbox and exec/exectest share about
// a job: the capture of its output, the uids it runs as, and the Python
// reporters that run inside it.
//
// # Output capture
//
// [Buffer] keeps what a job writes to its standard output and error
// within a [Budget]: the sandbox's runs and the drivers' build steps share
// it.
//
// # Job uids
//
// [FirstUID] and [UIDCount] are the block of host uids the sandbox's jobs
// run as when the caller is root: each init (one job at a time) takes one
// of its own while it lives, so that concurrent jobs share no per-user
// kernel budget. The block is one systemd leaves unused. exectest looks
// for what a job user left on the host in the same block.
//
// # Python reporters
//
// [UnittestReporter] and [PytestReporter] are the Python drivers'
// reporters: the programs that run unittest or pytest inside the sandbox
// and send each event on the results channel. exec's drivers run them;
// the sandbox's fork server compiles them once per server, so that a
// driver's job skips that step.
package jobkit
