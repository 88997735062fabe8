package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/ptytest"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/source/sourcetest"
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
		{"no root package", noRoot, "has no Go package at its root; its packages: sub: choose with GoConfig.Packages", nil},
		{"no such package", noRoot, `has no Go package in "other"; its packages: sub`, []string{"-packages", "other"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-dir", tc.dir, "-out", filepath.Join(t.TempDir(), "t.jsonl")}, tc.args...)
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
	repo := sourcetest.Init(t, true)
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
			err := run(context.Background(), append(tc.args, "-out", filepath.Join(t.TempDir(), "t.jsonl")), io.Discard)
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
	bars, stdout := ptytest.RunProgram(t, ".", "-dir", dir, "-levels", "1", "-out", filepath.Join(t.TempDir(), "tasks.jsonl"), "-evaluate")
	if len(bars) != 2 || !strings.HasPrefix(bars[0], "mutate ") || !strings.HasPrefix(bars[1], "reference ") {
		t.Errorf("bars %q, want mutate's then the reference's", bars)
	}
	if !strings.Contains(stdout, "validated") {
		t.Errorf("stdout:\n%s", stdout)
	}
}
