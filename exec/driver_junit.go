package exec

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

//go:embed driver_junit.java
var junitReporterSource string

// The reporter is the named module junitModule, its main class
// junitReporterClass. Its module declaration exports and opens nothing.
const (
	junitModule        = "adaptbench.junit"
	junitReporterClass = junitModule + ".AdaptbenchJUnitReporter"
	junitModuleInfo    = "module adaptbench.junit {\n    requires java.management;\n    requires jdk.management;\n}\n"
)

// junitModuleFlags are the test JVM's flags that run the reporter's module
// from modulePath with the class path classpath: the module reads the
// unnamed module (the class path), and the class path sees the platform's
// modules as it would without a main module.
func junitModuleFlags(modulePath string, classpath []string) []string {
	return []string{"--module-path", modulePath, "--add-reads", junitModule + "=ALL-UNNAMED", "--add-modules", "ALL-DEFAULT",
		"-cp", strings.Join(classpath, ":"), "-m", junitModule + "/" + junitReporterClass}
}

// DefaultJUnitClasspath is the classpath of JUnit tests when JUnit's is nil:
// Debian's console-standalone jar (package junit5), which bundles the JUnit
// Platform launcher, the Jupiter API, params and engine, the Vintage engine,
// JUnit 4.13, Hamcrest, opentest4j and apiguardian.
var DefaultJUnitClasspath = []string{"/usr/share/java/junit-platform-console-standalone.jar"}

// DefaultJVMFlags are the flags of every JVM the Java drivers start (javac
// through -J) when theirs are nil. They favour start-up time and a small
// footprint: one GC thread and the C1 compiler only.
//
// Before them, the drivers size the JVM to the job's memory limit M
// (Limits.Memory): -XX:MaxRAM=M with a heap of M/4 (the JVM's own default
// in a container), and class space, code cache and metaspace of M/16
// (16 to 64MiB), M/16 (16 to 64MiB) and M/8, so that the JVM fits whether
// a cgroup or RLIMIT_AS enforces the limit; under RLIMIT_AS, which counts
// reserved address space, a JVM needs M of at least 512MiB. Flags given
// in JVMFlags come after, and win.
var DefaultJVMFlags = []string{
	"-XX:+UseSerialGC",
	"-XX:TieredStopAtLevel=1",
	"-XX:-UsePerfData",
	"-Xss1m",
	"-Xshare:auto",
}

// jvmEnv keeps glibc from reserving 64MiB of address space per thread,
// which an RLIMIT_AS memory limit would count.
var jvmEnv = []string{"MALLOC_ARENA_MAX=2"}

// JUnit runs Java tests on the JUnit Platform: JUnit 5 (Jupiter) test
// classes and, through the Vintage engine, JUnit 4 ones, in one JVM in the
// sandbox.
//
// A JavaBuild compiles the workspace first (by default javac, which
// compiles every .java file in the sandbox); a build that fails is the
// Suite's Compile. A small reporter (driver_junit.java, compiled once per
// process with the host's javac, it runs none of the workspace's code)
// then drives the JUnit Platform Launcher in the sandbox and streams each
// test's outcome to a file, so that the tests that finished keep their
// outcomes when a limit stops the JVM; it signs each line with a key the
// host gives it, and reports the code under test that calls it (see the
// trust boundary in the package doc).
//
// Tests are named after their JUnit Platform unique IDs, one name per
// unique ID (display names, which the code under test chooses, are never
// part of a name), and every name a Suite reports selects exactly that
// test when passed back in TestSpec.Tests:
//
//	pkg.CalcTest#add             a test method; pkg.Outer$Inner#add in a
//	                             @Nested or static nested class
//	pkg.CalcTest#add(int,int)    the same when the class has several
//	                             methods named add (types as Java spells them)
//	pkg.CalcTest#twice[3]        the 3rd invocation of a @ParameterizedTest
//	                             or @RepeatedTest, the 3rd dynamic node of
//	                             a @TestFactory ([2][1]: the 1st test in its
//	                             2nd dynamic container), counting from 1
//	pkg.CleanupTest              a class that failed after its tests ran
//	[engine:e]/[type:v]/...      anything else (a JUnit 4 parameterized
//	                             run, another engine): the unique ID, each
//	                             character but A-Za-z0-9._$#(),- escaped as
//	                             %XX (ASCII) or %uXXXX (UTF-16)
//
// Names are as stable as the unique IDs: a parameterized test's
// invocations are numbered in the order its arguments come. TestSpec.Tests
// may also name groups: a class ("pkg.CalcTest", "pkg.CalcTest$Inner"),
// or a method without index, which selects every overload and every
// invocation. Empty means every class in the build's class directories
// whose simple name matches JUnit's standard pattern (Test*, *Test,
// *Tests). A name that selects nothing is reported as a TestError
// ("not found").
//
// Outcomes: an AssertionError (JUnit's assertions, opentest4j, Hamcrest)
// is TestFailed, any other exception TestError, a TimeoutException
// (Jupiter's @Timeout, JUnit 4's timeout) TestTimedOut, a failed assumption
// or a disabled test TestSkipped. When a class fails before its tests run
// (@BeforeAll, @BeforeClass) its tests are TestError; when it fails after
// (@AfterAll) an extra TestError entry named after the class is reported.
type JUnit struct {
	// Java is the java launcher in the sandbox. Empty means "java" on the
	// sandbox's PATH.
	Java string
	// Javac is the compiler of the test reporter, on the host, and of the
	// default build, in the sandbox. Empty means "javac".
	Javac string
	// Classpath holds the jars the tests compile and run against, as paths
	// in the sandbox; it must include the JUnit Platform launcher (1.8 or
	// later) and the engines. Nil means DefaultJUnitClasspath.
	Classpath []string
	// JVMFlags are the flags of the test JVM and of javac. Nil means
	// DefaultJVMFlags.
	JVMFlags []string
	// Build compiles the workspace. Nil means javac in the sandbox, as
	// Javac and JVMFlags say (javacBuild).
	Build JavaBuild
	// Coverage, when not nil, records per-test coverage with JaCoCo in
	// the test JVM, into Suite.Coverage. See JaCoCo.
	Coverage *JaCoCo
	// NoClassSharing turns off the class-data sharing archives of the test
	// JVM and of the default build's javac (made once per machine in the
	// user's cache directory from the JUnit jars, the reporter and javac
	// alone; see jvmshare.go). They change no outcome and save about a
	// quarter of each JVM's start-up CPU. Coverage runs never use one, nor
	// do jobs whose memory limit is under 768MiB: a JVM that maps an
	// archive reserves some 60MiB more address space, which a limit
	// enforced by RLIMIT_AS counts.
	NoClassSharing bool
}

// JaCoCo configures per-test coverage of a JUnit run, in one JVM: the
// test JVM runs JaCoCo's agent (-javaagent, output=none), and the
// reporter takes the agent's execution data, resetting it, whenever a
// test or a container (class, parameterized test, test factory) starts
// or ends. Each such chunk is a JaCoCo session that names what ran since
// the previous one, appended to Suite.Coverage (JaCoCo's .exec format,
// readable by its ExecFileLoader or ExecutionDataReader):
//
//	"T" + unique ID + "\t" + name   a test, from its start to its end
//	                                (@BeforeEach and @AfterEach included)
//	"C" + unique ID                 a container, between the events of
//	                                its children (@BeforeAll, @AfterAll,
//	                                argument providers, a test class's
//	                                static initializer); "C" alone is
//	                                what ran outside every container
//
// A container's unique ID is a prefix of its tests' (at a "/"), so a
// test's coverage as a JVM running it alone would see it is its session
// and those of its containers; a class's static initializer (<clinit>),
// which a JVM runs once, is in the session of whatever first used the
// class. Parallel execution is turned off while coverage is recorded.
//
// JaCoCo's agent runs inside the sandbox with the tests, so the data is
// the tests' to forge; it is read from the workspace as ReadWorkspaceFile
// reads (no links, regular file, at most Limit bytes): a file the job
// replaced is evidence in Suite.Tampered ("coverage-replaced"), one over
// Limit the output verdict, and Coverage is nil then.
type JaCoCo struct {
	// Agent is JaCoCo's agent jar (jacocoagent.jar, the one with the
	// Premain-Class), as a path in the sandbox.
	Agent string
	// Includes is the agent's includes option: the classes to
	// instrument, as "pkg.*:other.Name". Empty means every class.
	Includes string
	// Limit caps the execution data. Zero means 256MiB.
	Limit Size
}

// JavaBuild compiles a Java workspace for JUnit. Implementations run the
// compiler in the sandbox through r. Like Driver.Test, Build returns an
// error only when the harness failed; code that does not compile is a
// JavaBuildResult with Compile set.
type JavaBuild interface {
	Build(ctx context.Context, r Runner, spec JavaBuildSpec) (JavaBuildResult, error)
}

// JavaBuildFunc adapts a function to the JavaBuild interface.
type JavaBuildFunc func(ctx context.Context, r Runner, spec JavaBuildSpec) (JavaBuildResult, error)

// Build calls f(ctx, r, spec).
func (f JavaBuildFunc) Build(ctx context.Context, r Runner, spec JavaBuildSpec) (JavaBuildResult, error) {
	return f(ctx, r, spec)
}

// JavaBuildSpec is what a JavaBuild compiles.
type JavaBuildSpec struct {
	// Dir, Limits, Env and ReadOnly are those of the TestSpec.
	Dir      string
	Limits   Limits
	Env      []string
	ReadOnly []string
	// Classpath holds the test framework's jars, as paths in the sandbox.
	Classpath []string
	// Out is an empty directory for the build's output, as a path relative
	// to the workspace (which is the working directory of sandbox jobs).
	// It is removed after the tests ran.
	Out string
}

// JavaBuildResult is what a JavaBuild produced. Paths are relative to the
// workspace or absolute paths in the sandbox.
type JavaBuildResult struct {
	// Classes are the directories of compiled classes, to be searched for
	// test classes and put on the classpath.
	Classes []string
	// Classpath holds further run-time entries (resources, dependency
	// jars).
	Classpath []string
	// Compile is set when the code did not compile.
	Compile *CompileError
	// Run is the sandbox result of the compiler, nil if none ran.
	Run *Result
}

// javacBuild is the default JavaBuild: it compiles every .java file under the
// workspace (sources and tests alike; hidden directories are skipped) with
// one javac in the sandbox, "javac -proc:none -encoding UTF-8 -g -d OUT -cp
// CLASSPATH @sources". Directories src/main/resources and
// src/test/resources, where they exist, go on the run-time classpath.
type javacBuild struct {
	// Javac is the compiler in the sandbox. Empty means "javac".
	Javac string
	// JVMFlags are passed to javac's JVM with -J. Nil means
	// DefaultJVMFlags.
	JVMFlags []string
	// Flags are further javac flags, such as "--release", "11". Nil means
	// none.
	Flags []string
	// NoClassSharing turns off the class-data sharing archive of javac's
	// classes (see JUnit.NoClassSharing).
	NoClassSharing bool
}

// Build compiles spec.Dir. See JavaBuild.
func (j javacBuild) Build(ctx context.Context, r Runner, spec JavaBuildSpec) (JavaBuildResult, error) {
	javac := j.Javac
	if javac == "" {
		javac = "javac"
	}
	out := JavaBuildResult{Classes: []string{spec.Out + "/classes"}}
	ws, err := filepath.Abs(spec.Dir)
	if err != nil {
		return out, fmt.Errorf("exec: Javac: %w", err)
	}
	outHost := filepath.Join(ws, filepath.FromSlash(spec.Out))
	if err := os.MkdirAll(filepath.Join(outHost, "classes"), 0o755); err != nil {
		return out, fmt.Errorf("exec: Javac: %w", err)
	}
	var sources []string
	err = filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != ws && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".java") && d.Type().IsRegular() {
			rel, _ := filepath.Rel(ws, p)
			sources = append(sources, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("exec: Javac: list sources: %w", err)
	}
	for _, res := range []string{"src/main/resources", "src/test/resources"} {
		if fi, err := os.Stat(filepath.Join(ws, res)); err == nil && fi.IsDir() {
			out.Classpath = append(out.Classpath, res)
		}
	}
	if len(sources) == 0 {
		return out, nil
	}
	var argfile strings.Builder
	for _, s := range sources {
		argfile.WriteString(strconv.Quote(s))
		argfile.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(outHost, "sources.txt"), []byte(argfile.String()), 0o644); err != nil {
		return out, fmt.Errorf("exec: Javac: %w", err)
	}
	args := []string{javac}
	flags := jvmFlags(j.JVMFlags, spec.Limits)
	readOnly := spec.ReadOnly
	if !j.NoClassSharing && spec.Limits.WithDefaults().Memory >= minShareMemory {
		if share := javacShare(ctx, javac, baseJVMFlags(j.JVMFlags)); share != nil {
			flags = append(flags, share.flags()...)
			readOnly = append(slices.Clone(readOnly), share.dir)
		}
	}
	for _, f := range flags {
		args = append(args, "-J"+f)
	}
	args = append(args, "-proc:none", "-encoding", "UTF-8", "-g", "-d", spec.Out+"/classes")
	if len(spec.Classpath) > 0 {
		args = append(args, "-cp", strings.Join(spec.Classpath, ":"))
	}
	args = append(args, j.Flags...)
	args = append(args, "@"+spec.Out+"/sources.txt")
	res, err := r.Run(ctx, Job{Dir: spec.Dir, Args: args, Env: append(append([]string(nil), jvmEnv...), spec.Env...), Limits: spec.Limits, ReadOnly: readOnly})
	out.Run = &res
	if err != nil {
		return out, runErr("run javac", res, err)
	}
	if res.Status != StatusOK {
		msg := strings.TrimSpace(string(res.Stderr) + "\n" + string(res.Stdout))
		if res.Status != StatusExit {
			msg = strings.TrimSpace("javac was stopped: " + res.Detail + "\n" + msg)
		}
		out.Compile = &CompileError{Output: cut(msg, maxCompile)}
	}
	return out, nil
}

// baseJVMFlags returns flags, or DefaultJVMFlags when flags is nil.
func baseJVMFlags(flags []string) []string {
	if flags == nil {
		return DefaultJVMFlags
	}
	return flags
}

// jvmFlags returns the flags of a JVM under limits; see DefaultJVMFlags.
func jvmFlags(flags []string, l Limits) []string {
	flags = baseJVMFlags(flags)
	var out []string
	if mem := l.WithDefaults().Memory; mem > 0 {
		mib := func(z Size) string { return strconv.FormatUint(uint64(z/MiB), 10) + "m" }
		small := min(max(mem/16, 16*MiB), 64*MiB)
		out = append(out,
			"-XX:MaxRAM="+strconv.FormatUint(uint64(mem), 10),
			"-XX:MaxRAMPercentage=25", "-XX:MinRAMPercentage=25",
			"-XX:CompressedClassSpaceSize="+mib(small),
			"-XX:ReservedCodeCacheSize="+mib(small),
			"-XX:MaxMetaspaceSize="+mib(max(mem/8, 32*MiB)))
	}
	return append(out, flags...)
}

var (
	javaName  = `[\p{L}_$][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)*`
	junitName = regexp.MustCompile(`^` + javaName + `(#[\p{L}_$][\p{L}\p{N}_$]*(\([\p{L}\p{N}_$.\[\],]*\))?(\[[1-9][0-9]{0,8}\])*)?$`)
	uidPart   = `\[([A-Za-z0-9._$#(),-]|%[0-9A-F]{2}|%u[0-9A-F]{4})+:([A-Za-z0-9._$#(),-]|%[0-9A-F]{2}|%u[0-9A-F]{4})*\]`
	junitUID  = regexp.MustCompile(`^` + uidPart + `(/` + uidPart + `)*$`)
)

// Test builds the workspace and runs its tests. See Driver.
func (j JUnit) Test(ctx context.Context, r Runner, spec TestSpec) (*Suite, error) {
	for _, n := range spec.Tests {
		if !junitName.MatchString(n) && !junitUID.MatchString(n) {
			return nil, fmt.Errorf("exec: JUnit: %q is not a test name (pkg.Class, pkg.Class#method, pkg.Class#method(types), pkg.Class#method[3], or a unique ID [engine:e]/[type:value] escaped with %%XX)", n)
		}
	}
	st, err := j.setup(ctx, r, spec)
	if st != nil {
		defer st.sc.remove()
	}
	if err != nil {
		return st.suite(), err
	}
	suite, br, sc := st.suite(), st.build, st.sc
	if br.Compile != nil {
		suite.Compile = br.Compile
		return suite, nil
	}
	classpath := append(append(st.classpath(), br.Classes...), br.Classpath...)
	args := st.jvm(j.JVMFlags, spec.Limits)
	if c := j.Coverage; c != nil {
		if c.Agent == "" || strings.ContainsAny(c.Agent+c.Includes, ",=") {
			return suite, fmt.Errorf("exec: JUnit: JaCoCo agent %q with includes %q: want an agent jar and includes without ',' or '='", c.Agent, c.Includes)
		}
		opts := "=output=none,dumponexit=false"
		if c.Includes != "" {
			opts += ",includes=" + c.Includes
		}
		args = append(args, "-javaagent:"+c.Agent+opts)
	}
	args = append(args, junitModuleFlags(st.reporter, classpath)...)
	if j.Coverage != nil {
		args = append(args, "--coverage="+sc.path("coverage.exec"))
	}
	args = append(args, sc.path("results.jsonl"))
	args = append(args, br.Classes...)
	args = append(args, "--")
	args = append(args, spec.Tests...)
	// The reporter signs its results with a key it reads on stdin.
	key := newNonce()
	res, err := r.Run(ctx, Job{Dir: spec.Dir, Args: args, Env: append(slices.Clone(jvmEnv), spec.Env...), Stdin: strings.NewReader(key + "\n"), Limits: spec.Limits, ReadOnly: st.readOnly})
	suite.Run = res
	if err != nil {
		return suite, runErr("run JUnit", res, err)
	}
	events := parseSigned(sc.readLimited("results.jsonl", spec.Limits, &suite.Run), key)
	suite.Tampered = tampers(events)
	tests, _, _, err := assemble(assembly{events: events, run: suite.Run, needHello: true, what: "test JVM"})
	suite.Run.Stderr = stripMark(suite.Run.Stderr)
	if err != nil {
		return suite, err
	}
	suite.Tests = tests
	suite.Tampered = append(suite.Tampered, scanJava(spec.Dir, spec.Answer)...)
	if c := j.Coverage; c != nil {
		limit := c.Limit
		if limit == 0 {
			limit = 256 * MiB
		}
		b, err := ReadWorkspaceFile(sc.root, sc.path("coverage.exec"), limit)
		switch {
		case errors.Is(err, errUnsafeFile):
			// The job replaced it: its doing, never the harness's.
			suite.Tampered = append(suite.Tampered, Tamper{Kind: "coverage-replaced", Detail: err.Error()})
		case errors.Is(err, errFileTooLarge):
			if !limitStatus(suite.Run.Status) {
				suite.Run.Status, suite.Run.Detail = StatusOutput, "the coverage data is over JaCoCo.Limit"
			}
		case err == nil:
			suite.Coverage = b
		case !errors.Is(err, fs.ErrNotExist):
			return suite, fmt.Errorf("exec: JUnit: coverage: %w", err)
		}
	}
	return suite, nil
}

// junitSetup is what a JUnit run needs before its test JVM: the reporter
// installed or shared, the scratch directory, and the workspace built.
type junitSetup struct {
	cp             []string
	java, reporter string
	readOnly       []string
	share          *jvmShare
	sc             scratch
	build          JavaBuildResult
	built          bool // the build ran
}

// suite is the Suite of the run so far: nil before the build ran.
func (st *junitSetup) suite() *Suite {
	if st == nil || !st.built {
		return nil
	}
	return &Suite{Build: st.build.Run}
}

// classpath is the test JVM's class path before the build's classes: the
// JUnit jars, and the warm-up classes of the class-data sharing archive
// when there is one (the archive holds for a class path that starts as
// the one it was made with).
func (st *junitSetup) classpath() []string {
	cp := slices.Clone(st.cp)
	if st.share != nil {
		cp = append(cp, st.share.warmup)
	}
	return cp
}

// jvm is the test JVM's command line up to its class path: the java
// launcher, the JVM flags for limits l, and the class-data sharing
// archive's flags when there is one.
func (st *junitSetup) jvm(flags []string, l Limits) []string {
	args := append([]string{st.java}, jvmFlags(flags, l)...)
	if st.share != nil {
		args = append(args, st.share.flags()...)
	}
	return args
}

// setup prepares a run of spec: on an error the returned setup, when not
// nil, holds the scratch directory to remove.
func (j JUnit) setup(ctx context.Context, r Runner, spec TestSpec) (*junitSetup, error) {
	st := &junitSetup{cp: j.Classpath, java: j.Java}
	if st.cp == nil {
		st.cp = DefaultJUnitClasspath
	}
	javac := j.Javac
	if javac == "" {
		javac = "javac"
	}
	reporter, err := junitReporter(ctx, javac, st.cp)
	if err != nil {
		return nil, err
	}
	st.sc, err = newScratch(spec.Dir)
	if err != nil {
		return nil, err
	}
	if st.java == "" {
		st.java = "java"
	}
	// The JUnit jars come first on the test JVM's class path, so that no
	// class of the workspace stands in for them, and as the class-data
	// sharing archive was made with them; the reporter is a module.
	st.readOnly = spec.ReadOnly
	if !j.NoClassSharing && j.Coverage == nil && spec.Limits.WithDefaults().Memory >= minShareMemory {
		st.share = junitShare(ctx, st.java, hostJavac{javac: javac, cp: st.cp}, baseJVMFlags(j.JVMFlags), reporter)
	}
	if st.share != nil {
		st.reporter = st.share.reporter
		st.readOnly = append(slices.Clone(st.readOnly), st.share.dir)
	} else {
		if err := reporter.install(filepath.Join(st.sc.host, "reporter")); err != nil {
			return st, err
		}
		st.reporter = st.sc.path("reporter")
	}
	if err := os.Mkdir(filepath.Join(st.sc.host, "build"), 0o755); err != nil {
		return st, fmt.Errorf("exec: JUnit: %w", err)
	}
	build := j.Build
	if build == nil {
		build = javacBuild{Javac: j.Javac, JVMFlags: j.JVMFlags, NoClassSharing: j.NoClassSharing}
	}
	st.build, err = build.Build(ctx, r, JavaBuildSpec{Dir: spec.Dir, Limits: spec.Limits, Env: spec.Env, ReadOnly: spec.ReadOnly, Classpath: st.cp, Out: st.sc.path("build")})
	st.built = true
	return st, err
}

// reporterClasses is the compiled JUnit reporter: class file names
// (slash-separated paths) and their contents.
type reporterClasses map[string][]byte

func (rc reporterClasses) install(dir string) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("exec: JUnit: %w", err)
	}
	for name, b := range rc {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("exec: JUnit: %w", err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("exec: JUnit: %w", err)
		}
	}
	return nil
}

type reporterBuild struct {
	once    sync.Once
	classes reporterClasses
	err     error
}

var reporterBuilds sync.Map // javac + "\x00" + classpath -> *reporterBuild

// junitReporter compiles driver_junit.java on the host, once per javac and
// classpath. It is the harness's own code, compiled with -proc:none.
func junitReporter(ctx context.Context, javac string, cp []string) (reporterClasses, error) {
	abs := absPaths(cp)
	key := javac + "\x00" + strings.Join(abs, ":")
	v, _ := reporterBuilds.LoadOrStore(key, &reporterBuild{})
	b := v.(*reporterBuild)
	b.once.Do(func() { b.classes, b.err = compileReporter(ctx, javac, abs) })
	if b.err != nil && ctx.Err() != nil {
		// Do not remember a build that the caller canceled.
		reporterBuilds.CompareAndDelete(key, b)
	}
	return b.classes, b.err
}

func compileReporter(ctx context.Context, javac string, cp []string) (reporterClasses, error) {
	classes, err := hostJavac{javac: javac, cp: cp}.compileReporterModule(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("exec: JUnit: compile the test reporter (is the JUnit Platform launcher on the classpath %s?): %w", strings.Join(cp, ":"), err)
	}
	return classes, nil
}

// hostJavac compiles Java on the host, for code this package trusts only:
// javac, its JVM started with the flags jvm (nil: one GC thread and the
// C1 compiler), against the class path cp.
type hostJavac struct {
	javac   string
	jvm, cp []string
}

// compileReporterModule compiles the reporter's module (see compile).
func (h hostJavac) compileReporterModule(ctx context.Context) (reporterClasses, error) {
	return h.compileFiles(ctx, []string{"--add-reads", junitModule + "=ALL-UNNAMED"}, map[string]string{
		"module-info.java": junitModuleInfo,
		filepath.Join(strings.Split(junitReporterClass, ".")...) + ".java": junitReporterSource,
	})
}

// compile compiles source, the class name (in no package), and returns
// the class files.
func (h hostJavac) compile(ctx context.Context, name, source string) (reporterClasses, error) {
	return h.compileFiles(ctx, nil, map[string]string{name + ".java": source})
}

// compileFiles compiles sources (relative paths to their text) with the
// further javac flags extra, as compile does.
func (h hostJavac) compileFiles(ctx context.Context, extra []string, sources map[string]string) (reporterClasses, error) {
	javac, jvm, cp := h.javac, h.jvm, h.cp
	dir, err := os.MkdirTemp("", "adaptbench-javac-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var srcs []string
	for name, text := range sources {
		src := filepath.Join(dir, "src", name)
		if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
			return nil, err
		}
		srcs = append(srcs, src)
	}
	slices.Sort(srcs)
	if jvm == nil {
		jvm = []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"}
	}
	var args []string
	for _, f := range jvm {
		args = append(args, "-J"+f)
	}
	out := filepath.Join(dir, "out")
	args = append(args, "-proc:none", "-nowarn", "-encoding", "UTF-8", "-d", out)
	if len(cp) > 0 {
		args = append(args, "-cp", strings.Join(cp, ":"))
	}
	args = append(append(args, extra...), srcs...)
	if err := runTrusted(ctx, javac, args...); err != nil {
		return nil, err
	}
	classes := reporterClasses{}
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		classes[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	return classes, nil
}
