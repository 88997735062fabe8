# The Python fork server of package exec (see forkserver_linux.go). It runs
# inside a sandbox job as
#
#     python3 -I -B -c <this file> PRELOAD...
#
# imports the PRELOAD modules once, then reads one JSON request a line on
# stdin and answers each with one JSON line on stdout. For each request it
# forks a child that becomes a fresh-looking `python3 -c CODE ARGS` or
# `python3 FILE ARGS` in /tmp/work (the request's files written there
# first), with the request's environment and rlimits; it waits for the
# child (and no longer than the wall limit), kills every other process of
# the sandbox, reports the verdict, the output and the files the child
# wrote, and wipes /tmp and /dev/shm. One request at a time: nothing of one
# child outlives it.
import base64
import builtins
import ctypes
import errno
import gc
import importlib
import json
import os
import resource
import select
import shutil
import signal
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


_codecache = {}


MEMORY_FD = 1023


def _child(req, out_w, err_w, mem_w):
    # Runs in the forked child; never returns. Its stdout and stderr are
    # pipes the server reads: nothing the job does takes back what it wrote.
    try:
        os.setsid()
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        os.dup2(mem_w, MEMORY_FD)
        stdin = _unb64(req.get('stdin') or '')
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
        os.closerange(3, MEMORY_FD)
        os.closerange(MEMORY_FD + 1, 65536)
        os.chdir(WORK)
        os.environ.clear()
        os.environ.update(req.get('env') or {})
        for name, soft, hard in req.get('rlimits') or []:
            resource.setrlimit(getattr(resource, name), (soft, hard))
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
            code = req.get('_code') or compile(target, '<string>', 'exec')
        else:
            path = os.path.join(WORK, target) if not target.startswith('/') else target
            sys.argv = [target] + args
            if not req.get('isolated'):
                sys.path.insert(0, os.path.dirname(path))
            with open(path, 'rb') as f:
                code = compile(f.read(), target, 'exec')
            main.__dict__['__file__'] = target
        status = 0
        try:
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


_libc = ctypes.CDLL(None, use_errno=True)


def _remove_ipc():
    # SysV shared memory, message queues and semaphores outlive the job
    # that made them (and shared memory stays charged to this server's
    # memory cgroup): remove every one this IPC namespace holds. (POSIX
    # message queues are denied by the seccomp filter; POSIX shared memory
    # and semaphores are files in /dev/shm, which is wiped.)
    for kind, ctl in (('shm', _libc.shmctl), ('msg', _libc.msgctl), ('sem', _libc.semctl)):
        try:
            with open('/proc/sysvipc/' + kind) as f:
                lines = f.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 1:
                ctl(int(fields[1]), 0, None)  # IPC_RMID


def _kill_all():
    # Kill every process of this PID namespace but us (and the init, which
    # the kernel spares), then reap them.
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass
    while True:
        try:
            pid, _ = os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except InterruptedError:
            continue


def serve(req):
    os.makedirs(WORK, exist_ok=True)
    for rel in req.get('dirs') or []:
        os.makedirs(os.path.join(WORK, rel), exist_ok=True)
    for rel, data in (req.get('files') or {}).items():
        p = os.path.join(WORK, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'wb') as f:
            f.write(_unb64(data))
    before, _ = _snapshot()
    wall = req.get('wall') or 0
    if req['mode'] == 'c':
        code = _codecache.get(req['target'])
        if code is None:
            try:
                code = compile(req['target'], '<string>', 'exec')
                if len(_codecache) > 64:
                    _codecache.clear()
                _codecache[req['target']] = code
            except BaseException:
                code = None  # the child compiles it again and reports the error
        req['_code'] = code
    keep = req.get('keep') or 65536
    output = req.get('output') or 0
    caps = [_Capture(keep), _Capture(keep)]
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    mem_r, mem_w = os.pipe()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(req, out_w, err_w, mem_w)
    for fd in (out_w, err_w, mem_w):
        os.close(fd)
    pfd = os.pidfd_open(pid)
    timed_out = out_over = False
    poll = select.poll()
    poll.register(pfd, select.POLLIN)
    streams = {out_r: caps[0], err_r: caps[1]}
    for fd in streams:
        os.set_blocking(fd, False)
        poll.register(fd, select.POLLIN)
    exited = False
    while not exited:
        left = None if wall <= 0 else max(0, wall - (time.monotonic() - start))
        step = left
        for fd, ev in poll.poll(None if step is None else int(step * 1000) + 1):
            if fd == pfd:
                exited = True
            elif not _drain(fd, streams[fd], 1 << 16):
                poll.unregister(fd)
        if output and caps[0].count + caps[1].count > output:
            out_over = True
        elif exited:
            break
        elif wall > 0 and time.monotonic() - start >= wall:
            timed_out = True
        else:
            continue
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        break
    _, wstatus, ru = os.wait4(pid, 0)
    os.close(pfd)
    elapsed = time.monotonic() - start
    _kill_all()
    _remove_ipc()
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
    cpu_ns = int((ru.ru_utime + ru.ru_stime) * 1e9)
    rep = {'wall_ns': int(elapsed * 1e9), 'cpu_ns': cpu_ns,
           'maxrss': ru.ru_maxrss, 'timed_out': timed_out}
    if os.WIFEXITED(wstatus):
        rep['exit'] = os.WEXITSTATUS(wstatus)
    elif os.WIFSIGNALED(wstatus):
        rep['signal'] = os.WTERMSIG(wstatus)
    out, err = caps[0].value(), caps[1].value()
    rep['stdout'], rep['stderr'] = _b64(out).decode(), _b64(err).decode()
    rep['out_bytes'] = caps[0].count + caps[1].count
    if out_over:
        rep['out_bytes'] = max(rep['out_bytes'], output + 1)
    rep['memory'] = memory
    files, total = {}, 0
    after, skipped = _snapshot()
    dropped = []
    for rel, st in sorted(after.items()):
        if before.get(rel) == st:
            continue
        if not st[2] or total + st[0] > 8 << 20:
            dropped.append(rel)
            continue
        data = _read_regular(os.path.join(WORK, rel), (8 << 20) - total)
        if data is None:
            dropped.append(rel)
            continue
        files[rel] = _b64(data).decode()
        total += len(data)
    rep['files'] = files
    if dropped or skipped:
        rep['files_dropped'] = dropped[:20]
        rep['files_dropped_count'] = len(dropped) + skipped
    _wipe('/tmp')
    _wipe('/dev/shm')
    return rep


def main():
    _preload(sys.argv[1:])
    # Objects of this process are never collected again, so that a forked
    # child's collector does not touch (and copy) their pages.
    gc.collect()
    gc.freeze()
    # Children must not be able to read this process's memory.
    _libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0
    # Orphans of a job come back to this process, which reaps them after
    # killing them: none is still alive when the job's answer goes out.
    _libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    _wipe('/tmp')
    out = sys.stdout.buffer
    out.write(b'{"ready": true}\n')
    out.flush()
    for line in sys.stdin.buffer:
        try:
            req = json.loads(line)
            rep = serve(req)
        except Exception:
            _kill_all()
            rep = {'error': traceback.format_exc()}
        out.write(json.dumps(rep).encode() + b'\n')
        out.flush()


main()
