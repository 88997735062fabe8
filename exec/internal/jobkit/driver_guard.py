# The guard of the Python reporters of package exec (driver_unittest.py and
# driver_pytest.py follow it in one program; see the trust boundary in
# doc.go). It carries the results channel and watches for code that
# reaches for its own verdict:
#
#   - the channel is descriptor 3, a pipe the host reads (Job.results); the
#     guard moves it to a descriptor of its own (close-on-exec) and closes
#     3 before any code of the job is imported. Every event carries the
#     run's nonce, which the host sends as the first line of stdin, and its
#     number in the stream: both live only in the frame of the _sink
#     generator. The host rejects events without them, out of order or
#     after the end;
#   - _sink sends an event only when no frame between it and the
#     reporter's main is the answer's code: such a call is evidence, not
#     an event;
#   - the answer's code is known by identity: the code objects compiled
#     from the answer's files (the host sends their paths on stdin, after
#     the nonce) as they are loaded, and those the answer compiles or
#     executes itself at run time, whatever file name it gives them. The
#     tests, the task's other files, the framework, the standard library
#     and the installed packages, and anything they call, are trusted.
#     When the host names no answer file, every workspace file and every
#     code compiled at run time is the job's, as before;
#   - an audit hook (which cannot be removed) and a snapshot of the
#     framework's, the reporter's and the tests' classes, checked at the
#     end of every test, give evidence as "tamper" events.
import sys

_cwd = sys.path.pop(0) if sys.path and sys.path[0] in ('', '.') else None
import fcntl as _fcntl
import importlib._bootstrap_external as _bx
import json as _json
from operator import getitem as _getitem, itemgetter as _itemgetter
import os as _os
import posix as _posix
import signal as _signal
import stat as _stat
import time as _time
if _cwd is not None:
    sys.path.insert(0, _cwd)

# The guard's state. What decides whether an event is sent (the reporter's
# code, the framework's directories, evidence already sent) is copied into
# the sink's frame, out of reach of code that rebinds these names; the
# sink checks that the reporter's functions and these names keep their
# values.
_g_send = None        # the sink's send, set by _guard_start
_g_pid = None         # the reporting process
_g_running = [False]  # a test is running (set by the reporter)
_g_codes = frozenset()  # the reporter's code objects
_g_frameworks = ()    # directories of the framework's modules
_g_snap = []          # (owner, name, getter, names, values, types, keys, ours)
_g_real_exit = _os._exit
_g_workspace = ''
# The answer: None when the host named no file (then every workspace file
# and code compiled at run time is the job's), else the absolute paths of
# its files. Its code objects, as loaded and as it compiles them; the file
# names it compiled code under; the code objects loaded from other files.
_g_answer = None
_g_start = 0.0  # when the run began (time.time)
_g_answer_codes = set()
_g_answer_names = set()
_g_trusted_codes = set()


def _code_of(ns):
    # Every code object defined by the reporter's program.
    out, todo = set(), []
    for v in list(ns.values()):
        if isinstance(v, type) and v.__module__ == ns.get('__name__'):
            todo.extend(getattr(f, '__code__', None) or getattr(getattr(f, '__func__', None), '__code__', None)
                        for f in vars(v).values())
        else:
            todo.append(getattr(v, '__code__', None))
    while todo:
        c = todo.pop()
        if c is None or c in out or not hasattr(c, 'co_consts'):
            continue
        out.add(c)
        todo.extend(k for k in c.co_consts if hasattr(k, 'co_consts'))
    return out


def _sink(fd, nonce, pid, codes, roots, workspace, ns):
    # Its frame alone holds the descriptor, the nonce, the count and what
    # decides whether an event is sent.
    write, dumps, getpid, getframe, untrusted = _os.write, _json.dumps, _os.getpid, sys._getframe, _untrusted
    seq, seen, high = 0, set(), 0
    snap = ns['_g_snap']
    ev = yield
    # The reporter's functions and classes, and the guard's state, as they
    # are once the channel is open.
    names = tuple(k for k, v in ns.items() if (callable(v) and getattr(v, '__module__', None) == ns['__name__'])
                  or k in ('_g_send', '_g_snap', '_g_running', '_g_answer', '_g_answer_codes', '_g_answer_names',
                           '_g_trusted_codes'))
    get = _itemgetter(*names)
    good = get(ns)
    types = tuple(map(type, good))
    while True:
        if getpid() != pid:
            ev = yield
            continue
        out = []
        try:
            if ev.get('e') != 'tamper':
                why = untrusted(getframe(1), codes, roots, workspace)
                if why:
                    ev = {'e': 'tamper', 'kind': 'forged-call',
                          'detail': 'the reporter was called to send a %r event from %s' % (ev.get('e'), why)}
            try:
                vals = get(ns)
            except KeyError:
                vals = ()
            if vals != good or tuple(map(type, vals)) != types or len(snap) < high:
                changed = [k for k, v in zip(names, good) if ns.get(k) is not v] or ['the snapshot']
                out.append({'e': 'tamper', 'kind': 'reporter-patch', 'detail': 'the reporter\'s %s changed' % ', '.join(changed)})
                good, types = tuple(ns.get(k) for k in names), tuple(type(ns.get(k)) for k in names)
                get = lambda d: tuple(d.get(k) for k in names)
            high = max(high, len(snap))
        except Exception as e:
            # Only a value put in place of the reporter's makes these
            # checks raise (an == that raises, say): evidence, and the
            # event still goes.
            out.append({'e': 'tamper', 'kind': 'reporter-patch', 'detail': 'the reporter\'s check failed: %r' % (e,)})
        out.append(ev)
        for e in out:
            if e.get('e') == 'tamper':
                key = (e.get('kind'), e.get('detail'))
                if key in seen or len(seen) >= 200:
                    continue
                seen.add(key)
            e['k'], e['q'] = nonce, seq
            seq += 1
            data = (dumps(e) + '\n').encode('utf-8', 'replace')
            try:
                while data:
                    data = data[write(fd, data):]
            except OSError:
                pass
        ev = yield


def _untrusted(f, codes, roots, workspace):
    # Where a call to the sink came from, when the answer's code is among
    # the frames below it, or they do not reach the reporter's main
    # (another thread). The frames of the tests, the framework, its
    # plugins and the libraries it uses may be there.
    while f is not None:
        c = f.f_code
        if c in roots:
            return None
        if c not in codes and _is_answer(c, workspace):
            return '%s line %d (%s)' % (c.co_filename, f.f_lineno, c.co_name)
        f = f.f_back
    return 'outside the run (no reporter frame below)'


def _is_answer(c, workspace=None):
    # Whether code object c is the answer's (see the top of this file).
    name = c.co_filename
    if _g_answer is None:
        return name.startswith(workspace or _g_workspace) or not name.startswith(('/', '<frozen '))
    if c in _g_answer_codes or name in _g_answer:
        return True
    return name in _g_answer_names and c not in _g_trusted_codes and c not in _g_codes


def _codes_in(code, out):
    # code and the code objects nested in it (functions, classes, lambdas).
    todo = [code]
    while todo:
        c = todo.pop()
        if c in out or not hasattr(c, 'co_consts'):
            continue
        out.add(c)
        todo.extend(k for k in c.co_consts if hasattr(k, 'co_consts'))


def _watch_loads():
    # Records the code objects of every module loaded from source from now
    # on: the answer's files' as the answer's, and those of a file written
    # during the run (the answer's doing: a module it wrote and imports,
    # in the workspace or in /tmp), by its status change time; the others
    # as trusted.
    real = _bx.SourceLoader.get_code

    def get_code(self, fullname):
        code = real(self, fullname)
        try:
            path = _os.path.normpath(self.get_filename(fullname))
            try:
                fresh = _os.stat(path).st_ctime > _g_start
            except OSError:
                fresh = True
            _codes_in(code, _g_answer_codes if path in _g_answer or fresh else _g_trusted_codes)
        except Exception:
            pass
        return code
    _bx.SourceLoader.get_code = get_code


def _answer_paths(line):
    # The answer's files, from the second line of stdin (a JSON list of
    # paths relative to the workspace), or None when the host sent none.
    try:
        rel = _json.loads(line) if line else None
    except ValueError:
        return None
    if not isinstance(rel, list) or not rel:
        return None
    out = set()
    for r in rel:
        if isinstance(r, str) and r:
            p = _os.path.normpath(_os.path.join(_g_workspace, r))
            out.add(p)
            out.add(_os.path.realpath(p))
    return frozenset(out)


def _tamper(kind, detail):
    if _g_send is not None:
        _g_send({'e': 'tamper', 'kind': kind, 'detail': detail[:2000]})


def _read_nonce():
    # The first two lines of stdin, which the host wrote and closed: the
    # nonce, and the answer's files (may be missing).
    b = b''
    try:
        while len(b) < 65536 and b.count(b'\n') < 2:
            c = _os.read(0, 65536 - len(b))
            if not c:
                break
            b += c
    except OSError:
        pass
    lines = b.decode('utf-8', 'replace').split('\n')
    return lines[0].strip(), (lines[1].strip() if len(lines) > 1 else '')


def _guard_prepare(ns, frameworks):
    """Learns the reporter's code (ns is its namespace) and the framework's
    directories (frameworks names its modules, whose frames may call the
    reporter): once, where the program is defined, so that a fork server's
    children inherit them."""
    global _g_codes, _g_frameworks
    _g_codes = frozenset(_code_of(ns))
    dirs = []
    for m in frameworks:
        f = getattr(sys.modules.get(m), '__file__', None)
        if f:
            dirs.append(_os.path.dirname(f) + '/' if f.endswith('__init__.py') else f)
    _g_frameworks = tuple(dirs)


def _guard_start(ns, results, roots):
    """Opens the channel and starts the watch: called by the reporter's main
    before any code of the job is imported, after _guard_prepare. ns is the
    reporter's namespace, results the file to use when the runner gave no
    channel, roots the reporter's functions calls to it may come from:
    main, which runs the framework, and the alarm handler, which may run on
    top of any code."""
    global _g_send, _g_pid, _g_workspace, _g_answer, _g_start
    _g_pid = _os.getpid()
    # The precise clock: a file written before it reads no later (its time
    # is from this clock, or a coarse one that lags it).
    _g_start = _time.time()
    nonce, answer = _read_nonce()
    fd = -1
    try:
        if _stat.S_ISFIFO(_os.fstat(3).st_mode):
            fd = _fcntl.fcntl(3, _fcntl.F_DUPFD_CLOEXEC, 20 + _os.urandom(1)[0] % 180)
            _os.close(3)
    except OSError:
        pass
    if fd < 0:
        fd = _os.open(results, _os.O_WRONLY | _os.O_CREAT | _os.O_APPEND | _os.O_CLOEXEC, 0o644)
    _g_workspace = _os.getcwd().rstrip('/') + '/'
    _g_answer = _answer_paths(answer)
    if _g_answer is not None:
        _watch_loads()
    s = _sink(fd, nonce, _g_pid, _g_codes, frozenset(ns[r].__code__ for r in roots), _g_workspace, ns)
    next(s)
    _g_send = s.send
    del s, nonce, fd
    _os._exit = _posix._exit = _exit_hook
    sys.addaudithook(_audit)


def _exit_hook(code):
    if _g_running[0] and _os.getpid() == _g_pid and (_g_answer is None or _workspace_caller(sys._getframe(1))):
        _tamper('exit-during-test', 'os._exit(%r) while a test ran' % (code,))
    if _os.getpid() == _g_pid:
        _iso_end()  # isolate.py: the answer's process reaped, its CPU the job's
    _g_real_exit(code)


def _workspace_caller(f):
    # The answer's code that called an introspection function, directly,
    # through inspect (which hands frames on), ctypes' own modules, or code
    # compiled at run time that is not the answer's; None when the caller
    # is trusted.
    while f is not None:
        c = f.f_code
        name = c.co_filename
        if c in _g_codes:
            return None
        if _g_answer is not None and _is_answer(c):
            return '%s line %d' % (name, f.f_lineno)
        if name.endswith('/inspect.py') or '/ctypes/' in name or name.startswith('<'):
            f = f.f_back
            continue
        if _g_answer is None and (name.startswith(_g_workspace) or not name.startswith('/')):
            return '%s line %d' % (name, f.f_lineno)
        return None
    return None


def _answer_compiled(event, args, f):
    # Code the answer compiles or executes itself is the answer's, under
    # whatever file name it gives it: the code object of an exec or eval
    # it calls, and the file name of a compile (or a code object it makes)
    # whose code object it may call later.
    if f is None or not _is_answer(f.f_code):
        return
    if event == 'exec' and args and hasattr(args[0], 'co_consts'):
        _codes_in(args[0], _g_answer_codes)
    elif event == 'compile' and len(args) > 1 and isinstance(args[1], str):
        _g_answer_names.add(args[1])
    elif event == 'code.__new__' and len(args) > 1 and isinstance(args[1], str):
        _g_answer_names.add(args[1])


# Signals whose default action does not end the process.
_HARMLESS = frozenset(getattr(_signal, n, -1) for n in ('SIGCHLD', 'SIGURG', 'SIGWINCH', 'SIGCONT'))


def _ends_process(sig):
    # Whether sending sig to this process ends or stops it: SIGKILL and
    # SIGSTOP always, another signal when no handler catches it.
    if sig in (_signal.SIGKILL, _signal.SIGSTOP):
        return True
    if sig == 0 or sig in _HARMLESS:
        return False
    try:
        return _signal.getsignal(sig) == _signal.SIG_DFL
    except (ValueError, TypeError):
        return True


_INTROSPECT = frozenset(('sys._getframe', 'sys._current_frames', 'gc.get_referrers', 'gc.get_referents',
                         'gc.get_objects', 'sys.settrace', 'sys.setprofile'))
_FRAME_ATTRS = frozenset(('tb_frame', 'gi_frame', 'cr_frame', 'ag_frame'))
_FunctionType = type(_code_of)
_FRAMEWORK_MODULES = ('unittest', '_pytest', 'pytest', 'pluggy', '__main__', '__adaptbench_program__')
_in_hook = [False]


def _audit(event, args):
    if _in_hook[0] or _os.getpid() != _g_pid:
        return
    _in_hook[0] = True
    try:
        _watch(event, args)
    except BaseException:
        # An exception here would be raised in the audited operation (a
        # library's import, say): the watch must never change what the
        # code does.
        pass
    finally:
        _in_hook[0] = False


def _watch(event, args):
    if event == 'open':
        p = args[0]
        if isinstance(p, bytes):
            p = p.decode('utf-8', 'replace')
        if isinstance(p, str) and ('.adaptbench-' in p or p.startswith(('/proc/', '/dev/fd/'))
                                   and ('/fd/' in p or p.endswith('/mem'))):
            _tamper('results-open', 'opened %s' % p)
    elif event == 'os.kill' or event == 'os.killpg':
        if _g_running[0] and args[0] in (0, _g_pid, -_g_pid, _os.getpgrp(), -_os.getpgrp()) and _ends_process(args[1]):
            if _g_answer is None or _workspace_caller(sys._getframe(2)):
                _tamper('kill-during-test', '%s%r while a test ran' % (event, tuple(args)))
    elif event in ('exec', 'compile', 'code.__new__'):
        if _g_answer is not None:
            _answer_compiled(event, args, sys._getframe(2))
    elif event.startswith('ctypes.') or event in _INTROSPECT:
        where = _workspace_caller(sys._getframe(2))
        if where:
            _tamper('introspection', '%s from %s' % (event, where))
    elif event in ('object.__setattr__', 'object.__delattr__'):
        # The audited attributes of functions and classes (__code__,
        # __defaults__, __class__, __bases__, ...; other class attributes
        # are not audited: the snapshot covers them).
        o, what = args[0], None
        if isinstance(o, _FunctionType) and (o.__code__ in _g_codes or o.__code__.co_filename.startswith(_g_frameworks)):
            what = o.__qualname__
        elif isinstance(o, type) and str(vars(o).get('__module__', '')).startswith(_FRAMEWORK_MODULES):
            what = o.__qualname__
        if what:
            where = _workspace_caller(sys._getframe(2))
            if where:
                _tamper('framework-patch', '%s.%s set from %s' % (what, args[1], where))
    elif event == 'object.__getattr__' and args[1] in _FRAME_ATTRS:
        gen = getattr(_g_send, '__self__', None)
        if args[0] is gen:
            _tamper('introspection', 'the reporter\'s sink was opened')
            return
        where = _workspace_caller(sys._getframe(2))
        if where:
            _tamper('introspection', '.%s from %s' % (args[1], where))


# The snapshot: classes and modules whose entries the code under test must
# leave alone while the tests run.

def _callable(v):
    return callable(v) or isinstance(v, (classmethod, staticmethod, property))


def _snap_add(owner, name, ours=True):
    # ours: the framework's or the reporter's, where nothing callable may
    # be added either; a test's class may gain one (setUpClass making a
    # helper) unless it overrides what its bases define.
    try:
        d = vars(owner)
    except TypeError:
        return
    keys = tuple(k for k, v in d.items() if _callable(v))
    _g_snap.append((owner, name, d, keys, tuple(d[k] for k in keys), tuple(d), ours))
    _g_flat[:] = []


def _snap_module(mod):
    # A module of the framework and its classes.
    if mod is None:
        return
    _snap_add(mod, mod.__name__)
    for v in list(vars(mod).values()):
        if isinstance(v, type) and v.__module__ == mod.__name__:
            _snap_add(v, '%s.%s' % (mod.__name__, v.__qualname__))


class _Missing:
    pass


# The snapshot flattened for _snap_check: every (namespace, name) pair and
# its value and type, and every namespace with its names in order.
_g_flat = []


def _snap_check():
    # No function, class, method or property of what was snapshotted may
    # be replaced, removed or added (data, such as a class's maxDiff, may
    # change). The common case, nothing changed, is checked in C, in one
    # pass over every entry: the same values (by ==, which is identity for
    # these types, and by type, which a value whose __eq__ lies does not
    # share), and every namespace with the same names in the same order.
    if not _g_flat:
        ds, ks, vs = [], [], []
        for e in _g_snap:
            ds.extend([e[2]] * len(e[3]))
            ks.extend(e[3])
            vs.extend(e[4])
        spaces = tuple(e[2] for e in _g_snap)
        _g_flat[:] = [tuple(ds), tuple(ks), tuple(vs), tuple(map(type, vs)), spaces, tuple(e[5] for e in _g_snap)]
    ds, ks, vs, types, spaces, names = _g_flat
    try:
        vals = tuple(map(_getitem, ds, ks))
    except KeyError:
        vals = None
    if vals == vs and tuple(map(type, vals)) == types and tuple(map(tuple, spaces)) == names:
        return
    for owner, name, d, keys, old, order, ours in list(_g_snap):
        if tuple(d[k] if k in d else _Missing for k in keys) != old or tuple(d) != order:
            _snap_explain(owner, name, d, keys, old, set(order), ours)


def _snap_explain(owner, name, new, keys, old, names, ours):
    for k, v in zip(keys, old):
        w = new.get(k, _Missing)
        if w is not v and not _trusted_value(w, old):
            _tamper('framework-patch', '%s.%s was %s' % (name, k, 'removed' if w is _Missing else 'replaced'))
    for k in new.keys() - names:
        if not _callable(new[k]) or _trusted_value(new[k], old):
            continue
        if ours or (isinstance(owner, type) and any(k in vars(b) for b in owner.__mro__[1:])):
            _tamper('framework-patch', '%s.%s was added' % (name, k))
    # What is known now is the new normal: each change is told once.
    _g_snap[:] = [e for e in _g_snap if e[0] is not owner]
    _snap_add(owner, name, ours)


def _value_codes(v):
    # The code objects behind a function, method, property or class.
    out = []
    for f in (v, getattr(v, '__func__', None), getattr(v, 'fget', None), getattr(v, 'fset', None),
              getattr(v, 'fdel', None)):
        c = getattr(f, '__code__', None)
        if c is not None:
            out.append(c)
    if isinstance(v, type):
        for f in vars(v).values():
            out.extend(_value_codes(f) if not isinstance(f, type) else ())
    return out


def _trusted_value(v, old):
    # Whether a value the snapshot did not hold was put there by trusted
    # code: when the host named the answer's files, a function, method,
    # property or class of the tests or the task's other files (known by
    # the identity of their code, loaded from those files), or another name
    # for a value the namespace already held (an alias). Anything else,
    # and a removal, is evidence.
    if _g_answer is None or v is _Missing:
        return False
    if any(v is o for o in old):
        return True
    codes = _value_codes(v)
    return bool(codes) and all(c in _g_trusted_codes and not _is_answer(c) for c in codes)
