package transform

import (
	"bytes"
	"context"
	"flag"
	"math/rand/v2"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/exec/exectest"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// python is Debian's interpreter, which has numpy, scipy, cryptography
// and dateutil (the python3 on PATH may be a shim without them).
const python = "/usr/bin/python3"

// fixture is one testdata/<ID> directory: input.py, the program; check.py,
// a driver that imports it as prog and prints results, whose header lines
// "# sites: 0 2" (site indices applied one after the other, default 0) and
// "# protect: f g" (Program.Protected) steer the test; want.py, the golden
// output, and want.<module>.py for each generated module.
type fixture struct {
	dir     string
	input   []byte
	check   []byte
	sites   []int
	protect []string
}

func loadFixture(t *testing.T, id string) fixture {
	t.Helper()
	dir := filepath.Join("testdata", id)
	in, err := os.ReadFile(filepath.Join(dir, "input.py"))
	if err != nil {
		t.Fatal(err)
	}
	check, err := os.ReadFile(filepath.Join(dir, "check.py"))
	if err != nil {
		t.Fatal(err)
	}
	fx := fixture{dir: dir, input: in, check: check}
	for i, line := range strings.Split(string(check), "\n") {
		if v, ok := strings.CutPrefix(line, "# sites:"); ok {
			for _, f := range strings.Fields(v) {
				n, err := strconv.Atoi(f)
				if err != nil {
					t.Fatalf("%s/check.py:%d: site index %q is not a number", dir, i+1, f)
				}
				fx.sites = append(fx.sites, n)
			}
		}
		if v, ok := strings.CutPrefix(line, "# protect:"); ok {
			fx.protect = strings.Fields(v)
		}
	}
	if len(fx.sites) == 0 {
		fx.sites = []int{0}
	}
	return fx
}

// transform applies t at the fixture's sites with the golden seed.
func (fx fixture) transform(t *testing.T, tr *Transform) *Program {
	t.Helper()
	p := &Program{Main: fx.input, Protected: fx.protect}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, i := range fx.sites {
		sites := tr.Sites(p)
		if i >= len(sites) {
			t.Fatalf("%s: site %d of %d", fx.dir, i, len(sites))
		}
		before := p.Clone()
		q, err := tr.Apply(p, sites[i], rng)
		if err != nil {
			t.Fatalf("%s: apply at %+v: %v", fx.dir, sites[i], err)
		}
		if p.Hash() != before.Hash() {
			t.Fatalf("%s: Apply modified its input", fx.dir)
		}
		if err := Check(q); err != nil {
			t.Fatalf("%s: %v\n%s", fx.dir, err, q.Main)
		}
		p = q
	}
	return p
}

// golden compares got with the file, or rewrites it under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	assert.Equal(t, string(want), string(got), "%s mismatch", path)
}

// run runs check.py against p in a temporary directory with Debian's
// python and returns its stdout; it fails the test on a non-zero exit or
// output on stderr.
func run(t *testing.T, fx fixture, p *Program) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("prog.py", p.Main)
	for name, src := range p.Modules {
		write(name, src)
	}
	write("check.py", fx.check)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := osexec.CommandContext(ctx, python, "check.py")
	cmd.Dir = dir
	cmd.Env = []string{"PYTHONHASHSEED=0", "PYTHONDONTWRITEBYTECODE=1", "PATH=/usr/bin:/bin", "HOME=" + dir}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("%s: python check.py: %v\nstderr:\n%s\nprogram:\n%s", fx.dir, err, stderr.String(), p.Main)
	}
	return stdout.String()
}

// hasModule reports whether Debian's python can import module.
func hasModule(module string) bool {
	return osexec.Command(python, "-c", "import "+module).Run() == nil
}

// needs lists the Python packages an operator's output imports.
var needs = map[string]string{"S9": "numpy", "A2": "cryptography", "A4": "dateutil", "A6": "scipy", "A7": "sklearn"}

func TestGolden(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		exectest.SkipWithout(t, "%s is not installed", python)
	}
	for _, tr := range append(All[:len(All):len(All)], Bugs...) {
		t.Run(tr.ID+"_"+tr.Name, func(t *testing.T) {
			t.Parallel()
			fx := loadFixture(t, tr.ID)
			got := fx.transform(t, tr)
			golden(t, filepath.Join(fx.dir, "want.py"), got.Main)
			for _, name := range sortedKeys(got.Modules) {
				golden(t, filepath.Join(fx.dir, "want."+name), got.Modules[name])
			}
			if m := needs[tr.ID]; m != "" && !hasModule(m) {
				t.Skipf("golden output matches; not executed: %s cannot import %s (Debian package python3-%s)", python, m, m)
			}
			before, after := run(t, fx, &Program{Main: fx.input}), run(t, fx, got)
			if strings.Count(before, "\n") < 3 {
				t.Fatalf("check.py prints %d lines; a fixture needs at least 3 inputs", strings.Count(before, "\n"))
			}
			if tr.Family == Bug {
				if before == after {
					t.Errorf("the bug changed nothing the check sees; both print:\n%s", before)
				}
				return
			}
			assert.Equal(t, before, after, "the transformed program behaves differently (-original +transformed)")
		})
	}
}
