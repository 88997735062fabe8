package exec

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/adaptbench/adaptbench/exec/internal/jobkit"
)

// GoTest runs the tests of one Go package with "go test".
//
// The test binary is built on the host, outside the sandbox, with
// "go test -c -vet=off" and CGO_ENABLED=0, GOFLAGS=GoBuildFlags,
// GOPROXY=off, GOTOOLCHAIN=local and GOWORK=off, using the host's build and
// module caches (a sandboxed build would need a writable cache: a shared
// one can be poisoned, a fresh one costs about 9s). Building runs none of
// the workspace's code: with cgo off the toolchain only reads and compiles
// it, no module is downloaded and no other toolchain is fetched. It does
// read, with the caller's rights, files the workspace points to (replace
// directives, embedded files), and it runs with the caller's environment
// apart from the variables above. A build
// that fails is the Suite's Compile, with the compiler's messages and paths
// relative to the workspace. The build adds, through -overlay, a package
// of the driver's that sends the framework's outcomes signed on
// descriptor 3, out of the code's reach (see the trust boundary in the
// package doc; an answer file that imports unsafe is evidence); a test binary
// that does not fit the job's disk (Limits.Disk) is a compile error. The
// binary then runs inside the sandbox, as "pkg.test -test.v=test2json
// -test.paniconexit0 [-test.run ...]", and the host's test2json turns its
// output between the markers into per-test outcomes. A package whose own
// TestMain calls m.Run other than as m.Run() on its *testing.M parameter
// cannot be wrapped: Test returns an error.
//
// TestSpec.Tests holds names of top-level tests, examples or fuzz targets
// ("TestX", "ExampleY"), matched exactly; each runs with all its subtests.
// Empty means all (as "go test" does: tests, examples with output, fuzz
// seeds). Results are named as "go test -v" names them, subtests included
// ("TestX", "TestX/case_1"). The binary runs in the package's directory,
// as under "go test", so that tests find their testdata.
//
// Outcomes: t.Error and t.Fatal make TestFailed (and the parents of a
// failed subtest fail too); t.Skip makes TestSkipped. A test that panics is
// TestError; a panic ends the test binary, so the tests after it are
// TestError "not run". A name in TestSpec.Tests that the binary does not
// have is TestError "not found"; the binary lists its tests in a run of its
// own first ("-test.list"), and a test the main run reports keeps its
// outcome even where that listing failed. The message of a test is its
// output without the "=== RUN" and "--- FAIL" lines (of a long output,
// the first 32 KiB and the last 8 KiB). A package whose init panics or
// exits, or a TestMain that exits before running tests, makes the Suite's
// Compile. Output past the job's output limit (Limits.Output) is the
// output verdict. A package without test files gives an empty Suite (whose Run is
// the zero Result: no test process ran).
//
// The test output is not in Suite.Run's Stdout: it goes to a file in the
// workspace and from there into the messages.
type GoTest struct {
	// Go is the go command on the host. Empty means "go" from the host's
	// PATH, else /usr/local/go/bin/go.
	Go string
	// Package is the package to test, as a path relative to the workspace
	// (a module root). Empty means ".".
	Package string
	// BuildEnv holds extra KEY=VALUE entries for "go test -c", after the
	// host's environment and the driver's own settings (cgo off,
	// GOFLAGS=GoBuildFlags, GOPROXY=off, GOTOOLCHAIN=local, GOWORK=off), so
	// an entry here wins: GOMODCACHE=DIR builds from a module cache filled
	// beforehand (a GOFLAGS entry replaces GoBuildFlags as a whole). The
	// build never fetches unless an entry turns GOPROXY back on.
	BuildEnv []string
}

// goTestName is what TestSpec.Tests may hold for GoTest.
var goTestName = regexp.MustCompile(`^(Test|Example|Fuzz)[\p{L}\p{N}_]*$`)

// Test builds and runs the tests. See Driver.
func (d GoTest) Test(ctx context.Context, r Runner, spec TestSpec) (*Suite, error) {
	for _, n := range spec.Tests {
		if !goTestName.MatchString(n) {
			return nil, fmt.Errorf("exec: GoTest: %q is not the name of a top-level test, example or fuzz target (subtests cannot be selected)", n)
		}
	}
	goBin, err := d.goCommand()
	if err != nil {
		return nil, err
	}
	pkg := d.Package
	if pkg == "" {
		pkg = "."
	}
	if filepath.IsAbs(pkg) || strings.HasPrefix(filepath.Clean(pkg), "..") {
		return nil, fmt.Errorf("exec: GoTest: package %q is not inside the workspace", pkg)
	}
	pkg = "./" + filepath.ToSlash(filepath.Clean(pkg))
	sc, err := newScratch(spec.Dir)
	if err != nil {
		return nil, err
	}
	defer sc.remove()
	ws := filepath.Dir(sc.host)

	// Build on the host, wrapped (see driver_gotest_wrap.go).
	wrap, err := newGoWrap(ws, filepath.Join(ws, filepath.FromSlash(pkg)))
	if err != nil {
		return nil, err
	}
	defer wrap.remove()
	t := &goTestRun{d: d, goBin: goBin, ws: ws, pkg: pkg, sc: sc, spec: spec, wrap: wrap}
	build, out, err := t.build(ctx, filepath.Join(sc.host, "pkg.test"))
	suite := &Suite{Build: &build}
	if err != nil {
		return suite, err
	}
	if build.Status != StatusOK {
		suite.Compile = &CompileError{Output: cut(relativePaths(out, ws), maxCompile)}
		return suite, nil
	}

	if build.Detail == "no test files" {
		return suite, nil
	}
	if wrap == nil {
		return suite, fmt.Errorf("exec: GoTest: %s has test files the driver did not find to wrap", pkg)
	}
	if c := oversized(ws, spec.Limits); c != "" {
		// The job could not hold it: the code's doing, as any build that
		// fails.
		suite.Compile = &CompileError{Output: c}
		return suite, nil
	}

	// Run in the sandbox.
	pattern := "."
	if len(spec.Tests) > 0 {
		pattern = "^(" + strings.Join(spec.Tests, "|") + ")$"
	}
	// The binary runs in the package's directory, as "go test" runs it
	// (tests read testdata/ relative to it); the paths stay relative to
	// the workspace.
	// The key and the markers' token reach the binary on its stdin, which
	// the listing run does not get, nor the results channel (descriptor
	// 3); a runner that passes no channel leaves the main run a file.
	bin := sc.path("pkg.test")
	script := `w=$PWD; cd "$4" || exit 125; "$w/$0" -test.list "$1" >"$w/$2" 2>/dev/null </dev/null 3>&-; { true >&3; } 2>/dev/null || exec 3>>"$w/$5"; exec "$w/$0" -test.v=test2json -test.paniconexit0 -test.run "$1" >"$w/$3" 2>&1`
	ch, err := openChannel()
	if err != nil {
		return suite, err
	}
	defer ch.close()
	run := goRun{key: ch.nonce, token: newNonce(), tracked: wrap.tracked}
	job := Job{
		Dir:      spec.Dir,
		Args:     []string{"/bin/sh", "-c", script, bin, pattern, sc.path("list"), sc.path("out"), pkg, sc.path("results.jsonl")},
		Env:      spec.Env,
		Stdin:    strings.NewReader(run.key + " " + run.token + "\n"),
		Limits:   spec.Limits,
		ReadOnly: spec.ReadOnly,
		Results:  ch.w,
	}
	res, err := r.Run(ctx, job)
	suite.Run = res
	if err != nil {
		return suite, runErr("run go test binary", res, err)
	}
	// The channel, or, from a runner that gave the job none, the file.
	if run.stream = ch.wait(); len(run.stream) == 0 {
		run.stream = sc.read("results.jsonl")
	}
	if err := t.read(ctx, run, suite); err != nil {
		return suite, err
	}
	suite.Tampered = append(suite.Tampered, scanGo(ws, spec.Answer)...)
	return suite, nil
}

// goTestRun is what the steps of one GoTest.Test share: the go command,
// the workspace's host copy ws and its scratch directory, the package
// (relative to ws) and its wrapping, and the spec.
type goTestRun struct {
	d     GoTest
	goBin string
	ws    string
	pkg   string
	sc    scratch
	spec  TestSpec
	wrap  *goWrap
}

// goRun is what the host holds of one run of a wrapped test binary.
type goRun struct {
	key     string          // signs the binary's results (never in the job's files)
	token   string          // of the markers on stdout
	tracked map[string]bool // the top-level tests the binary signs
	stream  []byte          // the signed results
}

// goSigned is what the test binary signed: the framework's outcome of
// each tracked test and m.Run's code.
type goSigned struct {
	hello, done bool
	exit        int
	ends        map[string]TestStatus
	tampered    []Tamper
}

func readSigned(stream []byte, key string) goSigned {
	sg := goSigned{ends: map[string]TestStatus{}}
	for _, e := range parseSigned(stream, key) {
		switch e.kind {
		case "hello":
			sg.hello = true
		case "end":
			if old, ok := sg.ends[e.name]; !ok || e.status.severity() > old.severity() {
				sg.ends[e.name] = e.status
			}
		case "done":
			sg.done, sg.exit = true, e.exit
		case "tamper":
			sg.tampered = append(sg.tampered, Tamper{Kind: e.name, Detail: e.message})
		}
	}
	return sg
}

// read reads what the test binary of suite.Run wrote into suite's
// outcomes, evidence or Compile.
func (t *goTestRun) read(ctx context.Context, run goRun, suite *Suite) error {
	goBin, sc, spec := t.goBin, t.sc, t.spec
	res := suite.Run
	// What the host reads, and what test2json and the events hold, follow
	// the job's output limit: more output than that is its verdict.
	limit := spec.Limits.WithDefaults().Output
	if !limit.set() {
		limit = maxReport
	}
	list, _ := ReadWorkspaceFile(sc.root, sc.path("list"), limit)
	raw, err := ReadWorkspaceFile(sc.root, sc.path("out"), limit)
	over := errors.Is(err, errFileTooLarge)
	marks := splitMarked(raw, run.token)
	var (
		events  []event
		partial map[string]string
		started bool
	)
	err = test2json(ctx, goBin, capSegments(marks.body, 2*maxMessage, maxMessage/2), func(conv io.Reader) bool {
		var full bool
		events, partial, started, full = goTestEvents(conv, list, spec.Tests, newHostBudget(len(raw)))
		over = over || full
		return !full
	})
	if err != nil {
		return err
	}
	if over && !limitStatus(res.Status) {
		suite.Run.Status, suite.Run.Detail = StatusOutput, fmt.Sprintf("the test binary's output is over the output limit (%s) or holds more than the host keeps", limit)
		res = suite.Run
	}
	tests, _, done, err := assemble(assembly{events: events, run: res, what: "test binary"})
	if err != nil {
		return err
	}
	sg := readSigned(run.stream, run.key)
	if !sg.hello {
		// The driver's package signs its hello in its init, before any
		// package of the module initializes: without it no code of the
		// job ran, or the key, the markers' token or the channel never
		// reached the binary. Either way a harness fault, never evidence
		// (the framing would otherwise precede a start marker that never
		// came) nor a verdict.
		suite.Run.Status, suite.Run.Detail = StatusInternal, fmt.Sprintf("the test binary's reporter never sent its signed hello (%s): the key or the results channel did not reach it, or it was stopped before any code of the job ran (a harness fault, not the code's)", orExit0(res.Detail))
		return errors.New("exec: " + suite.Run.Detail)
	}
	suite.Tampered = append(suite.Tampered, sg.tampered...)
	if l := forgedFraming(marks.pre); l != "" {
		suite.Tampered = append(suite.Tampered, Tamper{Kind: "forged-framing", Detail: "before the driver's start marker the test binary printed go test's framing: " + quoteShort(l)})
	}
	ran := marks.started || started
	if ran && !sg.done && (res.Status == StatusOK || res.Status == StatusExit && allPassed(tests)) {
		suite.Tampered = append(suite.Tampered, Tamper{Kind: "exit-before-end", Detail: fmt.Sprintf("the test binary ended (%s) after its tests started and before the framework finished, with no test failing", orExit0(res.Detail))})
		// What the run said of its tests is not the framework's word.
		distrust(tests, "reported as passing by a test binary that left before the framework finished")
	}
	if !ran && !done && !limitStatus(res.Status) && suite.Tampered == nil {
		// Nothing ran: init panicked or exited, TestMain exited, or the
		// binary could not start.
		suite.Compile = &CompileError{Output: cut(fmt.Sprintf("the test binary failed before running any test (%s):\n%s", orExit0(res.Detail), strings.TrimSpace(string(marks.pre))), maxCompile)}
		return nil
	}
	if sg.done && marks.started && !marks.ended && res.Status == StatusOK {
		// The framework finished and the binary exited normally, yet its
		// output stops before the end marker: the code closed or took
		// its stdout.
		suite.Tampered = append(suite.Tampered, Tamper{Kind: "output-cut", Detail: "the test binary's output stops before the driver's end marker in a run that finished normally: its stdout was closed or taken"})
	}
	suite.Tampered = append(suite.Tampered, sg.floor(tests, run.tracked)...)
	if sg.done && sg.exit != 0 && allPassed(tests) {
		suite.Tampered = append(suite.Tampered, Tamper{Kind: "output-rewritten", Detail: fmt.Sprintf("the framework ended with code %d, and the test binary's output reports no test failing", sg.exit)})
		distrust(tests, fmt.Sprintf("reported as passing in a run the framework ended with code %d", sg.exit))
	}
	for i := range tests {
		if out := partial[tests[i].Name]; out != "" {
			tests[i].Message = cut(tests[i].Message+"\noutput:\n"+out, maxMessage)
		}
	}
	suite.Tests = tests
	return nil
}

// distrust makes each passing test of tests an error, with msg.
func distrust(tests []TestResult, msg string) {
	for i := range tests {
		if tests[i].Status == TestPassed {
			tests[i].Status, tests[i].Message = TestError, msg
		}
	}
}

// floor holds each tracked top-level test of tests to the framework's
// signed outcome: a test the output says did better is given the signed
// outcome, one it says passed or was skipped without a signed outcome is
// an error. Both are evidence: the framework signs a test's outcome before
// it prints it.
func (sg goSigned) floor(tests []TestResult, tracked map[string]bool) []Tamper {
	var rewritten, unsigned []string
	for i := range tests {
		t := &tests[i]
		if !tracked[t.Name] || (t.Status != TestPassed && t.Status != TestSkipped) {
			continue
		}
		st, ok := sg.ends[t.Name]
		switch {
		case !ok:
			unsigned = append(unsigned, t.Name)
			t.Status, t.Message = TestError, "reported as "+t.Status.String()+" in the output, but the framework's signed outcome of it never came"
		case st.severity() > t.Status.severity():
			rewritten = append(rewritten, t.Name)
			t.Status, t.Message = st, "the framework's outcome is "+st.String()+"; the test binary's output said "+t.Status.String()+"\n"+t.Message
		}
	}
	var out []Tamper
	if len(rewritten) > 0 {
		out = append(out, Tamper{Kind: "output-rewritten", Detail: "the test binary's output reports better than the framework's signed outcomes of " + cut(strings.Join(rewritten, ", "), 512)})
	}
	if len(unsigned) > 0 {
		out = append(out, Tamper{Kind: "unsigned-pass", Detail: "the test binary's output reports as passed tests the framework never signed: " + cut(strings.Join(unsigned, ", "), 512)})
	}
	return out
}

// allPassed reports whether every test passed or was skipped.
func allPassed(tests []TestResult) bool {
	for _, t := range tests {
		if t.Status != TestPassed && t.Status != TestSkipped {
			return false
		}
	}
	return true
}

func orExit0(detail string) string {
	if detail == "" {
		return "exit code 0"
	}
	return detail
}

// oversized says why the workspace with the test binary does not fit the
// job's disk (Limits.Disk, Limits.DiskFiles), or "".
func oversized(ws string, l Limits) string {
	l = l.WithDefaults()
	var size, files int64
	filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		files++
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				size += fi.Size()
			}
		}
		return nil
	})
	if (l.Disk.set() && Size(size) > l.Disk) || (l.DiskFiles > 0 && files > int64(l.DiskFiles)) {
		return fmt.Sprintf("the test binary does not fit the job's disk: the workspace with it holds %s in %d files, over the limit of %s and %d files (a build that large is the code's: a large array in its data, say)", Size(size), files, l.Disk, l.DiskFiles)
	}
	return ""
}

func (d GoTest) goCommand() (string, error) {
	if d.Go != "" {
		return d.Go, nil
	}
	if p, err := osexec.LookPath("go"); err == nil {
		return p, nil
	}
	const fallback = "/usr/local/go/bin/go"
	if _, err := os.Stat(fallback); err == nil {
		return fallback, nil
	}
	return "", errors.New("exec: GoTest: no go command on the host PATH or at /usr/local/go/bin/go")
}

// GoBuildFlags is the GOFLAGS of GoTest's host build of a test binary:
// module mode (nothing is fetched: GoTest also sets GOPROXY=off), no VCS
// stamp, and no DWARF (-ldflags=-w: nothing reads it, and it is some 40%
// of a link's CPU time; stack traces come from the symbol and line
// tables, which stay). Other packages that build test binaries for the
// same sandbox use it too.
const GoBuildFlags = "-mod=mod -buildvcs=false -ldflags=-w"

// goBuildEnv is what "go test -c" runs with, after the host's environment.
var goBuildEnv = []string{
	"CGO_ENABLED=0",
	"GOFLAGS=" + GoBuildFlags,
	"GOPROXY=off",
	"GOTOOLCHAIN=local",
	"GOWORK=off",
}

// goBuildTimeout bounds "go test -c". A build that takes longer is a
// harness error (most often a cold cache on a slow machine), not a compile
// error.
const goBuildTimeout = 5 * time.Minute

// build runs "go test -c" on the host, writing the binary to out. A
// failure of the build is a Result with StatusExit; an error means the go
// command could not run or timed out.
func (t *goTestRun) build(ctx context.Context, out string) (Result, string, error) {
	d, goBin, ws, pkg, wrap := t.d, t.goBin, t.ws, t.pkg, t.wrap
	bctx, cancel := context.WithTimeout(ctx, goBuildTimeout)
	defer cancel()
	outBuf := jobkit.NewBuffer(maxCompile*2, nil)
	args := []string{"test", "-c", "-vet=off", "-o", out}
	if wrap != nil {
		args = append(args, "-overlay="+wrap.overlay)
	}
	cmd := osexec.CommandContext(bctx, goBin, append(args, pkg)...)
	cmd.Dir = ws
	cmd.Env = append(append(append(os.Environ(), goBuildEnv...), goCacheEnv()...), d.BuildEnv...)
	cmd.Stdout, cmd.Stderr = outBuf, outBuf
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	res := Result{WallTime: time.Since(start), ExitCode: -1}
	if ps := cmd.ProcessState; ps != nil {
		res.ExitCode = ps.ExitCode()
		res.CPUTime = ps.UserTime() + ps.SystemTime()
	}
	text := string(outBuf.Bytes())
	res.Stderr = []byte(text)
	res.OutputBytes = outBuf.Total()
	var exitErr *osexec.ExitError
	switch {
	case ctx.Err() != nil:
		res.Status, res.Detail = StatusCanceled, "canceled by the caller"
		return res, text, ctx.Err()
	case bctx.Err() != nil:
		res.Status, res.Detail = StatusInternal, fmt.Sprintf("go test -c did not finish within %s", goBuildTimeout)
		return res, text, fmt.Errorf("exec: GoTest: %s", res.Detail)
	case errors.As(err, &exitErr) && res.ExitCode > 0:
		if why := toolchainFault(text); why != "" {
			// Nothing was compiled: the toolchain could not start.
			res.Status, res.Detail = StatusInternal, why
			return res, text, fmt.Errorf("exec: GoTest: %s", why)
		}
		res.Status, res.Detail = StatusExit, fmt.Sprintf("exit code %d", res.ExitCode)
		return res, text, nil
	case err != nil:
		res.Status, res.Detail = StatusInternal, err.Error()
		return res, text, fmt.Errorf("exec: GoTest: run %s: %w", goBin, err)
	}
	res.Status = StatusOK
	if _, err := os.Stat(out); err != nil {
		// "go test -c" writes no binary for a package without test files.
		res.Detail = "no test files"
	}
	return res, text, nil
}

// toolchainFaults are what the go command says when it cannot start (its
// build or module cache unusable, its installation broken), before it
// compiles anything: a fault of the host, never the code's compile error.
var toolchainFaults = regexp.MustCompile(`(?m)^(go: )?(failed to initialize build cache|GOCACHE is not defined|build cache is required|go: could not create module cache|go: module cache not found|cannot find GOROOT|go: cannot find main module.*GOROOT)[^\n]*|^go: [^\n]*(GOCACHE|GOMODCACHE|GOPATH)[^\n]*: (permission denied|read-only file system)[^\n]*`)

// toolchainFault returns what to tell of a go command that could not
// start, or "".
func toolchainFault(out string) string {
	m := toolchainFaults.FindString(out)
	if m == "" {
		return ""
	}
	return "the go toolchain could not start: " + strings.TrimSpace(m) +
		" (set GOCACHE, and GOMODCACHE where the build reads modules, to directories this user can write, or pass them in GoTest.BuildEnv)"
}

// privateCache is the build cache of this process when the user's cannot
// be written: a fresh directory only this user can use (a name shared
// between users could be filled beforehand by another), kept for the
// process's later builds.
var privateCache = sync.OnceValues(func() (string, error) { return os.MkdirTemp("", "adaptbench-gocache-") })

// goCacheEnv is the GOCACHE of the host build: none (the go command's
// own) when the environment sets one, or when the user's cache directory,
// the go command's default, can be written; else the private cache. A
// service account or container with a read-only home then still builds.
func goCacheEnv() []string {
	if os.Getenv("GOCACHE") != "" {
		return nil
	}
	if dir, err := os.UserCacheDir(); err == nil && writable(filepath.Join(dir, "go-build")) {
		return nil
	}
	dir, err := privateCache()
	if err != nil {
		return nil // the go command then says why it cannot start
	}
	return []string{"GOCACHE=" + dir}
}

// writable reports whether dir exists or can be made, and a file can be
// created in it.
func writable(dir string) bool {
	if os.MkdirAll(dir, 0o777) != nil {
		return false
	}
	f, err := os.CreateTemp(dir, ".adaptbench-probe-")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}

// relativePaths rewrites the workspace's absolute paths in compiler output.
func relativePaths(s, ws string) string {
	s = strings.ReplaceAll(s, ws+string(filepath.Separator), "")
	return strings.ReplaceAll(s, ws, ".")
}

var test2jsonPaths sync.Map // go command -> path of its test2json

// test2json converts the output of a test binary run with
// -test.v=test2json with the host's test2json, handing its output to parse
// as it comes (never all of it in memory); parse returns false when it
// wants no more. "go tool test2json" costs
// about 150ms a run, so the path of the tool ("go tool -n") is kept.
func test2json(ctx context.Context, goBin string, raw []byte, parse func(io.Reader) bool) error {
	for attempt := 0; ; attempt++ {
		p, ok := test2jsonPaths.Load(goBin)
		if !ok {
			cmd := osexec.CommandContext(ctx, goBin, "tool", "-n", "test2json")
			cmd.Env = append(append(os.Environ(), goBuildEnv...), goCacheEnv()...)
			out, err := cmd.Output()
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				var ee *osexec.ExitError
				if errors.As(err, &ee) {
					err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
				}
				return fmt.Errorf("exec: GoTest: go tool -n test2json: %w", err)
			}
			p = strings.TrimSpace(string(out))
			test2jsonPaths.Store(goBin, p)
		}
		cmd := osexec.CommandContext(ctx, p.(string))
		cmd.Stdin = bytes.NewReader(raw)
		stderr := jobkit.NewBuffer(2048, nil)
		cmd.Stderr = stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return fmt.Errorf("exec: GoTest: test2json: %w", err)
		}
		if err = cmd.Start(); err == nil {
			if !parse(stdout) {
				// The rest is not wanted: stop the tool rather than
				// convert it.
				cmd.Process.Kill()
				io.Copy(io.Discard, stdout)
				cmd.Wait()
				return nil
			}
			io.Copy(io.Discard, stdout)
			err = cmd.Wait()
		}
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, fs.ErrNotExist) && attempt == 0 {
			// The build cache was trimmed: build the tool again.
			test2jsonPaths.Delete(goBin)
			continue
		}
		return fmt.Errorf("exec: GoTest: test2json: %w: %s", err, tail(stderr.Bytes(), 1024))
	}
}

// testEvent is one line of test2json's output.
type testEvent struct {
	Action  string
	Test    string
	Elapsed float64
	Output  string
}

// goTestEvents turns test2json output, and the output of -test.list, into
// events. Names in requested that -test.list did not list are missing.
// partial holds the output of tests that started and did not end; started
// reports whether any test started. Each test name costs budget its
// length and more; over reports that a test's name did not fit, and was
// dropped with every event after it.
func goTestEvents(conv io.Reader, list []byte, requested []string, budget *hostBudget) (events []event, partial map[string]string, started, over bool) {
	plan, listed := goTestPlan(list)
	if len(plan) > 0 {
		events = append(events, event{kind: "plan", names: plan})
	}
	s := &goStream{output: map[string]*strings.Builder{}, ends: map[string]*event{}, ran: map[string]bool{}, budget: budget, events: events}
	sc := bufio.NewScanner(conv)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var te testEvent
		if json.Unmarshal(sc.Bytes(), &te) != nil {
			continue
		}
		if s.add(te); s.over {
			break
		}
	}
	s.endEvents()
	partial = s.unfinished()
	if s.started || s.final {
		s.events = append(s.events, requestedEvents(requested, listed, s.ran, s.final, len(plan) > 0)...)
	}
	if s.final {
		s.events = append(s.events, event{kind: "done"})
	}
	return s.events, partial, s.started, s.over
}

// goTestPlan reads the output of -test.list: the tests, in order, once.
func goTestPlan(list []byte) (plan []string, listed map[string]bool) {
	listed = map[string]bool{}
	for _, l := range strings.Split(string(list), "\n") {
		l = strings.TrimSpace(l)
		if goTestName.MatchString(l) && !strings.HasPrefix(l, "Benchmark") && !listed[l] {
			plan = append(plan, l)
			listed[l] = true
		}
	}
	return plan, listed
}

// goStream is what goTestEvents has read of test2json's stream.
type goStream struct {
	output  map[string]*strings.Builder
	order   []string
	ends    map[string]*event
	ran     map[string]bool
	final   bool
	started bool
	over    bool
	budget  *hostBudget
	events  []event
}

// add reads one event of the stream.
func (s *goStream) add(te testEvent) {
	if te.Test == "" {
		if te.Action == "pass" || te.Action == "fail" {
			s.final = true
		}
		return
	}
	if _, seen := s.output[te.Test]; !seen && !s.ran[te.Test] && s.ends[te.Test] == nil {
		// A name the host has not held yet: its entries in the maps,
		// its events and its outcome.
		if !s.budget.take(len(te.Test)*4 + 512) {
			s.over = true
			return
		}
	}
	switch te.Action {
	case "run":
		s.started = true
		if s.ran[te.Test] {
			break // a repeated start changes nothing
		}
		s.ran[te.Test] = true
		s.events = append(s.events, event{kind: "start", name: te.Test})
	case "output":
		b, ok := s.output[te.Test]
		if !ok {
			b = &strings.Builder{}
			s.output[te.Test] = b
		}
		if b.Len() < 4*maxMessage && !isFraming(te.Output) {
			b.WriteString(te.Output)
		}
	case "pass", "fail", "skip":
		s.end(te)
	}
}

// end reads a test's result; the worst of a test's results stands.
func (s *goStream) end(te testEvent) {
	if s.ends[te.Test] != nil && !s.budget.take(256) {
		s.over = true
	}
	e := event{kind: "end", name: te.Test, duration: seconds(te.Elapsed)}
	switch te.Action {
	case "pass":
		e.status = TestPassed
	case "fail":
		e.status = TestFailed
	default:
		e.status = TestSkipped
	}
	if s.ends[te.Test] == nil {
		s.order = append(s.order, te.Test)
	} else if e.status.severity() < s.ends[te.Test].status.severity() {
		return
	}
	s.ends[te.Test] = &e
}

// endEvents adds the tests' end events, in the order they first ended,
// with their messages, then those of tests that panicked.
func (s *goStream) endEvents() {
	for _, name := range s.order {
		e := s.ends[name]
		if b := s.output[name]; b != nil {
			e.message = strings.TrimRight(b.String(), "\n")
		}
		switch {
		case e.status == TestPassed:
			e.message = ""
		case e.status == TestFailed && !s.final && hasPanic(e.message):
			e.status = TestError
		case e.status == TestFailed && e.message == "":
			var failed []string
			for _, sub := range s.order {
				if strings.HasPrefix(sub, name+"/") && s.ends[sub].status == TestFailed {
					failed = append(failed, sub)
				}
			}
			if len(failed) > 0 {
				e.message = "failed subtests: " + strings.Join(failed, ", ")
			}
		}
		s.events = append(s.events, *e)
	}
	// A test that panics has no result line that test2json can see: its
	// "--- FAIL" comes just before the panic's report, in its output.
	for name, b := range s.output {
		if _, ok := s.ends[name]; !ok && !s.final && hasPanic(b.String()) {
			s.events = append(s.events, event{kind: "end", name: name, status: TestError, message: strings.TrimRight(b.String(), "\n")})
			s.ends[name] = &s.events[len(s.events)-1]
		}
	}
}

// unfinished is the output of the tests that did not end, for the message
// that assemble gives them.
func (s *goStream) unfinished() map[string]string {
	partial := map[string]string{}
	for name, b := range s.output {
		if _, ok := s.ends[name]; !ok && b.Len() > 0 {
			partial[name] = strings.TrimRight(b.String(), "\n")
		}
	}
	return partial
}

// requestedEvents says what became of the requested names. A requested
// name the run reported is found, whatever the list says: the list is a
// run of its own, and one that failed (its exit status and errors are not
// kept) must not turn tests that ran into errors. One the run neither
// started nor reported is missing when the run finished (-test.run
// selected it and it did not run), or when the list, which holds the
// binary's tests, does not name it; after a run that was cut short with an
// empty list it was not run, as assemble says.
func requestedEvents(requested []string, listed, ran map[string]bool, final, planned bool) []event {
	var events []event
	var unknown []string
	for _, n := range requested {
		switch {
		case listed[n] || ran[n]:
		case final || planned:
			events = append(events, event{kind: "missing", name: n})
		default:
			unknown = append(unknown, n)
		}
	}
	if unknown != nil {
		events = append(events, event{kind: "plan", names: unknown})
	}
	return events
}

// isFraming reports whether a line of test output is go test's own
// "=== RUN", "=== PAUSE", "--- PASS: X" and similar lines.
func isFraming(line string) bool {
	t := strings.TrimLeft(line, " ")
	return strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- PASS: ") ||
		strings.HasPrefix(t, "--- FAIL: ") || strings.HasPrefix(t, "--- SKIP: ")
}

// hasPanic reports whether test output holds the runtime's report of a
// panic, which starts a line with "panic: " (t.Log output is indented).
func hasPanic(s string) bool {
	return strings.HasPrefix(s, "panic: ") || strings.Contains(s, "\npanic: ")
}
