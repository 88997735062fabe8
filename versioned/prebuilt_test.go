package versioned_test

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/versioned"
)

// TestPrebuilt points a Prebuilt builder at a directory of venvs made
// elsewhere (here by hand; upstream's Docker flow makes .dataset_venvs)
// and checks that each spec gets the venv that matches it.
func TestPrebuilt(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	ctx := context.Background()
	venvs := cacheDir(t)
	// Venvs made by hand, without pip: a library installed is a package
	// and its .dist-info in site-packages.
	out, err := osexec.Command("/usr/bin/python3", "-c", "import sys; print('python%d.%d' % sys.version_info[:2])").Output()
	if err != nil {
		t.Fatal(err)
	}
	pyDir := strings.TrimSpace(string(out))
	for name, c := range map[string]struct{ ver, code string }{
		"gcham_venv_aaa": {"2.0", "def salute(name):\n    return 'Hello, %s!' % name\n"},
		"gcham_venv_bbb": {"1.0", "def greet(name):\n    return 'Hello, %s!' % name\n"},
	} {
		dir := filepath.Join(venvs, name)
		if out, err := osexec.Command("/usr/bin/python3", "-m", "venv", "--without-pip", dir).CombinedOutput(); err != nil {
			t.Fatalf("venv: %v: %s", err, out)
		}
		site := filepath.Join(dir, "lib", pyDir, "site-packages")
		for p, content := range map[string]string{
			"minilib/__init__.py":                      c.code,
			"minilib-" + c.ver + ".dist-info/METADATA": "Metadata-Version: 2.1\nName: minilib\nVersion: " + c.ver + "\n",
		} {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(site, p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(site, p), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(venvs, "not-a-venv"), 0o755); err != nil {
		t.Fatal(err)
	}
	cache := &versioned.Cache{Dir: cacheDir(t), Builder: &versioned.Prebuilt{Dir: venvs}}
	for _, c := range []struct {
		version, venv string
		faithful      bool
	}{{"1.0", "gcham_venv_bbb", true}, {"2.0", "gcham_venv_aaa", true}, {"3.0", "gcham_venv_aaa", false}} {
		env, err := cache.Provision(ctx, versioned.EnvSpec{Packages: []adapt.Package{{Name: "minilib", Version: c.version}}})
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(venvs, c.venv, "bin", "python"); env.Manifest.Python != want || env.Manifest.Faithful != c.faithful {
			t.Errorf("minilib %s: python %s faithful %v (%v), want %s faithful %v", c.version, env.Manifest.Python, env.Manifest.Faithful, env.Manifest.Mismatches, want, c.faithful)
		}
	}
	sb := exectest.Sandbox(t)
	rep, err := adapt.Evaluate(ctx, []adapt.Task{minilibTask("m1", "1.0", v1Solution), minilibTask("m2", "2.0", v2Solution)}, adapt.Reference,
		&adapt.Options{Runner: sb, Environments: &versioned.Provider{Provisioner: cache, Strict: true}})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := rep.Score(1); s != 1 || rep.Valid != 2 {
		t.Fatalf("references in prebuilt venvs: pass@1 %v, invalid %+v", s, rep.Invalid)
	}
}
