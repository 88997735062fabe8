package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/internal/jobkit"
)

// baseEnv is the environment every job starts from.
var baseEnv = []string{
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	"HOME=/tmp",
	"TMPDIR=/tmp",
	"LANG=C.UTF-8",
	"LC_ALL=C.UTF-8",
}

// nobody is the uid and gid a Sandbox job runs as inside its user
// namespace (mapped to a host uid of its own when the caller is root).
const nobody = 65534

// ErrNoNamespaces is returned (wrapped, with what is missing and how to turn
// it on) when the kernel does not let this process create the namespaces a
// Sandbox needs.
var ErrNoNamespaces = errors.New("exec: this machine does not allow the namespaces the sandbox needs")

// Sandbox is the default Runner: every job runs in user, mount, PID,
// network, IPC and UTS namespaces no other running job shares (an init may
// run later jobs of the same shape, reset in between: see the package
// doc's trust boundary), in a minimal read-only root with a
// private writable /tmp and a copy of its workspace at WorkDir (see the
// package doc's trust boundary), has no network but its own loopback (not
// the host's), an environment built from an allow list, no
// capabilities, a seccomp filter, and runs as nobody of its namespace, a
// host uid of its own, when the caller is root (from uid 1879048192), or as the
// caller's own uid (uid 0 of its namespace, with no capability) otherwise.
// Limits use cgroups where the machine has them (an ordinary user's
// delegated cgroup v2 subtree included) and rlimits everywhere, with the
// CPU time and memory of the job's processes together read from /proc
// where no cgroup counts them; Isolation says which.
// A Sandbox is safe for concurrent use.
type Sandbox struct{ p *procRunner }

// Unsandboxed runs jobs as plain child processes of the caller, with the same
// limits where rlimits and cgroups allow, but with no isolation at all: the
// job can read and write what the caller can and use the network. Use it
// only on purpose, for trusted code or where namespaces are not available.
// The zero value is ready to use, with Config's defaults.
type Unsandboxed struct {
	once sync.Once
	p    *procRunner
}

// proc returns the runner, made with the default Config for a zero value.
func (u *Unsandboxed) proc() *procRunner {
	u.once.Do(func() {
		if u.p == nil {
			u.p = newProcRunner(false, nil)
		}
	})
	return u.p
}

type procRunner struct {
	pool    initPool
	reaping sync.WaitGroup
	isolate bool
	cfg     Config
	cg      cgroupLayout
	root    bool
}

// New checks that the kernel allows the sandbox (by running a trivial
// job in it) and returns it. The error wraps ErrNoNamespaces when namespaces
// are not available, and says how to enable them.
func New(cfg *Config) (*Sandbox, error) {
	p := newProcRunner(true, cfg)
	s := &Sandbox{p: p}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// The default limits: the self-test's init is then reused by jobs with
	// the default limits (ctx bounds the test).
	res, err := p.run(ctx, exec.Job{Args: []string{"true"}})
	var stage *initStageError
	switch {
	case errors.As(err, &stage):
		// The namespaces are there; a step of the init failed: a bug or a
		// kernel without a feature the init needs (the message says
		// which), not a machine without a sandbox, and never a reason for
		// a test to skip.
		s.Close()
		return nil, err
	case err != nil:
		s.Close()
		return nil, explainNamespaces(err)
	case res.Status != exec.StatusOK:
		s.Close()
		return nil, fmt.Errorf("exec: sandbox self-test ran 'true' and got %s: %s", res.Status, res.Detail)
	}
	return s, nil
}

// NewUnsandboxed returns a runner with no isolation. See Unsandboxed.
func NewUnsandboxed(cfg *Config) *Unsandboxed {
	return &Unsandboxed{p: newProcRunner(false, cfg)}
}

// Run runs job in the sandbox. See Runner.
func (s *Sandbox) Run(ctx context.Context, job exec.Job) (exec.Result, error) {
	return s.p.run(ctx, job)
}

// Run runs job as a child process with limits but no isolation.
func (u *Unsandboxed) Run(ctx context.Context, job exec.Job) (exec.Result, error) {
	return u.proc().run(ctx, job)
}

// Close stops the init processes the sandbox keeps started ahead of need.
// Jobs may still run after Close; they then start their own.
func (s *Sandbox) Close() error { s.p.close(); return nil }

// Close stops the init processes the runner keeps started ahead of need.
func (u *Unsandboxed) Close() error { u.proc().close(); return nil }

// cgroups describes which limits rest on cgroups on this machine and why
// others do not; empty when cgroups are used for memory, processes and CPU.
func (s *Sandbox) cgroups() string { return s.p.cg.note }

// Isolation says what isolation and which limit enforcement are in force
// for this runner's jobs on this machine, in one line meant for a run's
// record, so that numbers measured on different machines can be compared
// honestly. It reads "<isolation>; <limits>", where isolation is
// "user namespaces, seccomp" (as root: "..., a host uid per job"; as an
// ordinary user: "..., the caller's uid") or "none (unsandboxed)", and
// limits is "cgroups v1", "cgroups v2", "cgroups v2 delegated" (an
// ordinary user's own subtree), or "rlimits only", or a mix such as
// "cgroups v1 (memory, cpu) + rlimits (processes)". Every mode holds the
// limits per job. A cgroup counts the job's memory, processes and CPU
// time. Where there is none, memory and CPU time are the job's processes
// together, all of its PID namespace (for an unsandboxed job, the init's
// descendants) read from /proc at each poll (the sum of their PSS, and
// their CPU time), with RLIMIT_AS and RLIMIT_CPU per process besides;
// processes are counted by RLIMIT_NPROC in the job's own user namespace.
// A sandboxed job's user namespace has its own share of the per-user
// kernel budgets (inotify, fanotify, namespaces) in every mode.
func (s *Sandbox) Isolation() string { return s.p.isolation() }

// Isolation says what limit enforcement is in force; there is no
// isolation. See Sandbox.Isolation.
func (u *Unsandboxed) Isolation() string { return u.proc().isolation() }

func (p *procRunner) isolation() string {
	iso := "none (unsandboxed)"
	if p.isolate {
		iso = "user namespaces, seccomp, the caller's uid"
		if p.root {
			iso = "user namespaces, seccomp, a host uid per job"
		}
	}
	l := p.cg
	var have, lack []string
	for _, c := range []struct {
		name string
		ok   bool
	}{{"memory", l.memory != ""}, {"processes", l.pids != ""}, {"cpu", l.cpuacct != ""}} {
		if c.ok {
			have = append(have, c.name)
		} else {
			lack = append(lack, c.name)
		}
	}
	kind := "cgroups v1"
	if l.v2 {
		kind = "cgroups v2"
		if !p.root {
			kind += " delegated"
		}
	}
	switch {
	case len(have) == 0:
		return iso + "; rlimits only"
	case len(lack) == 0:
		return iso + "; " + kind
	}
	return fmt.Sprintf("%s; %s (%s) + rlimits (%s)", iso, kind, strings.Join(have, ", "), strings.Join(lack, ", "))
}

var (
	cgroupOnce    sync.Once
	cgroupLayout0 cgroupLayout
)

func newProcRunner(isolate bool, cfg *Config) *procRunner {
	p := &procRunner{isolate: isolate, root: os.Geteuid() == 0}
	p.pool.ready.L = &p.pool.mu
	if cfg != nil {
		p.cfg = *cfg
		p.cfg.PassEnv = append([]string(nil), cfg.PassEnv...)
		p.cfg.ReadOnly = append([]string(nil), cfg.ReadOnly...)
	}
	if !p.cfg.NoCgroups {
		cgroupOnce.Do(func() { cgroupLayout0 = detectCgroups() })
		p.cg = cgroupLayout0
	} else {
		p.cg.note = "cgroups not used"
	}
	return p
}

// explainNamespaces turns the failure to start a sandbox init into one line
// that says what the machine lacks and how to turn it on.
func explainNamespaces(err error) error {
	var why []string
	if b, e := os.ReadFile("/proc/sys/kernel/unprivileged_userns_clone"); e == nil && strings.TrimSpace(string(b)) == "0" {
		why = append(why, "kernel.unprivileged_userns_clone is 0 (fix: sysctl -w kernel.unprivileged_userns_clone=1)")
	}
	if b, e := os.ReadFile("/proc/sys/user/max_user_namespaces"); e == nil && strings.TrimSpace(string(b)) == "0" {
		why = append(why, "user.max_user_namespaces is 0 (fix: sysctl -w user.max_user_namespaces=15000)")
	}
	if b, e := os.ReadFile("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"); e == nil && strings.TrimSpace(string(b)) == "1" {
		why = append(why, "AppArmor restricts unprivileged user namespaces (fix: sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile allowing userns for this program)")
	}
	if len(why) == 0 && !userNamespacesAllowed() {
		// No sysctl says no: a seccomp filter does, as Docker's and
		// containerd's default profiles and some pods' do.
		why = append(why, "creating a user namespace is denied, most likely by a container's seccomp profile (fix: docker/podman run --security-opt seccomp=unconfined, or in Kubernetes securityContext.seccompProfile.type: Unconfined)")
	}
	if len(why) == 0 {
		why = append(why, "user, mount, PID, network, IPC and UTS namespaces and mount_setattr (Linux 5.12+) are required")
	}
	return fmt.Errorf("%w: %s; starting the sandbox init failed with: %v (to run trusted code without isolation, use sandbox.NewUnsandboxed on purpose)", ErrNoNamespaces, strings.Join(why, "; "), err)
}

// userNamespacesAllowed starts a trivial child in a user namespace of its
// own, to tell a machine without user namespaces from one where a later
// step failed.
func userNamespacesAllowed() bool {
	cmd := &osexec.Cmd{Path: "/proc/self/exe", Args: []string{initArg0, "probe"}, Dir: "/",
		SysProcAttr: &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER, Pdeathsig: syscall.SIGKILL}}
	if err := cmd.Start(); err != nil {
		return false
	}
	cmd.Process.Kill()
	cmd.Wait()
	return true
}

type killReason int32

const (
	reasonNone killReason = iota
	reasonCanceled
	reasonWall
	reasonCPU
	reasonOutput
	reasonMemory
)

// runOpts is what the fork server asks of the runner for its servers' jobs.
type runOpts struct {
	// started, when set, is given the job's cgroups once its limits are
	// set (the ForkServer watches its servers through them).
	started func(*jobCgroup)
	// pidReset gives the command, as descriptor 3, a socket on which the
	// init resets the PID counter (servePIDReset): the fork server's.
	pidReset bool
}

func (p *procRunner) run(ctx context.Context, job exec.Job) (exec.Result, error) {
	return p.runWith(ctx, job, runOpts{})
}

func (p *procRunner) runWith(ctx context.Context, job exec.Job, o runOpts) (res exec.Result, err error) {
	lim := job.Limits.WithDefaults()
	res.ExitCode = -1
	internal := func(err error) (exec.Result, error) {
		res.Status = exec.StatusInternal
		res.Detail = err.Error()
		return res, err
	}
	if len(job.Args) == 0 || job.Args[0] == "" {
		return internal(errors.New("exec: job has no command (Args is empty)"))
	}
	if err := ctx.Err(); err != nil {
		res.Status = exec.StatusCanceled
		return res, err
	}
	ws, removeWS, err := p.workspace(job.Dir)
	if err != nil {
		return internal(err)
	}
	defer removeWS()
	setUser := p.isolate && p.root
	binds := p.binds(job.ReadOnly)
	shape := p.jobShape(o, lim, binds)
	ip, err := p.take(shape)
	if err != nil {
		return internal(err)
	}
	// A reused init keeps its pipes to the host; the job's stdio is the
	// job's own, and closed here even when the next job has taken the init.
	kept := false
	var stdio []*os.File
	defer func() {
		closeAll(stdio)
		if !kept {
			ip.closeFiles()
		}
	}()
	reused := ip.jobs > 0
	ip.jobs++
	// The descriptors the init gets with the job: a reused init's stdio
	// (a new init has its own from its start), then the workspace's mount.
	h := &handOff{}
	defer h.finish()
	if reused {
		if err := h.addStdio(ip); err != nil {
			ip.discard()
			return internal(err)
		}
	}
	stdio = ip.stdio()
	if setUser && job.Dir != "" {
		if err := h.addWorkspace(ip, ws, lim); err != nil {
			ip.discard()
			return internal(err)
		}
	}
	diskWorkspace := len(h.send) > 0 && (!reused || len(h.send) > 3)
	if job.Results != nil {
		h.send = append(h.send, int(job.Results.Fd()))
	}
	if err := h.sendTo(ip); err != nil {
		ip.discard()
		return internal(err)
	}
	cg := ip.cg
	if err := cg.setLimits(lim); err != nil {
		ip.discard()
		return internal(err)
	}
	if o.started != nil {
		o.started(cg)
	}

	cfg := p.initConfig(job, o, lim, cg, ws, binds)
	cfg.DiskWorkspace, cfg.Stdio, cfg.Recycle = diskWorkspace, reused, shape != ""
	raw, err := json.Marshal(cfg)
	if err != nil {
		return internal(err)
	}

	budget := jobkit.NewBudget(int64(lim.Output)) // Unlimited is -1: none
	stdout, stderr := jobkit.NewBuffer(int64(lim.Keep), budget), jobkit.NewBuffer(int64(lim.Keep), budget)
	start := time.Now()
	kill := func() { ip.kill(p.isolate) }
	if _, err := ip.cfgW.Write(raw); err != nil {
		kill()
		ip.wait()
		return internal(fmt.Errorf("exec: send job to sandbox init: %w", err))
	}
	var out io.Writer = stdout
	if job.Stdout != nil {
		out = job.Stdout
	}
	waitOutput := ip.pump(job.Stdin, out, stderr)
	w := watch(ctx, lim, cg, budget, kill)
	// The report comes before the init exits; tearing down its namespaces
	// takes the kernel several milliseconds, which the job need not wait
	// for once every process of the job is gone.
	var end jobEnd
	end.haveStatus = ip.dec.Decode(&end.st) == nil
	res.WallTime = time.Since(start)
	w.stop()
	kept = p.reap(ip, cg, w, &end, &res, shape, waitOutput)
	if err := output(&res, &end, h.disk, stdout, stderr); err != nil {
		return internal(err)
	}
	end.why = killReason(w.reason.Load())
	end.outputOver = budget.Exceeded()
	if err := verdict(&res, end, lim, cg); err != nil {
		if res.Status == exec.StatusCanceled {
			return res, ctx.Err()
		}
		return internal(err)
	}
	return res, nil
}

// reap ends the job on ip once its report came or the init ended: it
// kills what is left unless the init reported with no kill, reads the
// job's usage into res and how it ended into end, and hands the init back;
// it says whether the init is kept for another job.
func (p *procRunner) reap(ip *initProc, cg *jobCgroup, w *watchdog, end *jobEnd, res *exec.Result, shape string, waitOutput func(time.Duration)) (kept bool) {
	// With a report and no kill, every process of the job is gone and the
	// init waits to be released.
	released := end.haveStatus && w.reason.Load() == 0
	if !released {
		ip.kill(p.isolate)
		end.waitErr = ip.wait()
		if !p.isolate {
			// A background process of an unisolated job may outlive the init.
			syscall.Kill(-ip.cmd.Process.Pid, syscall.SIGKILL)
		}
		cg.killAll()
	}
	waitOutput(time.Second)
	res.CPUTime, res.PeakMemory = jobUsage(end.st, end.haveStatus, cg)
	res.CPUTime = max(res.CPUTime, time.Duration(w.polled.Load()))
	if cg.countsMemory() {
		res.PeakMemory = max(res.PeakMemory, exec.Size(w.peak.Load()))
	}
	end.oom, end.pidsMax = cg.oomKilled(), cg.pidsLimited()
	return p.release(ip, cg, shape, released && end.st.Stage == "", released)
}

// output fills res with what the job left once every process of it is
// gone: its workspace copied back from its tmpfs (disk, when it had one),
// its output and its exit.
func output(res *exec.Result, end *jobEnd, disk *diskWorkspace, stdout, stderr *jobkit.Buffer) error {
	if disk != nil {
		// Every process of the job is gone (the init reported after
		// killing them, or was killed with its namespace).
		end.diskFull = disk.full()
		notCopied, err := disk.copyBack()
		if err != nil {
			return fmt.Errorf("exec: copy the workspace back: %w", err)
		}
		res.NotCopied, res.NotCopiedFiles = len(notCopied), notCopied[:min(len(notCopied), 20)]
	}
	res.Stdout, res.Stderr = stdout.Bytes(), stderr.Bytes()
	res.OutputBytes = stdout.Total() + stderr.Total()
	if end.haveStatus && end.st.Exited {
		res.ExitCode = end.st.ExitCode
	}
	res.Signal = syscall.Signal(end.st.Signal)
	return nil
}

// workspace returns the host directory of a job's workspace (dir made
// absolute, or a new temporary one an unisolated job gets for none) and
// what removes it after the run. An isolated job without one gets its
// empty workspace in its private /tmp from the init: "".
func (p *procRunner) workspace(dir string) (ws string, remove func(), err error) {
	switch {
	case dir == "" && p.isolate:
		// The init makes an empty workspace in the job's private /tmp.
		return "", func() {}, nil
	case dir == "":
		d, err := os.MkdirTemp("", "adaptbench-ws-")
		if err != nil {
			return "", nil, fmt.Errorf("exec: make workspace: %w", err)
		}
		return d, func() { os.RemoveAll(d) }, nil
	}
	if ws, err = filepath.Abs(dir); err != nil {
		return "", nil, fmt.Errorf("exec: workspace: %w", err)
	}
	if fi, err := os.Stat(ws); err != nil || !fi.IsDir() {
		return "", nil, fmt.Errorf("exec: workspace %s is not a directory", ws)
	}
	return ws, func() {}, nil
}

// handOff holds the descriptors the host sends the init with a job, and
// what undoes the workspace's preparation after the run.
type handOff struct {
	send []int
	sent []*os.File // closed once sent
	disk *diskWorkspace
	undo []func()
}

// finish undoes what was done for the job, in reverse order.
func (h *handOff) finish() {
	for i := len(h.undo) - 1; i >= 0; i-- {
		h.undo[i]()
	}
	h.closeSent()
}

func (h *handOff) closeSent() {
	for _, f := range h.sent {
		f.Close()
	}
	h.sent = nil
}

// addStdio gives a reused init new pipes for the job's stdio.
func (h *handOff) addStdio(ip *initProc) error {
	theirs, err := ip.newStdio()
	if err != nil {
		return fmt.Errorf("exec: pipes for the job: %w", err)
	}
	for _, fd := range theirs {
		h.sent = append(h.sent, os.NewFile(uintptr(fd), "job stdio"))
	}
	h.send = append(h.send, theirs...)
	return nil
}

// addWorkspace prepares the workspace ws of a job that runs as a uid of
// its own (the caller is root) and adds its mount to the descriptors.
func (h *handOff) addWorkspace(ip *initProc, ws string, lim exec.Limits) error {
	if set(lim.Disk) {
		// The job gets a copy of the workspace on a tmpfs of its own
		// (disk_linux.go), copied back by runWith: what comes back is the
		// caller's (root's) already, nothing to chown.
		disk, err := newDiskWorkspace(ws, lim.Disk, lim.DiskFiles, ip.uid)
		if err != nil {
			return err
		}
		h.disk = disk
		h.undo = append(h.undo, func() { disk.close() })
		h.send = append(h.send, disk.mfd)
		return nil
	}
	// The workspace is the job user's while it runs, and the caller's
	// again afterwards: nothing in it stays owned by a job's uid.
	if err := chownTree(ws, ip.uid, ip.uid); err != nil {
		return fmt.Errorf("exec: give workspace to the sandbox user: %w", err)
	}
	h.undo = append(h.undo, func() { chownBack(ws, os.Getuid(), os.Getgid()) })
	// The host clones the tree: a reused init no longer sees the
	// host's paths.
	fd, err := unix.OpenTree(unix.AT_FDCWD, ws, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
	if err != nil {
		return fmt.Errorf("exec: open_tree %s: %w", ws, err)
	}
	h.sent = append(h.sent, os.NewFile(uintptr(fd), "workspace"))
	h.send = append(h.send, fd)
	return nil
}

// sendTo sends the descriptors to the init, and closes the host's copies.
func (h *handOff) sendTo(ip *initProc) error {
	if len(h.send) > 0 {
		if err := unix.Sendmsg(int(ip.diskW.Fd()), []byte{0}, unix.UnixRights(h.send...), nil, 0); err != nil {
			return fmt.Errorf("exec: send the job's descriptors to the sandbox init: %w", err)
		}
	}
	h.closeSent()
	return nil
}

// initConfig is the job's configuration for the init, but for what the
// hand-off and the pool decide (DiskWorkspace, Stdio, Recycle).
func (p *procRunner) initConfig(job exec.Job, o runOpts, lim exec.Limits, cg *jobCgroup, ws string, binds []string) initConfig {
	cfg := initConfig{
		Isolate:       p.isolate,
		HostWorkspace: ws,
		Workspace:     ws,
		Args:          job.Args,
		Env:           p.env(job.Env),
		TmpSize:       uint64(min(lim.TmpSize, 1<<40)),
		TmpFiles:      lim.DiskFiles,
		DropCaps:      p.isolate,
		Confine:       p.isolate,
		Binds:         binds,
		SetUser:       p.isolate && p.root,
		UID:           nobody,
		GID:           nobody,
		Subreaper:     !p.isolate,
		Results:       job.Results != nil,
		Rlimits:       rlimits(lim, cg, p.isolate),
		PIDReset:      o.pidReset && p.isolate,
	}
	if p.isolate {
		cfg.Workspace = exec.WorkDir
		cfg.UserCeilings = userCeilings()
	}
	return cfg
}

// release hands the init back after its job and says whether it is kept
// for another job: recycled when its job ended cleanly and its shape may
// be reused, reaped later when released, its cgroups removed now when it
// was killed.
func (p *procRunner) release(ip *initProc, cg *jobCgroup, shape string, clean, released bool) (kept bool) {
	switch {
	case clean && shape != "":
		// Every process of the job is gone: the init gets ready for
		// another job of this shape.
		p.recycleLater(ip, shape)
		return true
	case released:
		// The init's cgroups are removed once it has exited: moving it out
		// first would wait for an RCU grace period.
		ip.cfgW.Close()
		p.reapLater(ip)
	default:
		cg.remove()
	}
	return false
}

// jobEnd is how a job ended, as verdict reads it.
type jobEnd struct {
	st         initStatus
	haveStatus bool
	why        killReason
	waitErr    error
	outputOver bool // the output budget was exceeded
	oom        bool
	pidsMax    bool
	diskFull   bool
}

// verdict sets res's Status and Detail from how the job ended. An error
// means the run failed: res.Status is then StatusCanceled (the caller's
// doing) or to be set to StatusInternal.
func verdict(res *exec.Result, e jobEnd, lim exec.Limits, cg *jobCgroup) error {
	st := e.st
	switch {
	case e.why == reasonCanceled:
		res.Status = exec.StatusCanceled
		res.Detail = "canceled by the caller"
		return context.Canceled
	case e.haveStatus && st.Stage != "":
		return &initStageError{stage: st.Stage, err: st.Err}
	case e.haveStatus && st.NotFound:
		return fmt.Errorf("exec: command not found in the sandbox: %s", st.Err)
	case e.why == reasonOutput || e.outputOver:
		res.Status = exec.StatusOutput
		res.Detail = fmt.Sprintf("wrote more than %s to stdout and stderr", lim.Output)
	case e.oom:
		res.Status = exec.StatusMemory
		res.Detail = fmt.Sprintf("memory use exceeded %s", lim.Memory)
	case e.why == reasonMemory:
		res.Status = exec.StatusMemory
		res.Detail = fmt.Sprintf("memory use exceeded %s (the job's processes together: %s)", lim.Memory, res.PeakMemory)
	case e.why == reasonCPU || res.Signal == syscall.SIGXCPU || (lim.CPUTime > 0 && res.CPUTime >= lim.CPUTime && !st.Exited):
		res.Status = exec.StatusCPUTime
		res.Detail = fmt.Sprintf("CPU time %s exceeded the limit %s", res.CPUTime.Round(time.Millisecond), lim.CPUTime)
	case e.why == reasonWall:
		res.Status = exec.StatusWallTime
		res.Detail = fmt.Sprintf("wall time exceeded the limit %s (CPU time %s)", lim.WallTime, res.CPUTime.Round(time.Millisecond))
	case !e.haveStatus:
		return fmt.Errorf("exec: sandbox init ended without a report (%v): %s", e.waitErr, strings.TrimSpace(string(res.Stderr)))
	case res.Signal == syscall.SIGXFSZ:
		res.Status = exec.StatusOutput
		res.Detail = fmt.Sprintf("wrote a file larger than %s", lim.FileSize)
	case e.diskFull && (res.Signal != 0 || res.ExitCode != 0):
		res.Status = exec.StatusOutput
		res.Detail = fmt.Sprintf("filled its workspace (Limits.Disk %s, Limits.DiskFiles %d)", lim.Disk, lim.DiskFiles)
	case res.Signal != 0:
		res.Status = exec.StatusSignal
		res.Detail = "killed by signal " + unix.SignalName(res.Signal)
		if res.Signal == syscall.SIGKILL && cg.memory == "" && set(lim.Memory) {
			res.Detail += " (no memory cgroup: a memory limit cannot be told apart)"
		}
	case res.ExitCode != 0:
		res.Status = exec.StatusExit
		res.Detail = fmt.Sprintf("exit code %d", res.ExitCode)
	default:
		res.Status = exec.StatusOK
	}
	if e.pidsMax {
		res.Detail = strings.TrimPrefix(res.Detail+"; process limit reached", "; ")
	}
	return nil
}

// jobUsage returns the CPU time and peak memory of a job: the cgroup's
// figures where there are cgroups, else the init's rusage of the command.
func jobUsage(st initStatus, haveStatus bool, cg *jobCgroup) (cpu time.Duration, peak exec.Size) {
	if haveStatus {
		cpu = time.Duration(st.UserNS + st.SysNS)
		peak = exec.Size(st.MaxRSS) * exec.KiB
	}
	if cg != nil && cg.cpu != "" {
		// Not /proc's figure (in clock ticks) where there is no cgroup.
		if used, ok := cg.cpuUsage(); ok {
			cpu = used
		}
	}
	if p, ok := cg.peakMemory(); ok {
		peak = p
	}
	return cpu, peak
}

// recycleLater waits for a reused init to say it is ready for another job
// (see recycle in initproc_linux.go), starts its cgroup's counters again
// and returns it to the pool; an init that is not ready is released.
func (p *procRunner) recycleLater(ip *initProc, shape string) {
	p.reaping.Add(1)
	p.recycling(shape)
	go func() {
		defer p.reaping.Done()
		stuck := time.AfterFunc(readyTimeout, func() { ip.kill(true) })
		var st initStatus
		err := ip.dec.Decode(&st)
		if !stuck.Stop() || err != nil || !st.Ready || ip.cg.rebase() != nil {
			p.recycled(shape, nil)
			ip.cfgW.Close()
			ip.wait()
			ip.closeFiles()
			ip.cg.remove()
			return
		}
		ip.shape = shape
		p.recycled(shape, ip)
	}()
}

// jobShape is what a job shares with the others an init may run after it
// (see recycle in initproc_linux.go): the process-wide rlimits the init
// takes for its first job, which it can never raise again, the sizes of
// /tmp and /dev/shm it makes ahead of the next job, and the read-only
// paths of its root. Empty when the job's init is not to be reused: the
// caller is not root (the host clones the workspace's tree), a job's
// cgroups are not v1 with memory, pids and CPU (rlimits would stand in for
// them, and the counters could not start again), the job's cgroups are
// handed to its caller (the fork server's), or a read-only path lies under
// /tmp or /dev (a new /tmp would hide it).
func (p *procRunner) jobShape(o runOpts, lim exec.Limits, binds []string) string {
	l := p.cg
	if !p.isolate || !p.root || o.started != nil || p.cfg.NoCgroups || l.v2 || l.memory == "" || l.pids == "" || l.cpuacct == "" {
		return ""
	}
	for _, b := range binds {
		if b == "/tmp" || b == "/dev" || strings.HasPrefix(b, "/tmp/") || strings.HasPrefix(b, "/dev/") {
			return ""
		}
	}
	rl := rlimits(lim, &jobCgroup{memory: l.memory, pids: l.pids}, true)
	return fmt.Sprintf("%v tmp=%d files=%d binds=%q", rl, min(lim.TmpSize, 1<<40), lim.DiskFiles, binds)
}

// reapLater waits for an init that has reported and been released, then
// removes its cgroups: its exit (namespace teardown) takes milliseconds that
// the job need not wait for. Close waits for every reaper.
func (p *procRunner) reapLater(ip *initProc) {
	p.reaping.Add(1)
	go func() {
		defer p.reaping.Done()
		ip.wait()
		ip.cg.remove()
	}()
}

func (p *procRunner) env(extra []string) []string {
	env := append([]string(nil), baseEnv...)
	for _, name := range p.cfg.PassEnv {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	env = append(env, extra...)
	// Later entries win, as in os/exec.
	seen := map[string]int{}
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if i, ok := seen[k]; ok {
			out[i] = kv
			continue
		}
		seen[k] = len(out)
		out = append(out, kv)
	}
	return out
}

func (p *procRunner) sysProcAttr(uid int) *syscall.SysProcAttr {
	if !p.isolate {
		return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	}
	a := &syscall.SysProcAttr{
		Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID |
			syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS,
		Credential: &syscall.Credential{Uid: 0, Gid: 0, NoSetGroups: true},
		Pdeathsig:  syscall.SIGKILL,
	}
	if p.root {
		// The init is root of the namespace mapped to host root, so that it
		// can reach any workspace path; the job itself runs as nobody of
		// the namespace, which is uid (a host uid of its own, see
		// uids_linux.go), with no capability.
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}, {ContainerID: nobody, HostID: uid, Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}, {ContainerID: nobody, HostID: uid, Size: 1}}
		a.GidMappingsEnableSetgroups = true
		a.Credential.NoSetGroups = false
	} else {
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
	}
	return a
}

// rlimits are the job's resource limits. ownUser: the job's processes are
// counted apart from every other's for RLIMIT_NPROC, which holds in a
// user namespace of the job's own (the kernel counts processes per user
// per namespace): a host uid of its own when the caller is root, else the
// init's uid in the job's namespace, which the init allows for.
func rlimits(lim exec.Limits, cg *jobCgroup, ownUser bool) []rlimit {
	var out []rlimit
	if lim.CPUTime > 0 {
		secs := uint64((lim.CPUTime + time.Second - 1) / time.Second)
		out = append(out, rlimit{unix.RLIMIT_CPU, secs, secs + 1})
	}
	if set(lim.FileSize) {
		out = append(out, rlimit{unix.RLIMIT_FSIZE, uint64(lim.FileSize), uint64(lim.FileSize)})
	}
	if lim.OpenFiles > 0 {
		out = append(out, rlimit{unix.RLIMIT_NOFILE, uint64(lim.OpenFiles), uint64(lim.OpenFiles)})
	}
	out = append(out, rlimit{unix.RLIMIT_CORE, 0, 0})
	if set(lim.Memory) && (cg == nil || cg.memory == "") {
		out = append(out, rlimit{unix.RLIMIT_AS, uint64(lim.Memory), uint64(lim.Memory)})
	}
	if lim.Processes > 0 && (cg == nil || cg.pids == "") && ownUser {
		out = append(out, rlimit{unix.RLIMIT_NPROC, uint64(lim.Processes), uint64(lim.Processes)})
	}
	return out
}

func chownTree(root string, uid, gid int) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, uid, gid)
	})
}

// chownBack gives a workspace the job wrote back to the caller, as far as
// it goes: it never follows a link, and passes over what it cannot reach
// (a job's tree nested past PATH_MAX).
func chownBack(root string, uid, gid int) {
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil {
			os.Lchown(path, uid, gid)
		}
		return nil
	})
}

// initEnv is the init process's own environment (the job's is sent in the
// config). A fixed GOMAXPROCS spares the Go runtime its cgroup lookup at
// start-up, and the init allocates too little to need a collector.
var initEnv = []string{"GOMAXPROCS=1", "GOGC=off"}

// initStageError is a failure of the init after the namespaces were made.
type initStageError struct{ stage, err string }

func (e *initStageError) Error() string {
	return fmt.Sprintf("exec: sandbox init failed at %s: %s", e.stage, e.err)
}

// binds is the list of extra read-only paths of a job: the runner's and
// the job's, absolute and clean, each once.
func (p *procRunner) binds(job []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, list := range [][]string{p.cfg.ReadOnly, job} {
		for _, b := range list {
			if !filepath.IsAbs(b) {
				continue
			}
			b = filepath.Clean(b)
			if !seen[b] && b != "/" {
				seen[b] = true
				out = append(out, b)
			}
		}
	}
	return out
}
