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


def _force_remove(path):
    shutil.rmtree(path, ignore_errors=True)
    if not os.path.lexists(path):
        return
    try:
        os.chmod(path, 0o700)
    except OSError:
        pass
    # A job can leave directories it made unwritable (chmod 000) to survive
    # the wipe: give every directory back its owner's rights first.
    for root, dirs, _ in os.walk(path, topdown=True, onerror=lambda e: None):
        for d in dirs:
            try:
                os.chmod(os.path.join(root, d), 0o700, follow_symlinks=False)
            except OSError:
                pass
    shutil.rmtree(path, ignore_errors=True)


def _wipe(path):
    try:
        entries = os.listdir(path)
    except OSError:
        return
    for e in entries:
        p = os.path.join(path, e)
        try:
            if os.path.isdir(p) and not os.path.islink(p):
                _force_remove(p)
            else:
                os.unlink(p)
        except OSError:
            pass


def _snapshot():
    snap = {}
    for root, dirs, files in os.walk(WORK):
        for f in files:
            p = os.path.join(root, f)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            snap[os.path.relpath(p, WORK)] = (st.st_size, st.st_mtime_ns)
    return snap


def _head_tail(path, keep):
    try:
        size = os.path.getsize(path)
        with open(path, 'rb') as f:
            if size <= keep:
                return f.read(), size
            half = keep // 2
            head = f.read(half)
            f.seek(size - half)
            tail = f.read(half)
            return head + b'\n... [%d bytes omitted] ...\n' % (size - 2 * half) + tail, size
    except OSError:
        return b'', 0


_codecache = {}


def _cpu_usage_reader():
    # This server's sandbox has a cgroup of its own: the CPU time it has
    # used, read before and during a job, bounds the job's whole process
    # tree, not only each process as RLIMIT_CPU does.
    try:
        lines = open('/proc/self/cgroup').read().splitlines()
    except OSError:
        return None
    for line in lines:
        _, ctrl, path = line.split(':', 2)
        if 'cpuacct' in ctrl.split(','):
            for base in ('/sys/fs/cgroup/cpuacct', '/sys/fs/cgroup/cpu,cpuacct', '/sys/fs/cgroup/cpuacct,cpu'):
                f = base + path + '/cpuacct.usage'
                if os.path.exists(f):
                    return lambda f=f: int(open(f).read())
        if ctrl == '':
            f = '/sys/fs/cgroup' + path + '/cpu.stat'
            if os.path.exists(f):
                def v2(f=f):
                    for l in open(f):
                        if l.startswith('usage_usec '):
                            return int(l.split()[1]) * 1000
                    return 0
                return v2
    return None


_cpu_usage = None


def _child(req, out_path, err_path):
    # Runs in the forked child; never returns.
    try:
        os.setsid()
        fd = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.close(fd)
        fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 2)
        os.close(fd)
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
        os.closerange(3, 65536)
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
                open('/tmp/.io/memory', 'w').close()
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
    before = _snapshot()
    io_dir = '/tmp/.io'
    os.makedirs(io_dir, exist_ok=True)
    out_path, err_path = io_dir + '/out', io_dir + '/err'
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
    cpu_limit = int((req.get('cpu') or 0) * 1e9)
    cpu0 = _cpu_usage() if _cpu_usage and cpu_limit else None
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(req, out_path, err_path)
    pfd = os.pidfd_open(pid)
    timed_out = cpu_out = False
    poll = select.poll()
    poll.register(pfd, select.POLLIN)
    while True:
        left = None if wall <= 0 else max(0, wall - (time.monotonic() - start))
        step = left
        if cpu0 is not None:
            step = 0.01 if step is None else min(step, 0.01)
        ready = poll.poll(None if step is None else int(step * 1000) + 1)
        if ready:
            break
        if cpu0 is not None and _cpu_usage() - cpu0 >= cpu_limit:
            cpu_out = True
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
    cpu_ns = int((ru.ru_utime + ru.ru_stime) * 1e9)
    if cpu0 is not None:
        cpu_ns = max(cpu_ns, _cpu_usage() - cpu0)
    rep = {'wall_ns': int(elapsed * 1e9), 'cpu_ns': cpu_ns,
           'maxrss': ru.ru_maxrss, 'timed_out': timed_out, 'cpu_out': cpu_out}
    if os.WIFEXITED(wstatus):
        rep['exit'] = os.WEXITSTATUS(wstatus)
    elif os.WIFSIGNALED(wstatus):
        rep['signal'] = os.WTERMSIG(wstatus)
    keep = req.get('keep') or 65536
    out, nout = _head_tail(out_path, keep)
    err, nerr = _head_tail(err_path, keep)
    rep['stdout'], rep['stderr'] = _b64(out).decode(), _b64(err).decode()
    rep['out_bytes'] = nout + nerr
    rep['memory'] = os.path.exists(io_dir + '/memory')
    files, total = {}, 0
    for rel, st in _snapshot().items():
        if before.get(rel) == st:
            continue
        p = os.path.join(WORK, rel)
        try:
            size = os.path.getsize(p)
            if total + size > 8 << 20:
                rep['files_truncated'] = True
                continue
            with open(p, 'rb') as f:
                files[rel] = _b64(f.read()).decode()
            total += size
        except OSError:
            pass
    rep['files'] = files
    _wipe('/tmp')
    _wipe('/dev/shm')
    return rep


def main():
    global _cpu_usage
    _preload(sys.argv[1:])
    _cpu_usage = _cpu_usage_reader()
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
