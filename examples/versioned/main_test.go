package main

import (
	"bytes"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// TestProgressOnATerminal runs the example on its Go problems as a person
// would, standard error on a terminal: the environments' bar, then one
// bar for the protocol, each ending at 100%.
func TestProgressOnATerminal(t *testing.T) {
	exectest.Sandbox(t)
	bars, stdout := testenv.RunProgram(t, ".", "-model", "identity", "-protocols", "greedy", "-cache", t.TempDir())
	if len(bars) != 2 || !strings.HasPrefix(bars[0], "versioned environments") || !strings.HasPrefix(bars[1], "identity greedy") {
		t.Errorf("bars %q, want the environments' then identity greedy's", bars)
	}
	if !strings.Contains(stdout, "Hidden") {
		t.Errorf("no table on stdout:\n%s", stdout)
	}
}

// TestMine mines a two-release module served from a GOPROXY=file://
// directory: the program writes the problems and the funnel and prints
// "1 valid" as its last line.
func TestMine(t *testing.T) {
	exectest.Sandbox(t)
	proxy := t.TempDir()
	// The package is two, not go-two: the API hit rate must not go by the
	// path's last element.
	const mod = "example.test/go-two"
	vdir := filepath.Join(proxy, mod, "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod := "module " + mod + "\n\ngo 1.21\n"
	releases := map[string]map[string]string{
		"v1.0.0": {"two.go": "package two\n\nfunc A() int { return 1 }\n"},
		"v1.1.0": {
			"two.go":          "package two\n\nfunc A() int { return 1 }\n\n// B is new.\nfunc B() int { return 2 }\n",
			"example_test.go": "package two_test\n\nimport (\n\t\"fmt\"\n\n\t\"example.test/go-two\"\n)\n\nfunc ExampleB() {\n\tfmt.Println(\"B:\", two.B())\n\t// Output: B: 2\n}\n",
		},
	}
	for v, files := range releases {
		src := t.TempDir()
		files["go.mod"] = gomod
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(src, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var zip bytes.Buffer
		if err := modzip.CreateFromDir(&zip, module.Version{Path: mod, Version: v}, src); err != nil {
			t.Fatal(err)
		}
		for ext, content := range map[string]string{".zip": zip.String(), ".mod": gomod, ".info": `{"Version":"` + v + `","Time":"2024-05-01T00:00:00Z"}`} {
			if err := os.WriteFile(filepath.Join(vdir, v+ext), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(vdir, "list"), []byte("v1.0.0\nv1.1.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cache, err := os.MkdirTemp("/var/tmp", "adaptbench-mine-example-")
	if err != nil {
		t.Skipf("no /var/tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(cache) })
	os.Chmod(cache, 0o755)
	out := t.TempDir()
	bin := filepath.Join(t.TempDir(), "versioned")
	if b, err := osexec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	cmd := osexec.Command(bin, "-mine", mod, "-out", out, "-cache", cache)
	cmd.Env = append(os.Environ(), "GOPROXY=file://"+proxy, "GONOSUMDB=example.test", "GOMODCACHE="+filepath.Join(cache, "modcache"), "GOFLAGS=")
	stdout, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if e, ok := err.(*osexec.ExitError); ok {
			stderr = e.Stderr
		}
		t.Fatalf("%v\n%s\n%s", err, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(stdout)), "\n")
	if last := lines[len(lines)-1]; last != "1 valid" {
		t.Errorf("last line %q, want \"1 valid\"\n%s", last, stdout)
	}
	tasks, err := adapt.LoadFile(filepath.Join(out, "tasks.jsonl"))
	if err != nil || len(tasks) != 1 || tasks[0].ID != mod+"@v1.1.0/go-two.ExampleB.B/new-api" {
		t.Errorf("tasks.jsonl: %v, %v", tasks, err)
	}
	for _, f := range []string{"tasks.jsonl", "funnel.md", "funnel.json", "changes.jsonl", "dropped.jsonl"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
		if !strings.Contains(string(stdout), "wrote "+filepath.Join(out, f)+"\n") {
			t.Errorf("no line says %s was written:\n%s", f, stdout)
		}
	}

	// Evaluated, the reference hits its API (by identity: the package is
	// two, its path example.test/go-two), the starting code does not.
	for model, want := range map[string]string{"reference": "100.0±", "identity": "0.0±"} {
		cmd := osexec.Command(bin, "-tasks", filepath.Join(out, "tasks.jsonl"), "-model", model, "-protocols", "greedy", "-cache", cache)
		cmd.Env = append(os.Environ(), "GOPROXY=file://"+proxy, "GONOSUMDB=example.test", "GOMODCACHE="+filepath.Join(cache, "modcache"), "GOFLAGS=")
		stdout, err := cmd.Output()
		require.NoError(t, err, "%s", stdout)
		var row []string
		for _, l := range strings.Split(string(stdout), "\n") {
			if strings.HasPrefix(l, "| "+model+" |") {
				row = strings.Split(l, " | ")
			}
		}
		require.Len(t, row, 9, "no row of %s in\n%s", model, stdout)
		assert.True(t, strings.HasPrefix(row[3], want), "%s: Greedy API %q, want %s...", model, row[3], want)
	}
}

// TestCacheOfAnotherUser runs the program as an ordinary user (uid 65534)
// when the tests run as root: its default cache is its own, and a cache
// directory another user made is refused with an error naming -cache.
func TestCacheOfAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the program as another user")
	}
	root, err := os.MkdirTemp("/var/tmp", "adaptbench-cache-user-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(root) })
	require.NoError(t, os.Chmod(root, 0o755))
	bin := filepath.Join(root, "versioned")
	if b, err := osexec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	home := filepath.Join(root, "home")
	require.NoError(t, os.Mkdir(home, 0o755))
	require.NoError(t, os.Chown(home, 65534, 65534))
	rootsCache := filepath.Join(root, "roots-cache") // made by root, as /var/tmp/adaptbench-envs was
	require.NoError(t, os.Mkdir(rootsCache, 0o755))
	run := func(args ...string) (string, error) {
		cmd := osexec.Command(bin, args...)
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	// The default cache: the user's own, so the run gets past it (to the
	// bad protocol it is given).
	out, err := run("-protocols", "none")
	require.Error(t, err)
	assert.Contains(t, out, `unknown protocol "none"`)
	assert.NotContains(t, out, "permission denied")
	_, err = os.Stat(filepath.Join(home, ".cache", "adaptbench", "envs"))
	assert.NoError(t, err, "the default cache is under the user's cache directory")
	// Another user's: the error says what to do.
	for _, args := range [][]string{{"-cache", rootsCache, "-protocols", "greedy"}, {"-cache", rootsCache, "-mine", "example.test/x", "-out", home}} {
		out, err = run(args...)
		require.Error(t, err, "%v", args)
		assert.Contains(t, out, "permission denied", "%v", args)
		assert.Contains(t, out, "choose another directory with -cache DIR", "%v", args)
	}
}
