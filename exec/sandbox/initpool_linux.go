package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// initProc is a started init process waiting for its job. Starting one
// costs a few milliseconds (namespaces, and the Go runtime of this binary
// starting again), so a runner keeps a few started ahead of need, as
// go-judge keeps a pool of ready containers: the cost then overlaps the
// previous job instead of adding to the next one.
type initProc struct {
	cmd     *osexec.Cmd
	cfgW    *os.File // the init reads its job from here
	statusR *os.File // the init reports here
	stdinW  *os.File
	stdoutR *os.File
	stderrR *os.File
	// diskW hands the init its workspace tmpfs (a mount descriptor).
	diskW *os.File
	// cg holds the init from its start, so that the job's processes are in
	// it from theirs. Moving a process into a cgroup v1 waits for an RCU
	// grace period (milliseconds), so it is done here, ahead of the job.
	cg *jobCgroup
	// uid is the host uid the job runs as (and owns its user namespace),
	// from hostUIDs when the caller is root, else 0 (the caller's own).
	uid         int
	releaseOnce sync.Once
	// dec reads the init's reports (and its readiness once reused) from
	// statusR, whose buffered bytes it keeps between jobs.
	dec *json.Decoder
	// shape is the shape of the jobs a reused init takes (jobShape); empty
	// for an init that has had no job.
	shape string
	// jobs counts the jobs the init has run.
	jobs int
}

// prestart is how many started inits a runner keeps ready. Starting one
// and moving it into its cgroups takes longer than a short job (the move
// waits for an RCU grace period on cgroup v1), so several start at once.
var prestart = max(4, 2*runtime.NumCPU())

type initPool struct {
	mu      sync.Mutex
	idle    []*initProc
	filling int
	fills   sync.WaitGroup
	closed  bool
	// warm holds reused inits ready for a job of their shape, the least
	// recently used first; at most maxWarm.
	warm []*initProc
	// recycling counts, per shape, the inits getting ready for another
	// job; ready is signalled when one is done.
	recycling map[string]int
	ready     sync.Cond
}

// maxWarm is how many reused inits a runner keeps ready. A job whose
// shape has none ready takes a new init (or waits for one of its shape
// that is getting ready, when no new one is ready either), and a new init
// costs several milliseconds of CPU to start and end: on a loaded machine
// an init takes long to get ready again, and the next jobs of the shape
// need several in turn.
var maxWarm = 2 * prestart

// maxWaitReady bounds how long a job waits for an init of its shape to get
// ready before it starts one; readyTimeout, how long an init may take to
// get ready before it is killed.
const (
	maxWaitReady = 50 * time.Millisecond
	readyTimeout = 10 * time.Second
)

// take returns a ready init: a reused one of the job's shape if there is
// one, else a new one, starting one if none is ready (and a replacement in
// the background).
func (p *procRunner) take(shape string) (*initProc, error) {
	p.pool.mu.Lock()
	var ip *initProc
	var deadline time.Time
	for shape != "" {
		for i := len(p.pool.warm) - 1; i >= 0; i-- {
			if p.pool.warm[i].shape == shape {
				ip = p.pool.warm[i]
				p.pool.warm = append(p.pool.warm[:i], p.pool.warm[i+1:]...)
				p.pool.mu.Unlock()
				return ip, nil
			}
		}
		if len(p.pool.idle) > 0 || p.pool.recycling[shape] == 0 || p.pool.closed {
			break
		}
		// Nothing is ready, and an init of this shape soon will be: it
		// costs less than starting one. Not for long, though.
		if deadline.IsZero() {
			deadline = time.Now().Add(maxWaitReady)
			time.AfterFunc(maxWaitReady, func() {
				p.pool.mu.Lock()
				p.pool.ready.Broadcast()
				p.pool.mu.Unlock()
			})
		} else if time.Now().After(deadline) {
			break
		}
		p.pool.ready.Wait()
	}
	if n := len(p.pool.idle); n > 0 {
		ip = p.pool.idle[n-1]
		p.pool.idle = p.pool.idle[:n-1]
	}
	p.refillLocked()
	p.pool.mu.Unlock()
	if ip != nil {
		return ip, nil
	}
	return p.spawn()
}

func (p *procRunner) refillLocked() {
	for !p.pool.closed && len(p.pool.idle)+p.pool.filling < prestart {
		p.pool.filling++
		p.pool.fills.Add(1)
		go func() {
			defer p.pool.fills.Done()
			ip, err := p.spawn()
			p.pool.mu.Lock()
			defer p.pool.mu.Unlock()
			p.pool.filling--
			if err != nil {
				return // the next take starts one itself and reports the error
			}
			if p.pool.closed {
				ip.discard()
				return
			}
			p.pool.idle = append(p.pool.idle, ip)
		}()
	}
}

// recycling notes that an init of shape is getting ready for another job.
func (p *procRunner) recycling(shape string) {
	p.pool.mu.Lock()
	if p.pool.recycling == nil {
		p.pool.recycling = map[string]int{}
	}
	p.pool.recycling[shape]++
	p.pool.mu.Unlock()
}

// recycled notes that an init of shape got ready (ip) or did not (nil) and
// returns it to the pool; the least recently used one goes when there are
// too many.
func (p *procRunner) recycled(shape string, ip *initProc) {
	p.pool.mu.Lock()
	if p.pool.recycling[shape]--; p.pool.recycling[shape] == 0 {
		delete(p.pool.recycling, shape)
	}
	p.pool.ready.Broadcast()
	var evict *initProc
	switch {
	case ip == nil:
	case p.pool.closed:
		evict = ip
	default:
		p.pool.warm = append(p.pool.warm, ip)
		if len(p.pool.warm) > maxWarm {
			evict = p.pool.warm[0]
			p.pool.warm = p.pool.warm[1:]
		}
	}
	p.pool.mu.Unlock()
	if evict != nil {
		evict.discard()
	}
}

// close kills the ready inits; later jobs start their own.
func (p *procRunner) close() {
	p.pool.mu.Lock()
	idle := append(p.pool.idle, p.pool.warm...)
	p.pool.idle, p.pool.warm, p.pool.closed = nil, nil, true
	p.pool.ready.Broadcast()
	p.pool.mu.Unlock()
	for _, ip := range idle {
		ip.discard()
	}
	p.pool.fills.Wait()
	p.reaping.Wait()
}

func (p *procRunner) spawn() (*initProc, error) {
	var files []*os.File
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	fail := func(err error) (*initProc, error) {
		for _, f := range files {
			f.Close()
		}
		return nil, fmt.Errorf("exec: start sandbox init: %w", err)
	}
	cfgR, cfgW, err := pipe()
	if err != nil {
		return fail(err)
	}
	stR, stW, err := pipe()
	if err != nil {
		return fail(err)
	}
	inR, inW, err := pipe()
	if err != nil {
		return fail(err)
	}
	outR, outW, err := pipe()
	if err != nil {
		return fail(err)
	}
	errR, errW, err := pipe()
	if err != nil {
		return fail(err)
	}
	uid := 0
	if p.isolate && p.root {
		if uid, err = hostUIDs.take(); err != nil {
			return fail(err)
		}
	}
	// The socket the job's descriptors come on (its stdio when the init
	// is reused, its workspace, its results channel): unsandboxed too.
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fail(err)
	}
	diskR, diskW := os.NewFile(uintptr(pair[0]), "disk"), os.NewFile(uintptr(pair[1]), "disk")
	files = append(files, diskR, diskW)
	extra := []*os.File{cfgR, stW, diskR}
	cmd := &osexec.Cmd{
		Path:        "/proc/self/exe",
		Args:        p.initArgs(),
		Env:         initEnv,
		Dir:         "/",
		Stdin:       inR,
		Stdout:      outW,
		Stderr:      errW,
		ExtraFiles:  extra,
		SysProcAttr: p.sysProcAttr(uid),
	}
	if uid != 0 {
		err = startAs(cmd, uid)
	} else {
		err = cmd.Start()
	}
	if err != nil {
		if uid != 0 {
			hostUIDs.release(uid)
		}
		return fail(err)
	}
	for _, f := range []*os.File{cfgR, stW, inR, outW, errW, diskR} {
		if f != nil {
			f.Close()
		}
	}
	ip := &initProc{cmd: cmd, cfgW: cfgW, statusR: stR, stdinW: inW, stdoutR: outR, stderrR: errR, diskW: diskW, uid: uid,
		dec: json.NewDecoder(stR)}
	if !p.cfg.NoCgroups {
		cg, err := p.cg.create()
		if err == nil {
			err = cg.add(cmd.Process.Pid)
		}
		ip.cg = cg
		if err != nil {
			ip.discard()
			return nil, err
		}
	}
	if ip.cg == nil {
		// No cgroups: limits rest on rlimits, and CPU time on /proc.
		ip.cg = &jobCgroup{layout: &p.cg}
	}
	ip.cg.tree = cmd.Process.Pid
	if p.isolate {
		ip.cg.proc = receiveProc(ip.diskW)
	}
	return ip, nil
}

// receiveProc receives the job's /proc from an isolating init (sendProc),
// once its root is prepared; nil when the init sent none, ended first, or
// took longer than readyTimeout (its job then fails or is stopped at its
// limits, and its processes are read from the host's /proc meanwhile).
func receiveProc(sock *os.File) *os.File {
	buf := make([]byte, 1)
	oob := make([]byte, unix.CmsgSpace(4))
	tv := unix.NsecToTimeval(readyTimeout.Nanoseconds())
	if unix.SetsockoptTimeval(int(sock.Fd()), unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv) != nil {
		return nil
	}
	for {
		_, oobn, _, _, err := unix.Recvmsg(int(sock.Fd()), buf, oob, unix.MSG_CMSG_CLOEXEC)
		if err == unix.EINTR {
			continue
		}
		if err != nil || oobn == 0 {
			return nil
		}
		msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
		if err != nil || len(msgs) != 1 {
			return nil
		}
		fds, err := unix.ParseUnixRights(&msgs[0])
		if err != nil || len(fds) != 1 {
			for _, fd := range fds {
				unix.Close(fd)
			}
			return nil
		}
		return os.NewFile(uintptr(fds[0]), "job proc")
	}
}

// kill kills the init; in a PID namespace that kills every process of the
// job. Unisolated, it also kills the init's process group.
func (ip *initProc) kill(isolate bool) {
	ip.cmd.Process.Kill()
	if !isolate {
		syscall.Kill(-ip.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// discard kills an init that never got a job and releases its pipes.
func (ip *initProc) discard() {
	ip.cmd.Process.Kill()
	ip.wait()
	ip.closeFiles()
	ip.cg.remove()
}

// wait waits for the init to exit and gives its host uid back: no process
// of its namespace is left.
func (ip *initProc) wait() error {
	err := ip.cmd.Wait()
	ip.releaseOnce.Do(func() {
		if ip.uid != 0 {
			hostUIDs.release(ip.uid)
		}
	})
	return err
}

func (ip *initProc) closeFiles() {
	ip.closeStdio()
	for _, f := range []*os.File{ip.cfgW, ip.statusR, ip.diskW} {
		if f != nil {
			f.Close()
		}
	}
}

// closeStdio closes this side of the job's stdin, stdout and stderr.
func (ip *initProc) closeStdio() { closeAll(ip.stdio()) }

// stdio is this side of the present job's stdin, stdout and stderr.
func (ip *initProc) stdio() []*os.File { return []*os.File{ip.stdinW, ip.stdoutR, ip.stderrR} }

func closeAll(files []*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}

// newStdio makes the pipes of a reused init's next job and returns the
// init's ends, to be sent to it and closed.
func (ip *initProc) newStdio() (theirs []int, err error) {
	var p [3][2]int
	for i := range p {
		if err := unix.Pipe2(p[i][:], unix.O_CLOEXEC); err != nil {
			for _, q := range p[:i] {
				unix.Close(q[0])
				unix.Close(q[1])
			}
			return nil, err
		}
	}
	// This side's ends go through the poller, as os.Pipe's do.
	ours := func(fd int, name string) *os.File {
		unix.SetNonblock(fd, true)
		return os.NewFile(uintptr(fd), name)
	}
	ip.stdinW, ip.stdoutR, ip.stderrR = ours(p[0][1], "stdin"), ours(p[1][0], "stdout"), ours(p[2][0], "stderr")
	return []int{p[0][0], p[1][1], p[2][1]}, nil
}

// pump copies the job's stdin in and its stdout and stderr out. wait ends
// the copying: it waits for the output pipes to reach end of file, at most
// grace, then closes them.
func (ip *initProc) pump(stdin io.Reader, stdout, stderr io.Writer) (wait func(grace time.Duration)) {
	// This job's pipes: once the job has reported, a reused init may be
	// taken by the next job, with pipes of its own, while these drain.
	stdinW, stdoutR, stderrR := ip.stdinW, ip.stdoutR, ip.stderrR
	var wg sync.WaitGroup
	copyOut := func(w io.Writer, r *os.File) {
		defer wg.Done()
		io.Copy(w, r)
	}
	wg.Add(2)
	go copyOut(stdout, stdoutR)
	go copyOut(stderr, stderrR)
	if stdin == nil {
		stdinW.Close()
	} else {
		go func() {
			io.Copy(stdinW, stdin)
			stdinW.Close()
		}()
	}
	return func(grace time.Duration) {
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(grace):
			// A process outside our reach still holds the pipes.
			stdoutR.SetReadDeadline(time.Now())
			stderrR.SetReadDeadline(time.Now())
			<-done
		}
	}
}

// initArgs is the init's command line: an isolating init prepares the
// job's root before it has a job.
func (p *procRunner) initArgs() []string {
	if p.isolate {
		return []string{initArg0, "isolate"}
	}
	return []string{initArg0}
}
