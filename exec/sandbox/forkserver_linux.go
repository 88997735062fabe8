package sandbox

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/internal/jobkit"
)

//go:embed forkserver.py
var forkServerScript string

// DefaultPreload lists the modules a ForkServer imports once, so that the
// jobs it forks find them loaded: the test drivers' and the common standard
// library's. It leaves out modules that import threading (logging,
// unittest.mock with asyncio and ssl): their after-fork handlers and the
// pages they add cost every job forked from the server (about 0.6 ms of
// CPU and 140 page faults per job), whether or not it uses them; a caller
// whose jobs import them adds them (adapt.Evaluate adds what its tasks'
// code imports).
var DefaultPreload = []string{
	"unittest", "json", "re", "math", "collections", "itertools",
	"functools", "typing", "string", "heapq", "bisect", "random", "hashlib",
	"datetime", "decimal", "fractions", "statistics", "copy", "inspect",
	"traceback", "importlib", "dataclasses", "enum", "io",
	"signal", "time", "textwrap", "operator", "array",
}

// ForkServerConfig configures a ForkServer. The zero value is the default.
type ForkServerConfig struct {
	// Python is the interpreter the server runs and the jobs it takes name
	// as their Args[0]. "" means DefaultPython.
	Python string
	// Preload lists the modules to import once. nil means DefaultPreload.
	// With pytest among them, the server also imports pytest's default
	// plugins and reads the installed distributions' entry points once,
	// which pytest.main would do in every job (a job sees no difference:
	// pytest imports those plugins before its assertion-rewriting hook is
	// in place): a pytest job of the driver fixture took 91 ms of CPU
	// instead of 106, median of seven interleaved rounds of 60.
	Preload []string
	// Env holds extra KEY=VALUE entries for the servers' interpreters, in
	// effect while they import Preload: OPENBLAS_NUM_THREADS=1, say, lets
	// numpy be preloaded, as OpenBLAS then starts no threads (a forked
	// child would have none of them). Jobs get their own environment all
	// the same, but what a preloaded module read from it at import stays.
	Env []string
}

// ForkServer is a Runner that runs Python jobs fast: each of its servers is
// a warmed Python interpreter inside its own Sandbox job, which forks a
// child per job instead of starting a new interpreter and a new sandbox.
// Jobs it cannot take (another command, an interpreter flag it does not
// know, a large workspace) run through the Sandbox as usual.
//
// Every job still gets its limits and typed verdicts, and nothing of one
// job reaches the next: the child gets the job's environment and rlimits
// (CPU time, address space, file size, open files) in a fresh /tmp/work
// holding a copy of the job's workspace; the server waits for it no longer
// than the wall limit, then kills every other process of its sandbox,
// copies back the files the job wrote, and wipes /tmp and /dev/shm. The
// server's own sandbox bounds the processes and memory of the job (its
// cgroups), gives it no network and a read-only host. The child is forked
// from a zygote that has never held a job's data, not from the server
// (which is not dumpable), so a job cannot read what earlier jobs ran or
// wrote. A job that kills or stops its server gets a signal or wall-time
// verdict and the server is replaced; one that kills or stops its zygote
// keeps its verdict and the server is replaced after it.
//
// What differs from a fresh interpreter: the preloaded modules are already
// in sys.modules, the hash seed is the server's (the same for every job,
// which only makes runs more repeatable), and memory is bounded per job by
// RLIMIT_AS (a MemoryError is a memory verdict) under the server's memory
// cgroup. RLIMIT_AS counts address space reserved, not used, so a job with
// a memory limit gets one malloc arena and thread stacks of 1 MiB (as many
// threads start as in the Sandbox: 100 under 256 MiB), and a program that
// maps much more than it touches gets the memory verdict sooner than in
// the Sandbox. The job's /tmp and workspace share one tmpfs of
// TmpSize+Disk.
type ForkServer struct {
	sb     *Sandbox
	python string
	pre    []string
	env    []string // the servers' extra environment
	maxIn  exec.Size

	ownsSB bool // Close closes sb (NewPythonRunner)

	mu       sync.Mutex
	idle     map[serverKey][]*pyServer
	all      map[*pyServer]bool
	closed   bool
	startErr error // why servers cannot start here; jobs then use the Sandbox
}

// serverKey is what a server's sandbox was started with.
type serverKey struct {
	memory    exec.Size
	processes int
	tmp       exec.Size
	files     int
}

type pyServer struct {
	key     serverKey
	in      *io.PipeWriter
	replies chan []byte
	cancel  context.CancelFunc
	done    chan struct{}
	res     exec.Result
	err     error
	// cg is the cgroup of the server's sandbox job: the Go side reads the
	// CPU time and the OOM kills of each job there itself, out of reach of
	// a job that stops or fools its server.
	cg atomic.Pointer[jobCgroup]
	// cnt reads cg's counters through descriptors opened once.
	cnt *cgCounters
	// cpu and oom are the cgroup's CPU time and OOM kills when the last
	// job ended: the baseline of the next (one job at a time).
	cpu        time.Duration
	oom        int64
	haveCounts bool
}

// NewForkServer returns a ForkServer over sb. Servers start when jobs need
// them, one per job running at once; Close stops them.
func NewForkServer(sb *Sandbox, cfg *ForkServerConfig) (*ForkServer, error) {
	if sb == nil {
		return nil, errors.New("exec: NewForkServer needs a Sandbox")
	}
	f := &ForkServer{sb: sb, python: exec.DefaultPython, pre: DefaultPreload, maxIn: maxServerFiles,
		idle: map[serverKey][]*pyServer{}, all: map[*pyServer]bool{}}
	if cfg != nil {
		if cfg.Python != "" {
			f.python = cfg.Python
		}
		if cfg.Preload != nil {
			f.pre = append([]string(nil), cfg.Preload...)
		}
		f.env = slices.Clone(cfg.Env)
	}
	return f, nil
}

// NewPythonRunner returns the default runner for Python jobs: a ForkServer
// over a new Sandbox of its own, which its Close closes too. Jobs the fork
// server cannot take run through that Sandbox. It is what adapt.Evaluate,
// ctxbug.Identify and evolve.DefaultTester use when given no runner.
func NewPythonRunner(cfg *ForkServerConfig) (*ForkServer, error) {
	sb, err := New(nil)
	if err != nil {
		return nil, err
	}
	f, err := NewForkServer(sb, cfg)
	if err != nil {
		sb.Close()
		return nil, err
	}
	f.ownsSB = true
	return f, nil
}

// Default returns r, or, when r is nil, a new NewPythonRunner(nil).
// The function it returns closes what it made (nothing for an r given):
// the default of every call that takes an optional Runner.
func Default(r exec.Runner) (exec.Runner, func(), error) {
	if r != nil {
		return r, func() {}, nil
	}
	f, err := NewPythonRunner(nil)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// Close stops every server, and the Sandbox when NewPythonRunner made it.
// Jobs may still run after Close; they then go through the Sandbox (a new
// init each).
func (f *ForkServer) Close() error {
	f.mu.Lock()
	f.closed = true
	all := f.all
	f.all, f.idle = map[*pyServer]bool{}, map[serverKey][]*pyServer{}
	f.mu.Unlock()
	for s := range all {
		s.stop()
	}
	if f.ownsSB {
		f.sb.Close()
	}
	return nil
}

// pyJob is a job the server can take.
type pyJob struct {
	Mode   string `json:"mode"` // "c" or "file"
	Target string `json:"target"`
	// Program, from 1, names the server's program (serverPrograms) that
	// Target is, which is then not sent.
	Program  int               `json:"program,omitempty"`
	Args     []string          `json:"args"`
	Isolated bool              `json:"isolated"`
	NoSite   bool              `json:"no_site"`
	Env      map[string]string `json:"env"`
	Rlimits  [][3]any          `json:"rlimits"`
	Wall     float64           `json:"wall"`
	Keep     int               `json:"keep"`
	Output   int64             `json:"output"`
	Files    map[string]string `json:"files"`
	Dirs     []string          `json:"dirs"`
	Stdin    string            `json:"stdin"`
	// ThreadsFit: reserve less address space per thread (RLIMIT_AS).
	ThreadsFit bool `json:"threads_fit"`
	// Results: the child gets a results channel (Job.Results) as its
	// descriptor 3, which the server reads and sends back in pyReply.Results.
	Results bool `json:"results,omitempty"`
}

type pyReply struct {
	Error     string            `json:"error"`
	Exit      *int              `json:"exit"`
	Signal    int               `json:"signal"`
	TimedOut  bool              `json:"timed_out"`
	WallNS    int64             `json:"wall_ns"`
	CPUNS     int64             `json:"cpu_ns"`
	MaxRSS    int64             `json:"maxrss"`
	Stdout    []byte            `json:"stdout"`
	Stderr    []byte            `json:"stderr"`
	OutBytes  int64             `json:"out_bytes"`
	Memory    bool              `json:"memory"`
	Dropped   []string          `json:"files_dropped"`
	NDropped  int               `json:"files_dropped_count"`
	Files     map[string][]byte `json:"files"`
	Truncated bool              `json:"files_truncated"`
	// Restart: the job killed or stopped the server's zygote, or left
	// sockets or SysV objects the server could not clear; the server
	// cannot fork a clean child again and is replaced.
	Restart bool `json:"restart"`
	// DiskFull: the job's /tmp and workspace tmpfs was full at its end.
	DiskFull bool `json:"disk_full"`
	// JobRan: the Error came after the job had started.
	JobRan bool `json:"job_ran"`
	// Results is what the child wrote to its results channel, at most
	// maxReport bytes.
	Results []byte `json:"results"`
}

// parse turns a job into a request, or reports that the server cannot
// take it. stdin is the job's whole input (bufferStdin): parse leaves
// job.Stdin unread, so that a job the server cannot take, or loses before
// it starts, reaches the Sandbox with all of it.
func (f *ForkServer) parse(job exec.Job, stdin []byte, lim exec.Limits, env []string) (*pyJob, bool) {
	if len(job.Args) < 2 || job.Args[0] != f.python || job.Stdout != nil {
		return nil, false
	}
	req := &pyJob{Env: map[string]string{}, Keep: int(lim.Keep), Results: job.Results != nil}
	i := 1
	for ; i < len(job.Args); i++ {
		a := job.Args[i]
		if a == "-c" {
			if i+1 >= len(job.Args) {
				return nil, false
			}
			req.Mode, req.Target, req.Args = "c", job.Args[i+1], job.Args[i+2:]
			break
		}
		if !strings.HasPrefix(a, "-") {
			req.Mode, req.Target, req.Args = "file", a, job.Args[i+1:]
			break
		}
		for _, fl := range a[1:] {
			switch fl {
			case 's', 'B', 'E', 'u':
			case 'S':
				req.NoSite = true
			case 'I':
				req.Isolated = true
			default:
				return nil, false
			}
		}
	}
	if req.Mode == "" {
		return nil, false
	}
	if req.Mode == "c" {
		for i, p := range serverPrograms {
			if req.Target == p.src {
				req.Program, req.Target = i+1, ""
			}
		}
	}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		req.Env[k] = v
	}
	if !limitRequest(req, lim) {
		return nil, false
	}
	req.Stdin = base64.StdEncoding.EncodeToString(stdin)
	if job.Dir != "" && f.readWorkspace(req, job.Dir) != nil {
		return nil, false
	}
	return req, true
}

// limitRequest puts the job's limits in the request; false when the server
// cannot take them.
func limitRequest(req *pyJob, lim exec.Limits) bool {
	if lim.WallTime > 0 {
		req.Wall = lim.WallTime.Seconds()
	}
	req.Rlimits = append(req.Rlimits, [3]any{"RLIMIT_CORE", 0, 0})
	if lim.CPUTime > 0 {
		secs := int64((lim.CPUTime + time.Second - 1) / time.Second)
		req.Rlimits = append(req.Rlimits, [3]any{"RLIMIT_CPU", secs, secs + 1})
	}
	if set(lim.Memory) {
		req.Rlimits = append(req.Rlimits, [3]any{"RLIMIT_AS", uint64(lim.Memory), uint64(lim.Memory)})
		req.ThreadsFit = true
	}
	// stdout and stderr are pipes the server reads and counts, so files
	// get the same size limit as in the Sandbox.
	if set(lim.FileSize) {
		req.Rlimits = append(req.Rlimits, [3]any{"RLIMIT_FSIZE", uint64(lim.FileSize), uint64(lim.FileSize)})
	}
	if set(lim.Output) {
		req.Output = int64(lim.Output)
	}
	if lim.OpenFiles > serverOpenFiles {
		return false // more than the server's own hard limit
	}
	if lim.OpenFiles > 0 {
		req.Rlimits = append(req.Rlimits, [3]any{"RLIMIT_NOFILE", lim.OpenFiles, lim.OpenFiles})
	}
	return true
}

// readWorkspace puts the workspace dir's files and directories in the
// request; an error when it holds anything else or more than the server
// takes.
func (f *ForkServer) readWorkspace(req *pyJob, dir string) error {
	req.Files = map[string]string{}
	var total exec.Size
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			if d.IsDir() {
				if rel, _ := filepath.Rel(dir, p); rel != "." {
					req.Dirs = append(req.Dirs, filepath.ToSlash(rel))
				}
				return nil
			}
			return errors.New("not a regular file")
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if total += exec.Size(len(b)); total > f.maxIn {
			return errors.New("too large")
		}
		rel, _ := filepath.Rel(dir, p)
		req.Files[filepath.ToSlash(rel)] = base64.StdEncoding.EncodeToString(b)
		return nil
	})
	return err
}

// Run runs job in a fork server when it can, else through the Sandbox.
func (f *ForkServer) Run(ctx context.Context, job exec.Job) (exec.Result, error) {
	lim := job.Limits.WithDefaults()
	var stdin []byte
	if job.Stdin != nil {
		j, head, fits, res, err := bufferStdin(ctx, job)
		if err != nil {
			return res, err
		}
		job, stdin = j, head
		if !fits {
			return f.sb.Run(ctx, job)
		}
	}
	req, ok := f.parse(job, stdin, lim, f.sb.p.env(job.Env))
	if !ok {
		return f.sb.Run(ctx, job)
	}
	if err := ctx.Err(); err != nil {
		return exec.Result{Status: exec.StatusCanceled, ExitCode: -1}, err
	}
	// The job's /tmp and its workspace share the server's /tmp.
	key := serverKey{memory: lim.Memory, processes: lim.Processes, tmp: lim.TmpSize + lim.Disk, files: lim.DiskFiles}
	srv, err := f.get(key)
	if err != nil {
		// No server on this machine (no interpreter, a kernel without
		// pidfd): the slow path still works.
		f.mu.Lock()
		f.startErr = err
		f.mu.Unlock()
		return f.sb.Run(ctx, job)
	}
	raw, err := json.Marshal(req)
	if err != nil {
		f.drop(srv)
		return exec.Result{Status: exec.StatusInternal, ExitCode: -1}, err
	}
	start := time.Now()
	if _, err := srv.in.Write(append(raw, '\n')); err != nil {
		// The server ended before it had the job: run it elsewhere.
		f.drop(srv)
		return f.sb.Run(ctx, job)
	}
	return f.await(ctx, srv, job, lim, start)
}

// bufferStdin reads the job's stdin first, since the server takes it
// whole, in the request, and no longer than ctx allows (a reader that
// never ends cannot hold the caller). It returns the job with a stdin that
// gives the same bytes, and whether they fit a request: what does not fit
// goes to the Sandbox, with nothing lost. An error comes with the run's
// result.
func bufferStdin(ctx context.Context, job exec.Job) (exec.Job, []byte, bool, exec.Result, error) {
	head, err := readStdin(ctx, job.Stdin, maxServerStdin+1)
	if err != nil && ctx.Err() != nil {
		return job, nil, false, exec.Result{Status: exec.StatusCanceled, ExitCode: -1, Detail: "canceled while reading the job's stdin"}, err
	}
	if err != nil {
		return job, nil, false, exec.Result{Status: exec.StatusInternal, ExitCode: -1, Detail: err.Error()}, err
	}
	if len(head) > maxServerStdin {
		job.Stdin = io.MultiReader(bytes.NewReader(head), job.Stdin)
		return job, nil, false, exec.Result{}, nil
	}
	job.Stdin = bytes.NewReader(head)
	return job, head, true, exec.Result{}, nil
}

// await waits for srv's answer to job, sent at start, and stops the job at
// its CPU-time and wall-time limits (which the server's own watch cannot
// enforce when the job stops its server).
func (f *ForkServer) await(ctx context.Context, srv *pyServer, job exec.Job, lim exec.Limits, start time.Time) (exec.Result, error) {
	grace := time.NewTimer(lim.WallTime + 2*time.Second)
	defer grace.Stop()
	if lim.WallTime < 0 {
		grace.Stop()
	}
	cg := srv.cnt
	if !srv.haveCounts {
		srv.cpu, _ = cg.cpuUsage()
		srv.oom = cg.oomCount()
		srv.haveCounts = true
	}
	oom0, cpu0 := srv.oom, srv.cpu
	w := &cpuWatch{cg: cg, cpu0: cpu0, limit: lim.CPUTime}
	var tick <-chan time.Time
	if cg.haveCPU() && lim.CPUTime > 0 {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-tick:
			used, over := w.over()
			if !over {
				continue
			}
			f.drop(srv)
			return exec.Result{Status: exec.StatusCPUTime, ExitCode: -1, CPUTime: used - cpu0, WallTime: time.Since(start),
				Detail: fmt.Sprintf("CPU time %s exceeded the limit %s", (used - cpu0).Round(time.Millisecond), lim.CPUTime)}, nil
		case line, ok := <-srv.replies:
			if !ok {
				f.drop(srv)
				return f.lost(ctx, srv, start, lim)
			}
			return f.answer(ctx, srv, job, lim, line, cpu0, oom0, start)
		case <-ctx.Done():
			f.drop(srv)
			return exec.Result{Status: exec.StatusCanceled, ExitCode: -1, WallTime: time.Since(start), Detail: "canceled by the caller"}, ctx.Err()
		case <-grace.C:
			// The server did not answer: the job stopped or hung it. The CPU
			// time is the tree's, read from the server's cgroup.
			var cpu time.Duration
			if used, ok := cg.cpuUsage(); ok {
				cpu = used - cpu0
			}
			f.drop(srv)
			return exec.Result{Status: exec.StatusWallTime, ExitCode: -1, WallTime: time.Since(start), CPUTime: cpu,
				Detail: fmt.Sprintf("wall time exceeded the limit %s (the job stopped its fork server; CPU time %s)", lim.WallTime, cpu.Round(time.Millisecond))}, nil
		}
	}
}

// cpuWatch follows the CPU time of a job's whole process tree, read from
// its server's cgroup: out of reach of a job that stops its server.
type cpuWatch struct {
	cg                    *cgCounters
	cpu0, limit, lastUsed time.Duration
	overSince, lastChange time.Time
}

// over reads the tree's CPU time and says whether the verdict is CPU time.
// RLIMIT_CPU (which kills the child at about the limit) and the cgroup do
// not count alike: a child it killed while its server was stopped may show
// less here (885 ms at a 1 s limit, measured with a load average of 38 on
// 2 cores). So the verdict is also CPU time once the tree has used three
// quarters of the limit, has stopped using CPU without an answer for half
// a second, and holds a stopped process (the job stopped its server: no
// answer will come). A server that is not stopped answers when its child
// ends, so a job that merely sleeps is never judged here.
func (w *cpuWatch) over() (time.Duration, bool) {
	used, _ := w.cg.cpuUsage()
	if used != w.lastUsed {
		w.lastUsed, w.lastChange = used, time.Now()
	}
	stalled := used-w.cpu0 >= w.limit*3/4 && time.Since(w.lastChange) >= 500*time.Millisecond && anyStopped(w.cg.cg)
	if used-w.cpu0 < w.limit-20*time.Millisecond && !stalled {
		return used, false
	}
	if w.overSince.IsZero() {
		// Give a reply already on its way (a job that ended at its
		// limit) a moment.
		w.overSince = time.Now()
		return used, false
	}
	return used, time.Since(w.overSince) >= 50*time.Millisecond
}

// answer turns srv's reply line to job into the job's result, and hands
// srv back (or drops it).
func (f *ForkServer) answer(ctx context.Context, srv *pyServer, job exec.Job, lim exec.Limits, line []byte, cpu0 time.Duration, oom0 int64, start time.Time) (exec.Result, error) {
	cg := srv.cnt
	var rep pyReply
	err := json.Unmarshal(line, &rep)
	if err == nil && rep.Error != "" && !rep.JobRan {
		// The server could not run the job, or failed before it
		// started (an earlier job's doing, or ours): neither this
		// job's verdict nor a reason to leave it unscored.
		f.drop(srv)
		return f.sb.Run(ctx, job)
	}
	if err != nil || rep.Error != "" {
		f.drop(srv)
		if err == nil {
			return brokenServer(rep.Error, rep.Memory, lim, time.Since(start)), nil
		}
		err = fmt.Errorf("exec: fork server: %w", err)
		return exec.Result{Status: exec.StatusInternal, ExitCode: -1, Detail: err.Error()}, err
	}
	if job.Results != nil && len(rep.Results) > 0 {
		// The driver reads the other end as this is written.
		job.Results.Write(rep.Results[:min(len(rep.Results), int(maxReport))])
	}
	used, ok := cg.cpuUsage()
	oom := cg.oomCount()
	srv.cpu, srv.oom = used, oom
	if rep.Restart {
		f.drop(srv)
	} else {
		f.put(srv) // after the last use of srv: another job may take it now
	}
	res, err := f.result(job, lim, rep)
	if ok && used-cpu0 > res.CPUTime {
		res.CPUTime = used - cpu0 // the whole tree, not the child alone
	}
	if res.Status == exec.StatusSignal && oom > oom0 {
		// The kernel's OOM killer, not the job, sent the signal.
		res.Status, res.Detail = exec.StatusMemory, fmt.Sprintf("memory use exceeded %s (killed by the memory cgroup)", lim.Memory)
	}
	return res, err
}

// lost reports a job whose server went away while running it: the job
// killed it, or made it fail, which is a verdict either way (see
// brokenServer).
func (f *ForkServer) lost(ctx context.Context, srv *pyServer, start time.Time, lim exec.Limits) (exec.Result, error) {
	<-srv.done
	res := exec.Result{ExitCode: -1, WallTime: time.Since(start)}
	if ctx.Err() != nil {
		res.Status = exec.StatusCanceled
		return res, ctx.Err()
	}
	if srv.res.Status == exec.StatusMemory {
		res.Status, res.Detail = exec.StatusMemory, fmt.Sprintf("memory use exceeded %s", lim.Memory)
		return res, nil
	}
	if srv.err != nil || srv.res.Status == exec.StatusInternal {
		e := errors.Join(srv.err, errors.New(srv.res.Detail))
		return brokenServer(e.Error(), false, lim, res.WallTime), nil
	}
	res.Status, res.Signal = exec.StatusSignal, syscall.SIGKILL
	res.Detail = "the job killed its fork server"
	return res, nil
}

// brokenServer is the verdict of a job whose server failed once the job
// had started: the job runs as the server's user, so what broke it is
// taken to be the job's doing (an rlimit or a signal it sent), never an
// infrastructure error that would leave its answer unscored. A
// MemoryError is a memory verdict, anything else a crash. The server is
// replaced.
func brokenServer(why string, memory bool, lim exec.Limits, wall time.Duration) exec.Result {
	why = strings.TrimSpace(why)
	if i := strings.LastIndexByte(why, '\n'); i >= 0 {
		why = why[i+1:] // a traceback's last line
	}
	res := exec.Result{Status: exec.StatusSignal, ExitCode: -1, WallTime: wall, Detail: "the job broke its fork server: " + why}
	if memory {
		res.Status, res.Detail = exec.StatusMemory, fmt.Sprintf("memory use exceeded %s (the job's fork server ran out: %s)", lim.Memory, why)
	}
	return res
}

func (f *ForkServer) result(job exec.Job, lim exec.Limits, rep pyReply) (exec.Result, error) {
	res := exec.Result{
		ExitCode:    -1,
		Stdout:      rep.Stdout,
		Stderr:      rep.Stderr,
		OutputBytes: rep.OutBytes,
		CPUTime:     time.Duration(rep.CPUNS),
		WallTime:    time.Duration(rep.WallNS),
		PeakMemory:  exec.Size(rep.MaxRSS) * exec.KiB,
		Signal:      syscall.Signal(rep.Signal),
	}
	if len(res.Stdout) == 0 {
		res.Stdout = nil
	}
	if len(res.Stderr) == 0 {
		res.Stderr = nil
	}
	if rep.Exit != nil {
		res.ExitCode = *rep.Exit
	}
	res.NotCopied, res.NotCopiedFiles = rep.NDropped, rep.Dropped
	if job.Dir != "" {
		for rel, data := range rep.Files {
			p := filepath.Join(job.Dir, filepath.FromSlash(rel))
			if !strings.HasPrefix(p, filepath.Clean(job.Dir)+string(filepath.Separator)) {
				continue
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
				os.WriteFile(p, data, 0o644)
			}
		}
	}
	cpuOver := lim.CPUTime > 0 && res.CPUTime >= lim.CPUTime
	switch {
	case set(lim.Output) && exec.Size(rep.OutBytes) > lim.Output:
		res.Status, res.Detail = exec.StatusOutput, fmt.Sprintf("wrote more than %s to stdout and stderr", lim.Output)
	case rep.Memory:
		res.Status, res.Detail = exec.StatusMemory, fmt.Sprintf("memory use exceeded %s", lim.Memory)
	case res.Signal == syscall.SIGXCPU || (cpuOver && rep.Exit == nil):
		res.Status, res.Detail = exec.StatusCPUTime, fmt.Sprintf("CPU time %s exceeded the limit %s", res.CPUTime.Round(time.Millisecond), lim.CPUTime)
	case rep.TimedOut:
		res.Status, res.Detail = exec.StatusWallTime, fmt.Sprintf("wall time exceeded the limit %s (CPU time %s)", lim.WallTime, res.CPUTime.Round(time.Millisecond))
	case res.Signal == syscall.SIGXFSZ:
		res.Status, res.Detail = exec.StatusOutput, fmt.Sprintf("wrote a file larger than %s", lim.FileSize)
	case rep.DiskFull && (res.Signal != 0 || res.ExitCode != 0):
		res.Status, res.Detail = exec.StatusOutput, fmt.Sprintf("filled its /tmp and workspace (Limits.TmpSize+Limits.Disk %s, Limits.DiskFiles %d)", lim.TmpSize+lim.Disk, lim.DiskFiles)
	case res.Signal != 0:
		res.Status, res.Detail = exec.StatusSignal, "killed by signal "+res.Signal.String()
	case res.ExitCode != 0:
		res.Status, res.Detail = exec.StatusExit, fmt.Sprintf("exit code %d", res.ExitCode)
	default:
		res.Status = exec.StatusOK
	}
	return res, nil
}

// fallback reports why jobs the server could take went through the Sandbox
// instead, or nil.
func (f *ForkServer) fallback() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.startErr
}

func (f *ForkServer) get(key serverKey) (*pyServer, error) {
	f.mu.Lock()
	if f.startErr != nil {
		err := f.startErr
		f.mu.Unlock()
		return nil, err
	}
	if list := f.idle[key]; len(list) > 0 {
		s := list[len(list)-1]
		f.idle[key] = list[:len(list)-1]
		f.mu.Unlock()
		return s, nil
	}
	f.mu.Unlock()
	return f.start(key)
}

func (f *ForkServer) put(s *pyServer) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || !f.all[s] {
		go s.stop()
		return
	}
	f.idle[s.key] = append(f.idle[s.key], s)
}

func (f *ForkServer) drop(s *pyServer) {
	f.mu.Lock()
	delete(f.all, s)
	f.mu.Unlock()
	s.stop()
}

func (s *pyServer) stop() {
	s.cnt.close()
	s.in.Close()
	s.cancel()
	<-s.done
}

// start starts a server in its own sandbox job and waits until it is ready.
func (f *ForkServer) start(key serverKey) (*pyServer, error) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	s := &pyServer{key: key, in: inW, replies: make(chan []byte, 1), cancel: cancel, done: make(chan struct{}), cnt: &cgCounters{}}
	mem := key.memory
	if set(mem) {
		mem += 256 * exec.MiB // the server itself
	}
	procs := key.processes
	if procs > 0 {
		procs += 4
	}
	// The server imports site, as a plain python3 does, so that a job sees
	// the system's packages (Debian's dist-packages); a job run with -S
	// gets them taken off its sys.path again.
	// A reporter whose heavy imports the server preloads anyway is also
	// defined once (its functions and classes made in the server, its run
	// left to each job): the rest of what it imports is the standard
	// library's, already loaded by the server's own imports or light.
	var programs []string
	var define []int
	for i, p := range serverPrograms {
		programs = append(programs, p.src)
		if slices.Contains(f.pre, p.needs) {
			define = append(define, i+1)
		}
	}
	config, err := json.Marshal(map[string]any{"preload": f.pre, "programs": programs, "define": define, "pid_reset": f.sb.p.isolate})
	if err != nil {
		return nil, err
	}
	// The configuration is the first line of the server's stdin, not an
	// argument: the reporters' sources it holds would pass the kernel's
	// limit on one argument (128 KiB), and the server would not start.
	args := []string{f.python, "-I", "-B", "-c", forkServerScript}
	go func() {
		// Requests follow only once the server is ready, after it read this.
		_, _ = inW.Write(append(config, '\n')) // a server that ended is told by its start
	}()
	go func() {
		defer close(s.done)
		s.res, s.err = f.sb.p.runWith(ctx, exec.Job{
			Args:   args,
			Env:    f.env,
			Stdin:  inR,
			Stdout: outW,
			Limits: exec.Limits{CPUTime: -1, WallTime: -1, Memory: mem, Processes: procs, Output: exec.Unlimited, TmpSize: key.tmp, DiskFiles: key.files, OpenFiles: serverOpenFiles, FileSize: exec.Unlimited},
		}, runOpts{started: func(cg *jobCgroup) { s.cg.Store(cg) }, pidReset: true})
		outW.Close()
		inR.Close()
	}()
	go func() {
		defer close(s.replies)
		br := bufio.NewReaderSize(outR, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				outR.CloseWithError(err)
				return
			}
			s.replies <- line
		}
	}()
	select {
	case line, ok := <-s.replies:
		if ok && strings.HasPrefix(string(line), `{"ready": true}`) {
			s.cnt = openCounters(s.cg.Load())
			f.mu.Lock()
			if f.closed {
				f.mu.Unlock()
				s.stop()
				return nil, errors.New("exec: fork server closed")
			}
			f.all[s] = true
			f.mu.Unlock()
			return s, nil
		}
	case <-time.After(30 * time.Second):
	}
	s.stop()
	return nil, fmt.Errorf("exec: fork server did not start: %v %s %s", s.err, s.res.Status, strings.TrimSpace(string(s.res.Stderr)))
}

// serverPrograms are the programs every server compiles once: the test
// drivers' reporters. A request names one by its number, from 1. needs is
// the module whose preload lets a server define the program once (see
// start).
var serverPrograms = []struct{ src, needs string }{{jobkit.UnittestReporter, "unittest"}, {jobkit.PytestReporter, "pytest"}}

// maxReport bounds the results a job sends on its channel: what exec's
// drivers read of it at most.
const maxReport = 32 * exec.MiB

// serverOpenFiles is a server's RLIMIT_NOFILE: the most a job it takes may
// ask for.
const serverOpenFiles = 1024

// maxServerFiles bounds the bytes of a job's workspace that are copied
// into the server; a larger job runs through the sandbox as usual.
const maxServerFiles = 8 * exec.MiB

// maxServerStdin is the most stdin a fork-server job takes (the server
// writes it to a pipe before the job starts).
const maxServerStdin = 60000

// readStdin reads up to n bytes of r, or returns ctx's error when it ends
// first (the read goes on in the background: r is the caller's).
func readStdin(ctx context.Context, r io.Reader, n int) ([]byte, error) {
	type got struct {
		b   []byte
		err error
	}
	ch := make(chan got, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, int64(n)))
		ch <- got{b, err}
	}()
	select {
	case g := <-ch:
		if g.err != nil {
			return nil, fmt.Errorf("exec: read the job's stdin: %w", g.err)
		}
		return g.b, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// anyStopped reports whether a process of the cgroup's tree is stopped
// (state T or t in /proc/<pid>/stat).
func anyStopped(cg *jobCgroup) bool {
	if cg == nil || (cg.cpu == "" && cg.tree == 0) {
		return false
	}
	var pids []string
	if cg.cpu == "" {
		pids = treePids(cg.tree) // no cgroup: the init's descendants
	} else {
		b, err := os.ReadFile(filepath.Join(cg.cpu, "cgroup.procs"))
		if err != nil {
			return false
		}
		pids = strings.Fields(string(b))
	}
	for _, pid := range pids {
		st, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			continue
		}
		// The state follows the command name, which ends with the last ')'.
		i := bytes.LastIndexByte(st, ')')
		if i >= 0 && i+2 < len(st) && (st[i+2] == 'T' || st[i+2] == 't') {
			return true
		}
	}
	return false
}

// cgCounters reads the CPU time and the OOM kills of a server's cgroup
// through descriptors opened once, with pread (a cgroup file gives its
// current value at each read from offset 0): one system call per read
// instead of an open, reads and a close each, twice per job and every
// 10ms of a job's run. What cannot be opened is read through the cgroup.
type cgCounters struct {
	cg     *jobCgroup
	cpu    *os.File
	cpuKey string // "" when the file holds one number
	oom    *os.File
}

func openCounters(cg *jobCgroup) *cgCounters {
	c := &cgCounters{cg: cg}
	if cg == nil {
		return c
	}
	if cg.cpu != "" {
		name := "cpuacct.usage"
		if cg.layout.v2 {
			name, c.cpuKey = "cpu.stat", "usage_usec"
		}
		c.cpu, _ = os.Open(filepath.Join(cg.cpu, name))
	}
	if cg.memory != "" {
		name := "memory.oom_control"
		if cg.layout.v2 {
			name = "memory.events"
		}
		c.oom, _ = os.Open(filepath.Join(cg.memory, name))
	}
	return c
}

func (c *cgCounters) haveCPU() bool { return c.cg != nil && (c.cg.cpu != "" || c.cg.tree != 0) }

func (c *cgCounters) cpuUsage() (time.Duration, bool) {
	if c.cpu != nil {
		if n, ok := preadKey(c.cpu, c.cpuKey); ok {
			if c.cpuKey != "" {
				return time.Duration(n) * time.Microsecond, true
			}
			return time.Duration(n), true
		}
	}
	return c.cg.cpuUsage()
}

func (c *cgCounters) oomCount() int64 {
	if c.oom != nil {
		if n, ok := preadKey(c.oom, "oom_kill"); ok {
			return n
		}
	}
	return c.cg.oomCount()
}

func (c *cgCounters) close() {
	for _, f := range []*os.File{c.cpu, c.oom} {
		if f != nil {
			f.Close()
		}
	}
}

// preadKey reads f from its start: the number it holds (key "") or the
// value of its "key value" line.
func preadKey(f *os.File, key string) (int64, bool) {
	var buf [512]byte
	n, err := f.ReadAt(buf[:], 0)
	if n == 0 || (err != nil && err != io.EOF) {
		return 0, false
	}
	text := string(buf[:n])
	if key != "" {
		i := strings.Index("\n"+text, "\n"+key+" ")
		if i < 0 {
			return 0, false
		}
		text, _, _ = strings.Cut(text[i+len(key)+1:], "\n")
	}
	v, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
	return v, err == nil
}

// Isolation is its Sandbox's, the fork server's jobs being forked in it.
func (f *ForkServer) Isolation() string {
	return f.sb.Isolation() + "; Python jobs forked from a warm server"
}
