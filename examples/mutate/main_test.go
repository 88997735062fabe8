package main

import (
	"context"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/testenv"
	"github.com/adaptbench/adaptbench/mutate"
)

func TestMain(m *testing.M) { exectest.Main(m) }

// TestRunErrors checks that the command reports the real error of a
// project it cannot open or build, and leaves no adaptbench-* directory
// in os.TempDir() (TMPDIR is a fresh directory here).
func TestRunErrors(t *testing.T) {
	exectest.Sandbox(t) // skips where the sandbox cannot run
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	noMod := t.TempDir()
	os.WriteFile(filepath.Join(noMod, "a.go"), []byte("package a\n"), 0o644)
	broken := t.TempDir()
	os.WriteFile(filepath.Join(broken, "go.mod"), []byte("module example.com/a\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(broken, "a.go"), []byte("package a\n\nfunc F() int { return x }\n"), 0o644)
	os.WriteFile(filepath.Join(broken, "a_test.go"), []byte("package a\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n"), 0o644)
	noRoot := t.TempDir()
	os.WriteFile(filepath.Join(noRoot, "go.mod"), []byte("module example.com/a\n\ngo 1.22\n"), 0o644)
	os.Mkdir(filepath.Join(noRoot, "sub"), 0o755)
	os.WriteFile(filepath.Join(noRoot, "sub", "a.go"), []byte("package sub\n"), 0o644)
	for _, tc := range []struct {
		name, dir, want string
		args            []string
	}{
		{"no go.mod", noMod, "go.mod: no such file", nil},
		{"does not build", broken, "undefined: x", nil},
		{"no root package", noRoot, "has no Go package at its root; its packages: sub: choose with -packages", nil},
		{"no such package", noRoot, `has no Go package in "other"; its packages: sub`, []string{"-packages", "other"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-dir", tc.dir, "-out", t.TempDir()}, tc.args...)
			err := run(context.Background(), args, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
			ents, _ := os.ReadDir(tmp)
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), "adaptbench-") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

// TestWriteFunnel: the command prints the compact funnel and writes every
// operator combination to the CSV file.
func TestWriteFunnel(t *testing.T) {
	res := &mutate.Result{}
	res.Funnel.Declare(mutate.StageSite, mutate.StageDetected)
	for _, g := range []string{"renamevar", "modifylogic+renamevar", "updateconst", "renamevar+updateconst", "a+b+c"} {
		res.Funnel.Add(g, mutate.StageSite, 2)
		res.Funnel.Add(g, mutate.StageDetected, 1)
	}
	csvPath := filepath.Join(t.TempDir(), "funnel.csv")
	var out strings.Builder
	if err := writeFunnel(&out, res, csvPath); err != nil {
		t.Fatal(err)
	}
	want := `| group | site | detected |
|---|---:|---:|
| L1 renamevar | 2 | 1 |
| L1 updateconst | 2 | 1 |
| L2 | 4 | 2 |
| L3 | 2 | 1 |
| total | 10 | 5 |
(5 operator combinations in full in ` + csvPath + `)
`
	if out.String() != want {
		t.Errorf("printed\n%s\nwant\n%s", out.String(), want)
	}
	b, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := "group,site,detected\nrenamevar,2,1\nmodifylogic+renamevar,2,1\nupdateconst,2,1\nrenamevar+updateconst,2,1\na+b+c,2,1\n"; string(b) != want {
		t.Errorf("CSV\n%s\nwant\n%s", b, want)
	}
}

// TestRunRepoErrors checks -repo: a revision the repository lacks, or a
// directory that is not a repository, is an error naming it, and nothing
// is left in the temporary directory.
func TestRunRepoErrors(t *testing.T) {
	exectest.Sandbox(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	repo := testenv.InitRepo(t, true)
	repo.Commit(fstest.MapFS{"go.mod": {Data: []byte("module example.com/a\n\ngo 1.22\n")}}, "first")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing revision", []string{"-repo", repo.Dir, "-rev", "v9"}, "v9"},
		{"not a repository", []string{"-repo", t.TempDir(), "-rev", "main"}, "not a git repository"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := run(context.Background(), append(tc.args, "-out", t.TempDir()), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
			ents, _ := os.ReadDir(tmp)
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), "adaptbench-") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

// TestProgressOnATerminal runs the example on a small Go module, standard
// error on a terminal: the generation's bar, then the evaluation's, each
// ending at 100%.
func TestProgressOnATerminal(t *testing.T) {
	exectest.Sandbox(t)
	dir := clampModule(t)
	out := t.TempDir()
	bars, stdout := testenv.RunProgram(t, ".", "-dir", dir, "-levels", "1", "-out", out, "-evaluate", "-gates=warn")
	if len(bars) != 2 || !strings.HasPrefix(bars[0], "mutate ") || !strings.HasPrefix(bars[1], "reference ") {
		t.Errorf("bars %q, want mutate's then the reference's", bars)
	}
	if !strings.Contains(stdout, "checked") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

// clampModule is a small Go module with a test that catches mutants.
func clampModule(t *testing.T) string {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":   "module example.com/clamp\n\ngo 1.22\n",
		"clamp.go": "package clamp\n\n// Clamp returns x limited to [lo, hi].\nfunc Clamp(x, lo, hi int) int {\n\tif x < lo {\n\t\treturn lo\n\t}\n\tif x > hi {\n\t\treturn hi\n\t}\n\treturn x\n}\n",
		"clamp_test.go": "package clamp\n\nimport \"testing\"\n\nfunc TestClamp(t *testing.T) {\n\tfor _, c := range [][4]int{{5, 0, 10, 5}, {-1, 0, 10, 0}, {11, 0, 10, 10}, {0, 0, 10, 0}, {10, 0, 10, 10}} {\n" +
			"\t\tif got := Clamp(c[0], c[1], c[2]); got != c[3] {\n\t\t\tt.Errorf(\"Clamp(%d, %d, %d) = %d\", c[0], c[1], c[2], got)\n\t\t}\n\t}\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSIGTERMCleansUp runs the command on a module whose tests take a
// while, sends it SIGTERM once its working directories exist, and checks
// that it exits leaving no adaptbench-* directory in TMPDIR and no
// cached test binaries (adaptbench/gobin-*) in the user's cache.
func TestSIGTERMCleansUp(t *testing.T) {
	exectest.Sandbox(t) // skips where the sandbox cannot run
	bin := filepath.Join(t.TempDir(), "mutate")
	if out, err := osexec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mod := t.TempDir()
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/slow\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(mod, "slow.go"), []byte("package slow\n\n// F adds.\nfunc F(a, b int) int {\n\ts := a + b\n\tif s > 10 {\n\t\treturn 10\n\t}\n\treturn s\n}\n"), 0o644)
	os.WriteFile(filepath.Join(mod, "slow_test.go"), []byte("package slow\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestF(t *testing.T) {\n\ttime.Sleep(2 * time.Second)\n\tif F(1, 2) != 3 || F(9, 9) != 10 {\n\t\tt.Fatal(\"F\")\n\t}\n}\n"), 0o644)
	tmp, cache := t.TempDir(), t.TempDir()
	cmd := osexec.Command(bin, "-dir", mod, "-out", t.TempDir(), "-funnel=false")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "XDG_CACHE_HOME="+cache)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	started := func() bool {
		gomod, _ := filepath.Glob(filepath.Join(tmp, "adaptbench-gomod-*"))
		gobin, _ := filepath.Glob(filepath.Join(cache, "adaptbench", "gobin-*"))
		return len(gomod) > 0 && len(gobin) > 0
	}
	deadline := time.Now().Add(2 * time.Minute)
	for !started() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if !started() {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the command made no working directory in time:\n%s", stderr.String())
	}
	time.Sleep(500 * time.Millisecond) // into the baseline's test runs
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("the command finished before SIGTERM: the test shows nothing")
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatalf("the command did not exit within a minute of SIGTERM:\n%s", stderr.String())
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "adaptbench-*"))
	gobin, _ := filepath.Glob(filepath.Join(cache, "adaptbench", "gobin-*"))
	if len(left)+len(gobin) > 0 {
		t.Errorf("left behind after SIGTERM: %v %v\n%s", left, gobin, stderr.String())
	}
}

// TestWriteMutants: the mutant CSV has a row per candidate, with the
// effective level and what caught a valid one (its tasks' detected_by
// label: a timed-out mutant's is timeout) and the tests that did.
func TestWriteMutants(t *testing.T) {
	frag := &mutate.Fragment{Line: 3, EndLine: 7}
	part := &mutate.Candidate{Level: mutate.L1, Reason: mutate.ReasonNoFailure, Src: []byte("x")}
	res := &mutate.Result{Candidates: []*mutate.Candidate{
		{File: "a.go", Frag: frag, Level: mutate.L1, Ops: []string{"modifylogic"}, Seed: 7, Src: []byte("x"), Failing: []string{"TestA", "TestB"}},
		{File: "a.go", Frag: frag, Level: mutate.L1, Ops: []string{"updateconst"}, Seed: 8, Src: []byte("x"), Reason: mutate.ReasonNoFailure},
		{File: "a.go", Frag: frag, Level: mutate.L2, Ops: []string{"modifylogic", "updateconst"}, Seed: 9, Src: []byte("x"), Failing: []string{"TestA"},
			Parts: []*mutate.Candidate{{Level: mutate.L1, Src: []byte("x"), Failing: []string{"TestA"}}, part}},
		{File: "a.go", Frag: frag, Level: mutate.L1, Ops: []string{"changeflow"}, Seed: 10, Src: []byte("x"), Failing: []string{"TestA"}, TimedOut: true},
		{File: "a.go", Frag: frag, Level: mutate.L1, Ops: []string{"renamevar"}, Seed: 11, Src: []byte("x"), Unresolved: true},
	}}
	path := filepath.Join(t.TempDir(), "m.csv")
	if err := writeMutants(res, path); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := `file,line,end_line,level,operators,seed,verdict,effective,detected_by,failing
a.go,3,7,L1,modifylogic,7,valid,L1,test,TestA TestB
a.go,3,7,L1,updateconst,8,no_test_failure,,,
a.go,3,7,L2,modifylogic+updateconst,9,valid,L1,test,TestA
a.go,3,7,L1,changeflow,10,valid,L1,timeout,TestA
a.go,3,7,L1,renamevar,11,valid,L1,compile,
`
	if string(got) != want {
		t.Errorf("mutant CSV:\n%s\nwant\n%s", got, want)
	}
}

// TestGatesExitStatus runs the command on a module whose one test leaves
// most mutants uncaught, so that the caught-by-tests gate fails: by
// default it exits non-zero writing no tasks, its last line saying which
// gate failed; with -gates=warn it writes them, exits 0 and says so in
// its last line. -require-effective keeps no L2 mutant below L2.
func TestGatesExitStatus(t *testing.T) {
	exectest.Sandbox(t)
	bin := filepath.Join(t.TempDir(), "mutate")
	out, err := osexec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	mod := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":        "module example.com/clamp\n\ngo 1.22\n",
		"clamp.go":      "package clamp\n\n// Clamp returns x limited to [lo, hi].\nfunc Clamp(x, lo, hi int) int {\n\tif x < lo {\n\t\treturn lo\n\t}\n\tif x > hi {\n\t\treturn hi\n\t}\n\treturn x\n}\n",
		"clamp_test.go": "package clamp\n\nimport \"testing\"\n\nfunc TestClamp(t *testing.T) {\n\tif Clamp(5, 0, 10) != 5 {\n\t\tt.Fatal(\"Clamp\")\n\t}\n}\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(mod, name), []byte(src), 0o644))
	}
	lastLine := func(s string) string {
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		return lines[len(lines)-1]
	}
	outDir := t.TempDir()
	tasks := filepath.Join(outDir, "tasks.jsonl")
	mutants := filepath.Join(outDir, "mutants.csv")
	cmd := osexec.Command(bin, "-dir", mod, "-levels", "2", "-out", outDir, "-funnel=false")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *osexec.ExitError
	require.ErrorAs(t, err, &ee, "gates failed, yet the command exited 0:\n%s", stdout.String())
	assert.Equal(t, 1, ee.ExitCode())
	assert.Regexp(t, `pilot gates failed: .*caught by tests 0\.0% < 60%`, lastLine(stderr.String()))
	assert.NoFileExists(t, tasks, "a run whose gates failed wrote its tasks")

	cmd = osexec.Command(bin, "-dir", mod, "-levels", "2", "-out", outDir, "-funnel=false", "-gates=warn", "-require-effective")
	stdout.Reset()
	stderr.Reset()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "-gates=warn:\n%s\n%s", stdout.String(), stderr.String())
	assert.Regexp(t, `pilot gates failed: .*caught by tests 0\.0% < 60%`, lastLine(stdout.String()))
	assert.FileExists(t, tasks)
	b, err := os.ReadFile(mutants)
	require.NoError(t, err)
	below := 0
	for _, row := range strings.Split(string(b), "\n") {
		f := strings.Split(row, ",")
		if len(f) > 7 && f[3] == "L2" {
			assert.False(t, f[6] == "valid" && f[7] != "L2", "-require-effective kept an L2 mutant of effective level %s: %s", f[7], row)
			if f[6] == "effective_level_below" {
				below++
			}
		}
	}
	assert.Positive(t, below, "no L2 mutant was discarded for its effective level:\n%s", b)
}
