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
// process the job started is gone. Limits hold for the job as a whole,
// not for each of its processes: exec/sandbox's doc says how each mode
// counts them, and its trust boundary which per-user kernel budgets jobs
// of one user still share.
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
// Paths inside a job use [WorkDir]; [RunnerFunc] adapts a function;
// [DefaultParallelism] is how many jobs to run at once by default.
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
// [GoTest] builds the test binary on the host (cgo off; building runs none
// of the workspace's code) and runs only the binary in the job. [JUnit]
// compiles with javac in the job and runs the JUnit Platform Launcher
// (JUnit 4 and 5) by unique test IDs; [JaCoCo] adds per-test coverage,
// [JavaBuild] is the seam for other build systems, and [JUnit.TestRounds]
// runs many rounds (a mutant's classes each) in shared JVMs: rounds trust
// each other, so they are for code of one origin, never different models'
// answers. Class-data sharing archives are made once per machine from
// trusted code ([JUnit].NoClassSharing). Each reporter writes one event
// per test as it runs, so a suite stopped by a limit still reports the
// tests that finished and marks the one running and those never reached.
//
// # Trust boundary of the drivers
//
// The code under test is hostile; the job's isolation is exec/sandbox's
// contract. Per language: what a process or language boundary prevents,
// what is only detected ([Suite].Tampered), what remains. adapt weighs
// evidence against the reference's own run: a kind the reference shows is
// what the task needs.
//
// Host reads. The host opens nothing by a path the job could have written
// as an ordinary open would resolve it: [ReadWorkspaceFile] (openat2
// beneath the workspace, no symbolic or magic links, regular files only,
// O_NONBLOCK, a size cap) is how drivers and callers read a job's files,
// so a link to a host file or to /dev/zero, or a FIFO, yields no data: the
// tests did not report, never a host read or a hang. Each read is bounded
// by the job's output limit, and what the host decodes by four times what
// it read (16 MiB at least): more is the output verdict. Reporters mark
// their start on stderr, which a job cannot take back, so results a job
// deleted are its doing, not a harness failure.
//
// # Trust boundary: Python
//
// driver_guard.py, isolate.py; tamper_linux_test.go, isolate_linux_test.go.
// With [TestSpec].Isolate, prevented by a process boundary: before it reads
// the nonce or takes the results channel, the reporter forks a process
// that imports the answer's modules; the tests import stand-ins that
// forward every use, values cross as data only (tagged JSON, never pickle),
// the tests' handles can only be called, a bad message is the answer's
// failure; the tests' process is not dumpable and ptrace is refused.
// In-process, results travel on descriptor 3 ([Job].Results), hidden
// before the code loads, each event with the run's nonce (from stdin) and
// number. A channel whose first line is not the reporter's hello with the
// nonce, or a process stopped before the reporter started, is a harness
// fault (an error), never evidence. Evidence is only what the answer's
// code did: code objects compiled from [TestSpec].Answer's files, from a
// source file written during the run, and what that code compiles or
// executes under any file name; tests, context files, framework and
// libraries are trusted (no Answer: every workspace file is the answer's).
// Detected in-process: foreign or reordered events (forged-event), a
// reporter call from the answer's code (forged-call), the reporter rebound
// (reporter-patch), the frameworks' or tests' classes changed
// (framework-patch), audited frame, gc, tracing, ctypes or /proc use.
// Residual in-process: reaching the reporter's objects without an audited
// call (__subclasses__, __globals__, walk_stack, pytest's plugin), native
// code, a module the answer writes and loads from a zip or within the
// run's first clock tick: isolation's reason. Residual isolated: what any
// process of the job can do (write workspace files, signal the tests).
//
// # Trust boundary: Go
//
// driver_gotest_wrap.go; forge_gotest*_linux_test.go. Prevented, by the
// language: forging an outcome the framework did not reach. A package of
// the driver's, imported by every package of the module (so initialized
// before any of them), reads a key on stdin and keeps it in unexported
// state; a cleanup it adds to each top-level test and fuzz target sends
// the framework's outcome (Failed, Skipped), and TestMain m.Run's code, on
// descriptor 3, signed with the key and numbered. Go code reaches the key
// only through unsafe or //go:linkname. The stdout the code shares (and
// can take over) gives messages and subtests, and a test no better than
// its signed outcome. Detected: output better than the signed outcomes
// (output-rewritten, unsigned-pass); an exit before the signed end with
// status 0 or no test failing (exit-before-end); framing before the start
// marker (forged-framing); stdout closed (output-cut); lines on descriptor
// 3 not signed or out of order (forged-results, results-order); an answer
// file that imports unsafe, holds //go:linkname or names its process's
// memory (unsafe-import, linkname, proc-mem). Residual: reading that
// memory for the key where the source hides the path; an example's and a
// subtest's outcomes rest on the output (their top-level test, or the
// run's code, is signed).
//
// # Trust boundary: Java
//
// driver_junit.java; forge_junit_linux_test.go. Prevented, by the
// language: the reporter is a named module that exports and opens nothing
// to the class path, where JUnit, the tests and the code run, so
// setAccessible, a private lookup or addOpens on it fail (JDK 17's strong
// encapsulation): its key, read on stdin before any workspace class loads,
// and its channel are out of reflection's reach. Each results line is
// signed with the key and numbered. Detected: unverifiable lines
// (forged-results), one out of sequence (results-order), a call of the
// reporter from the workspace's code, through JUnit's listeners included
// (reporter-call); a halt before the end leaves unfinished tests in error;
// in the answer's files, sun.misc.Unsafe (unsafe), JNI (jni), an agent
// or the Attach API (agent), /proc/self/mem (proc-mem). Residual: those
// where the source hides their names (a class name built at run time), a
// process of the code's own attaching to the JVM, and a class the stack
// check trusts (one reached through JUnit 4's RunNotifier, or in a jar:
// jars are trusted as libraries).
//
// adapt scores a tampered suite as a failure and lists it.
//
// # Stability
//
// Status and TestStatus text forms are stable; Result.Detail and
// CompileError text may change. Figures are in BENCHMARKS.md.
package exec
