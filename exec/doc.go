// Package exec runs untrusted code through a [Runner] and turns a test run
// into per-test outcomes: the types every runner shares (a [Job], its
// [Limits], a [Result] with a typed [Status]) and the test drivers. The
// runners themselves, the Linux sandbox and the Python fork server, are in
// package exec/sandbox, which imports this one; this package imports none
// of ours and knows nothing of tasks or models.
//
// # Runners
//
// A Runner runs one Job (a workspace, a command line, extra environment,
// stdin and Limits) and returns a Result: a Status verdict, the exit code
// or signal, capped stdout and stderr, CPU time, wall time and peak
// memory. A verdict about the code under test is a Result with a nil
// error; an error means the runner failed (StatusInternal) or the caller
// canceled (StatusCanceled), never the code. When Run returns, every
// process the job started is gone.
//
//	sb, err := sandbox.New(nil) // says what the kernel lacks and how to enable it
//	if err != nil { ... }
//	defer sb.Close()
//	res, err := sb.Run(ctx, exec.Job{Dir: dir, Args: []string{"python3", "main.py"},
//		Limits: exec.Limits{CPUTime: 2 * time.Second, Memory: 256 * exec.MiB}})
//	switch res.Status {
//	case exec.StatusOK: ...
//	case exec.StatusCPUTime, exec.StatusWallTime: ...
//	}
//
// Paths inside a job use [WorkDir], where a sandbox mounts the workspace.
// [RunnerFunc] adapts a function (a fake in tests, a remote runner);
// [DefaultParallelism] is how many jobs to run at once when a caller does
// not say.
//
// # Test drivers
//
// A [Driver] runs a test suite in a workspace through any Runner and
// returns a [Suite]: each test's [TestStatus] and message, or a
// [CompileError] when the code did not compile or import.
//
//	suite, err := exec.PythonUnittest{}.Test(ctx, runner, exec.TestSpec{Dir: dir,
//		Tests: []string{"test_calc.TestCalc.test_add"}})
//
// [PythonUnittest] and [Pytest] use the machine's /usr/bin/python3.
// [GoTest] builds the test binary on the host with its toolchain (cgo off;
// building runs none of the workspace's code) and runs only the binary in
// the job. [JUnit] compiles with javac in the job and runs the tests
// through the JUnit Platform Launcher (JUnit 4 and 5), naming each test by
// its unique ID so that any name it reports selects that test alone;
// [JaCoCo] adds per-test coverage, [JavaBuild] is the seam for other build
// systems, and [JUnit.TestRounds] runs many rounds (a mutant's classes
// each) in shared JVMs, a class loader per round: rounds trust each other,
// so they are for code of one origin, never for different models' answers.
// javac and the test JVM map class-data sharing archives made once per
// machine on the host from trusted code ([JUnit].NoClassSharing turns them
// off). Each driver's reporter writes one event per test as the tests run,
// so a suite stopped by a limit still reports the tests that finished and
// marks the one that was running and those never reached.
//
// # Trust boundary of the drivers
//
// Everything a job touched is hostile: the code under test is model
// output, and it runs in the process that reports its tests. The isolation
// of the job itself (what it sees, keeps and shares) is exec/sandbox's
// contract; here is what the code can do to its own verdict.
//
//   - Host reads. The host opens nothing by a path the job could have
//     written as an ordinary open would resolve it: [ReadWorkspaceFile]
//     (openat2 beneath the workspace, no symbolic or magic links, regular
//     files only, O_NONBLOCK, a size cap) is how drivers and callers read
//     a job's files, so a link to a host file or to /dev/zero, or a FIFO,
//     yields no data: the tests did not report, a verdict about the code,
//     never a host read or a hang. Each read is bounded by the job's
//     output limit, and what the host decodes by four times what it read
//     (16 MiB at least): more is the output verdict. Reporters mark their
//     start on stderr, which a job cannot take back, so results a job
//     deleted are its doing, not a harness failure.
//   - Python (driver_guard.py; tamper_linux_test.go). Prevented: reaching
//     the results by a path. They travel on a pipe the job gets as
//     descriptor 3 ([Job].Results), hidden by the reporter before the code
//     is imported; each event carries the run's nonce (read from stdin) and
//     its number; a channel whose first line is not the reporter's hello
//     with the nonce (sent before any code of the job loads), or a process
//     stopped (by a limit too) before the reporter started, is a harness
//     fault, an error, never evidence or a verdict. A runner that passes no
//     descriptor leaves the drivers the workspace file, which the code can
//     forge. Evidence is only what the answer's code did: code objects
//     compiled from [TestSpec].Answer's files as they load, from any source
//     file written during the run, and what that code compiles or executes
//     at run time under any file name; the tests, context files, framework
//     and libraries, and what they call, are trusted (with no Answer, every
//     workspace file is the answer's). Detected, as [Suite].Tampered:
//     foreign, missing, repeated or reordered events (forged-event); a
//     reporter call from the job's code or off the main thread
//     (forged-call); the reporter rebound (reporter-patch); a function or
//     class of the frameworks, the reporter or the tests replaced, removed
//     or added (framework-patch); and, by an audit hook, opening a
//     .adaptbench- path or a /proc fd or mem file, exiting or killing itself
//     during a test, frame, gc, tracing or ctypes introspection. Residual:
//     code in the process can still forge, by native code writing the
//     reporter's memory, or by reaching its objects without an audited call
//     (logging.currentframe; pytest's plugin through sys.meta_path) and
//     changing them or calling them from a signal handler; a module the
//     answer writes and loads other than from source (a zip archive), or
//     writes within the clock tick the run began in, counts as trusted.
//     Holding against that takes the reporter out of the process.
//   - Go (driver_gotest_wrap.go). The host reads only output between a
//     start and an end marker carrying a per-run nonce, which reaches the
//     binary on stdin through a package whose init runs before the code's.
//     Prevented: framing printed before the start (from init) counts for
//     nothing; a binary too large for the job's disk is a compile error.
//     Detected: that framing (forged-framing); an exit after tests started
//     and before the end marker with status 0 or every test passing
//     (exit-before-end; its passes do not count). Residual: reading the
//     nonce out of the wrapper's memory with unsafe (its package path is
//     random per process), or redirecting fd 1 through a pipe and
//     rewriting the framework's lines between the real markers.
//   - Java (driver_junit.java). Every results line is signed (SHA-256 with
//     a per-run key read on stdin before any workspace class loads) and
//     numbered: unverifiable lines are dropped (forged-results), one out
//     of sequence stops the read (results-order); emit checks its callers'
//     stack (reporter-call); a halt before the end leaves unfinished tests
//     in error. Residual: JNI or sun.misc.Unsafe reading the key, or a
//     class the stack check trusts: one reached through JUnit 4's
//     RunNotifier, or one in a jar (jars are trusted as libraries).
//
// A tampered suite is scored as a failure by adapt and listed; no job can
// make its run StatusInternal, which adapt would leave unscored.
//
// # Stability
//
// Status and TestStatus text forms are stable. Result.Detail and
// CompileError text are for people and may change. Figures (the cost of a
// check, of the sandbox, of class sharing) are in BENCHMARKS.md.
package exec
