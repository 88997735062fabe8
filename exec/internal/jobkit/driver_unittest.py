# The unittest reporter of package exec (see driver_unittest.go). It runs as
#
#     python3 -s -B -c <this file> RESULTS TIMEOUT [NAME...]
#
# with the workspace as the working directory, loads the tests named by NAME
# (or discovers test*.py when there is none), and sends one JSON event a
# line on the results channel as the tests run (driver_guard.py, which comes
# first in the program; the format is in driver_events.go). RESULTS is the
# file to append to when the runner gave no channel. TIMEOUT is the
# per-test time limit in seconds, 0 for none.
import sys

# With -c, sys.path[0] is '' (the workspace): keep a workspace file named
# json.py or signal.py from shadowing the modules this reporter needs.
_cwd = sys.path.pop(0) if sys.path and sys.path[0] in ('', '.') else None
import importlib
import json
import os
import re
import signal
import time
import traceback
import unittest
import unittest.loader
import unittest.suite
if _cwd is not None:
    sys.path.insert(0, _cwd)

_GRACE = 2.0
_SEVERITY = {'passed': 1, 'skipped': 2, 'failed': 3, 'error': 4, 'timeout': 5}


def emit(**event):
    # The sink sends only from the reporting process: a test that forks
    # and returns in the child does not report twice.
    if _g_send is not None:
        _g_send(event)


class _Timeout(BaseException):
    """Raised in a test that ran longer than its time limit. A BaseException,
    so that `except Exception` in the test does not swallow it."""


def _format_exc(exc):
    # Drop the frames of this reporter and of importlib.
    tb = exc.__traceback__
    while tb is not None and (tb.tb_frame.f_code.co_filename == '<string>' or
                              'importlib' in tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    return ''.join(traceback.format_exception(type(exc), exc, tb))


class Reporter(unittest.TestResult):
    def __init__(self, timeout):
        super().__init__()
        self.timeout = timeout
        self.cur = None
        self.status = 'passed'
        self.msgs = []
        self.t0 = 0.0
        self.fired = 0
        self.ended = set()
        self.fixtures = []  # (id prefix, status, message) of failed setUpClass/setUpModule

    def end(self, name, status, message, duration=0.0):
        self.ended.add(name)
        emit(e='end', test=name, status=status, message=message, duration=duration)

    def set(self, status, message):
        if _SEVERITY[status] > _SEVERITY[self.status]:
            self.status = status
        if message:
            self.msgs.append(message)

    def startTest(self, test):
        super().startTest(test)
        self.cur, self.status, self.msgs, self.fired = test.id(), 'passed', [], 0
        emit(e='start', test=self.cur)
        _g_running[0] = True
        self.t0 = time.perf_counter()
        if self.timeout > 0:
            signal.setitimer(signal.ITIMER_REAL, self.timeout)

    def stopTest(self, test):
        if self.timeout > 0:
            signal.setitimer(signal.ITIMER_REAL, 0)
        _g_running[0] = False
        _snap_check()
        cur, self.cur = self.cur, None
        if cur is not None:
            self.end(cur, self.status, '\n'.join(self.msgs), time.perf_counter() - self.t0)
        super().stopTest(test)

    def fixture(self, holder, status, message):
        m = re.match(r'^(\w+) \((.*)\)$', holder.description)
        kind, scope = m.groups() if m else ('fixture', holder.description)
        if kind.startswith('setUp'):
            if status != 'skipped':
                message = '%s failed:\n%s' % (kind, message)
            self.fixtures.append((scope + '.', status, message))
        else:
            # A failed tearDownClass or tearDownModule: its tests have their
            # outcomes already, so report it under the class or module name.
            self.end(scope, status, '%s failed:\n%s' % (kind, message))

    def addSuccess(self, test):
        super().addSuccess(test)

    def addError(self, test, err):
        super().addError(test, err)
        text = self._exc_info_to_string(err, test)
        if isinstance(test, unittest.suite._ErrorHolder):
            self.fixture(test, 'error', text)
        elif err[0] is not None and issubclass(err[0], _Timeout):
            self.set('timeout', 'the test ran longer than its time limit of %gs\n%s' % (self.timeout, text))
        else:
            self.set('error', text)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.set('failed', self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        if isinstance(test, unittest.suite._ErrorHolder):
            self.fixture(test, 'skipped', reason)
        else:
            self.set('skipped', reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.set('skipped', 'expected failure: ' + traceback.format_exception_only(err[0], err[1])[-1].strip())

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.set('failed', 'unexpected success: the test is marked as an expected failure')

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is None:
            return
        text = '%s\n%s' % (subtest, self._exc_info_to_string(err, test))
        if issubclass(err[0], _Timeout):
            self.set('timeout', text)
        elif issubclass(err[0], test.failureException):
            self.set('failed', text)
        else:
            self.set('error', text)

    def finish(self, planned, reason):
        """Reports the planned tests that never ended."""
        for name in planned:
            if name in self.ended:
                continue
            status, message = 'error', reason
            for prefix, st, msg in self.fixtures:
                if name.startswith(prefix):
                    status, message = st, msg
            self.end(name, status, message)


_reporter = None


def _on_alarm(signum, frame):
    r = _reporter
    if r is None or r.cur is None:
        return
    r.fired += 1
    if r.fired == 1:
        signal.setitimer(signal.ITIMER_REAL, _GRACE)
        raise _Timeout('the test ran longer than its time limit of %gs' % r.timeout)
    # The test caught the first _Timeout and went on: stop the run.
    _g_running[0] = False
    name, r.cur = r.cur, None
    r.end(name, 'timeout', 'the test ran longer than its time limit of %gs and did not stop when interrupted' % r.timeout,
          time.perf_counter() - r.t0)
    r.finish(_planned, 'not run: test %s did not stop after its time limit' % name)
    emit(e='done', exit=1)
    _g_real_exit(0)


def failed_tests(suite):
    return [t for t in suite if isinstance(t, unittest.loader._FailedTest)]


def flatten(suite, out):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            flatten(t, out)
        else:
            out.append(t)
    return out


def load_name(loader, name):
    """Returns (tests, compile error message, missing)."""
    parts = name.split('.')
    module, i = None, len(parts)
    while i > 0:
        modname = '.'.join(parts[:i])
        try:
            module = importlib.import_module(modname)
            break
        except ModuleNotFoundError as e:
            if e.name is not None and (modname == e.name or modname.startswith(e.name + '.')):
                i -= 1
                continue
            return None, 'Failed to import test module: %s\n%s' % (modname, _format_exc(e)), False
        except KeyboardInterrupt:
            raise
        except BaseException as e:
            return None, 'Failed to import test module: %s\n%s' % (modname, _format_exc(e)), False
    if module is None:
        return None, None, True
    obj = module
    for p in parts[i:]:
        try:
            obj = getattr(obj, p)
        except AttributeError:
            return None, None, True
    try:
        # From the module imported above: loadTestsFromName(name) alone
        # would import it again part by part, formatting a traceback for
        # each part that is not a module (most of a HumanEval check).
        rest = '.'.join(parts[i:])
        suite = loader.loadTestsFromName(rest, module) if rest else loader.loadTestsFromModule(module)
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        return None, 'Failed to load tests from %s\n%s' % (name, _format_exc(e)), False
    tests = flatten(suite, [])
    bad = failed_tests(tests)
    if bad:
        return None, '\n'.join(str(t._exception) for t in bad), False
    return tests, None, False


_planned = []


def main():
    global _reporter, _planned
    results, timeout, names = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    del sys.argv[1:]
    _iso_start()  # isolate.py: the answer's process, forked before any secret exists
    _guard_start(globals(), results, ('main', '_on_alarm'))
    emit(e='hello', v=1)
    # The same on stderr, which the job cannot take back: results a job
    # deleted or replaced are then the job's doing, not a harness failure.
    os.write(2, b'\x1eadaptbench reporter started\n')
    loader = unittest.TestLoader()
    tests, errors = [], []
    if names:
        for name in names:
            found, err, missing = load_name(loader, name)
            if missing:
                emit(e='missing', test=name)
            elif err is not None:
                errors.append(err)
            else:
                tests.extend(found)
    else:
        try:
            tests = flatten(loader.discover('.', pattern='test*.py', top_level_dir='.'), [])
        except KeyboardInterrupt:
            raise
        except BaseException as e:
            errors.append('Failed to discover tests\n' + _format_exc(e))
        bad = failed_tests(tests)
        errors.extend(str(t._exception) for t in bad)
    if errors:
        for err in errors:
            emit(e='compile', message=err)
        emit(e='done', exit=1)
        return
    seen, unique = set(), []
    for t in tests:
        if t.id() not in seen:
            seen.add(t.id())
            unique.append(t)
    _planned = [t.id() for t in unique]
    # The tests' own classes and modules, as loaded.
    seen = set()
    for t in unique:
        for c in type(t).__mro__:
            if c not in seen and c.__module__ in sys.modules and not c.__module__.startswith(('unittest', 'builtins')):
                seen.add(c)
                _snap_add(c, '%s.%s' % (c.__module__, c.__qualname__), False)
                if c.__module__ not in seen:
                    seen.add(c.__module__)
                    _snap_add(sys.modules[c.__module__], c.__module__, False)
    emit(e='plan', tests=_planned)
    _reporter = r = Reporter(timeout)
    if timeout > 0:
        signal.signal(signal.SIGALRM, _on_alarm)
    reason = 'not run'
    try:
        unittest.TestSuite(unique).run(r)
    except _Timeout:
        # The alarm fired between a test's end and stopTest.
        if r.cur is not None:
            r.end(r.cur, 'timeout', 'the test ran longer than its time limit of %gs' % timeout)
        reason = 'not run: the run was interrupted by a time limit'
    if timeout > 0:
        signal.setitimer(signal.ITIMER_REAL, 0)
    r.finish(_planned, reason)
    _snap_check()
    emit(e='done', exit=0 if r.wasSuccessful() else 1)



# Once, where the program is defined: the framework's and the reporter's
# classes as they are before any code of a job runs.
_guard_prepare(globals(), ('unittest',))
for _m in (unittest.case, unittest.result, unittest.suite):
    _snap_module(_m)
for _c in (Reporter, _Timeout):
    _snap_add(_c, _c.__qualname__)
del _m, _c


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
