# The Python fork server of package exec (see forkserver_linux.go). It runs
# inside a sandbox job as
#
#     python3 -I -B -c <this file>
#
# and reads its configuration as the first line of stdin: JSON naming the
# modules to import once and the programs to compile once (the test
# drivers' reporters). It then forks a zygote,
# and reads one JSON request a line on stdin and answers each with one
# JSON line on stdout.
#
# Two processes, so that no job is ever forked from a process that held
# another job's data:
#
#   - the server writes a request's files to /tmp/work, hands the zygote
#     the job's pipes and a memfd holding the request over a unix socket,
#     reads the job's output, enforces the wall limit, kills what is left,
#     copies back the files the job wrote and wipes /tmp and /dev/shm;
#   - the zygote, forked before any job, only receives descriptors: it
#     forks the child, waits for it and sends back its wait status and
#     rusage from a buffer it clears, never reading the request. The child
#     reads the request from the memfd and becomes a fresh-looking
#     `python3 -c CODE ARGS` or `python3 FILE ARGS` in /tmp/work.
#
# One request at a time: nothing of one child outlives it.
import base64
import builtins
import ctypes
import errno
import gc
import importlib
import json
import marshal
import os
import resource
import select
import shutil
import signal
import socket
import struct
import stat
import sys
import time
import traceback

WORK = '/tmp/work'
_b64 = base64.b64encode
_unb64 = base64.b64decode


def _preload(names):
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:
            pass
    if 'pytest' in sys.modules:
        # pytest.main imports its default plugins and looks up every
        # installed distribution's entry points in each job: import them
        # here (pytest imports them before its assertion-rewriting hook is
        # installed, so a job sees no difference; pytester, which is not a
        # default plugin and is rewritten when a run asks for it, is left
        # out), and let the children share importlib.metadata's cached
        # directory listings (looked up again if a directory changes).
        try:
            from _pytest.config import default_plugins
        except Exception:
            default_plugins = ()
        for name in default_plugins:
            try:
                importlib.import_module('_pytest.' + name)
            except Exception:
                pass
        try:
            importlib.import_module('importlib.metadata').entry_points(group='pytest11')
        except Exception:
            pass


# Everything below walks what a job left: iteratively (a job's 10,000
# nested directories must not raise RecursionError here), with lstat only
# (no link is ever followed), and with caps on what it reads.
MAX_ENTRIES = 50000


def _remove_tree(path):
    # rm -rf that never follows a link, never recurses in Python and holds
    # two descriptors at most, so that no depth (a job can nest directories
    # past PATH_MAX) stops it: it descends by openat and climbs back by
    # "..", with the names on its way in a list. A directory the job made
    # unwritable (chmod 000) gets its owner's rights back first.
    try:
        st = os.lstat(path)
    except OSError:
        return
    if not stat.S_ISDIR(st.st_mode):
        try:
            os.unlink(path)
        except OSError:
            pass
        return
    parent, name = os.path.split(path.rstrip('/'))
    try:
        os.chmod(path, 0o700)
        cur = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return
    names = []
    try:
        while True:
            down = None
            try:
                entries = list(os.scandir(cur))
            except OSError:
                entries = []
            for e in entries:
                try:
                    is_dir = stat.S_ISDIR(os.lstat(e.name, dir_fd=cur).st_mode)
                except OSError:
                    continue
                if is_dir:
                    if down is None:
                        down = e.name
                    continue
                try:
                    os.unlink(e.name, dir_fd=cur)
                except OSError:
                    pass
            if down is not None:
                try:
                    os.chmod(down, 0o700, dir_fd=cur)
                    nxt = os.open(down, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=cur)
                except OSError:
                    try:
                        os.rmdir(down, dir_fd=cur)
                    except OSError:
                        return  # cannot go further: leave it
                    continue
                os.close(cur)
                cur = nxt
                names.append(down)
                continue
            if not names:
                break
            up = os.open('..', os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=cur)
            os.close(cur)
            cur = up
            try:
                os.rmdir(names.pop(), dir_fd=cur)
            except OSError:
                return
    finally:
        os.close(cur)
    try:
        os.rmdir(path)
    except OSError:
        pass


def _wipe(path):
    try:
        entries = os.listdir(path)
    except OSError:
        return
    for e in entries:
        _remove_tree(os.path.join(path, e))


def _snapshot():
    # What is under WORK: relative path -> (size, mtime, regular?), and the
    # number of entries it could not list (too deep, too many).
    snap = {}
    stack = ['']
    seen = skipped = 0
    while stack:
        rel = stack.pop()
        try:
            it = os.scandir(os.path.join(WORK, rel) if rel else WORK)
        except OSError:
            skipped += 1
            continue
        with it:
            for e in it:
                seen += 1
                if seen > MAX_ENTRIES:
                    return snap, skipped + 1
                r = rel + '/' + e.name if rel else e.name
                try:
                    st = e.stat(follow_symlinks=False)
                except OSError:
                    skipped += 1
                    continue
                if stat.S_ISDIR(st.st_mode):
                    stack.append(r)
                else:
                    snap[r] = (st.st_size, st.st_mtime_ns, stat.S_ISREG(st.st_mode))
    return snap, skipped


def _read_regular(path, limit):
    # At most limit bytes of a regular file, opened without following a
    # link and without blocking (a FIFO); None for anything else.
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, left = [], limit
        while left > 0:
            b = os.read(fd, min(left, 1 << 20))
            if not b:
                break
            chunks.append(b)
            left -= len(b)
        return b''.join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


class _Capture:
    # The first and last keep/2 bytes of a stream, and its length.
    def __init__(self, keep):
        self.keep, self.count = keep, 0
        self.head, self.tail = bytearray(), bytearray()

    def feed(self, b):
        self.count += len(b)
        half = self.keep // 2
        if len(self.head) < self.keep and self.count <= self.keep:
            self.head += b
            return
        if len(self.head) > half:
            self.tail, self.head = self.head[half:], self.head[:half]
        self.tail += b
        if len(self.tail) > half:
            del self.tail[:len(self.tail) - half]

    def value(self):
        if self.count <= self.keep:
            return bytes(self.head)
        return bytes(self.head) + b'\n... [%d bytes omitted] ...\n' % (self.count - len(self.head) - len(self.tail)) + bytes(self.tail)


class _Head:
    # The first cap bytes of the results channel.
    def __init__(self, cap):
        self.cap, self.count, self.buf = cap, 0, bytearray()

    def feed(self, b):
        self.count += len(b)
        if len(self.buf) < self.cap:
            self.buf += b[:self.cap - len(self.buf)]

    def value(self):
        return bytes(self.buf)


def _drain(fd, cap, limit):
    # Reads what the pipe holds now (up to limit bytes); False at its end.
    try:
        b = os.read(fd, limit)
    except BlockingIOError:
        return True
    except OSError:
        return False
    if not b:
        return False
    cap.feed(b)
    return True


MEMORY_FD = 1023

# What the zygote sends back when a child ends: the si_code and si_status
# of its waitid, then its struct rusage (x86-64 and arm64 layout: two
# timevals, then 14 longs).
_STATUS = struct.Struct('=iiqqqq14q')
CLD_EXITED = 1


def _child(fds, programs):
    # Runs in a child of the zygote; never returns. fds are the job's
    # stdout, stderr and memory-mark pipes and the memfd holding its
    # request. Its stdout and stderr are pipes the server reads: nothing
    # the job does takes back what it wrote.
    try:
        out_w, err_w, mem_w, req_fd = fds[:4]
        os.setsid()
        # The request: its JSON head, the job's stdin, the compiled code.
        # The stdin (the results channel's nonce) is read into a buffer
        # that is zeroed once it is in the pipe, and never becomes a Python
        # object: a process the job forks later (the answer's, see the
        # reporters' isolate.py) finds no copy of it in its memory.
        raw = bytearray(os.fstat(req_fd).st_size)
        view, got = memoryview(raw), 0
        while got < len(raw):
            n = os.readv(req_fd, [view[got:]])
            if not n:
                break
            got += n
        nl = raw.index(b'\n')
        req = json.loads(bytes(view[:nl]))
        n_in = req.get('stdin_len') or 0
        stdin = view[nl + 1:nl + 1 + n_in]
        blob = bytes(view[nl + 1 + n_in:got])
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        os.dup2(mem_w, MEMORY_FD)
        r, w = os.pipe()
        if len(stdin) <= 60000:
            os.write(w, stdin)
            os.close(w)
            os.dup2(r, 0)
            os.close(r)
        else:
            os.close(r)
            os.close(w)
            fd = os.open('/dev/null', os.O_RDONLY)
            os.dup2(fd, 0)
            os.close(fd)
        keep = MEMORY_FD
        if len(fds) > 4:
            # The results channel becomes descriptor 3.
            keep = MEMORY_FD - 1
            os.dup2(fds[4], keep)
        os.closerange(3, keep)
        os.closerange(MEMORY_FD + 1, 65536)
        if len(fds) > 4:
            os.dup2(MEMORY_FD - 1, 3)
            os.close(MEMORY_FD - 1)
        os.chdir(WORK)
        os.environ.clear()
        os.environ.update(req.get('env') or {})
        for name, soft, hard in req.get('rlimits') or []:
            resource.setrlimit(getattr(resource, name), (soft, hard))
        if req.get('threads_fit'):
            # Under RLIMIT_AS every thread's reserved address space counts,
            # not only what it uses: glibc gives each a 64 MiB malloc arena
            # and Python an 8 MiB stack, so 256 MiB would hold 3 threads.
            # One arena, and stacks of 1 MiB reserved (Python needs far
            # less for its recursion limit), make room for as many threads
            # as the Sandbox's memory cgroup would.
            ctypes.CDLL(None).mallopt(-8, 1)  # M_ARENA_MAX
            import _thread  # threading's stack_size, without importing it
            _thread.stack_size(1 << 20)
        sys.stdin = open(0, 'r', closefd=False)
        sys.stdout = open(1, 'w', buffering=1, closefd=False)
        sys.stderr = open(2, 'w', buffering=1, closefd=False)
        sys.dont_write_bytecode = True
        main = type(sys)('__main__')
        main.__dict__['__builtins__'] = builtins
        sys.modules['__main__'] = main
        mode, target, args = req['mode'], req['target'], req.get('args') or []
        if req.get('no_site'):
            import site
            added = set(site.getsitepackages())
            sys.path[:] = [p for p in sys.path if p not in added]
        if mode == 'c':
            sys.argv = ['-c'] + args
            if not req.get('isolated'):
                sys.path.insert(0, '')
            code = programs.get(req.get('program') or target)
            if code is None and blob:
                code = marshal.loads(blob)
            if code is None:
                code = compile(target, '<string>', 'exec')
        else:
            path = os.path.join(WORK, target) if not target.startswith('/') else target
            sys.argv = [target] + args
            if not req.get('isolated'):
                sys.path.insert(0, os.path.dirname(path))
            with open(path, 'rb') as f:
                code = compile(f.read(), target, 'exec')
            main.__dict__['__file__'] = target
        run = None
        if mode == 'c' and req.get('program') in _defined:
            run = _defined[req['program']]['main']
        stdin[:] = bytes(len(stdin))
        stdin.release()
        view.release()
        del raw, view, blob, req, stdin
        status = 0
        try:
            if run is not None:
                run()
            else:
                exec(code, main.__dict__)
        except SystemExit as e:
            c = e.code
            if c is None:
                status = 0
            elif isinstance(c, int):
                status = c & 0xff
            else:
                try:
                    print(c, file=sys.stderr)
                except Exception:
                    pass
                status = 1
        except MemoryError:
            status = 1
            try:
                os.write(MEMORY_FD, b'm')
                traceback.print_exc()
            except BaseException:
                pass
        except BaseException:
            status = 1
            try:
                traceback.print_exc()
            except BaseException:
                pass
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            pass
        os._exit(status)
    except BaseException:
        try:
            os.write(2, traceback.format_exc().encode())
        except BaseException:
            pass
        os._exit(120)


def _reap_all():
    # Reaps every child of the zygote that has ended but its job's own
    # (reaped after its report): the seccomp filter refuses the job
    # clone(CLONE_PARENT), but a child it gave the zygote anyway would
    # otherwise stay a zombie, holding a pid of every later job's budget
    # and a name they could read. By the next job the server has killed
    # them all.
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        except InterruptedError:
            continue
        if pid == 0:
            return


class _Waited(ctypes.Structure):
    # siginfo_t (128 bytes: si_code at 8, si_status at 24) and rusage.
    _fields_ = [('info', ctypes.c_int * 32), ('ru', ctypes.c_long * 18)]


def _zygote(sock, programs):
    # Never returns. Forks one child per message and reports how it ended.
    # Nothing a job sends or produces passes through here: the message is
    # one byte with four descriptors (five with a results channel), and the
    # status and rusage go from a ctypes buffer straight to the socket and
    # are cleared.
    try:
        fd = os.open('/dev/null', os.O_RDWR)
        os.dup2(fd, 0)
        os.dup2(fd, 1)
        os.close(fd)
        libc = ctypes.CDLL(None, use_errno=True)
        waited = _Waited()
        size = ctypes.sizeof(waited)
        report = ctypes.create_string_buffer(_STATUS.size)
        sfd = sock.fileno()
        while True:
            try:
                msg, anc, _, _ = sock.recvmsg(1, socket.CMSG_SPACE(5 * 4))
            except InterruptedError:
                continue
            if not msg:
                os._exit(0)
            fds = []
            for level, kind, data in anc:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    fds.extend(struct.unpack('=%di' % (len(data) // 4), data[:len(data) - len(data) % 4]))
            if len(fds) not in (4, 5):
                os._exit(3)
            _reap_all()
            pid = os.fork()
            if pid == 0:
                sock.close()
                _child(fds, programs)
            for f in fds:
                os.close(f)
            sock.send(struct.pack('=i', pid))
            # waitid(P_PID, pid, WEXITED|WNOWAIT) with its rusage: the
            # child stays a zombie until the server has its status, so
            # that a job that kills this process right after loses
            # nothing (the zombie then goes to the server).
            while libc.syscall(247, 1, pid, ctypes.byref(waited), 4 | 0x01000000, ctypes.byref(waited, 128)) < 0:
                if ctypes.get_errno() != errno.EINTR:
                    os._exit(4)
            ctypes.memmove(report, ctypes.byref(waited, 8), 4)  # si_code
            ctypes.memmove(ctypes.byref(report, 4), ctypes.byref(waited, 24), 4)  # si_status
            ctypes.memmove(ctypes.byref(report, 8), ctypes.byref(waited, 128), 144)
            libc.send(sfd, report, _STATUS.size, 0)
            ctypes.memset(ctypes.byref(waited), 0, size)
            ctypes.memset(report, 0, _STATUS.size)
            while libc.wait4(pid, None, 0, None) < 0 and ctypes.get_errno() == errno.EINTR:
                pass
    except BaseException:
        os._exit(5)


_libc = ctypes.CDLL(None, use_errno=True)


def _remove_ipc():
    # SysV shared memory, message queues and semaphores outlive the job
    # that made them (and shared memory stays charged to this server's
    # memory cgroup): remove every one this IPC namespace holds. (POSIX
    # message queues are denied by the seccomp filter; POSIX shared memory
    # and semaphores are files in /dev/shm, which is wiped.)
    # A segment still attached is only marked for removal and stays listed
    # until its last detach: every job process is gone by now, but the
    # host's memory poll may hold a dead process's address space for a
    # moment (reading its smaps), and under load that moment lasted until
    # the next job looked. Wait for the lists to empty; if they do not, the
    # server is replaced (its IPC namespace goes with it), so the next job
    # never sees what this one left. Returns whether they emptied.
    deadline = time.monotonic() + 2
    while True:
        left = 0
        for kind, ctl in (('shm', _libc.shmctl), ('msg', _libc.msgctl), ('sem', _libc.semctl)):
            try:
                with open('/proc/sysvipc/' + kind) as f:
                    lines = f.read().splitlines()[1:]
            except OSError:
                continue
            for line in lines:
                fields = line.split()
                if len(fields) > 1:
                    left += 1
                    ctl(int(fields[1]), 0, None)  # IPC_RMID
        if not left:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)


def _pids():
    out = []
    for name in os.listdir('/proc'):
        if name.isdigit():
            out.append(int(name))
    return out


def _zygote_zombie(pid, zygote):
    # Whether pid is a process that has ended and that the zygote has yet
    # to reap (the job's child, right after its report): dead, holding
    # nothing but its pid until the zygote takes it.
    try:
        with open('/proc/%d/stat' % pid, 'rb') as f:
            fields = f.read().rsplit(b')', 1)[1].split()
    except OSError:
        return True  # gone already
    return fields[0] == b'Z' and int(fields[1]) == zygote


def _kill_all(keep):
    # Kill every process of this PID namespace but us, the zygote (keep)
    # and the init (which the kernel spares), and reap those that come back
    # to us (we are their subreaper), until none is left but zombies the
    # zygote reaps.
    spare = {1, os.getpid(), keep}
    while True:
        left = [p for p in _pids() if p not in spare]
        if not left or all(_zygote_zombie(p, keep) for p in left):
            return
        for p in left:
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
        reaped = False
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            except InterruptedError:
                continue
            if pid == 0:
                break
            reaped = True
        if not reaped:
            time.sleep(0.0002)


class _Zygote:
    # The server's end of the zygote.
    def __init__(self, programs):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            ours.close()
            if _pid_reset['fd'] is not None:
                os.close(_pid_reset['fd'])
            _zygote(theirs, programs)
        theirs.close()
        self.pid, self.sock = pid, ours

    def alive(self):
        # A job may have stopped the zygote (it has our uid): resume it.
        # One that is gone cannot be replaced (we are no longer clean).
        try:
            os.kill(self.pid, signal.SIGCONT)
            with open('/proc/%d/stat' % self.pid) as f:
                state = f.read().rsplit(')', 1)[1].split()[0]
        except OSError:
            return False
        return state not in ('Z', 'X', 'x')


def serve(req, zyg):
    os.makedirs(WORK, exist_ok=True)
    for rel in req.get('dirs') or []:
        os.makedirs(os.path.join(WORK, rel), exist_ok=True)
    for rel, data in (req.get('files') or {}).items():
        p = os.path.join(WORK, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'wb') as f:
            f.write(_unb64(data))
    before, _ = _snapshot()
    if req.get('program') and req['program'] not in _programs:
        raise _NotRun('program %r is not compiled here' % req['program'])
    wall = req.get('wall') or 0
    blob = b''
    if req['mode'] == 'c' and not req.get('program') and req['target'] not in _programs:
        blob = _codecache.get(req['target'])
        if blob is None:
            try:
                blob = marshal.dumps(compile(req['target'], '<string>', 'exec'))
                if len(_codecache) > 64:
                    _codecache.clear()
                _codecache[req['target']] = blob
            except BaseException:
                blob = b''  # the child compiles it again and reports the error
    keep = req.get('keep') or 65536
    output = req.get('output') or 0
    caps = [_Capture(keep), _Capture(keep)]
    job = {k: req.get(k) for k in ('mode', 'target', 'program', 'args', 'env', 'rlimits', 'no_site', 'isolated', 'threads_fit')}
    stdin = _unb64(req.get('stdin') or '')
    job['stdin_len'] = len(stdin)
    mfd = os.memfd_create('job', os.MFD_CLOEXEC)
    os.write(mfd, json.dumps(job).encode() + b'\n' + stdin + blob)
    os.lseek(mfd, 0, os.SEEK_SET)
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    mem_r, mem_w = os.pipe()
    send, ours = [out_w, err_w, mem_w, mfd], [out_r, err_r, mem_r]
    if req.get('results'):
        # The reporter's results channel: a pipe only we read.
        res_r, res_w = os.pipe()
        send.append(res_w)
        ours.append(res_r)
    start = time.monotonic()
    try:
        zyg.sock.sendmsg([b'j'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack('=%di' % len(send), *send))])
        got = zyg.sock.recv(64)
    except OSError:
        got = b''
    for fd in send:
        os.close(fd)
    if len(got) != 4:
        for fd in ours:
            os.close(fd)
        raise _NotRun('the zygote is gone')
    pid = struct.unpack('=i', got)[0]
    _state['ran'] = True
    try:
        pfd = os.pidfd_open(pid)
    except OSError:
        pfd = None  # already ended (and reaped): the zygote's report follows
    timed_out = out_over = killed = resumed = orphan = False
    poll = select.poll()
    zfd = zyg.sock.fileno()
    poll.register(zfd, select.POLLIN)
    if pfd is not None:
        poll.register(pfd, select.POLLIN)
    streams = {out_r: caps[0], err_r: caps[1]}
    if len(ours) > 3:
        streams[ours[3]] = _Head(32 << 20)  # maxReport
    for fd in streams:
        os.set_blocking(fd, False)
        poll.register(fd, select.POLLIN)
    waited = None
    report_by = None  # when the zygote's report is due (the child has ended)
    while True:
        now = time.monotonic()
        waits = []
        if wall > 0 and not killed:
            waits.append(wall - (now - start))
        if report_by is not None:
            waits.append(report_by - now)
        t = min(waits) if waits else None
        events = poll.poll(None if t is None else max(0, int(t * 1000) + 1))
        for fd, ev in events:
            if fd == zfd:
                try:
                    b = zyg.sock.recv(_STATUS.size)
                except OSError:
                    b = b''
                if len(b) == _STATUS.size:
                    waited = _reported(b)
                    continue
                # The job killed the zygote: its child is ours once the
                # zygote is reaped, and we wait for it ourselves.
                poll.unregister(zfd)
                try:
                    os.waitpid(zyg.pid, 0)
                except ChildProcessError:
                    pass
                orphan = True
                if pfd is None or report_by is not None:
                    waited = _take_child(zyg, pid)  # it has ended
            elif fd == pfd:
                poll.unregister(pfd)
                if orphan:
                    waited = _take_child(zyg, pid)
                elif report_by is None:
                    report_by = time.monotonic() + 1.0
            elif not _drain(fd, streams[fd], 1 << 16):
                poll.unregister(fd)
        if waited is not None:
            break
        now = time.monotonic()
        if report_by is not None and now >= report_by:
            if resumed:
                waited = _take_child(zyg, pid)
                break
            # The child ended and the zygote did not say so: the job
            # stopped it (it has our uid). Resume it once.
            zyg.alive()
            resumed, report_by = True, now + 1.0
            continue
        if killed:
            continue
        if output and caps[0].count + caps[1].count > output:
            out_over = True
        elif wall > 0 and now - start >= wall:
            timed_out = True
        else:
            continue
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        killed = True
        if report_by is None:
            report_by = now + 1.0
    if pfd is not None:
        os.close(pfd)
    wstatus, cpu_ns, maxrss = waited
    return _finish(zyg, before, streams, caps, output, mem_r, start, wstatus, cpu_ns, maxrss, timed_out, out_over)


def _reported(b):
    # The zygote's report as (wait status, CPU ns, max RSS KiB), the shape
    # _take_child returns.
    f = _STATUS.unpack(b)
    code, st = f[0], f[1]
    wstatus = (st & 0xff) << 8 if code == CLD_EXITED else (st & 0x7f)
    return wstatus, (f[2] + f[4]) * 1000000000 + (f[3] + f[5]) * 1000, f[6]


def _take_child(zyg, pid):
    # The zygote is gone or will not answer (the job killed or stopped it):
    # end it, which makes its child ours, and take the child's status
    # ourselves (the child has ended). This server is replaced after the
    # job (see _finish).
    try:
        os.kill(zyg.pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        os.waitpid(zyg.pid, 0)
    except ChildProcessError:
        pass
    try:
        _, wstatus, ru = os.wait4(pid, 0)
    except ChildProcessError:
        # Cannot happen (the zygote reaps only after reporting); should
        # it, the job's end is unknown and it was the job's doing.
        return (signal.SIGKILL, 0, 0)
    return (wstatus, int((ru.ru_utime + ru.ru_stime) * 1e9), ru.ru_maxrss)


class _NotRun(Exception):
    pass


# The files a job wrote are copied back up to a budget counted in what the
# host allocates for them, which is the job's output limit (and at most
# COPY_MAX bytes of data): the reply line, with the data in base64, read
# and decoded, then each path joined and passed to the system calls that
# write it. Measured: about 4 bytes per byte of data, 7 per byte of a
# name, and some hundred per file.
COPY_MAX = 8 << 20
COPY_DATA, COPY_NAME, COPY_ENTRY = 4, 8, 256


def _copy_cost(rel, size):
    return COPY_NAME * len(rel.encode('utf-8', 'surrogateescape')) + COPY_DATA * size + COPY_ENTRY


def _copy_budget(output):
    if not output:
        return COPY_DATA * COPY_MAX
    return min(output, COPY_DATA * COPY_MAX)


def _finish(zyg, before, streams, caps, output, mem_r, start, wstatus, cpu_ns, maxrss, timed_out, out_over):
    elapsed = time.monotonic() - start
    _kill_all(zyg.pid)
    ipc_gone = _remove_ipc()
    # Every writer is gone: read what is left, up to the output limit.
    for fd, cap in streams.items():
        while not output or caps[0].count + caps[1].count <= output + (1 << 16):
            try:
                b = os.read(fd, 1 << 16)
            except OSError:
                break
            if not b:
                break
            cap.feed(b)
        os.close(fd)
    os.set_blocking(mem_r, False)
    try:
        memory = bool(os.read(mem_r, 1))
    except OSError:
        memory = False
    os.close(mem_r)
    rep = {'wall_ns': int(elapsed * 1e9), 'cpu_ns': cpu_ns,
           'maxrss': maxrss, 'timed_out': timed_out}
    if os.WIFEXITED(wstatus):
        rep['exit'] = os.WEXITSTATUS(wstatus)
    elif os.WIFSIGNALED(wstatus):
        rep['signal'] = os.WTERMSIG(wstatus)
    out, err = caps[0].value(), caps[1].value()
    rep['stdout'], rep['stderr'] = _b64(out).decode(), _b64(err).decode()
    for cap in streams.values():
        if isinstance(cap, _Head):
            rep['results'] = _b64(cap.value()).decode()
    rep['out_bytes'] = caps[0].count + caps[1].count
    if out_over:
        rep['out_bytes'] = max(rep['out_bytes'], output + 1)
    rep['memory'] = memory
    files, total = {}, 0
    after, skipped = _snapshot()
    dropped = []
    budget = _copy_budget(output)
    for rel, st in sorted(after.items()):
        if before.get(rel) == st:
            continue
        cost = _copy_cost(rel, st[0])
        if not st[2] or total + cost > budget:
            dropped.append(rel)
            continue
        data = _read_regular(os.path.join(WORK, rel), (budget - total - _copy_cost(rel, 0)) // COPY_DATA)
        if data is None:
            dropped.append(rel)
            continue
        files[rel] = _b64(data).decode()
        total += _copy_cost(rel, len(data))
    rep['files'] = files
    try:
        st = os.statvfs('/tmp')
        rep['disk_full'] = st.f_bavail == 0 or st.f_favail == 0
    except OSError:
        pass
    if dropped or skipped:
        rep['files_dropped'] = dropped[:20]
        rep['files_dropped_count'] = len(dropped) + skipped
    _wipe('/tmp')
    _wipe('/dev/shm')
    if not zyg.alive() or not _unix_sockets_gone() or not ipc_gone:
        rep['restart'] = True
    return rep


def _unix_socket_count():
    try:
        with open('/proc/net/unix', 'rb') as f:
            return f.read().count(b'\n') - 1
    except OSError:
        return -1


def _unix_sockets_gone():
    # Whether this network namespace holds no more unix sockets than when
    # the server started (its own and its init's). One a job kept alive in
    # flight in a cycle of its own, held by no process, outlives it: a name
    # (abstract ones are listed in /proc/net/unix) the next job could read
    # or would find taken. Releasing a unix socket of our own makes the
    # kernel collect such cycles; if some are still there a moment later,
    # the server is replaced.
    if _unix_state['base'] < 0 or _unix_socket_count() <= _unix_state['base']:
        return True
    a, b = socket.socketpair()
    a.close()
    b.close()
    for _ in range(20):
        time.sleep(0.0005)
        if _unix_socket_count() <= _unix_state['base']:
            return True
    return False


_codecache = {}
# ran: the current request's job has started.
_state = {'ran': False}
# base: the number of unix sockets of the namespace before any job, or -1.
_unix_state = {'base': -1}
# fd: the socket on which the sandbox's init resets the PID namespace's
# counter, or None.
_pid_reset = {'fd': None}


def _reset_pids():
    # Between two jobs (every process of the last one killed), set the PID
    # counter back, so that the next job's PIDs are the first free ones:
    # how far the last job advanced it would otherwise be a message to
    # the next. The init, which holds the capability, does it.
    fd = _pid_reset['fd']
    if fd is None:
        return
    try:
        os.write(fd, b'r')
        os.read(fd, 1)
    except OSError:
        pass


# The programs defined once, by number: their module namespaces.
_defined = {}
# The drivers' reporters, compiled once: by source, and by their number
# (from 1) in the configuration, which a request names as "program"
# instead of sending the source.
_programs = {}


def main():
    config = json.loads(sys.stdin.buffer.readline())
    if config.get('pid_reset'):
        try:
            if stat.S_ISSOCK(os.fstat(3).st_mode):
                _pid_reset['fd'] = 3
        except OSError:
            pass
    _preload(config.get('preload') or [])
    for i, src in enumerate(config.get('programs') or []):
        try:
            _programs[src] = _programs[i + 1] = compile(src, '<string>', 'exec')
        except SyntaxError:
            pass
    # A program listed in "define" has its functions and classes made here
    # once (run under another name than __main__, it defines and returns):
    # a job then only calls its main.
    for n in config.get('define') or []:
        code = _programs.get(n)
        if code is None:
            continue
        ns = {'__name__': '__adaptbench_program__', '__builtins__': builtins}
        try:
            exec(code, ns)
        except Exception:
            continue
        if callable(ns.get('main')):
            _defined[n] = ns
    # Objects of this process are never collected again, so that a forked
    # child's collector does not touch (and copy) their pages.
    gc.collect()
    gc.freeze()
    # Children must not be able to read this process's memory.
    _libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0
    _wipe('/tmp')
    # The zygote is forked before any job, from a process that has seen
    # none; it is not a subreaper, so a job's orphans come to us.
    zyg = _Zygote(_programs)
    _libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    _reset_pids()
    _unix_state['base'] = _unix_socket_count()
    out = sys.stdout.buffer
    out.write(b'{"ready": true}\n')
    out.flush()
    for line in sys.stdin.buffer:
        _state['ran'] = False
        try:
            req = json.loads(line)
            rep = serve(req, zyg)
        except _NotRun as e:
            _kill_all(zyg.pid)
            rep = {'error': str(e), 'not_run': True}
        except Exception as e:
            _kill_all(zyg.pid)
            # Once the job has started, a failure here is its doing (it
            # has this process's user): its verdict, and a new server.
            rep = {'error': traceback.format_exc(), 'job_ran': _state['ran'],
                   'memory': isinstance(e, MemoryError)}
        out.write(json.dumps(rep).encode() + b'\n')
        out.flush()
        _reset_pids()


main()
