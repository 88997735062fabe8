package transform

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

func TestMain(m *testing.M) {
	exectest.Main(m, func() {
		if forks != nil {
			forks.Close()
		}
	})
}

var (
	forksOnce sync.Once
	forks     *sandbox.ForkServer
)

// forkServer returns a fork server over the shared sandbox that has the
// modules the operators import loaded.
func forkServer(t *testing.T) *sandbox.ForkServer {
	t.Helper()
	sb := exectest.Sandbox(t)
	forksOnce.Do(func() {
		pre := append(slices.Clone(sandbox.DefaultPreload), "base64", "http.client", "queue", "threading", "numpy")
		for _, m := range []string{"scipy.stats", "dateutil.parser", "cryptography.fernet", "sklearn.utils"} {
			if hasModule(m) {
				pre = append(pre, m)
			}
		}
		var err error
		if forks, err = sandbox.NewForkServer(sb, &sandbox.ForkServerConfig{Preload: pre}); err != nil {
			t.Fatal(err)
		}
	})
	return forks
}

// heRun runs a HumanEval program's test (check(entry_point)) in the
// sandbox and reports whether it passed, with the verdict's detail.
func heRun(ctx context.Context, r exec.Runner, h heProblem, p *Program) (bool, string, error) {
	dir, err := os.MkdirTemp("", "transform-he-")
	if err != nil {
		return false, "", err
	}
	defer os.RemoveAll(dir)
	files := map[string][]byte{"prog.py": p.Main,
		"run.py": []byte("from prog import *\n" + h.Test + "\ncheck(" + h.EntryPoint + ")\n")}
	for name, src := range p.Modules {
		files[name] = src
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			return false, "", err
		}
	}
	res, err := r.Run(ctx, exec.Job{Dir: dir, Args: []string{"python3", "run.py"}, Env: []string{"PYTHONHASHSEED=0"},
		Limits: exec.Limits{CPUTime: 10 * time.Second, WallTime: 40 * time.Second, Memory: exec.GiB, Processes: 64}})
	if err != nil {
		return false, "", err
	}
	detail := res.Status.String() + " " + res.Detail
	if lines := strings.Split(strings.TrimSpace(string(res.Stderr)), "\n"); len(lines) > 0 {
		detail += ": " + lines[len(lines)-1]
	}
	return res.Passed(), detail, nil
}

// preserveSample is how many HumanEval programs per operator the
// execution test runs.
const preserveSample = 15

// TestHumanEvalPreserves runs HumanEval's tests on transformed canonical
// solutions in the sandbox: for each preserving operator, the first
// seeded variant of the first preserveSample programs it applies to. The
// table it logs is the share that still passes; the test fails for the
// operators whose doc promises preservation outright on such programs.
func TestHumanEvalPreserves(t *testing.T) {
	if testing.Short() {
		t.Skip("runs about a thousand sandboxed test runs")
	}
	hs := loadHumanEval(t)
	fs := forkServer(t)
	byTask := map[string]heProblem{}
	for _, h := range hs {
		byTask[h.TaskID] = h
	}
	vs, _, _, _ := heVariants(t, hs, All)
	// The first variant per (operator, task), preserveSample per operator.
	var sample []variant
	seen, per := map[string]bool{}, map[string]int{}
	for _, v := range vs {
		if k := v.op + v.task; !seen[k] && per[v.op] < preserveSample {
			seen[k] = true
			per[v.op]++
			sample = append(sample, v)
		}
	}
	ctx := context.Background()
	type outcome struct {
		pass   bool
		detail string
		err    error
	}
	orig := make([]outcome, len(hs))
	got := make([]outcome, len(sample))
	var g errgroup.Group
	g.SetLimit(2)
	for i, h := range hs {
		g.Go(func() error {
			ok, d, err := heRun(ctx, fs, h, h.program())
			orig[i] = outcome{ok, d, err}
			return nil
		})
	}
	// A8's sleeps take wall time, not CPU: run them wider.
	var sleepy errgroup.Group
	sleepy.SetLimit(8)
	for i, v := range sample {
		grp := &g
		if v.op == "A8" {
			grp = &sleepy
		}
		grp.Go(func() error {
			ok, d, err := heRun(ctx, fs, byTask[v.task], v.prog)
			got[i] = outcome{ok, d, err}
			return nil
		})
	}
	g.Wait()
	sleepy.Wait()
	origPass := map[string]bool{}
	for i, h := range hs {
		if orig[i].err != nil {
			t.Fatalf("%s: %v", h.TaskID, orig[i].err)
		}
		if !orig[i].pass {
			t.Errorf("%s: the canonical solution fails: %s", h.TaskID, orig[i].detail)
		}
		origPass[h.TaskID] = orig[i].pass
	}
	ran, passed := map[string]int{}, map[string]int{}
	missing := map[string]bool{}
	for _, id := range sortedKeys(needs) {
		if m := needs[id]; !missing[m] && !hasModule(m) {
			missing[m] = true
			t.Logf("%s cannot import %s: the operators that need it are not counted", python, m)
		}
	}
	for i, v := range sample {
		if missing[needs[v.op]] {
			continue
		}
		if got[i].err != nil {
			t.Fatalf("%s %s: %v", v.op, v.task, got[i].err)
		}
		if !origPass[v.task] {
			continue
		}
		ran[v.op]++
		if got[i].pass {
			passed[v.op]++
			continue
		}
		t.Logf("%s %s fails: %s", v.op, v.task, got[i].detail)
		if !slices.Contains(conditionalOnHumanEval, v.op) {
			t.Errorf("%s %s: the transformed program fails its tests: %s\n%s", v.op, v.task, got[i].detail, v.prog.Main)
		}
	}
	var b strings.Builder
	for _, tr := range All {
		fmt.Fprintf(&b, "%-4s %-26s %3d/%-3d %s\n", tr.ID, tr.Name, passed[tr.ID], ran[tr.ID], share(passed[tr.ID], ran[tr.ID]))
	}
	t.Logf("HumanEval tests passing after one transformation (first seeded site, up to %d programs per operator):\n%s", preserveSample, b.String())
}

// conditionalOnHumanEval lists the operators whose documented conditions
// HumanEval's tests can hit: S11's recursion limit and S9's numpy
// semantics.
var conditionalOnHumanEval = []string{"S9", "S11"}
