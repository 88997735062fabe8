package versioned

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/singleflight"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/internal/tracker"
	"github.com/adaptbench/adaptbench/versioned/internal/libapi"
)

// EnvSpec says what an environment must hold: a Python version and
// packages at versions, or a Go version and modules at versions.
type EnvSpec struct {
	// Python is the interpreter version, such as "3.10"; "" means any.
	Python string `json:"python,omitempty"`
	// Go, set for a Go environment, is the lowest Go toolchain that may
	// build it (the go directive of the workspace's go.mod), such as
	// "1.23". A task names it as the runtime "go1.23".
	Go string `json:"go,omitempty"`
	// Packages are installed in this order; an empty Version means any.
	// In a Go environment they are modules (path and version).
	Packages []adapt.Package `json:"packages,omitempty"`
}

// SpecOf returns the spec of the environment a task names. A runtime
// "go1.N" makes a Go spec (Go "1.N"); any other runtime is a Python
// version.
func SpecOf(e adapt.Environment) EnvSpec {
	if v, ok := strings.CutPrefix(e.Runtime, "go"); ok {
		return EnvSpec{Go: v, Packages: slices.Clone(e.Packages)}
	}
	return EnvSpec{Python: e.Runtime, Packages: slices.Clone(e.Packages)}
}

// isGo reports whether the spec is of a Go environment.
func (s EnvSpec) isGo() bool { return s.Go != "" }

// Key is the spec's content key: the first 16 hex digits of the SHA-256
// of its JSON form. Unlike problem.CompatKey it covers every package.
func (s EnvSpec) Key() string {
	b, _ := json.Marshal(s)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:16]
}

// Manifest records what an environment holds and whether it is faithful
// to its spec. It is written as manifest.json in the environment's
// directory, last, so a directory without one is an unfinished build.
type Manifest struct {
	Key  string  `json:"key"`
	Spec EnvSpec `json:"spec"`
	// Builder names the builder that made it ("venv", "system", "gomod").
	Builder string `json:"builder"`
	// Python is the interpreter to run tests with.
	Python string `json:"python,omitempty"`
	// PythonVersion is the interpreter's full version, such as "3.11.2".
	PythonVersion string `json:"python_version,omitempty"`
	// GoVersion is the Go toolchain's version, such as "go1.26.8", and
	// ModCache the module cache (GOMODCACHE) the modules were downloaded
	// into, for a Go environment.
	GoVersion string `json:"go_version,omitempty"`
	ModCache  string `json:"modcache,omitempty"`
	// Installed lists every distribution the interpreter sees, sorted by
	// name: the environment's "pip freeze". For Go, it is the module
	// graph's build list ("go list -m all"), the main module left out.
	Installed []adapt.Package `json:"installed"`
	// Faithful reports whether the interpreter and every pinned package
	// match the spec; Mismatches says what does not.
	Faithful   bool      `json:"faithful"`
	Mismatches []string  `json:"mismatches,omitempty"`
	Created    time.Time `json:"created"`
}

// Env is a provisioned environment.
type Env struct {
	// Dir is the environment's directory.
	Dir      string
	Manifest Manifest
	// Cached reports whether it was found on disk rather than built.
	Cached bool
}

// Provisioner makes environments.
type Provisioner interface {
	Provision(ctx context.Context, spec EnvSpec) (*Env, error)
}

// Builder builds one environment into an empty directory. A Builder
// runs trusted tools (python -m venv, pip, go mod download) without a
// sandbox.
type Builder interface {
	Build(ctx context.Context, spec EnvSpec, dir string) (Manifest, error)
}

// checker is implemented by Builders whose environments depend on
// something outside their directory that may go away (a module cache
// that was cleaned). Cache calls Check before reusing an environment and
// builds it again when Check fails.
type checker interface {
	check(env *Env) error
}

var errGoSpec = errors.New("a Go spec needs the GoModules builder")

// ErrUnfaithful is wrapped by Provider when it refuses an environment
// that does not match its spec.
var ErrUnfaithful = errors.New("versioned: environment does not match its spec")

// DefaultCacheDir returns where a Cache with no Dir keeps environments:
// adaptbench/envs under the user's cache directory (os.UserCacheDir), so
// that each user has a cache of their own (one made by another user is
// not writable); /var/tmp/adaptbench-envs-UID when the user has none. A
// job in the sandbox sees an environment through the read-only path the
// Provider names, wherever the cache is.
func DefaultCacheDir() string {
	if d, err := os.UserCacheDir(); err == nil && filepath.IsAbs(d) {
		return filepath.Join(d, "adaptbench", "envs")
	}
	return fmt.Sprintf("/var/tmp/adaptbench-envs-%d", os.Getuid())
}

// Cache provisions environments with a Builder and keeps them on disk,
// one directory per EnvSpec.Key, reusing what is there. Concurrent calls
// for one key build once, also across processes sharing Dir (on Unix, by
// a lock file <key>.lock beside the directory). A Cache must not be copied
// after first use.
type Cache struct {
	// Dir holds the environments; "" means DefaultCacheDir().
	Dir string
	// Builder builds missing environments. It must not be nil.
	Builder Builder
	// Concurrency bounds the builds in flight; 0 means 2.
	Concurrency int
	// Progress, if set, is told of each environment ProvisionAll makes
	// ready (Phase "environments"; Passed counts those that could be
	// provisioned), from one goroutine at a time: the one progress type of
	// every long call of the SDK.
	Progress func(report.Progress)

	once   sync.Once
	sem    chan struct{}
	group  singleflight.Group
	builds atomic.Int64
}

// Builds returns how many environments this Cache has built (not found).
func (c *Cache) Builds() int { return int(c.builds.Load()) }

func (c *Cache) dir() string {
	if c.Dir == "" {
		return DefaultCacheDir()
	}
	return c.Dir
}

// Provision returns the environment for spec, building it if the cache
// has none. Cancelling ctx stops a build in progress (its directory is
// removed) or the wait for a build slot.
func (c *Cache) Provision(ctx context.Context, spec EnvSpec) (*Env, error) {
	if c.Builder == nil {
		return nil, errors.New("versioned: Cache has no Builder")
	}
	c.once.Do(func() {
		n := c.Concurrency
		if n <= 0 {
			n = 2
		}
		c.sem = make(chan struct{}, n)
	})
	key := spec.Key()
	root, err := filepath.Abs(c.dir())
	if err != nil {
		return nil, fmt.Errorf("versioned: %w", err)
	}
	dir := filepath.Join(root, key)
	if env, ok := c.reuse(dir); ok {
		return env, nil
	}
	v, err, _ := c.group.Do(key, func() (any, error) {
		if env, ok := c.reuse(dir); ok {
			return env, nil
		}
		select {
		case c.sem <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		defer func() { <-c.sem }()
		if err := os.MkdirAll(root, 0o755); err != nil {
			return nil, fmt.Errorf("versioned: %w", err)
		}
		unlock, err := lock(ctx, dir+".lock")
		if err != nil {
			return nil, fmt.Errorf("versioned: lock %s: %w", key, err)
		}
		defer unlock()
		if env, ok := c.reuse(dir); ok { // built by another process
			return env, nil
		}
		return c.build(ctx, spec, key, dir)
	})
	if err != nil {
		return nil, err
	}
	env := *v.(*Env)
	return &env, nil
}

func (c *Cache) build(ctx context.Context, spec EnvSpec, key, dir string) (*Env, error) {
	if err := os.RemoveAll(dir); err != nil { // an unfinished build
		return nil, fmt.Errorf("versioned: %w", err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("versioned: %w", err)
	}
	c.builds.Add(1)
	m, err := c.Builder.Build(ctx, spec, dir)
	if err == nil {
		m.Key, m.Spec = key, spec
		if m.Created.IsZero() {
			m.Created = time.Now().UTC()
		}
		err = worldReadable(dir)
	}
	if err == nil {
		err = writeManifest(dir, m)
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("versioned: build %s: %w", key, err)
	}
	return &Env{Dir: dir, Manifest: m}, nil
}

// ProvisionAll provisions every spec, at most Concurrency builds at a
// time, and returns the environments and errors by index.
func (c *Cache) ProvisionAll(ctx context.Context, specs []EnvSpec) ([]*Env, []error) {
	envs := make([]*Env, len(specs))
	errs := make([]error, len(specs))
	progress := tracker.New(c.Progress, "environments", len(specs))
	var g errgroup.Group
	g.SetLimit(max(c.Concurrency, 2) * 2) // waiting on the build slots is cheap
	for i, s := range specs {
		g.Go(func() error {
			envs[i], errs[i] = c.Provision(ctx, s)
			progress.Done(errs[i] == nil)
			return nil
		})
	}
	g.Wait()
	return envs, errs
}

// reuse returns the finished environment in dir, if there is one and
// the Builder, when it is a checker, still finds it usable.
func (c *Cache) reuse(dir string) (*Env, bool) {
	env, ok := readEnv(dir)
	if !ok {
		return nil, false
	}
	if ch, isChecker := c.Builder.(checker); isChecker && ch.check(env) != nil {
		return nil, false
	}
	return env, true
}

func readEnv(dir string) (*Env, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, false
	}
	var m Manifest
	if json.Unmarshal(b, &m) != nil {
		return nil, false
	}
	return &Env{Dir: dir, Manifest: m, Cached: true}, true
}

func writeManifest(dir string, m Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, ".manifest.json.tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, "manifest.json"))
}

// worldReadable makes the tree readable (and directories and executables
// traversable) by everyone: sandboxed jobs run as nobody.
func worldReadable(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		mode := fi.Mode().Perm() | 0o444
		if d.IsDir() || mode&0o100 != 0 {
			mode |= 0o111
		}
		if mode != fi.Mode().Perm() {
			return os.Chmod(p, mode)
		}
		return nil
	})
}

// Venv builds a virtual environment with `python -m venv` and installs
// the spec's packages offline from a local wheelhouse with
// `python -m pip install --no-index --find-links Wheelhouse`. The venv's
// interpreter is a link to the base interpreter, which must stay where it
// is.
type Venv struct {
	// Interpreters maps Python versions ("3.10") to base interpreters.
	// A version with no entry uses Python.
	Interpreters map[string]string
	// Python is the default base interpreter; "" means python3 on PATH.
	Python string
	// Wheelhouse is the directory of wheels and sdists to install from.
	// "" means the spec must have no packages.
	Wheelhouse string
	// NoDeps passes --no-deps to pip: install exactly the spec's packages.
	NoDeps bool
	// SystemSitePackages makes the venv see the base interpreter's
	// packages beneath its own (venv --system-site-packages). GitChameleon's
	// tasks run pytest in the environment: a venv needs it, from the
	// wheelhouse (upstream installs pytest in every environment) or, with
	// this, from the base interpreter (Debian's python3-pytest).
	SystemSitePackages bool
}

// Build implements Builder.
func (v *Venv) Build(ctx context.Context, spec EnvSpec, dir string) (Manifest, error) {
	if spec.isGo() {
		return Manifest{}, fmt.Errorf("venv: %w", errGoSpec)
	}
	base := v.Interpreters[spec.Python]
	if base == "" {
		base = v.Python
	}
	if base == "" {
		base = "python3"
	}
	venvArgs := []string{"-m", "venv", dir}
	if v.SystemSitePackages {
		venvArgs = []string{"-m", "venv", "--system-site-packages", dir}
	}
	if _, err := run(ctx, base, venvArgs...); err != nil {
		return Manifest{}, err
	}
	py := filepath.Join(dir, "bin", "python")
	if len(spec.Packages) > 0 {
		if v.Wheelhouse == "" {
			return Manifest{}, errors.New("venv: packages to install but no wheelhouse")
		}
		args := []string{"-m", "pip", "install", "--no-index", "--find-links", v.Wheelhouse,
			"--no-cache-dir", "--disable-pip-version-check", "--no-input", "--quiet"}
		if v.NoDeps {
			args = append(args, "--no-deps")
		}
		for _, p := range spec.Packages {
			args = append(args, requirement(p))
		}
		if _, err := run(ctx, py, args...); err != nil {
			return Manifest{}, err
		}
	}
	return inspect(ctx, "venv", py, spec)
}

// System uses an interpreter as it is, with whatever it has installed
// (Debian's python3 and python3-* packages, say). It installs nothing;
// its environments are faithful only where the versions happen to match.
type System struct {
	// Python is the interpreter; "" means /usr/bin/python3.
	Python string
}

// Build implements Builder: it records what the interpreter has.
func (s *System) Build(ctx context.Context, spec EnvSpec, dir string) (Manifest, error) {
	if spec.isGo() {
		return Manifest{}, fmt.Errorf("system: %w", errGoSpec)
	}
	py := s.Python
	if py == "" {
		py = "/usr/bin/python3"
	}
	return inspect(ctx, "system", py, spec)
}

func requirement(p adapt.Package) string {
	if p.Version == "" {
		return p.Name
	}
	return p.Name + "==" + p.Version
}

func run(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := osexec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), "PIP_NO_INPUT=1", "PYTHONDONTWRITEBYTECODE=1")
	out, err := libapi.CommandOutput(cmd, name)
	if err != nil {
		return nil, err
	}
	return out, nil
}

const inspectScript = `import json, sys, importlib.metadata as m
d = {}
for dist in m.distributions():
    n = dist.metadata["Name"]
    if n and n not in d:
        d[n] = dist.version
print(json.dumps({"version": "%d.%d.%d" % sys.version_info[:3], "dists": sorted(d.items())}))
`

// inspect asks the interpreter its version and installed distributions
// (Python 3.8 or later) and compares them with the spec.
func inspect(ctx context.Context, builder, py string, spec EnvSpec) (Manifest, error) {
	out, err := run(ctx, py, "-I", "-c", inspectScript)
	if err != nil {
		return Manifest{}, err
	}
	var r struct {
		Version string      `json:"version"`
		Dists   [][2]string `json:"dists"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return Manifest{}, fmt.Errorf("inspect %s: %w", py, err)
	}
	m := Manifest{Builder: builder, Python: py, PythonVersion: r.Version}
	for _, d := range r.Dists {
		m.Installed = append(m.Installed, adapt.Package{Name: d[0], Version: d[1]})
	}
	m.Mismatches = mismatches(r.Version, m.Installed, spec)
	m.Faithful = len(m.Mismatches) == 0
	return m, nil
}

// mismatches says how an interpreter of version python with installed
// distributions differs from spec.
func mismatches(python string, installed []adapt.Package, spec EnvSpec) []string {
	var out []string
	have := map[string]string{}
	for _, d := range installed {
		have[canonicalName(d.Name)] = d.Version
	}
	if spec.Python != "" && python != spec.Python && !strings.HasPrefix(python, spec.Python+".") {
		out = append(out, fmt.Sprintf("python %s, want %s", python, spec.Python))
	}
	for _, p := range spec.Packages {
		got, ok := have[canonicalName(p.Name)]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s missing, want %s", p.Name, requirement(p)))
		case p.Version != "" && !sameVersion(got, p.Version):
			out = append(out, fmt.Sprintf("%s %s, want %s", p.Name, got, p.Version))
		}
	}
	return out
}

// canonicalName normalises a distribution name as PEP 503 does.
func canonicalName(s string) string {
	s = strings.ToLower(s)
	return strings.NewReplacer("_", "-", ".", "-").Replace(s)
}

// sameVersion compares release versions as PEP 440 equality does for
// plain releases: trailing zero components do not matter ("2" == "2.0.0").
func sameVersion(a, b string) bool {
	trim := func(v string) string {
		for strings.HasSuffix(v, ".0") {
			v = strings.TrimSuffix(v, ".0")
		}
		return v
	}
	return trim(strings.ToLower(a)) == trim(strings.ToLower(b))
}

// Provider adapts a Provisioner to adapt.EnvProvider, for
// adapt.Options.Environments.
type Provider struct {
	// Provisioner makes the environments. It must not be nil.
	Provisioner Provisioner
	// Strict refuses environments that are not faithful (ErrUnfaithful),
	// so that degraded runs cannot be mistaken for official ones.
	Strict bool
	// Env is added to every test process's environment (such as
	// "OMP_NUM_THREADS=1", "MPLBACKEND=Agg").
	Env []string
}

// Provide implements adapt.EnvProvider: RunEnv.Python is the
// environment's interpreter; for a Go environment RunEnv.BuildEnv points
// the host build at the module cache the modules were fetched into.
func (p *Provider) Provide(ctx context.Context, e adapt.Environment) (adapt.RunEnv, error) {
	env, err := p.Provisioner.Provision(ctx, SpecOf(e))
	if err != nil {
		return adapt.RunEnv{}, err
	}
	if p.Strict && !env.Manifest.Faithful {
		return adapt.RunEnv{}, fmt.Errorf("%w: %s", ErrUnfaithful, strings.Join(env.Manifest.Mismatches, "; "))
	}
	run := adapt.RunEnv{Python: env.Manifest.Python, Env: slices.Clone(p.Env)}
	// The sandbox shows a job /usr and /etc only: the environment's own
	// directory, and a venv's root beside its interpreter, are added.
	if env.Dir != "" {
		run.ReadOnly = append(run.ReadOnly, env.Dir)
	}
	if py := env.Manifest.Python; filepath.IsAbs(py) && !strings.HasPrefix(py, "/usr/") {
		run.ReadOnly = append(run.ReadOnly, filepath.Dir(filepath.Dir(py)))
	}
	if env.Manifest.ModCache != "" {
		run.BuildEnv = []string{"GOMODCACHE=" + env.Manifest.ModCache}
	}
	return run, nil
}
