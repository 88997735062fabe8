package exec_test

import (
	"context"
	"maps"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

func requireGo(t testing.TB) {
	t.Helper()
	if _, err := os.Stat("/usr/local/go/bin/go"); err != nil {
		if _, err := osexec.LookPath("go"); err != nil {
			exectest.SkipWithout(t, "no go command on the host")
		}
	}
}

func TestGoTest(t *testing.T) {
	requireGo(t)
	s := runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: driverFixture(t, "gotest")})
	checkSuite(t, s, []wantTest{
		{"ExampleAdd", exec.TestError},
		{"TestAdd", exec.TestPassed},
		{"TestAfterPanic", exec.TestError},
		{"TestPanics", exec.TestError},
		{"TestSkipped", exec.TestSkipped},
		{"TestSub", exec.TestFailed},
		{"TestTable", exec.TestFailed},
		{"TestTable/one", exec.TestPassed},
		{"TestTable/two", exec.TestFailed},
	})
	checkMessages(t, s, map[string]string{
		"TestSub":        "Sub(5, 3) = 8, want 2",
		"TestTable/two":  "Add(2, 2) = 4, want 5",
		"TestSkipped":    "not today",
		"TestPanics":     "panic: runtime error: integer divide by zero",
		"TestAfterPanic": "not run",
		"ExampleAdd":     "not run",
	})
	if r, _ := s.Lookup("TestSub"); strings.Contains(r.Message, "--- FAIL") || strings.Contains(r.Message, "=== RUN") {
		t.Errorf("TestSub: message keeps go test's framing: %q", r.Message)
	}
	if s.Build == nil || s.Build.Status != exec.StatusOK {
		t.Errorf("Build = %+v, want ok", s.Build)
	}
}

func TestGoTestNames(t *testing.T) {
	requireGo(t)
	s := runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: driverFixture(t, "gotest"), Tests: []string{"TestAdd", "TestTable", "ExampleAdd", "TestNope"}})
	checkSuite(t, s, []wantTest{
		{"ExampleAdd", exec.TestPassed},
		{"TestAdd", exec.TestPassed},
		{"TestNope", exec.TestError},
		{"TestTable", exec.TestFailed},
		{"TestTable/one", exec.TestPassed},
		{"TestTable/two", exec.TestFailed},
	})
	if r, _ := s.Lookup("TestNope"); r.Message != "not found" {
		t.Errorf("TestNope: message %q, want %q", r.Message, "not found")
	}
	if _, err := (exec.GoTest{}).Test(context.Background(), driverSandbox(t), exec.TestSpec{Dir: t.TempDir(), Tests: []string{"TestTable/one"}}); err == nil {
		t.Error("a subtest name in Tests: no error")
	}
}

func TestGoTestBroken(t *testing.T) {
	requireGo(t)
	s := runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: driverFixture(t, "gotest_broken")})
	checkCompile(t, s, "calc_test.go:6:", "undefined: Mul")
	if strings.Contains(s.Compile.Output, os.TempDir()) {
		t.Errorf("compile output has absolute paths:\n%s", s.Compile.Output)
	}
	if s.Run.Status != exec.StatusInvalid {
		t.Errorf("Run.Status = %s, want invalid: no test process ran", s.Run.Status)
	}
}

func TestGoTestInitPanics(t *testing.T) {
	requireGo(t)
	ws := driverFixture(t, "gotest")
	if err := os.WriteFile(filepath.Join(ws, "init_test.go"), []byte("package fixture\n\nfunc init() { panic(\"broken init\") }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: ws})
	checkCompile(t, s, "broken init")
}

func TestGoTestTimeLimit(t *testing.T) {
	requireGo(t)
	ws := driverFixture(t, "gotest")
	src := "package fixture\n\nimport (\"testing\"; \"time\")\n\nfunc TestHang(t *testing.T) { time.Sleep(time.Hour) }\n"
	if err := os.WriteFile(filepath.Join(ws, "hang_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: ws, Tests: []string{"TestAdd", "TestHang", "ExampleAdd"}, Limits: exec.Limits{WallTime: time.Second}})
	checkSuite(t, s, []wantTest{
		{"ExampleAdd", exec.TestTimedOut},
		{"TestAdd", exec.TestPassed},
		{"TestHang", exec.TestTimedOut},
	})
	if s.Run.Status != exec.StatusWallTime {
		t.Errorf("Run.Status = %s, want wall-time", s.Run.Status)
	}
}

func TestGoTestNoTests(t *testing.T) {
	requireGo(t)
	ws := goWorkspace(t, map[string]string{
		"x.go": "package x\n\nfunc X() int { return 1 }\n",
	})
	s := runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: ws})
	checkSuite(t, s, nil)
	if s.Run.Status != exec.StatusInvalid {
		t.Errorf("Run.Status = %s, want invalid: no test process ran", s.Run.Status)
	}
}

// TestGoTestSubpackageDir: a package below the workspace root runs in its
// own directory, as under "go test", so that it finds its testdata.
func TestGoTestSubpackageDir(t *testing.T) {
	requireGo(t)
	ws := goWorkspace(t, map[string]string{
		"x.go":                  "package x\n",
		"sub/sub.go":            "package sub\n\nfunc Want() string { return \"golden\\n\" }\n",
		"sub/testdata/want.txt": "golden\n",
		"sub/sub_test.go":       "package sub\n\nimport (\"os\"; \"testing\")\n\nfunc TestGolden(t *testing.T) {\n\tb, err := os.ReadFile(\"testdata/want.txt\")\n\tif err != nil || string(b) != Want() {\n\t\tt.Fatalf(\"%q, %v\", b, err)\n\t}\n}\n",
	})
	s := runDriver(t, exec.GoTest{Package: "sub"}, exec.TestSpec{Dir: ws, Tests: []string{"TestGolden"}})
	checkSuite(t, s, []wantTest{{"TestGolden", exec.TestPassed}})
}

// TestGoTestBinaryHasNoDWARF: the host builds test binaries without DWARF
// (GoBuildFlags' -ldflags=-w, some 40% of the link's CPU time), and a
// test's panic still reports the file and line it came from.
func TestGoTestBinaryHasNoDWARF(t *testing.T) {
	requireGo(t)
	ws := goWorkspace(t, map[string]string{
		"x.go": "package x\n\nfunc Boom() { panic(\"boom\") }\n",
		"x_test.go": `package x

import (
	"debug/elf"
	"os"
	"strings"
	"testing"
)

func TestNoDWARF(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, s := range f.Sections {
		if strings.HasPrefix(s.Name, ".debug_") || strings.HasPrefix(s.Name, ".zdebug_") {
			t.Errorf("section %s", s.Name)
		}
	}
}

func TestPanics(t *testing.T) { Boom() }
`,
	})
	s := runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: ws})
	checkSuite(t, s, []wantTest{{"TestNoDWARF", exec.TestPassed}, {"TestPanics", exec.TestError}})
	checkMessages(t, s, map[string]string{"TestPanics": "x.go:3"})
}

// goWorkspace writes files (slash-separated paths relative to the
// workspace) into a new workspace, the root of module example.com/x, and
// returns it.
func goWorkspace(t *testing.T, files map[string]string) string {
	t.Helper()
	ws := t.TempDir()
	files = maps.Clone(files)
	files["go.mod"] = "module example.com/x\n\ngo 1.22\n"
	for name, src := range files {
		p := filepath.Join(ws, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

// TestGoTestListFails: the driver lists a binary's tests in a run of its
// own before it runs them. When that listing fails (here TestMain refuses
// it; on a loaded machine it could be a process that did not start), the
// tests that ran keep their outcomes: a harness hiccup never turns a
// passing test into an error.
func TestGoTestListFails(t *testing.T) {
	requireGo(t)
	ws := goWorkspace(t, map[string]string{
		"x.go": "package x\n",
		"x_test.go": `package x

import (
	"os"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	for _, a := range os.Args {
		if strings.HasPrefix(a, "-test.list") {
			os.Exit(3)
		}
	}
	os.Exit(m.Run())
}

func TestA(t *testing.T) {}

func TestB(t *testing.T) { t.Fatal("b fails") }
`,
	})
	s := runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: ws, Tests: []string{"TestA", "TestB", "TestNope"}})
	checkSuite(t, s, []wantTest{{"TestA", exec.TestPassed}, {"TestB", exec.TestFailed}, {"TestNope", exec.TestError}})
	checkMessages(t, s, map[string]string{"TestB": "b fails", "TestNope": "not found"})
}
