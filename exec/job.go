package exec

import (
	"context"
	"io"
	"os"
	"syscall"
	"time"
)

// Runner runs one job and returns its verdict. A verdict about the code under
// test (a failure, a limit, a crash) is a Result with a nil error; a non-nil
// error means the runner itself failed, and the Result then has
// StatusInternal (or StatusCanceled when ctx ended first).
//
// When Run returns, for any reason, every process the job started is gone.
type Runner interface {
	Run(ctx context.Context, job Job) (Result, error)
}

// RunnerFunc adapts a function to the Runner interface.
type RunnerFunc func(ctx context.Context, job Job) (Result, error)

// Run calls f(ctx, job).
func (f RunnerFunc) Run(ctx context.Context, job Job) (Result, error) { return f(ctx, job) }

// WorkDir is where the workspace appears inside a Sandbox. Paths in a
// job's Args that point into the workspace should use it, so that messages
// (tracebacks, compiler errors) read the same on every machine and run.
const WorkDir = "/tmp/work"

// Job describes one process to run. A Job is plain data; it may be run many
// times, but its Stdin reader, if any, is consumed by the first run.
type Job struct {
	// Dir is the workspace on the host: the only place the job may write
	// besides its private /tmp. Inside a Sandbox it is mounted at WorkDir and
	// is the working directory. Empty means a fresh empty directory that is
	// removed after the run.
	Dir string
	// Args is the command line; Args[0] is looked up in the sandbox's PATH
	// unless it contains a slash.
	Args []string
	// Env holds extra KEY=VALUE entries for the job. The job's environment is
	// the runner's small base (PATH, HOME, LANG, TMPDIR) plus these, never
	// the caller's environment: secrets do not leak into untrusted code.
	Env []string
	// Stdin is the job's standard input; nil means empty.
	Stdin io.Reader
	// Stdout, if set, receives the job's standard output as it is written,
	// instead of Result.Stdout, and does not count against Limits.Output:
	// for long-running jobs that speak a protocol.
	Stdout io.Writer
	// Limits bounds the job; zero fields take the documented defaults.
	Limits Limits
	// ReadOnly names host paths (directories or files, absolute) the job
	// may read besides the Sandbox's minimal root, at the same paths, with
	// no write, set-uid or device access: an environment's interpreter
	// and libraries outside /usr, say. Unsandboxed jobs see everything.
	ReadOnly []string

	// Results, when set, is the write end of a pipe the job gets as its
	// descriptor 3: the Python drivers' results channel, which no path in
	// the job's file system reaches. A runner that cannot pass a
	// descriptor leaves it alone; the drivers then read a results file.
	// The ForkServer gives its child a pipe of the server's and writes
	// what came on it here.
	Results *os.File
}

// Limits bounds the resources of one job. Each zero field means the default
// given in its comment. To lift a limit on purpose, set a Duration or a
// count to a negative value, or a Size to Unlimited.
type Limits struct {
	// CPUTime bounds the CPU time of all the job's processes together.
	// 0 means 10s.
	CPUTime time.Duration
	// WallTime bounds the elapsed time. 0 means 2×CPUTime + 1s, so that a
	// busy machine does not turn a CPU-bound job into a wall-time verdict.
	WallTime time.Duration
	// Memory bounds the memory of all the job's processes together (a
	// memory cgroup where the machine has one, else the sum of their
	// proportional set sizes read while the job runs, and the address
	// space of each process). 0 means 1GiB.
	Memory Size
	// Processes bounds how many processes (and threads) the job may have at
	// once. 0 means 128.
	Processes int
	// Output bounds the bytes written to stdout and stderr together; the job
	// is stopped when it writes more. 0 means 16MiB.
	Output Size
	// Keep is how much of each stream the Result keeps: the first and the
	// last Keep/2 bytes. 0 means 64KiB.
	Keep Size
	// FileSize bounds the size of any one file the job writes. 0 means 64MiB.
	FileSize Size
	// TmpSize bounds the private /tmp of a Sandbox job. 0 means 64MiB.
	TmpSize Size
	// Disk bounds what a job may keep in its workspace, and DiskFiles how
	// many files and directories: the Sandbox runs the job on a copy of
	// Job.Dir in a tmpfs of that size and copies back what the job left
	// (where the caller is root; otherwise only FileSize bounds it). A job
	// that fails with its workspace full gets StatusOutput. The ForkServer
	// gives its jobs one tmpfs of TmpSize+Disk for /tmp and the workspace.
	// 0 means 256MiB and 20000.
	Disk      Size
	DiskFiles int
	// OpenFiles bounds the number of open descriptors per process. 0 means 256.
	OpenFiles int
}

// Unlimited lifts a Size limit when set explicitly.
const Unlimited = ^Size(0)

// set reports whether a Size limit applies.
func (z Size) set() bool { return z != 0 && z != Unlimited }

// WithDefaults returns the limits a job given l runs under: l with each
// zero field set to its default.
func (l Limits) WithDefaults() Limits {
	if l.CPUTime == 0 {
		l.CPUTime = 10 * time.Second
	}
	if l.WallTime == 0 {
		if l.CPUTime > 0 {
			l.WallTime = 2*l.CPUTime + time.Second
		} else {
			l.WallTime = 30 * time.Second
		}
	}
	if l.Memory == 0 {
		l.Memory = GiB
	}
	if l.Processes == 0 {
		l.Processes = 128
	}
	if l.Output == 0 {
		l.Output = 16 * MiB
	}
	if l.Keep == 0 {
		l.Keep = 64 * KiB
	}
	if l.FileSize == 0 {
		l.FileSize = 64 * MiB
	}
	if l.TmpSize == 0 {
		l.TmpSize = 64 * MiB
	}
	if l.OpenFiles == 0 {
		l.OpenFiles = 256
	}
	if l.Disk == 0 {
		l.Disk = 256 * MiB
	}
	if l.DiskFiles == 0 {
		l.DiskFiles = 20000
	}
	return l
}

// Result is what one run produced.
type Result struct {
	// Status is the verdict.
	Status Status `json:"status"`
	// ExitCode is the process's exit code, or -1 when it did not exit
	// normally.
	ExitCode int `json:"exit_code"`
	// Signal is the signal that killed the process, or 0.
	Signal syscall.Signal `json:"signal,omitempty"`
	// Stdout and Stderr hold what the job wrote, cut to the first and last
	// Limits.Keep/2 bytes with a marker line in between when longer.
	Stdout []byte `json:"stdout,omitempty"`
	Stderr []byte `json:"stderr,omitempty"`
	// OutputBytes is how many bytes the job wrote to stdout and stderr in
	// all, including what was not kept.
	OutputBytes int64 `json:"output_bytes"`
	// CPUTime is the user+system CPU time of all the job's processes.
	CPUTime time.Duration `json:"cpu_time"`
	// WallTime is the elapsed time from start to the end of the last process.
	WallTime time.Duration `json:"wall_time"`
	// PeakMemory is the highest memory use seen (the cgroup's peak where
	// there is one, else the largest resident set of a single process).
	PeakMemory Size `json:"peak_memory"`
	// Detail says in words why the verdict is what it is, for reports.
	Detail string `json:"detail,omitempty"`
	// NotCopied counts the entries a job left in its workspace that were
	// not copied back to Job.Dir, and names the first 20: a FIFO or a
	// socket; in the ForkServer also links and anything past its 8 MiB
	// copy-back cap.
	NotCopied      int      `json:"not_copied,omitempty"`
	NotCopiedFiles []string `json:"not_copied_files,omitempty"`
}

// Passed reports whether the job exited 0 within its limits.
func (r Result) Passed() bool { return r.Status == StatusOK }
