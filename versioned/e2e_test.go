package versioned_test

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/versioned"
)

func TestMain(m *testing.M) { exectest.Main(m) }

// writeWheel writes a pure-Python wheel name-version-py3-none-any.whl of
// the given files (package paths to contents) into dir.
func writeWheel(t *testing.T, dir, name, version string, files map[string]string) {
	t.Helper()
	info := fmt.Sprintf("%s-%s.dist-info/", name, version)
	all := map[string]string{}
	for p, c := range files {
		all[p] = c
	}
	all[info+"METADATA"] = fmt.Sprintf("Metadata-Version: 2.1\nName: %s\nVersion: %s\n", name, version)
	all[info+"WHEEL"] = "Wheel-Version: 1.0\nGenerator: adaptbench-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
	var record strings.Builder
	var order []string
	for p := range all {
		order = append(order, p)
	}
	slices.Sort(order)
	for _, p := range order {
		sum := sha256.Sum256([]byte(all[p]))
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", p, base64.RawURLEncoding.EncodeToString(sum[:]), len(all[p]))
	}
	record.WriteString(info + "RECORD,,\n")
	all[info+"RECORD"] = record.String()
	order = append(order, info+"RECORD")

	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s-%s-py3-none-any.whl", name, version)))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, p := range order {
		w, err := zw.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(all[p])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// cacheDir makes a cache directory the sandbox can see: not under /tmp or
// /dev/shm (private in the sandbox) and world-readable (jobs run as nobody).
func cacheDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("/var/tmp", "adaptbench-versioned-test-")
	if err != nil {
		t.Skipf("no /var/tmp for a sandbox-visible cache: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// minilibTask is a task whose tests need minilib at version, and whose
// reference uses the API of that version.
func minilibTask(id, version, reference string) adapt.Task {
	test := "import unittest\nimport solution\n\n" +
		"class TestHello(unittest.TestCase):\n" +
		"    def test_hello(self):\n" +
		"        self.assertEqual(solution.hello('Ada'), 'Hello, Ada!')\n"
	return adapt.Task{
		ID:          id,
		Language:    adapt.Python,
		Code:        "import minilib\n\ndef hello(name):\n    pass\n",
		Target:      adapt.Target{Path: "solution.py", Content: reference},
		Files:       []adapt.File{{Path: "test_hello.py", Content: test}},
		Requirement: adapt.Requirement{Task: "Greet name with minilib " + version + "."},
		Reference:   reference,
		Framework:   adapt.FrameworkUnittest,
		Tests:       []adapt.Test{{Name: "test_hello.TestHello.test_hello", File: "test_hello.py"}},
		Env:         &adapt.Environment{Packages: []adapt.Package{{Name: "minilib", Version: version}}},
	}
}

const (
	v1Solution = "import minilib\n\ndef hello(name):\n    return minilib.greet(name)\n"
	v2Solution = "import minilib\n\ndef hello(name):\n    return minilib.salute(name)\n"
)

func TestEndToEnd(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	sb := exectest.Sandbox(t)
	ctx := context.Background()

	wheels := t.TempDir()
	writeWheel(t, wheels, "minilib", "1.0", map[string]string{
		"minilib/__init__.py": "__version__ = '1.0'\n\ndef greet(name):\n    return 'Hello, %s!' % name\n",
	})
	writeWheel(t, wheels, "minilib", "2.0", map[string]string{
		"minilib/__init__.py": "__version__ = '2.0'\n\ndef salute(name):\n    return 'Hello, %s!' % name\n",
	})
	cache := &versioned.Cache{
		Dir:     cacheDir(t),
		Builder: &versioned.Venv{Python: "/usr/bin/python3", Wheelhouse: wheels, NoDeps: true},
	}

	v1 := minilibTask("minilib-1", "1.0", v1Solution)
	v2 := minilibTask("minilib-2", "2.0", v2Solution)
	specs := []versioned.EnvSpec{versioned.SpecOf(*v1.Env), versioned.SpecOf(*v2.Env)}
	start := time.Now()
	envs, errs := cache.ProvisionAll(ctx, specs)
	built := time.Since(start)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("provision %v: %v", specs[i], err)
		}
		m := envs[i].Manifest
		if !m.Faithful || envs[i].Cached {
			t.Fatalf("env %d: faithful=%v cached=%v mismatches=%v", i, m.Faithful, envs[i].Cached, m.Mismatches)
		}
	}
	if envs[0].Dir == envs[1].Dir {
		t.Fatal("both versions share one environment")
	}
	if got := cache.Builds(); got != 2 {
		t.Fatalf("built %d environments, want 2", got)
	}

	p := &versioned.Provider{Provisioner: cache, Strict: true}
	checkVersionsDecide(t, sb, p)
	checkCacheReused(t, cache, specs, envs, built)
	checkBadVersions(t, cache, p)
}

// checkVersionsDecide: each reference passes in its version's
// environment, and a solution written for 1.0 fails in 2.0's, and the
// other way round.
func checkVersionsDecide(t *testing.T, sb exec.Runner, p *versioned.Provider) {
	t.Helper()
	ctx := context.Background()
	v1 := minilibTask("minilib-1", "1.0", v1Solution)
	v2 := minilibTask("minilib-2", "2.0", v2Solution)
	opts := &adapt.Options{Runner: sb, Environments: p}
	rep, err := adapt.Evaluate(ctx, []adapt.Task{v1, v2}, adapt.Reference, opts)
	if err != nil {
		t.Fatal(err)
	}
	if score, _ := rep.Score(1); score != 1 || rep.Valid != 2 {
		t.Fatalf("reference: pass@1 %v, %d valid of 2, invalid %+v", score, rep.Valid, rep.Invalid)
	}

	wrong := []adapt.Task{minilibTask("v1-code-in-2", "2.0", v1Solution), minilibTask("v2-code-in-1", "1.0", v2Solution)}
	rep, err = adapt.Evaluate(ctx, wrong, adapt.Reference, &adapt.Options{Runner: sb, Environments: p, NoGold: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wrong-version outcomes: %v", rep.Outcomes)
	if score, _ := rep.Score(1); score != 0 {
		t.Fatalf("wrong-version solutions: pass@1 %v, want 0 (outcomes %v)", score, rep.Outcomes)
	}
	for o := range rep.Outcomes {
		if o == report.OutcomeInfraError {
			t.Fatalf("wrong-version solutions: infrastructure error, want a test failure: %v", rep.Outcomes)
		}
	}
}

// checkCacheReused: provisioning again reuses the cache, also from a new
// Cache on the same directory (another process, another day).
func checkCacheReused(t *testing.T, cache *versioned.Cache, specs []versioned.EnvSpec, envs []*versioned.Env, built time.Duration) {
	t.Helper()
	for _, c := range []*versioned.Cache{cache, {Dir: cache.Dir, Builder: cache.Builder}} {
		start := time.Now()
		for i, s := range specs {
			env, err := c.Provision(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if !env.Cached || env.Dir != envs[i].Dir || !env.Manifest.Created.Equal(envs[i].Manifest.Created) {
				t.Fatalf("second provision of %v: cached=%v dir=%s, want the environment built first", s, env.Cached, env.Dir)
			}
		}
		if again := time.Since(start); again > built/4 {
			t.Errorf("cached provisioning took %v, building took %v", again, built)
		}
	}
	if got := cache.Builds(); got != 2 {
		t.Fatalf("built %d environments in all, want 2 (no reinstall)", got)
	}
}

// checkBadVersions: a version the wheelhouse lacks is a build error that
// leaves nothing in the cache; an interpreter of the wrong version is not
// faithful, and a strict provider refuses it.
func checkBadVersions(t *testing.T, cache *versioned.Cache, p *versioned.Provider) {
	t.Helper()
	ctx := context.Background()
	missing := versioned.EnvSpec{Packages: []adapt.Package{{Name: "minilib", Version: "3.0"}}}
	if _, err := cache.Provision(ctx, missing); err == nil || !strings.Contains(err.Error(), "minilib==3.0") {
		t.Errorf("minilib 3.0: got %v, want a pip error naming minilib==3.0", err)
	}
	if _, err := os.Stat(filepath.Join(cache.Dir, missing.Key())); !os.IsNotExist(err) {
		t.Errorf("failed build left its directory: %v", err)
	}
	old := adapt.Environment{Runtime: "2.7", Packages: []adapt.Package{{Name: "minilib", Version: "1.0"}}}
	env, err := cache.Provision(ctx, versioned.SpecOf(old))
	if err != nil {
		t.Fatal(err)
	}
	if env.Manifest.Faithful || len(env.Manifest.Mismatches) != 1 || !strings.Contains(env.Manifest.Mismatches[0], "want 2.7") {
		t.Errorf("python 2.7 spec built with python3: faithful=%v mismatches=%v", env.Manifest.Faithful, env.Manifest.Mismatches)
	}
	if _, err := p.Provide(ctx, old); !errors.Is(err, versioned.ErrUnfaithful) {
		t.Errorf("strict provider: got %v, want ErrUnfaithful", err)
	}
}
