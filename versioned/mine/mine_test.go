package mine_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	modzip "golang.org/x/mod/zip"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/versioned"
	"github.com/adaptbench/adaptbench/versioned/mine"
)

const libPath = "example.test/lib"

// libReleases is a synthetic module's history:
//
//	v1.0.0  Old, Sum(a, b), Legacy, Twice, with examples
//	v1.1.0  adds Double (ExampleDouble and TestDouble use it) and Unused
//	        (no example uses it); adds Reset, Log and Must, whose weak
//	        tests and example a trivial answer passes (TestReset: zero
//	        values, ExampleLog: printing the output, TestMust: a panic)
//	v1.2.0  removes Old for New (Example_greeting moves to New)
//	v1.3.0  changes Sum to Sum(a, b, c) (ExampleSum follows); deprecates
//	        Legacy for Modern, new here (Example_legacy moves to it), and
//	        Twice for Double, which v1.1.0 already had (Example_twice
//	        moves to it: not version-conditioned); adds package sub
//	        (ExampleHello)
var libReleases = []struct {
	version, time string
	files         map[string]string
}{
	{"v1.0.0", "2024-01-10T00:00:00Z", map[string]string{
		"lib.go":          libCommon + libOld + libSum2 + libLegacy + libTwice,
		"example_test.go": exHead + exGreetingOld + exSum2 + exLegacyOld + exTwiceOld,
	}},
	{"v1.1.0", "2024-02-10T00:00:00Z", map[string]string{
		"lib.go":          libCommon + libOld + libSum2 + libLegacy + libTwice + libDouble + libUnused,
		"example_test.go": exHead + exGreetingOld + exSum2 + exLegacyOld + exTwiceOld + exDouble,
		"lib_test.go":     testDouble,
		"weak.go":         libWeak,
		"weak_test.go":    testWeak,
	}},
	{"v1.2.0", "2024-03-10T00:00:00Z", map[string]string{
		"lib.go":          libCommon + libNew + libSum2 + libLegacy + libTwice + libDouble + libUnused,
		"example_test.go": exHead + exGreetingNew + exSum2 + exLegacyOld + exTwiceOld + exDouble,
		"lib_test.go":     testDouble,
		"weak.go":         libWeak,
		"weak_test.go":    testWeak,
	}},
	{"v1.3.0", "2024-04-10T00:00:00Z", map[string]string{
		"lib.go":          libCommon + libNew + libSum3 + libLegacyDeprecated + libModern + libTwiceDeprecated + libDouble + libUnused,
		"example_test.go": exHead + exGreetingNew + exSum3 + exLegacyNew + exTwiceNew + exDouble,
		"lib_test.go":     testDouble,
		"weak.go":         libWeak,
		"weak_test.go":    testWeak,
		// A package new at this release.
		"sub/sub.go":          "// Package sub is new in v1.3.0.\npackage sub\n\n// Hello greets.\nfunc Hello() string { return \"hi\" }\n",
		"sub/example_test.go": "package sub_test\n\nimport (\n\t\"fmt\"\n\n\t\"example.test/lib/sub\"\n)\n\nfunc ExampleHello() {\n\tfmt.Println(sub.Hello())\n\t// Output: hi\n}\n",
	}},
}

const (
	libCommon = "// Package lib is a library whose API changes.\npackage lib\n\nimport \"strings\"\n\nvar _ = strings.ToUpper\n"
	libOld    = "\n// Old greets.\nfunc Old() string { return \"hello\" }\n"
	libNew    = "\n// New greets.\nfunc New() string { return \"hello\" }\n"
	libSum2   = "\n// Sum adds.\nfunc Sum(a, b int) int { return a + b }\n"
	libSum3   = "\n// Sum adds.\nfunc Sum(a, b, c int) int { return a + b + c }\n"
	libLegacy = "\n// Legacy shouts.\nfunc Legacy(s string) string { return strings.ToUpper(s) }\n"
	// The note names the replacement.
	libLegacyDeprecated = "\n// Legacy shouts.\n//\n// Deprecated: Use Modern instead.\nfunc Legacy(s string) string { return strings.ToUpper(s) }\n"
	libModern           = "\n// Modern shouts.\nfunc Modern(s string) string { return strings.ToUpper(s) + \"!\" }\n"
	libTwice            = "\n// Twice doubles.\nfunc Twice(x int) int { return 2 * x }\n"
	libTwiceDeprecated  = "\n// Twice doubles.\n//\n// Deprecated: Use Double.\nfunc Twice(x int) int { return 2 * x }\n"
	libDouble           = "\n// Double doubles.\nfunc Double(x int) int { return 2 * x }\n\nfunc one() int { return 1 }\n"
	libUnused           = "\n// Unused is new, and no example uses it.\nfunc Unused() int { return 7 }\n"

	exHead = "package lib_test\n\nimport (\n\t\"fmt\"\n\n\t\"example.test/lib\"\n)\n"
	// An example printing the value only ("hi") is passed by printing its
	// output (ExampleHello is dropped); these are not.
	exGreetingOld = "\nfunc Example_greeting() {\n\tfmt.Println(\"greeting:\", lib.Old())\n\t// Output: greeting: hello\n}\n"
	exGreetingNew = "\nfunc Example_greeting() {\n\tfmt.Println(\"greeting:\", lib.New())\n\t// Output: greeting: hello\n}\n"
	exSum2        = "\nfunc ExampleSum() {\n\tfmt.Println(lib.Sum(1, 2))\n\t// Output: 3\n}\n"
	exSum3        = "\nfunc ExampleSum() {\n\tfmt.Println(lib.Sum(1, 2, 0))\n\t// Output: 3\n}\n"
	exLegacyOld   = "\nfunc Example_legacy() {\n\tfmt.Println(\"shout:\", lib.Legacy(\"hi\"))\n\t// Output: shout: HI\n}\n"
	exLegacyNew   = "\nfunc Example_legacy() {\n\tfmt.Println(\"shout:\", lib.Modern(\"hi\"))\n\t// Output: shout: HI!\n}\n"
	exTwiceOld    = "\nfunc Example_twice() {\n\tfmt.Println(lib.Twice(4))\n\t// Output: 8\n}\n"
	exTwiceNew    = "\nfunc Example_twice() {\n\tfmt.Println(lib.Double(4))\n\t// Output: 8\n}\n"
	exDouble      = "\n// ExampleDouble doubles two.\nfunc ExampleDouble() {\n\tfmt.Println(lib.Double(2))\n\t// Output:\n\t// 4\n}\n"
	// libWeak's API is exercised by checks a trivial answer passes.
	libWeak = `package lib

import "fmt"

// Reset does nothing worth checking.
func Reset() {}

// Log prints s.
func Log(s string) { fmt.Print(s) }

// Must returns x, and panics when it is negative.
func Must(x int) int {
	if x < 0 {
		panic("negative")
	}
	return x
}
`
	testWeak = `package lib_test

import (
	"fmt"
	"testing"

	"example.test/lib"
)

// TestReset checks nothing: a body that does nothing passes.
func TestReset(t *testing.T) { lib.Reset() }

// ExampleLog prints through the library: a body printing the output
// passes.
func ExampleLog() {
	lib.Log("logged")
	// Output: logged
}

// TestMust wants a panic: a body that panics passes.
func TestMust(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	lib.Must(-1)
}

var _ = fmt.Sprint
`
	// An in-package test: moved out, Double becomes lib.Double. helper
	// makes TestHelper not self-contained.
	testDouble = `package lib

import "testing"

func TestDouble(t *testing.T) {
	cases := []struct{ in, want int }{{1, 2}, {3, 6}}
	for _, c := range cases {
		if got := Double(c.in); got != c.want {
			t.Errorf("Double(%d) = %d", c.in, got)
		}
	}
}

// helper needs one, which is unexported: TestHelper cannot move.
func helper() int { return Double(one()) }

func TestHelper(t *testing.T) {
	if helper() != Double(1) {
		t.Fatal("helper")
	}
}

// pair and its method move with TestPairs.
type pair struct{ in, want int }

func (p pair) check(t *testing.T) {
	if got := Double(p.in); got != p.want {
		t.Errorf("Double(%d) = %d", p.in, got)
	}
}

func TestPairs(t *testing.T) {
	if Double(0) != 0 {
		t.Fatal("Double(0)")
	}
	for _, p := range []pair{{1, 2}, {5, 10}} {
		p.check(t)
	}
}
`
)

// writeProxy writes the releases as a module proxy serves them
// (MODULE/@v/list, vX.info, vX.mod, vX.zip) and returns the directory
// and the go.sum lines of every release.
func writeProxy(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	vdir := filepath.Join(dir, libPath, "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod := "module " + libPath + "\n\ngo 1.21\n"
	var list, sum []string
	for _, r := range libReleases {
		src := t.TempDir()
		files := map[string]string{"go.mod": gomod}
		for name, content := range r.files {
			files[name] = content
		}
		for name, content := range files {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(src, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var zip bytes.Buffer
		if err := modzip.CreateFromDir(&zip, module.Version{Path: libPath, Version: r.version}, src); err != nil {
			t.Fatal(err)
		}
		base := filepath.Join(vdir, r.version)
		write(t, base+".zip", zip.String())
		write(t, base+".mod", gomod)
		write(t, base+".info", fmt.Sprintf(`{"Version":%q,"Time":%q}`, r.version, r.time))
		h, err := dirhash.HashZip(base+".zip", dirhash.Hash1)
		if err != nil {
			t.Fatal(err)
		}
		hmod, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(gomod)), nil })
		if err != nil {
			t.Fatal(err)
		}
		list = append(list, r.version)
		sum = append(sum, fmt.Sprintf("%s %s %s", libPath, r.version, h), fmt.Sprintf("%s %s/go.mod %s", libPath, r.version, hmod))
	}
	write(t, filepath.Join(vdir, "list"), strings.Join(list, "\n")+"\n")
	return dir, strings.Join(sum, "\n") + "\n"
}

func write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sandboxDir is a directory the sandbox can see (not /tmp), removed at
// the end.
func sandboxDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("/var/tmp", "adaptbench-mine-test-")
	if err != nil {
		t.Skipf("no /var/tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

var compileAt = regexp.MustCompile(`^(\./)?solution_test\.go:[0-9]+:[0-9]+: `)

// wantProblems are the problems the synthetic history gives, each with
// what its reference gives at the previous release.
var wantProblems = map[string]string{
	libPath + "@v1.1.0/lib.ExampleDouble.Double/new-api":  "compile-error: undefined: lib.Double",
	libPath + "@v1.1.0/lib.TestDouble.Double/new-api":     "compile-error: undefined: lib.Double",
	libPath + "@v1.2.0/lib.Example_greeting.New/new-api":  "compile-error: undefined: lib.New",
	libPath + "@v1.2.0/lib.Example_greeting.New/adapt":    "compile-error: undefined: lib.New",
	libPath + "@v1.3.0/lib.ExampleSum.Sum/adapt":          "compile-error: too many arguments in call to lib.Sum",
	libPath + "@v1.3.0/lib.Example_legacy.Modern/adapt":   "compile-error: undefined: lib.Modern",
	libPath + "@v1.3.0/lib.Example_legacy.Modern/new-api": "compile-error: undefined: lib.Modern",
}

// TestSyntheticHistory mines a synthetic module served from a local
// GOPROXY=file:// directory: an addition, a removal, a signature change,
// two deprecations (one whose replacement is older: not
// version-conditioned) and a change no example exercises give exactly
// the expected problems, each failing at its previous release for the
// right reason, and a second run gives the same bytes.
func TestSyntheticHistory(t *testing.T) {
	sb := exectest.Sandbox(t)
	proxy, goSum := writeProxy(t)
	t.Setenv("GONOSUMDB", "example.test")
	t.Setenv("GOFLAGS", "")
	dir := sandboxDir(t)
	opts := &mine.Options{
		Proxy: "file://" + proxy, GoSum: goSum,
		ModCache: filepath.Join(dir, "modcache"), EnvDir: filepath.Join(dir, "envs"),
		Runner: sb,
	}
	// Every stage says it begins (a display then keeps a line coming
	// while it runs): list, fetch, build per release, check.
	var phases []string
	opts.Progress = func(p report.Progress) {
		if len(phases) == 0 || phases[len(phases)-1] != p.Phase {
			phases = append(phases, p.Phase)
		}
	}
	ctx := context.Background()
	res, err := mine.Generate(ctx, libPath, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"list", "fetch", "build", "check"}; !slices.Equal(phases, want) {
		t.Errorf("progress phases %v, want %v", phases, want)
	}
	opts.Progress = nil
	t.Logf("times: %v", res.Time)
	var fun bytes.Buffer
	res.Funnel.WriteTable(&fun)
	t.Logf("funnel:\n%s", fun.String())
	for _, d := range res.Dropped {
		t.Logf("dropped %s: %s", d.TaskID, d.Reason)
	}

	got := map[string]string{}
	for i := range res.Tasks {
		task := &res.Tasks[i]
		o, err := mine.OriginOf(task)
		if err != nil {
			t.Fatal(err)
		}
		// "./solution_test.go:L:C: msg": the compiler, on the solution.
		detail := compileAt.ReplaceAllString(o.PreviousDetail, "")
		if detail == o.PreviousDetail {
			t.Errorf("%s: the error at the previous release is not the compiler's on the solution: %q", task.ID, o.PreviousDetail)
		}
		got[task.ID] = o.PreviousOutcome + ": " + detail
		if err := task.Validate(); err != nil {
			t.Error(err)
		}
	}
	assert.Equal(t, wantProblems, got, "problems")

	checkChanges(t, res)
	checkContents(t, res)
	checker := &adapt.Checker{Runner: sb, Environments: &versioned.Provider{Provisioner: &versioned.Cache{Dir: opts.EnvDir, Builder: &versioned.GoModules{ModCache: opts.ModCache, Proxy: opts.Proxy}}, Strict: true}}
	checkTrivial(t, res, checker)

	// The same bytes on a second run (everything fetched is cached).
	var first, second bytes.Buffer
	if err := adapt.WriteTasks(&first, res.Tasks); err != nil {
		t.Fatal(err)
	}
	res2, err := mine.Generate(ctx, libPath, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := adapt.WriteTasks(&second, res2.Tasks); err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, first.String(), second.String(), "a second run gives other bytes")

	// The reference model passes every problem, the do-nothing one none,
	// through versioned's protocol.
	for _, c := range []struct {
		model adapt.Model
		want  int
	}{{adapt.Reference, len(res.Tasks)}, {adapt.Identity, 0}} {
		r, err := versioned.Evaluate(ctx, res.Tasks, c.model, &versioned.EvalOptions{Protocol: versioned.Greedy, Evaluate: adapt.Options{
			Runner: sb, Environments: &versioned.Provider{Provisioner: &versioned.Cache{Dir: opts.EnvDir, Builder: &versioned.GoModules{ModCache: opts.ModCache, Proxy: opts.Proxy}}, Strict: true},
		}})
		if err != nil {
			t.Fatal(err)
		}
		if h := r.HiddenAll(); h.Passed != c.want || h.N != len(res.Tasks) {
			t.Errorf("%s: hidden %d of %d, want %d of %d\n%s", c.model.Name(), h.Passed, h.N, c.want, len(res.Tasks), r)
		}
	}
}

// TestChecksumMismatch serves a release whose zip is not the one go.sum
// names: Generate stops with an error naming the release.
func TestChecksumMismatch(t *testing.T) {
	proxy, goSum := writeProxy(t)
	t.Setenv("GONOSUMDB", "example.test")
	t.Setenv("GOFLAGS", "")
	// v1.1.0's line gets v1.0.0's hash.
	lines := strings.Split(goSum, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, libPath+" v1.1.0 ") {
			lines[i] = libPath + " v1.1.0 " + strings.Fields(lines[0])[2]
		}
	}
	dir := t.TempDir()
	_, err := mine.Generate(context.Background(), libPath, &mine.Options{
		Proxy: "file://" + proxy, GoSum: strings.Join(lines, "\n"), ModCache: filepath.Join(dir, "modcache"),
	})
	if err == nil || !strings.Contains(err.Error(), "v1.1.0") || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("err = %v, want a checksum mismatch naming v1.1.0", err)
	}
}

// TestTooFewReleases: a range with one release is an error that says so.
func TestTooFewReleases(t *testing.T) {
	proxy, _ := writeProxy(t)
	t.Setenv("GONOSUMDB", "example.test")
	t.Setenv("GOFLAGS", "")
	_, err := mine.Generate(context.Background(), libPath, &mine.Options{
		Proxy: "file://" + proxy, From: "v1.3.0", ModCache: filepath.Join(t.TempDir(), "modcache"),
	})
	if err == nil || !strings.Contains(err.Error(), "1 release(s)") {
		t.Fatalf("err = %v, want too few releases", err)
	}
	// A bound that is no release: an error listing them, not a range
	// that silently starts at the next one.
	_, err = mine.Generate(context.Background(), libPath, &mine.Options{
		Proxy: "file://" + proxy, From: "v1.0.5", ModCache: filepath.Join(t.TempDir(), "modcache"),
	})
	if err == nil || !strings.Contains(err.Error(), "has no release v1.0.5") || !strings.Contains(err.Error(), "its releases: v1.0.0, ") {
		t.Fatalf("err = %v, want no release v1.0.5 and the list", err)
	}
	if _, err := mine.Generate(context.Background(), libPath, &mine.Options{From: "1.0"}); err == nil || !strings.Contains(err.Error(), "not a semantic version") {
		t.Fatalf("err = %v, want a bad version", err)
	}
}

// checkChanges checks the changes, the dropped candidates and the funnel.
func checkChanges(t *testing.T, res *mine.Result) {
	t.Helper()
	// The changes apidiff and the notes give, with the one no example
	// exercises.
	var changes []string
	for _, c := range res.Changes {
		changes = append(changes, c.Kind+" "+c.Name+" "+c.Replacement)
	}
	wantChanges := []string{
		"added Double ", "added Log ", "added Must ", "added Reset ", "added Unused ",
		"removed Old ", "added New ",
		"changed Sum ", "deprecated Legacy Modern", "deprecated Twice Double", "added Modern ", "added Hello ",
	}
	assert.Equal(t, wantChanges, changes, "changes")
	for _, c := range res.Changes {
		if c.Name == "Sum" && (c.Old != "func Sum(a int, b int) int" || c.New != "func Sum(a int, b int, c int) int") {
			t.Errorf("Sum's change: old %q, new %q", c.Old, c.New)
		}
	}

	// Dropped: the test with a helper (not self-contained), the
	// deprecation whose replacement v1.2.0 already had, and the weak
	// checks, each at the stage of the first trivial answer that passes.
	dropped := map[string]string{}
	for _, d := range res.Dropped {
		dropped[d.TaskID] = d.Reason
	}
	assert.Equal(t, map[string]string{
		libPath + "@v1.1.0/lib.TestHelper.Double/new-api":  "not self-contained: uses one of its own package",
		libPath + "@v1.3.0/lib.Example_twice.Double/adapt": "not version-conditioned: the reference passed at v1.2.0",
		libPath + "@v1.1.0/lib.TestReset.Reset/new-api":    "a trivial answer passes the hidden check at v1.1.0: a body returning zero values",
		libPath + "@v1.1.0/lib.ExampleLog.Log/new-api":     "a trivial answer passes the hidden check at v1.1.0: a body printing the visible output",
		libPath + "@v1.1.0/lib.TestMust.Must/new-api":      "a trivial answer passes the hidden check at v1.1.0: the starting code",
		// Its own call is Double(0); the others are its helper's.
		libPath + "@v1.1.0/lib.TestPairs.Double/new-api": "a trivial answer passes the hidden check at v1.1.0: a body returning zero values",
		// It prints the value alone.
		libPath + "@v1.3.0/sub.ExampleHello.Hello/new-api": "a trivial answer passes the hidden check at v1.3.0: a body printing the visible output",
	}, dropped, "dropped")
	wantFunnel := "| group | release pairs | changes | candidates | self-contained | reference uses its API | within the cap | passes at N | fails at N-1 | starting code fails | zero values fail | panic fails | N-1 reference fails | printed output fails | valid |\n" +
		"|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n" +
		"| added | 3 | 8 | 10 | 9 | 9 | 9 | 9 | 9 | 8 | 6 | 6 | 6 | 4 | 4 |\n" +
		"| removed | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 |\n" +
		"| changed | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 |\n" +
		"| deprecated | 1 | 2 | 2 | 2 | 2 | 2 | 2 | 1 | 1 | 1 | 1 | 1 | 1 | 1 |\n" +
		"| total | 6 | 12 | 14 | 13 | 13 | 13 | 13 | 12 | 11 | 9 | 9 | 9 | 7 | 7 |\n"
	var fun bytes.Buffer
	res.Funnel.WriteTable(&fun)
	assert.Equal(t, wantFunnel, fun.String(), "funnel")
}

// checkContents checks what some problems hold.
func checkContents(t *testing.T, res *mine.Result) {
	t.Helper()
	// The API the API hit rate looks for: the changed function, the
	// deprecation's replacement.
	for id, want := range map[string][]string{
		libPath + "@v1.3.0/lib.ExampleSum.Sum/adapt":        {libPath + ".Sum"},
		libPath + "@v1.3.0/lib.Example_legacy.Modern/adapt": {libPath + ".Modern"},
		libPath + "@v1.1.0/lib.TestDouble.Double/new-api":   {libPath + ".Double"},
	} {
		i := slices.IndexFunc(res.Tasks, func(t adapt.Task) bool { return t.ID == id })
		if !assert.GreaterOrEqual(t, i, 0, id) {
			continue
		}
		d, err := versioned.DetailOf(&res.Tasks[i])
		if err != nil {
			t.Fatal(err)
		}
		assert.Equal(t, want, d.APICalls, id)
	}

	byID := map[string]*adapt.Task{}
	for i := range res.Tasks {
		byID[res.Tasks[i].ID] = &res.Tasks[i]
	}
	file := func(task *adapt.Task, name string) string {
		for _, f := range task.Files {
			if f.Path == name {
				return f.Content
			}
		}
		return ""
	}
	// An adaptation starts from the call at N-1 in terms of solve's
	// parameters: the constant the call at N adds is solve's.
	sum := byID[libPath+"@v1.3.0/lib.ExampleSum.Sum/adapt"]
	assert.Contains(t, sum.Code, "func solve(a int, b int, c int) int {\n\treturn lib.Sum(a, b)\n}")
	assert.Contains(t, sum.Reference, "return lib.Sum(a, b, c)")
	assert.Contains(t, file(sum, "check_test.go"), "fmt.Println(solve(1, 2, 0))")
	assert.Contains(t, sum.Requirement.Task, "func Sum(a int, b int, c int) int\n\t\tSum adds.\n\tat v1.2.0: func Sum(a int, b int) int")
	greeting := byID[libPath+"@v1.2.0/lib.Example_greeting.New/adapt"]
	assert.Contains(t, greeting.Code, "return lib.Old()")
	assert.Contains(t, greeting.Requirement.Task, "removed at v1.2.0: func Old() string")
	// A new API's starting code panics; the in-package test is moved out
	// with its calls replaced, the hidden one all of them.
	double := byID[libPath+"@v1.1.0/lib.TestDouble.Double/new-api"]
	assert.Contains(t, double.Code, `panic("not implemented")`)
	assert.NotContains(t, double.Code, "example.test/lib", "an unused import")
	check := file(double, "check_test.go")
	assert.Contains(t, check, "func TestHiddenDouble(t *testing.T) {")
	assert.Contains(t, check, "if got := solve(c.in); got != c.want {")
	assert.Contains(t, double.Requirement.Task, "func solve(x int) int")
	assert.Contains(t, double.Requirement.Task, "func Double(x int) int\n\t\tDouble doubles.")
	ex := byID[libPath+"@v1.1.0/lib.ExampleDouble.Double/new-api"]
	assert.Contains(t, ex.Requirement.Task, "must print exactly:\n\n\t4\n")
	assert.Contains(t, file(ex, "check_test.go"), "fmt.Println(solve(2))")
}
