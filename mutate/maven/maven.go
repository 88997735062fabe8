package maven

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	osexec "os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/internal/buildsys"
)

// Project is a Java project built by Maven, offline, against Debian's
// repository.
//
// [Open] copies the project once into a private directory and runs
// "mvn -B -o -q -s SETTINGS -DforkCount=0 test-compile" there, on the host
// and without a sandbox: the project's build (Maven and its plugins) is
// trusted, nothing is downloaded (-o), and the tests do not run. From then
// on everything that runs the project's code runs in the Runner: the tests
// through exec.JUnit over the compiled target/classes and
// target/test-classes, and a mutant's file is recompiled alone in the
// sandbox into a directory that comes first on the class path (the Java
// counterpart of Go's -overlay: the tree is not copied per mutant); the
// mutants of one Generate are compiled in one JVM (see
// Config.CompileEach), and the checks of each validation step run
// in shared JVMs, each mutant in a class loader of its own (see
// Config.TestEach and rounds_maven.go).
// Per-test coverage runs the tests in one JVM with Debian's JaCoCo agent
// (libjacoco-java), exec.JUnit's reporter taking the execution data after
// each test (exec.JaCoCo), and reads it with JaCoCo's analyzer on the host
// (a small program, jacoco_lines.java, compiled on first use into a
// temporary directory that Close removes). Tests carry exec.JUnit's
// names: pkg.Class#method, pkg.Class#method[3] for an invocation.
//
// Test dependencies other than JUnit 4 and 5 are not resolved: the class
// path is Config.Classpath. Jobs share the project directory, so
// checks run one at a time.
type Project struct {
	src, dir string
	runner   exec.Runner
	cfg      Config
	includes string // JaCoCo includes: the project's packages
	mu       sync.Mutex
	// tool is the JaCoCo reader, compiled on first use into a directory
	// of its own that Close removes.
	tool func() (string, error)
	tdir string
	// prepared holds what Prepare compiled: each mutant's class files or
	// compiler messages, by mutantKey, until its release.
	prepared buildsys.Decided[javaPrepared]
}

// Config configures a Maven project. The zero value is ready to use.
type Config struct {
	// Mvn is the maven command. Empty means "mvn".
	Mvn string
	// Settings is Maven's settings file. Empty means Debian's
	// /etc/maven/settings-debian.xml, whose local repository is
	// /usr/share/maven-repo.
	Settings string
	// Classpath holds the test framework's jars, as paths in the sandbox.
	// Nil means exec.DefaultJUnitClasspath.
	Classpath []string
	// Release is javac's --release for recompiled mutants. Empty means
	// "11", which Debian's JaCoCo 0.8.6 can analyse.
	Release string
	// Agent is the jar of JaCoCo's agent, as Debian ships it: a jar
	// holding jacocoagent.jar, which is copied into the project for the
	// sandbox. Empty means /usr/share/java/org.jacoco.agent.jar.
	Agent string
	// Limits bounds each test run and each javac; zero fields take exec's
	// defaults.
	Limits exec.Limits
	// MavenOpts is MAVEN_OPTS for Maven's own JVM. Empty means the
	// environment's MAVEN_OPTS, or when that is unset too,
	// exec.DefaultJVMFlags (serial GC, the client compiler only: a short
	// run), with which test-compile takes 1.7 times less CPU than with
	// Maven's defaults on the package's fixtures.
	MavenOpts string
	// CompileEach recompiles every mutant with a javac of its own, as the
	// pipeline did before mutants were compiled in one JVM: the reference
	// the batch is measured and checked against. It gives the same
	// verdicts and messages, slower.
	CompileEach bool
	// TestEach runs the tests of every check in a JVM of its own, as the
	// pipeline did before the checks of a validation step shared JVMs
	// (see Project): the reference the shared JVMs are checked against.
	TestEach bool
}

// Open copies the Maven project at dir into a private directory,
// compiles it and its tests with Maven, and returns it as a Project whose
// tests run through r. Close removes the copy.
func Open(ctx context.Context, dir string, r exec.Runner, cfg *Config) (*Project, error) {
	if r == nil {
		return nil, errors.New("mutate: Open needs a runner")
	}
	m := &Project{src: dir, runner: r}
	if cfg != nil {
		m.cfg = *cfg
	}
	if m.cfg.Mvn == "" {
		m.cfg.Mvn = "mvn"
	}
	if m.cfg.Settings == "" {
		m.cfg.Settings = "/etc/maven/settings-debian.xml"
	}
	if m.cfg.Classpath == nil {
		m.cfg.Classpath = exec.DefaultJUnitClasspath
	}
	m.cfg.Classpath = slices.Clone(m.cfg.Classpath)
	if m.cfg.Release == "" {
		m.cfg.Release = "11"
	}
	if m.cfg.Agent == "" {
		m.cfg.Agent = "/usr/share/java/org.jacoco.agent.jar"
	}
	if _, err := os.Stat(filepath.Join(dir, "pom.xml")); err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	var err error
	if m.dir, err = os.MkdirTemp("", "adaptbench-maven-"); err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	if err := buildsys.CopyTree(dir, m.dir); err != nil {
		os.RemoveAll(m.dir)
		return nil, err
	}
	os.RemoveAll(filepath.Join(m.dir, "target"))
	cmd := osexec.CommandContext(ctx, m.cfg.Mvn, "-B", "-o", "-q", "-s", m.cfg.Settings, "-DforkCount=0", "test-compile")
	cmd.Dir = m.dir
	if opts := m.cfg.MavenOpts; opts != "" || os.Getenv("MAVEN_OPTS") == "" {
		if opts == "" {
			opts = strings.Join(exec.DefaultJVMFlags, " ")
		}
		cmd.Env = append(os.Environ(), "MAVEN_OPTS="+opts)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(m.dir)
		return nil, fmt.Errorf("mutate: mvn test-compile in %s: %w\n%s", dir, err, out)
	}
	if err := os.MkdirAll(filepath.Join(m.dir, buildsys.RunDir), 0o777); err != nil {
		os.RemoveAll(m.dir)
		return nil, fmt.Errorf("mutate: %w", err)
	}
	if err := extractAgent(m.cfg.Agent, filepath.Join(m.dir, buildsys.RunDir, "jacocoagent.jar")); err != nil {
		os.RemoveAll(m.dir)
		return nil, err
	}
	var pkgs []string
	filepath.WalkDir(filepath.Join(m.dir, "target", "classes"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".class") {
			rel, _ := filepath.Rel(filepath.Join(m.dir, "target", "classes"), filepath.Dir(p))
			if pk := strings.ReplaceAll(filepath.ToSlash(rel), "/", ".") + ".*"; !slices.Contains(pkgs, pk) {
				pkgs = append(pkgs, pk)
			}
		}
		return nil
	})
	slices.Sort(pkgs)
	m.includes = strings.Join(pkgs, ":")
	return m, nil
}

// extractAgent copies jacocoagent.jar out of Debian's wrapper jar.
func extractAgent(wrapper, dst string) error {
	zr, err := zip.OpenReader(wrapper)
	if err != nil {
		return fmt.Errorf("mutate: per-test Java coverage needs Debian's libjacoco-java: %w", err)
	}
	defer zr.Close()
	f, err := zr.Open("jacocoagent.jar")
	if err != nil {
		return fmt.Errorf("mutate: %s: %w", wrapper, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return fmt.Errorf("mutate: %s: %w", wrapper, err)
	}
	return os.WriteFile(dst, b, 0o644)
}

// Lang returns mutate.Java.
func (m *Project) Lang() mutate.Lang { return mutate.Java }

// Close removes the private copy.
func (m *Project) Close() error {
	err := os.RemoveAll(m.dir)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tdir != "" {
		err = errors.Join(err, os.RemoveAll(m.tdir))
	}
	return err
}

// ReadFile reads a file of the project.
func (m *Project) ReadFile(p string) ([]byte, error) {
	return os.ReadFile(filepath.Join(m.dir, filepath.FromSlash(p)))
}

const mainSources = "src/main/java"

// Sources lists the .java files under src/main/java.
func (m *Project) Sources() ([]string, error) {
	var out []string
	root := filepath.Join(m.dir, filepath.FromSlash(mainSources))
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".java") {
			rel, _ := filepath.Rel(m.dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	slices.Sort(out)
	return out, nil
}

var prebuilt = exec.JavaBuildFunc(func(ctx context.Context, r exec.Runner, spec exec.JavaBuildSpec) (exec.JavaBuildResult, error) {
	return exec.JavaBuildResult{Classes: []string{"target/test-classes", "target/classes"}}, nil
})

// junit returns the driver over the compiled classes, with build as its
// JavaBuild (nil: the classes Maven compiled).
func (m *Project) junit(build exec.JavaBuild, jvm []string) exec.JUnit {
	if build == nil {
		build = prebuilt
	}
	return exec.JUnit{Classpath: m.cfg.Classpath, Build: build, JVMFlags: jvm}
}

// Tests runs every test class once and lists the tests it reported.
func (m *Project) Tests(ctx context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	suite, err := m.junit(nil, nil).Test(ctx, m.runner, exec.TestSpec{Dir: m.dir, Limits: m.cfg.Limits})
	if err != nil {
		return nil, fmt.Errorf("mutate: list tests: %w", err)
	}
	if suite.Compile != nil {
		return nil, fmt.Errorf("mutate: list tests: %s", suite.Compile.Output)
	}
	var names []string
	for _, t := range suite.Tests {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	return names, nil
}

// Coverage runs one test alone, in a JVM of its own, with JaCoCo's agent
// and returns the lines it covered. CoverageAll does the same for many
// tests in one JVM.
func (m *Project) Coverage(ctx context.Context, test string) (mutate.Lines, error) {
	ls, err := m.CoverageAll(ctx, []string{test})
	if err != nil {
		return nil, err
	}
	return ls[0], nil
}

// CoverageAll runs the tests in one JVM with JaCoCo's agent, the reporter
// of exec.JUnit taking the agent's execution data after each test and
// container (see exec.JaCoCo), and returns the lines each test covered,
// by index. A test's lines are those that ran during it, in its
// containers outside any test (@BeforeAll, @AfterAll, argument
// providers: a JVM running the test alone runs them too), and, for each
// class it ran code of, the lines of the class's static initializer,
// which the JVM ran once, for whichever test first used the class
// (jacoco_lines.java). A test missing from the data is an error.
func (m *Project) CoverageAll(ctx context.Context, tests []string) ([]mutate.Lines, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tool == nil {
		m.tool = sync.OnceValues(func() (string, error) {
			dir, err := os.MkdirTemp("", "adaptbench-jacoco-")
			if err != nil {
				return "", fmt.Errorf("mutate: %w", err)
			}
			m.tdir = dir
			return jacocoTool(dir)
		})
	}
	tool, err := m.tool()
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("coverage of %d tests", len(tests))
	if len(tests) == 1 {
		what = "coverage of " + tests[0]
	}
	j := m.junit(nil, nil)
	j.Coverage = &exec.JaCoCo{Agent: exec.WorkDir + "/" + buildsys.RunDir + "/jacocoagent.jar", Includes: m.includes}
	suite, err := j.Test(ctx, m.runner, exec.TestSpec{Dir: m.dir, Tests: tests, Limits: m.cfg.Limits})
	if err != nil {
		return nil, fmt.Errorf("mutate: %s: %w", what, err)
	}
	if suite.Compile != nil {
		return nil, fmt.Errorf("mutate: %s: %s", what, suite.Compile.Output)
	}
	if len(suite.Coverage) == 0 {
		return nil, fmt.Errorf("mutate: %s: no execution data (%s %s)", what, suite.Run.Status, suite.Run.Stderr)
	}
	hostExec, err := os.CreateTemp("", "adaptbench-jacoco-*.exec")
	if err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	defer os.Remove(hostExec.Name())
	_, err = hostExec.Write(suite.Coverage)
	if cerr := hostExec.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	cmd := osexec.CommandContext(ctx, "java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", tool, "AdaptbenchJacocoLines", hostExec.Name(), filepath.Join(m.dir, "target", "classes"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("mutate: read %s: %w\n%s", what, err, strings.TrimSpace(stderr.String()))
	}
	byTest, err := parseJacocoLines(out)
	if err != nil {
		return nil, fmt.Errorf("mutate: read %s: %w", what, err)
	}
	res := make([]mutate.Lines, len(tests))
	for i, t := range tests {
		l, ok := byTest[t]
		if !ok {
			return nil, fmt.Errorf("mutate: %s: no execution data for %s (%s %s)", what, t, suite.Run.Status, strings.TrimSpace(string(suite.Run.Stderr)))
		}
		res[i] = l
	}
	return res, nil
}

// parseJacocoLines reads the reader's output: "test NAME" lines, each
// followed by the "pkg/File.java:line" lines it covered, into mutate.Lines keyed
// by src/main/java paths, per test.
func parseJacocoLines(out []byte) (map[string]mutate.Lines, error) {
	res := map[string]mutate.Lines{}
	sets := map[string]map[int]bool{}
	test := ""
	flush := func() {
		if test == "" {
			return
		}
		lines := res[test]
		if lines == nil {
			lines = mutate.Lines{}
		}
		for f, s := range sets {
			for n := range s {
				lines[f] = append(lines[f], n)
			}
			lines[f] = slices.Compact(slices.Sorted(slices.Values(lines[f])))
		}
		res[test] = lines
		sets = map[string]map[int]bool{}
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for ln := 1; sc.Scan(); ln++ {
		l := sc.Text()
		if name, ok := strings.CutPrefix(l, "test "); ok {
			flush()
			test = name
			continue
		}
		i := strings.LastIndexByte(l, ':')
		if i < 0 || test == "" {
			return nil, fmt.Errorf("mutate: jacoco line %d %q: want 'test NAME' or path:line under one", ln, l)
		}
		n, err := strconv.Atoi(l[i+1:])
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("mutate: jacoco line %d %q: want path:line", ln, l)
		}
		f := path.Join(mainSources, l[:i])
		if sets[f] == nil {
			sets[f] = map[int]bool{}
		}
		sets[f][n] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("mutate: jacoco output: %w", err)
	}
	flush()
	return res, nil
}

var jacocoJars = []string{"/usr/share/java/org.jacoco.core.jar", "/usr/share/java/asm.jar", "/usr/share/java/asm-commons.jar", "/usr/share/java/asm-tree.jar"}

//go:embed jacoco_lines.java
var jacocoLinesSource string

// jacocoTool compiles AdaptbenchJacocoLines into dir and returns the
// class path that runs it.
func jacocoTool(dir string) (string, error) {
	for _, j := range jacocoJars {
		if _, err := os.Stat(j); err != nil {
			return "", fmt.Errorf("mutate: per-test Java coverage needs Debian's libjacoco-java: %w", err)
		}
	}
	classes, err := compileTool(dir, "AdaptbenchJacocoLines", jacocoLinesSource, jacocoJars)
	if err != nil {
		return "", err
	}
	return classes + ":" + strings.Join(jacocoJars, ":"), nil
}

// compileTool compiles one of this package's Java programs, whose class
// is name, with the host's javac (it is trusted, and runs none of a
// project's code), writing its source into dir and its classes into
// dir/classes, which it returns.
func compileTool(dir, name, source string, cp []string) (string, error) {
	src := filepath.Join(dir, name+".java")
	if err := os.WriteFile(src, []byte(source), 0o644); err != nil {
		return "", fmt.Errorf("mutate: %w", err)
	}
	classes := filepath.Join(dir, "classes")
	args := []string{"-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1", "-proc:none", "-encoding", "UTF-8", "-d", classes}
	if len(cp) > 0 {
		args = append(args, "-cp", strings.Join(cp, ":"))
	}
	if out, err := osexec.Command("javac", append(args, src)...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("mutate: compile %s: %w\n%s", name, err, out)
	}
	return classes, nil
}

// Check recompiles the file at path with src in the sandbox (when path is
// not "") and runs the tests through exec.JUnit.
func (m *Project) Check(ctx context.Context, p string, src []byte, tests []string) (*mutate.TestRun, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var build exec.JavaBuild
	pre := m.prepared.Get(p, src)
	switch {
	case p != "" && pre != nil && pre.compile != "":
		return &mutate.TestRun{Compile: pre.compile}, nil
	case p != "" && pre != nil:
		build = pre.build()
	case p != "":
		build = m.compileAlone(p, src)
	}
	start := time.Now()
	suite, err := m.junit(build, nil).Test(ctx, m.runner, exec.TestSpec{Dir: m.dir, Tests: tests, Limits: m.cfg.Limits})
	if err != nil {
		return nil, fmt.Errorf("mutate: check %s: %w", p, err)
	}
	out := testRunOf(suite, tests)
	if out.TestTime == 0 && out.BuildTime == 0 {
		out.TestTime = time.Since(start)
	}
	return out, nil
}

// testRunOf is the mutate.TestRun of a JUnit suite run with tests.
func testRunOf(suite *exec.Suite, tests []string) *mutate.TestRun {
	out := &mutate.TestRun{}
	if suite.Build != nil {
		out.BuildTime = suite.Build.WallTime
	}
	out.TestTime = suite.Run.WallTime
	if suite.Compile != nil {
		out.Compile = suite.Compile.Output
		return out
	}
	out.TimedOut = suite.Run.Status != exec.StatusOK && suite.Run.Status != exec.StatusExit
	got := map[string]bool{}
	for _, t := range suite.Tests {
		got[t.Name] = t.Status == exec.TestPassed
	}
	buildsys.SortRun(out, tests, got)
	return out
}

// compileAlone is the JavaBuild that recompiles the file at p with src
// with a javac of its own, into the build's output directory.
func (m *Project) compileAlone(p string, src []byte) exec.JavaBuild {
	return exec.JavaBuildFunc(func(ctx context.Context, r exec.Runner, spec exec.JavaBuildSpec) (exec.JavaBuildResult, error) {
		res := exec.JavaBuildResult{Classes: []string{spec.Out + "/classes", "target/test-classes", "target/classes"}}
		srcDir := filepath.Join(m.dir, filepath.FromSlash(spec.Out), "src")
		if err := os.MkdirAll(filepath.Join(m.dir, filepath.FromSlash(spec.Out), "classes"), 0o777); err != nil {
			return res, err
		}
		if err := os.MkdirAll(srcDir, 0o777); err != nil {
			return res, err
		}
		if err := os.WriteFile(filepath.Join(srcDir, path.Base(p)), src, 0o666); err != nil {
			return res, err
		}
		args := []string{"javac"}
		for _, f := range exec.DefaultJVMFlags {
			args = append(args, "-J"+f)
		}
		args = append(args, m.javacArgs(spec.Out+"/classes", spec.Out+"/src/"+path.Base(p))...)
		run, err := r.Run(ctx, exec.Job{Dir: spec.Dir, Args: args, Env: spec.Env, Limits: spec.Limits, ReadOnly: spec.ReadOnly})
		res.Run = &run
		if err != nil {
			return res, err
		}
		if run.Status != exec.StatusOK {
			msg := strings.TrimSpace(string(run.Stderr) + "\n" + string(run.Stdout))
			msg = strings.ReplaceAll(msg, spec.Out+"/src/"+path.Base(p), p)
			if msg == "" {
				msg = "javac failed without a message: " + run.Status.String()
			}
			res.Compile = &exec.CompileError{Output: msg}
		}
		return res, nil
	})
}

// Task makes the task's workspace: every project file but the target and
// Maven's output, tested by adapt's JUnit driver (which compiles every
// .java file with javac against the JUnit jars).
func (m *Project) Task(p string, t *adapt.Task) error {
	t.Language = adapt.Java
	t.Framework = adapt.FrameworkJUnit
	// The task changes its target only: the project is its base.
	b, err := projectBase(m.dir)
	if err != nil {
		return fmt.Errorf("mutate: %s: %w", m.dir, err)
	}
	t.Base, t.Files = b, nil
	return nil
}

// projectBase makes the base of the tasks of the project at dir (see
// buildsys.ProjectFiles).
func projectBase(dir string) (*adapt.Base, error) {
	var files []adapt.File
	if err := buildsys.ProjectFiles(dir, func(p, c string) { files = append(files, adapt.File{Path: p, Content: c}) }); err != nil {
		return nil, err
	}
	return adapt.NewBase(files)
}

// Project is a build system seen from outside mutate. Generate also looks
// for its CoverageAll, Prepare and CheckBatch (mutate's buildsys_test.go
// holds that).
var _ mutate.Project = (*Project)(nil)
