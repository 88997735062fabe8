package maven

import (
	"context"
	"maps"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/internal/buildsys"
)

// TestMavenBatchSameAsJavacEach compiles mutants of testdata/maven in one
// batch and each with a javac of its own (Config.CompileEach's path),
// and wants the same outcome from both: byte-identical class files for
// those that compile (an inner class too), and the same messages for
// those that do not (an unknown name, a type error, a syntax error, an
// error in a second place). A mutant the batch did not decide on is
// compiled alone, which the last case checks.
func TestMavenBatchSameAsJavacEach(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles each mutant alone too")
	}
	sb := exectest.Sandbox(t)
	m, file, edit := openShop(t, sb, nil)
	ctx := context.Background()
	mutants := map[string][]byte{
		"constant":    edit("int weight = 3;", "int weight = 2;"),
		"inner class": edit("private Codes() {}", "private Codes() {}\n    static final class Helper { int x = 1; }"),
		"warning":     edit("private Codes() {}", "private Codes() {}\n    @SuppressWarnings(\"rawtypes\") static java.util.List raw() { return new java.util.ArrayList(); }\n    static void note() { raw().add(1); }"),
		"unknown":     edit("sum += (c - '0') * weight;", "total += (c - '0') * weight;"),
		"type":        edit("return (10 - sum % 10) % 10;", "return \"ten\";"),
		"syntax":      edit("int sum = 0;", "int sum = 0"),
		"two errors":  edit("int weight = 3;", "int weight = \"3\";", "return (10 - sum % 10) % 10;", "return codes;"),
	}
	var cands []*mutate.Candidate
	for _, name := range slices.Sorted(maps.Keys(mutants)) {
		cands = append(cands, &mutate.Candidate{File: file, Src: mutants[name]})
	}
	_, release, err := m.Prepare(ctx, cands)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	compiled, failed := 0, 0
	for _, name := range slices.Sorted(maps.Keys(mutants)) {
		src := mutants[name]
		pre := m.prepared.Get(file, src)
		if pre == nil {
			t.Errorf("%s: the batch did not decide on it", name)
			continue
		}
		out := filepath.Join(buildsys.RunDir, "alone-"+strings.ReplaceAll(name, " ", "-"))
		if err := os.MkdirAll(filepath.Join(m.dir, out), 0o777); err != nil {
			t.Fatal(err)
		}
		res, err := m.compileAlone(file, src).Build(ctx, sb, exec.JavaBuildSpec{Dir: m.dir, Out: out, Limits: m.cfg.Limits})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Compile != nil {
			failed++
			if pre.compile != res.Compile.Output {
				t.Errorf("%s: batch messages\n%s\nwant (a javac of its own)\n%s", name, pre.compile, res.Compile.Output)
			}
			if !strings.Contains(pre.compile, file+":") || strings.Contains(pre.compile, batchDir) {
				t.Errorf("%s: messages should name %s, not the batch's copy:\n%s", name, file, pre.compile)
			}
			continue
		}
		compiled++
		alone, err := readClasses(m.dir, out+"/classes")
		if err != nil {
			t.Fatal(err)
		}
		if pre.compile != "" {
			t.Errorf("%s: compiles alone, the batch says\n%s", name, pre.compile)
		} else {
			assert.Equal(t, alone, pre.classes, "%s: class files differ (alone, batch)", name)
		}
		if name == "inner class" && len(pre.classes) != 2 {
			t.Errorf("inner class: %d class files, want Codes and Codes$Helper", len(pre.classes))
		}
	}
	if compiled != 3 || failed != 4 {
		t.Errorf("%d compiled and %d failed, want 3 and 4", compiled, failed)
	}

	// A mutant prepare did not reach (its batch was released) is compiled
	// alone by Check.
	release()
	run, err := m.Check(ctx, file, mutants["unknown"], nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(run.Compile, "cannot find symbol") || run.BuildTime == 0 {
		t.Errorf("after release: compile %q, build time %v; want javac's own run", run.Compile, run.BuildTime)
	}
}

// openShop opens testdata/maven (skipping the test where Maven is
// missing) and returns it with its file Codes.java and an edit that makes
// a mutant of that file: each pair's first string replaced once by its
// second.
func openShop(t *testing.T, r exec.Runner, cfg *Config) (*Project, string, func(pairs ...string) []byte) {
	t.Helper()
	if _, err := osexec.LookPath("mvn"); err != nil {
		exectest.SkipWithout(t, "mvn not installed (Debian package maven)")
	}
	m, err := Open(context.Background(), "testdata/maven", r, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	const file = "src/main/java/com/example/shop/Codes.java"
	orig, err := m.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return m, file, func(pairs ...string) []byte {
		s := string(orig)
		for i := 0; i < len(pairs); i += 2 {
			if !strings.Contains(s, pairs[i]) {
				t.Fatalf("%s has no %q", file, pairs[i])
			}
			s = strings.Replace(s, pairs[i], pairs[i+1], 1)
		}
		return []byte(s)
	}
}
