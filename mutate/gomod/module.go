package gomod

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	osexec "os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/internal/buildsys"
)

// Module is a Go module whose packages (the root package, or those
// Config.Packages names) are mutated and tested.
//
// [Open] copies the module once into a private working directory
// (the source may be read-only, such as the module cache). Every build runs
// on the host, "go test -c" with CGO_ENABLED=0, GOPROXY=off,
// GOFLAGS=exec.GoBuildFlags (module mode, no DWARF), GOTOOLCHAIN=local and
// GOWORK=off (as exec.GoTest does: the module cache must hold the
// dependencies beforehand, nothing is downloaded); a mutant
// replaces its file through "-overlay", so the tree is never copied or
// written per mutant and mutants build concurrently, and the toolchain's
// build cache keeps every unchanged package compiled. Before the pipeline
// checks its candidates, the mutants are type-checked with go/types and
// those that compile are built together as mutant schemata, one test
// binary per package, the mutant chosen at run time (see the package
// documentation; Config.BuildEach turns this off). Test binaries run in
// the Runner (a sandbox) from the package directory, with -test.run
// selecting the tests; per-test coverage runs a binary built with -cover
// once per test with -test.coverprofile, covering the test's own package.
//
// Each package is built and tested on its own: a fragment's relevant tests
// are tests of its package (the tests adapt's Go driver runs for a task
// whose target is in it). Tests of the root package are named as the go
// command names them ("TestX"); those of a package in directory d are
// "d.TestX" ("cmp.TestDiff"), and a task lists them by their bare names.
type Module struct {
	src, dir string // the module as given, the private copy
	modPath  string
	pkgs     []string // the packages studied: slash directories, "." the root
	// base is the tasks' workspace, the module as opened (before any test
	// ran in the copy), or baseErr why there is none.
	base    *adapt.Base
	baseErr error
	runner  exec.Runner
	cfg     Config
	scratch string // build outputs and overlays, outside dir
	// binDir holds the schema binaries, outside /tmp so that a job sees
	// one as a read-only bind at its own path instead of a copy in its
	// workspace (the sandbox's /tmp is the job's own); "" puts them in
	// scratch, copied like any other build.
	binDir string
	seq    atomic.Int64
	// runMu serializes test runs: a sandbox job owns its workspace (it
	// hands the tree to the sandbox user), so two jobs may not share dir,
	// and nothing else may write into dir while one runs.
	runMu sync.Mutex
	// typeMu guards typeEnvs, the type-checking environment of each
	// package; prepared holds the mutants Prepare decided on.
	typeMu   sync.Mutex
	typeEnvs map[string]*goTypeEnv
	prepared buildsys.Decided[prepared]
	// bins keeps the last builds made outside a schema for the checks
	// that follow (see binCache).
	bins *binCache
	// env is the tasks' environment: the go.mod's Go version and
	// requirements, nil when it requires nothing.
	env *adapt.Environment
	// vetClean says, per package, whether go test's vet checks pass on
	// its unchanged code; vetMu guards it.
	vetMu    sync.Mutex
	vetClean map[string]bool
}

// Config configures a Module. The zero value is ready to use.
type Config struct {
	// Go is the go command. Empty means "go" from PATH.
	Go string
	// Limits bounds each test process; zero fields take exec's defaults.
	Limits exec.Limits
	// Env holds extra KEY=VALUE entries for the go command (GOMODCACHE,
	// GOFLAGS, …); they come after the pipeline's own and win.
	Env []string
	// Packages are the packages to mutate and test, as slash-separated
	// directories relative to the module root ("cmp", "cmp/cmpopts"; "."
	// is the root package). "..." means every package of the module
	// that has both sources and tests (not testdata, vendor, hidden
	// directories or nested modules). Nil means the root package; a
	// module without one is an error that lists the packages it has.
	Packages []string
	// BuildEach builds every mutant alone with "go test -c", as the
	// pipeline did before type checking and mutant schemata: the
	// reference the fast path is measured and checked against. It gives
	// the same verdicts, slower.
	BuildEach bool
}

// AllPackages, as the one entry of Config.Packages, studies every package
// of the module that has sources and tests.
const AllPackages = "..."

// Open copies the module at dir into a private directory and
// returns it as a Project whose tests run through r. Close removes the
// copy.
func Open(dir string, r exec.Runner, cfg *Config) (*Module, error) {
	if r == nil {
		return nil, errors.New("mutate: Open needs a runner")
	}
	gm := &Module{src: dir, runner: r, typeEnvs: map[string]*goTypeEnv{}, vetClean: map[string]bool{}, bins: newBinCache(max(4, 2*exec.DefaultParallelism()))}
	if cfg != nil {
		gm.cfg = *cfg
	}
	gm.cfg.Env = slices.Clone(gm.cfg.Env)
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	m := regexp.MustCompile(`(?m)^module\s+"?([^\s"]+)"?`).FindSubmatch(mod)
	if m == nil {
		return nil, fmt.Errorf("mutate: %s: no module line", filepath.Join(dir, "go.mod"))
	}
	gm.modPath = string(m[1])
	if gm.pkgs, err = resolvePackages(dir, gm.modPath, gm.cfg.Packages); err != nil {
		return nil, err
	}
	if gm.dir, err = os.MkdirTemp("", "adaptbench-gomod-"); err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	if err := buildsys.CopyTree(dir, gm.dir); err != nil {
		os.RemoveAll(gm.dir)
		return nil, err
	}
	if gm.env, err = gm.requirements(); err != nil {
		os.RemoveAll(gm.dir)
		return nil, err
	}
	if gm.base, err = projectBase(gm.dir); err != nil {
		gm.baseErr = fmt.Errorf("mutate: %s: %w", dir, err) // the module as given, not the copy
	}
	if gm.scratch, err = os.MkdirTemp("", "adaptbench-gobuild-"); err != nil {
		os.RemoveAll(gm.dir)
		return nil, fmt.Errorf("mutate: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(gm.dir, buildsys.RunDir), 0o777); err != nil {
		gm.Close()
		return nil, fmt.Errorf("mutate: %w", err)
	}
	if cache, err := os.UserCacheDir(); err == nil && os.MkdirAll(filepath.Join(cache, "adaptbench"), 0o755) == nil {
		if d, err := os.MkdirTemp(filepath.Join(cache, "adaptbench"), "gobin-"); err == nil && !strings.HasPrefix(d, os.TempDir()+"/") {
			gm.binDir = d
		}
	}
	return gm, nil
}

// goPackage describes a directory of a module: whether it holds Go
// sources and tests.
type goPackage struct {
	dir         string
	srcs, tests bool
}

// modulePackages lists the directories of the module at root that hold Go
// files (not test data, vendor, hidden or _-prefixed directories, or nested
// modules), sorted.
func modulePackages(root string) ([]goPackage, error) {
	var out []goPackage
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if rel != "." {
			n := d.Name()
			if n == "testdata" || n == "vendor" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			return err
		}
		pkg := goPackage{dir: filepath.ToSlash(rel)}
		for _, e := range ents {
			n := e.Name()
			switch {
			case !e.Type().IsRegular() || !strings.HasSuffix(n, ".go") || strings.HasPrefix(n, "_") || strings.HasPrefix(n, "."):
			case strings.HasSuffix(n, "_test.go"):
				pkg.tests = true
			default:
				pkg.srcs = true
			}
		}
		if pkg.srcs || pkg.tests {
			out = append(out, pkg)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("mutate: list the packages of %s: %w", root, err)
	}
	slices.SortFunc(out, func(a, b goPackage) int { return strings.Compare(a.dir, b.dir) })
	return out, nil
}

// resolvePackages checks Config.Packages against the module at root and
// returns the package directories to study, sorted.
func resolvePackages(root, modPath string, want []string) ([]string, error) {
	all, err := modulePackages(root)
	if err != nil {
		return nil, err
	}
	have := map[string]goPackage{}
	var names []string
	for _, p := range all {
		have[p.dir] = p
		if p.srcs {
			names = append(names, p.dir)
		}
	}
	listing := func() string {
		if len(names) == 0 {
			return "it has no Go package"
		}
		return "its packages: " + strings.Join(names, ", ")
	}
	if slices.Equal(want, []string{AllPackages}) {
		var out []string
		for _, p := range all {
			if p.srcs && p.tests {
				out = append(out, p.dir)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("mutate: module %s (%s) has no package with both sources and tests (%s)", modPath, root, listing())
		}
		return out, nil
	}
	if want == nil {
		if _, ok := have["."]; !ok || !have["."].srcs {
			return nil, fmt.Errorf("mutate: module %s (%s) has no Go package at its root; %s: choose with gomod.Config.Packages (\"...\" for all)", modPath, root, listing())
		}
		return []string{"."}, nil
	}
	var out []string
	for _, w := range want {
		d := path.Clean(strings.TrimPrefix(w, "./"))
		if w == "" || w == AllPackages || strings.HasPrefix(d, "../") || d == ".." || path.IsAbs(d) || strings.Contains(w, `\`) {
			return nil, fmt.Errorf("mutate: gomod.Config.Packages: %q is not a package directory relative to the module root (or %q alone)", w, AllPackages)
		}
		if p, ok := have[d]; !ok || !p.srcs {
			return nil, fmt.Errorf("mutate: module %s (%s) has no Go package in %q; %s", modPath, root, w, listing())
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Lang returns mutate.Go.
func (g *Module) Lang() mutate.Lang { return mutate.Go }

// Close removes the private copy and the build outputs.
func (g *Module) Close() error {
	g.bins.close()
	errs := []error{os.RemoveAll(g.dir), os.RemoveAll(g.scratch)}
	if g.binDir != "" {
		errs = append(errs, os.RemoveAll(g.binDir))
	}
	return errors.Join(errs...)
}

// freshRunDir makes the run directory anew before a job, so that nothing a
// job left there (a link in place of the directory or of a file the host
// writes) is followed; runMu is held.
func (g *Module) freshRunDir() error {
	d := filepath.Join(g.dir, buildsys.RunDir)
	if err := os.RemoveAll(d); err != nil {
		return err
	}
	if err := os.Mkdir(d, 0o777); err != nil {
		return err
	}
	return os.Chmod(d, 0o777) // past the umask: the job's user writes here
}

// ReadFile reads a file of the module.
func (g *Module) ReadFile(path string) ([]byte, error) {
	return os.ReadFile(filepath.Join(g.dir, filepath.FromSlash(path)))
}

// Sources lists the non-test .go files of the packages studied.
func (g *Module) Sources() ([]string, error) {
	var out []string
	for _, pkg := range g.pkgs {
		ents, err := os.ReadDir(filepath.Join(g.dir, filepath.FromSlash(pkg)))
		if err != nil {
			return nil, fmt.Errorf("mutate: %w", err)
		}
		for _, e := range ents {
			n := e.Name()
			if e.Type().IsRegular() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") &&
				!strings.HasPrefix(n, "_") && !strings.HasPrefix(n, ".") {
				out = append(out, path.Join(pkg, n))
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// testName qualifies a test of package pkg: "TestX" in the root package,
// "dir.TestX" elsewhere.
func testName(pkg, test string) string {
	if pkg == "." {
		return test
	}
	return pkg + "." + test
}

// splitTest is the inverse of testName (test names hold no dot).
func splitTest(q string) (pkg, test string) {
	i := strings.LastIndexByte(q, '.')
	if i < 0 {
		return ".", q
	}
	return q[:i], q[i+1:]
}

func (g *Module) goCmd() string {
	if g.cfg.Go != "" {
		return g.cfg.Go
	}
	return "go"
}

// build runs "go test -c" on package pkg with the given extra flags into
// bin (a path under the scratch directory) and returns the compiler output
// when the build failed.
func (g *Module) build(ctx context.Context, bin, pkg string, flags ...string) (string, time.Duration, error) {
	args := append([]string{"test", "-c", "-vet=off", "-o", bin}, flags...)
	args = append(args, "./"+pkg)
	cmd := osexec.CommandContext(ctx, g.goCmd(), args...)
	cmd.Dir = g.dir
	cmd.Env = g.goEnv()
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if ctx.Err() != nil {
		return "", took, ctx.Err()
	}
	var ee *osexec.ExitError
	if errors.As(err, &ee) {
		msg := strings.ReplaceAll(string(out), g.dir+string(filepath.Separator), "")
		return strings.TrimSpace(msg), took, nil
	}
	if err != nil {
		return "", took, fmt.Errorf("mutate: go test -c: %w", err)
	}
	return "", took, nil
}

// goTestVet is the set of vet checks "go test" runs before a package's
// tests (cmd/go's defaultVetFlags): a mutant it rejects does not pass go
// test ("too large: %" for "too large: %d", a suspect || from &&).
var goTestVet = []string{"-atomic", "-bool", "-buildtags", "-directive", "-errorsas", "-ifaceassert", "-nilfunc", "-printf", "-slog", "-stringintconv", "-tests"}

// vet runs go test's vet checks on package pkg with the overlay file given
// and returns their findings ("" when there are none), as build returns
// the compiler's. A package whose unchanged code vet already rejects
// (which go test would not run) has its mutants not vetted: a finding
// there is no mutant's.
func (g *Module) vet(ctx context.Context, pkg, overlay string) (string, error) {
	g.vetMu.Lock()
	clean, ok := g.vetClean[pkg]
	if !ok {
		msg, err := g.runVet(ctx, pkg, "")
		if err != nil {
			g.vetMu.Unlock()
			return "", err
		}
		clean = msg == ""
		g.vetClean[pkg] = clean
	}
	g.vetMu.Unlock()
	if !clean {
		return "", nil
	}
	return g.runVet(ctx, pkg, overlay)
}

// runVet runs go test's vet checks on package pkg, with the overlay file
// if not "".
func (g *Module) runVet(ctx context.Context, pkg, overlay string) (string, error) {
	args := []string{"vet"}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	args = append(args, goTestVet...)
	cmd := osexec.CommandContext(ctx, g.goCmd(), append(args, "./"+pkg)...)
	cmd.Dir = g.dir
	cmd.Env = g.goEnv()
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	var ee *osexec.ExitError
	if errors.As(err, &ee) {
		msg := strings.ReplaceAll(string(out), g.dir+string(filepath.Separator), "")
		return "vet: " + strings.TrimSpace(msg), nil
	}
	if err != nil {
		return "", fmt.Errorf("mutate: go vet: %w", err)
	}
	return "", nil
}

var (
	goResultRE = regexp.MustCompile(`(?m)^\x16--- (PASS|FAIL|SKIP): ([^\s/]+) \(`)
	goStartRE  = regexp.MustCompile(`(?m)^\x16=== RUN\s+([^\s/]+)\s*$`)
)

// testBinary is one run of a package's test binary: bin (a host path) of
// package pkg, the tests to run (bare names; nil means all), and what env
// adds to the job's environment.
type testBinary struct {
	bin, pkg   string
	tests, env []string
}

// run runs the test binary tb in the runner, from the package's
// directory, with extra flags, and returns the top-level tests that passed,
// by bare name, and those that started (passed or not). Runs are serialized (see runMu); the binary is linked into
// the module copy for the run. collect, if not nil, runs after the job,
// still holding the workspace: it reads and removes what the job wrote.
func (g *Module) run(ctx context.Context, tb testBinary, collect func(), flags ...string) (passed, started map[string]bool, res exec.Result, err error) {
	bin, pkg, tests, env := tb.bin, tb.pkg, tb.tests, tb.env
	pattern := "."
	if len(tests) > 0 {
		quoted := make([]string, len(tests))
		for i, t := range tests {
			quoted[i] = regexp.QuoteMeta(t)
		}
		pattern = "^(" + strings.Join(quoted, "|") + ")$"
	}
	g.runMu.Lock()
	defer g.runMu.Unlock()
	outPath := filepath.Join(g.dir, buildsys.RunDir, "out")
	if err := g.freshRunDir(); err != nil {
		return nil, nil, res, fmt.Errorf("mutate: %w", err)
	}
	defer os.Remove(outPath)
	sw := exec.WorkDir + "/" + buildsys.RunDir + "/"
	// A schema binary is bound read-only at its own path (one binary runs
	// many jobs, which then share a sandbox init); any other is linked
	// into the workspace, which the sandbox copies.
	exe := bin
	var ro []string
	if g.binDir != "" && filepath.Dir(bin) == g.binDir {
		ro = []string{bin}
	} else {
		local := filepath.Join(g.dir, buildsys.RunDir, "pkg.test")
		if err := buildsys.LinkOrCopy(bin, local); err != nil {
			return nil, nil, res, fmt.Errorf("mutate: %w", err)
		}
		defer os.Remove(local)
		exe = sw + "pkg.test"
	}
	args := []string{"/bin/sh", "-c", `b="$1"; p="$2"; o="$3"; cd "$4" || exit 125; shift 4; exec "$b" -test.v=test2json -test.paniconexit0 -test.run "$p" "$@" >"$o" 2>&1`,
		"sh", exe, pattern, sw + "out", pkg}
	args = append(args, flags...)
	res, err = g.runner.Run(ctx, exec.Job{Dir: g.dir, Args: args, Env: env, Limits: g.cfg.Limits, ReadOnly: ro})
	if err != nil {
		return nil, nil, res, fmt.Errorf("mutate: run test binary: %w", err)
	}
	if collect != nil {
		collect() // before another job may take the workspace
	}
	// The job could write the run directory: read beneath it, links
	// refused (exec.ReadWorkspaceFile).
	raw, _ := exec.ReadWorkspaceFile(g.dir, buildsys.RunDir+"/out", 64*exec.MiB)
	passed, started = map[string]bool{}, map[string]bool{}
	for _, m := range goResultRE.FindAllSubmatch(raw, -1) {
		if string(m[1]) == "PASS" {
			passed[string(m[2])] = true
		}
	}
	for _, m := range goStartRE.FindAllSubmatch(raw, -1) {
		started[string(m[1])] = true
	}
	return passed, started, res, nil
}

// Tests builds the tests of each package studied and lists their
// top-level tests and the examples go test runs (those with an output
// comment), sorted.
func (g *Module) Tests(ctx context.Context) ([]string, error) {
	var tests []string
	for i, pkg := range g.pkgs {
		bin := filepath.Join(g.scratch, fmt.Sprintf("list%d.test", i))
		msg, _, err := g.build(ctx, bin, pkg)
		if err != nil {
			return nil, err
		}
		if msg != "" {
			return nil, fmt.Errorf("mutate: %s: package %s does not build:\n%s", g.src, pkg, msg)
		}
		if _, err := os.Stat(bin); err != nil {
			continue // no test files
		}
		if !g.cfg.BuildEach {
			// What type-checking the package's mutants needs, read
			// now while the build cache is warm: the export data of
			// its dependencies (a failure only means its mutants are
			// built alone).
			g.typeMu.Lock()
			g.typeEnv(ctx, pkg)
			g.typeMu.Unlock()
		}
		g.runMu.Lock()
		local := filepath.Join(g.dir, buildsys.RunDir, "pkg.test")
		err = g.freshRunDir()
		if err == nil {
			err = buildsys.LinkOrCopy(bin, local)
		}
		var res exec.Result
		if err == nil {
			res, err = g.runner.Run(ctx, exec.Job{Dir: g.dir, Args: []string{"/bin/sh", "-c", `cd "$1" || exit 125; exec "$2" -test.list "^(Test|Example)"`,
				"sh", pkg, exec.WorkDir + "/" + buildsys.RunDir + "/pkg.test"}, Limits: g.cfg.Limits})
			os.Remove(local)
		}
		g.runMu.Unlock()
		os.Remove(bin)
		if err != nil {
			return nil, fmt.Errorf("mutate: list tests of package %s: %w", pkg, err)
		}
		if res.Status != exec.StatusOK {
			return nil, fmt.Errorf("mutate: list tests of package %s: %s: %s", pkg, res.Status, res.Stderr)
		}
		sc := bufio.NewScanner(bytes.NewReader(res.Stdout))
		for sc.Scan() {
			// An example is a test when it has an output comment, and
			// only those are in the binary's list.
			if l := strings.TrimSpace(sc.Text()); strings.HasPrefix(l, "Test") || strings.HasPrefix(l, "Example") {
				tests = append(tests, testName(pkg, l))
			}
		}
	}
	slices.Sort(tests)
	return tests, nil
}

// Coverage runs one test of the unmodified module with coverage of the
// test's package.
func (g *Module) Coverage(ctx context.Context, test string) (mutate.Lines, error) {
	pkg, name := splitTest(test)
	idx := slices.Index(g.pkgs, pkg)
	if idx < 0 {
		return nil, fmt.Errorf("mutate: test %q: package %q is not studied", test, pkg)
	}
	bin := filepath.Join(g.scratch, fmt.Sprintf("cover%d.test", idx))
	if _, err := os.Stat(bin); err != nil {
		// Built once; concurrent first calls may both build, which is
		// harmless (the same output, an atomic rename).
		tmp := filepath.Join(g.scratch, fmt.Sprintf("cover-tmp%d.test", g.seq.Add(1)))
		msg, _, err := g.build(ctx, tmp, pkg, "-cover", "-covermode=set", "-coverpkg=./"+pkg)
		if err != nil {
			return nil, err
		}
		if msg != "" {
			return nil, fmt.Errorf("mutate: %s: package %s does not build with -cover:\n%s", g.src, pkg, msg)
		}
		if err := os.Rename(tmp, bin); err != nil {
			return nil, fmt.Errorf("mutate: %w", err)
		}
	}
	prof := fmt.Sprintf("cov%d.out", g.seq.Add(1))
	path := filepath.Join(g.dir, buildsys.RunDir, prof)
	var b []byte
	var readErr error
	_, _, res, err := g.run(ctx, testBinary{bin: bin, pkg: pkg, tests: []string{name}}, func() {
		b, readErr = exec.ReadWorkspaceFile(g.dir, buildsys.RunDir+"/"+prof, 64*exec.MiB)
		os.Remove(path)
	}, "-test.coverprofile="+exec.WorkDir+"/"+buildsys.RunDir+"/"+prof)
	if err != nil {
		return nil, err
	}
	if readErr != nil {
		return nil, fmt.Errorf("mutate: coverage of %s (%s): %w", test, res.Status, readErr)
	}
	return parseCoverProfile(b, g.modPath)
}

// parseCoverProfile reads a "go test -coverprofile" file and returns the
// lines of the blocks that ran, for files of module modPath.
func parseCoverProfile(b []byte, modPath string) (mutate.Lines, error) {
	sets := map[string]map[int]bool{}
	for i, line := range strings.Split(string(b), "\n") {
		if i == 0 || line == "" {
			continue
		}
		// name.go:L1.C1,L2.C2 stmts count
		colon := strings.LastIndexByte(line, ':')
		f := strings.Fields(line[colon+1:])
		if colon < 0 || len(f) != 3 {
			return nil, fmt.Errorf("mutate: coverprofile line %d: %q: want file:l.c,l.c n count", i+1, line)
		}
		count, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("mutate: coverprofile line %d: count %q: %w", i+1, f[2], err)
		}
		if count == 0 {
			continue
		}
		var l1, c1, l2, c2 int
		if _, err := fmt.Sscanf(f[0], "%d.%d,%d.%d", &l1, &c1, &l2, &c2); err != nil {
			return nil, fmt.Errorf("mutate: coverprofile line %d: range %q: %w", i+1, f[0], err)
		}
		file := strings.TrimPrefix(line[:colon], modPath+"/")
		s := sets[file]
		if s == nil {
			s = map[int]bool{}
			sets[file] = s
		}
		for l := l1; l <= l2; l++ {
			s[l] = true
		}
	}
	out := mutate.Lines{}
	for _, f := range slices.Sorted(maps.Keys(sets)) {
		out[f] = slices.Sorted(maps.Keys(sets[f]))
	}
	return out, nil
}

// Check builds the tests of path's package with path replaced by src
// through an overlay and runs the given tests in the runner. With path ""
// it builds and runs each package studied (the tests given, or all).
func (g *Module) Check(ctx context.Context, file string, src []byte, tests []string) (*mutate.TestRun, error) {
	byPkg := map[string][]string{} // bare names; nil: all
	pkgs := g.pkgs
	if file != "" {
		pkg := path.Dir(file)
		if !slices.Contains(g.pkgs, pkg) {
			return nil, fmt.Errorf("mutate: %s is not in a package studied (%s)", file, strings.Join(g.pkgs, ", "))
		}
		pkgs = []string{pkg}
	}
	for _, t := range tests {
		pkg, name := splitTest(t)
		if !slices.Contains(pkgs, pkg) {
			return nil, fmt.Errorf("mutate: test %q is not a test of package %s", t, strings.Join(pkgs, ", "))
		}
		byPkg[pkg] = append(byPkg[pkg], name)
	}
	out := &mutate.TestRun{}
	passed := map[string]bool{}
	for _, pkg := range pkgs {
		if tests != nil && byPkg[pkg] == nil {
			continue
		}
		compile, err := g.checkPackage(ctx, pkg, mutate.CheckRequest{File: file, Src: src, Tests: byPkg[pkg]}, out, passed)
		if err != nil {
			return nil, err
		}
		if compile != "" {
			out.Compile = compile
			out.Passed, out.Failed = nil, nil
			return out, nil
		}
	}
	buildsys.SortRun(out, tests, passed)
	return out, nil
}

// checkPackage builds and runs the tests m names of one package, m.File
// (if not "") replaced by m.Src, adding the times to out and the tests that passed
// (qualified) to passed; it returns the compiler's messages of a build
// that failed.
func (g *Module) checkPackage(ctx context.Context, pkg string, m mutate.CheckRequest, out *mutate.TestRun, passed map[string]bool) (string, error) {
	file, src, tests := m.File, m.Src, m.Tests
	if file != "" {
		p := g.prepared.Get(file, src)
		switch {
		case p != nil && p.compile != "":
			return p.compile, nil // go/types found it does not compile
		case p != nil:
			return "", g.runTests(ctx, testBinary{p.bin, pkg, tests, []string{fmt.Sprintf("%s=%d", mutantEnv, p.id)}}, out, passed)
		}
	}
	if g.cfg.BuildEach {
		// The reference path builds every check, as the pipeline did.
		bin, compile, took, err := g.buildAlone(ctx, pkg, file, src)
		out.BuildTime += took
		if bin != "" {
			defer os.Remove(bin)
		}
		if err != nil || compile != "" || bin == "" {
			return compile, err
		}
		return "", g.runTests(ctx, testBinary{bin, pkg, tests, nil}, out, passed)
	}
	key := pkg + "\x00" + buildsys.MutantKey(file, src)
	e, build := g.bins.get(key)
	defer g.bins.put(e)
	if build {
		bin, compile, took, err := g.buildAlone(ctx, pkg, file, src)
		out.BuildTime += took
		g.bins.built(key, e, bin, compile, err)
	} else {
		select {
		case <-e.ready:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	if e.err != nil || e.compile != "" || e.bin == "" {
		return e.compile, e.err
	}
	return "", g.runTests(ctx, testBinary{e.bin, pkg, tests, nil}, out, passed)
}

// buildAlone builds the test binary of package pkg with file (if not "")
// replaced by src through an overlay. It returns the binary ("" when the
// package has no test files, or the build failed) or the compiler's
// messages, naming the file as the project does.
func (g *Module) buildAlone(ctx context.Context, pkg, file string, src []byte) (bin, compile string, took time.Duration, err error) {
	id := g.seq.Add(1)
	bin = filepath.Join(g.scratch, fmt.Sprintf("m%d.test", id))
	var flags []string
	mut := filepath.Join(g.scratch, fmt.Sprintf("m%d_%s", id, path.Base(file)))
	if file != "" {
		if err := os.WriteFile(mut, src, 0o666); err != nil {
			return "", "", 0, fmt.Errorf("mutate: %w", err)
		}
		defer os.Remove(mut)
		ov, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(g.dir, filepath.FromSlash(file)): mut}})
		ovFile := filepath.Join(g.scratch, fmt.Sprintf("m%d.overlay.json", id))
		if err := os.WriteFile(ovFile, ov, 0o666); err != nil {
			return "", "", 0, fmt.Errorf("mutate: %w", err)
		}
		defer os.Remove(ovFile)
		flags = append(flags, "-overlay", ovFile)
	}
	msg, took, err := g.build(ctx, bin, pkg, flags...)
	if err == nil && msg == "" && file != "" {
		msg, err = g.vet(ctx, pkg, flags[1])
	}
	if err != nil || msg != "" {
		os.Remove(bin)
		if msg != "" && file != "" {
			// Name the mutated file as the project does, not the overlay.
			if rel, err := filepath.Rel(g.dir, mut); err == nil {
				msg = strings.ReplaceAll(msg, rel, file)
			}
			msg = strings.ReplaceAll(msg, mut, file)
		}
		return "", msg, took, err
	}
	if _, err := os.Stat(bin); err != nil {
		return "", "", took, nil // no test files
	}
	return bin, "", took, nil
}

// runTests runs the tests of tb, adding the time to out and the tests
// that passed (qualified) to passed.
//
// A test that panics ends the binary (-test.paniconexit0 or not), and the
// selected tests after it never start: they are not failures of the
// mutant. Those are run again in a process of their own, without the
// tests that ran, until every selected test has started or a run starts
// none (a binary that cannot start a test: each counts as failed). A run
// a limit stopped is not repeated (each would cost the whole limit).
func (g *Module) runTests(ctx context.Context, tb testBinary, out *mutate.TestRun, passed map[string]bool) error {
	pkg := tb.pkg
	for todo := tb.tests; ; {
		ok, started, res, err := g.run(ctx, testBinary{tb.bin, pkg, todo, tb.env}, nil)
		out.TestTime += res.WallTime
		if err != nil {
			return err
		}
		for t := range ok {
			passed[testName(pkg, t)] = true
		}
		if res.Status != exec.StatusOK && res.Status != exec.StatusExit {
			out.TimedOut = true
			return nil
		}
		var rest []string
		for _, t := range todo {
			if !started[t] {
				rest = append(rest, t)
			}
		}
		if len(rest) == 0 || len(rest) == len(todo) {
			return nil
		}
		todo = rest
	}
}

// Task makes the task's workspace: the module as it was opened, every
// file (go.mod, the package's sources and tests, test data) in one shared
// adapt.Base, with the target over it; run by exec.GoTest in the target's
// package.
func (g *Module) Task(path string, t *adapt.Task) error {
	t.Language = adapt.Go
	t.Framework = adapt.FrameworkGo
	// adapt's Go driver runs the tests of the target's package, which
	// report their bare names.
	for i := range t.Tests {
		_, t.Tests[i].Name = splitTest(t.Tests[i].Name)
	}
	if g.baseErr != nil {
		return g.baseErr
	}
	t.Base, t.Files = g.base, nil
	if g.env != nil {
		t.Env = &adapt.Environment{Runtime: g.env.Runtime, Packages: slices.Clone(g.env.Packages)}
	}
	return nil
}

// requirements reads the go.mod of the module copy ("go mod edit -json",
// which reads nothing else) and returns the environment its tasks need:
// the Go version and every module it requires (direct or indirect, as
// go.mod lists them), which the tests build against (spf13/cast's tests
// need frankban/quicktest). A task records them (adapt.Task.Env), so that
// a machine without them in its module cache can provide them
// (versioned.GoModules) instead of failing to build. Nil when go.mod
// requires nothing.
func (g *Module) requirements() (*adapt.Environment, error) {
	cmd := osexec.Command(g.goCmd(), "mod", "edit", "-json")
	cmd.Dir = g.dir
	cmd.Env = g.goEnv()
	out, err := cmd.Output()
	if err != nil {
		var ee *osexec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%w: %s", err, bytes.TrimSpace(ee.Stderr))
		}
		return nil, fmt.Errorf("mutate: %s: go mod edit -json: %w", filepath.Join(g.src, "go.mod"), err)
	}
	var mod struct {
		Go      string
		Require []struct{ Path, Version string }
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		return nil, fmt.Errorf("mutate: %s: go mod edit -json: %w", filepath.Join(g.src, "go.mod"), err)
	}
	if len(mod.Require) == 0 {
		return nil, nil
	}
	env := &adapt.Environment{}
	if mod.Go != "" {
		env.Runtime = "go" + mod.Go
	}
	for _, r := range mod.Require {
		env.Packages = append(env.Packages, adapt.Package{Name: r.Path, Version: r.Version})
	}
	return env, nil
}

// Module is a build system seen from outside mutate. Generate also looks
// for its Prepare and TypeErrors (mutate's buildsys_test.go holds that).
var _ mutate.Project = (*Module)(nil)

// projectBase makes the base of the tasks of the project at dir (see
// buildsys.ProjectFiles).
func projectBase(dir string) (*adapt.Base, error) {
	var files []adapt.File
	if err := buildsys.ProjectFiles(dir, func(p, c string) { files = append(files, adapt.File{Path: p, Content: c}) }); err != nil {
		return nil, err
	}
	return adapt.NewBase(files)
}
