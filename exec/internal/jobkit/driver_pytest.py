# The pytest reporter of package exec (see driver_pytest.go). It runs as
#
#     python3 -s -B -c <this file> RESULTS TIMEOUT [NODEID...]
#
# with the workspace as the working directory, runs pytest in-process with a
# plugin that sends one JSON event a line on the results channel as the
# tests run (driver_guard.py, which comes first in the program; the format
# is in driver_events.go). RESULTS is the file to append to when the runner
# gave no channel. TIMEOUT is the per-test time limit in seconds, 0 for
# none. Without NODEID, pytest collects as it would by itself.
import sys

# With -c, sys.path[0] is '' (the workspace): keep workspace files from
# shadowing the modules this reporter needs. The workspace goes back on
# sys.path before the tests are collected, as with `python3 -m pytest`.
_cwd = sys.path.pop(0) if sys.path and sys.path[0] in ('', '.') else None
import json
import os
import signal
import time
import pytest
if _cwd is not None:
    sys.path.insert(0, _cwd)

_GRACE = 2.0
_SEVERITY = {'passed': 1, 'skipped': 2, 'failed': 3, 'error': 4, 'timeout': 5}


def emit(**event):
    if _g_send is not None:
        _g_send(event)


class _Timeout(BaseException):
    """Raised in a test that ran longer than its time limit."""


def selects(name, nodeid):
    name = name[2:] if name.startswith('./') else name
    name = name.rstrip('/')
    return (nodeid == name or nodeid.startswith(name + '::') or
            nodeid.startswith(name + '[') or nodeid.startswith(name + '/'))


class Plugin:
    def __init__(self, names, timeout):
        self.names = names
        self.timeout = timeout
        self.planned = []
        self.state = {}
        self.ended = set()
        self.cur = None
        self.t0 = 0.0
        self.fired = 0
        self.done = False

    def end(self, name, status, message, duration=0.0):
        self.ended.add(name)
        emit(e='end', test=name, status=status, message=message, duration=duration)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, session, config, items):
        if not self.names:
            return
        keep, drop, matched = [], [], set()
        for item in items:
            hit = [n for n in self.names if selects(n, item.nodeid)]
            (keep if hit else drop).append(item)
            matched.update(hit)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep
        for n in self.names:
            if n not in matched:
                emit(e='missing', test=n)

    def pytest_collectreport(self, report):
        if report.failed:
            emit(e='compile', message=report.longreprtext or str(report.longrepr))

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection(self, session):
        # Before the tests' modules are imported.
        _iso_front()  # isolate.py: the answer's stand-ins before pytest's rewriting
        for name in _FRAMEWORK:
            _snap_module(sys.modules.get(name))
        for c in (Plugin, _Timeout):
            _snap_add(c, c.__qualname__)

    def pytest_collection_finish(self, session):
        self.planned = [item.nodeid for item in session.items]
        seen = set()
        for item in session.items:
            for o in (getattr(item, 'cls', None), getattr(item, 'module', None)):
                if o is not None and o not in seen:
                    seen.add(o)
                    _snap_add(o, getattr(o, '__qualname__', None) or o.__name__, False)
        emit(e='plan', tests=self.planned)

    def pytest_runtest_logstart(self, nodeid, location):
        self.cur, self.fired = nodeid, 0
        self.state[nodeid] = ['passed', [], 0.0]
        emit(e='start', test=nodeid)
        _g_running[0] = True
        self.t0 = time.perf_counter()
        if self.timeout > 0:
            signal.setitimer(signal.ITIMER_REAL, self.timeout)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        rep = outcome.get_result()
        if call.excinfo is None:
            return
        if call.excinfo.errisinstance(_Timeout):
            rep.adaptbench_kind = 'timeout'
        elif not call.excinfo.errisinstance((AssertionError, pytest.fail.Exception, pytest.skip.Exception,
                                             pytest.xfail.Exception)):
            rep.adaptbench_kind = 'error'

    def pytest_runtest_logreport(self, report):
        st = self.state.setdefault(report.nodeid, ['passed', [], 0.0])
        st[2] += report.duration or 0.0

        def put(status, message):
            if _SEVERITY[status] > _SEVERITY[st[0]]:
                st[0] = status
            if message:
                st[1].append(message)

        kind = getattr(report, 'adaptbench_kind', None)
        if report.skipped:
            if hasattr(report, 'wasxfail'):
                put('skipped', ('expected failure: ' + report.wasxfail).strip())
            elif isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
                put('skipped', str(report.longrepr[2]))
            else:
                put('skipped', str(report.longrepr or ''))
        elif report.failed:
            text = report.longreprtext
            if kind == 'timeout':
                put('timeout', 'the test ran longer than its time limit of %gs\n%s' % (self.timeout, text))
            elif report.when == 'call':
                put('error' if kind == 'error' else 'failed', text)
            else:
                put('error', '%s failed:\n%s' % (report.when, text))

    def pytest_runtest_logfinish(self, nodeid, location):
        if self.timeout > 0:
            signal.setitimer(signal.ITIMER_REAL, 0)
        _g_running[0] = False
        _snap_check()
        self.cur = None
        st = self.state.pop(nodeid, ['passed', [], 0.0])
        self.end(nodeid, st[0], '\n'.join(st[1]), st[2])

    def finish(self, reason):
        for name in self.planned:
            if name not in self.ended:
                self.end(name, 'error', reason)

    def pytest_sessionfinish(self, session, exitstatus):
        if self.timeout > 0:
            signal.setitimer(signal.ITIMER_REAL, 0)
        reason = 'not run'
        if self.cur is not None:
            # The run stopped inside a test: a time limit that struck
            # between its phases, or an internal error.
            if self.fired:
                self.end(self.cur, 'timeout', 'the test ran longer than its time limit of %gs' % self.timeout,
                         time.perf_counter() - self.t0)
                reason = 'not run: the run was interrupted by a time limit'
            else:
                self.end(self.cur, 'error', 'the run stopped while this test ran (pytest exit status %d)' % int(exitstatus))
            self.cur = None
        self.finish(reason)
        self.done = True
        _g_running[0] = False
        _snap_check()
        emit(e='done', exit=int(exitstatus))


_plugin = None


def _on_alarm(signum, frame):
    p = _plugin
    if p is None or p.cur is None:
        return
    p.fired += 1
    if p.fired == 1:
        signal.setitimer(signal.ITIMER_REAL, _GRACE)
        raise _Timeout('the test ran longer than its time limit of %gs' % p.timeout)
    _g_running[0] = False
    name, p.cur = p.cur, None
    p.end(name, 'timeout', 'the test ran longer than its time limit of %gs and did not stop when interrupted' % p.timeout,
          time.perf_counter() - p.t0)
    p.finish('not run: test %s did not stop after its time limit' % name)
    emit(e='done', exit=1)
    _g_real_exit(0)


# The framework's modules: their frames may call the reporter, and their
# functions and classes must stay as they are.
_FRAMEWORK = ('_pytest.runner', '_pytest.reports', '_pytest.python', '_pytest.main', '_pytest.skipping',
              '_pytest.outcomes', '_pytest.nodes', '_pytest.fixtures', '_pytest.unittest',
              'pluggy._callers', 'pluggy._hooks', 'pluggy._result', 'pluggy._manager')


def main():
    global _plugin
    results, timeout, names = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    del sys.argv[1:]
    _iso_start()  # isolate.py: the answer's process, forked before any secret exists
    _guard_start(globals(), results, ('main', '_on_alarm'))
    emit(e='hello', v=1)
    # The same on stderr, which the job cannot take back: results a job
    # deleted or replaced are then the job's doing, not a harness failure.
    os.write(2, b'\x1eadaptbench reporter started\n')
    args = ['-q', '-p', 'no:cacheprovider', '--rootdir=.']
    if names:
        paths, present = [], []
        for n in names:
            path = n.split('::', 1)[0].split('[', 1)[0]
            if not os.path.exists(path):
                emit(e='missing', test=n)
                continue
            present.append(n)
            if path not in paths:
                paths.append(path)
        names = present
        if not paths:
            emit(e='plan', tests=[])
            emit(e='done', exit=5)
            return
        args += paths
    _plugin = Plugin(names, timeout)
    if timeout > 0:
        signal.signal(signal.SIGALRM, _on_alarm)
    code = pytest.main(args, plugins=[_plugin])
    if not _plugin.done:
        emit(e='done', exit=int(code))



_guard_prepare(globals(), ('_pytest', 'pluggy', 'pytest'))


# A fork server defines all of the above once, under another name, and
# calls main in each job it forks (and then flushes and exits as below).
if __name__ == '__main__':
    main()
    for _s in (sys.stdout, sys.stderr):
        try:
            _s.flush()
        except Exception:
            pass
    # Do not wait for threads the tests left running.
    os._exit(0)
