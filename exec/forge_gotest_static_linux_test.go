package exec_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
)

// TestGoTestLanguageEscapes: the driver's key is in unexported state of
// its package, out of reach of Go code but through package unsafe or a
// //go:linkname directive. An answer file that uses either is evidence
// (not Static: adapt weighs it against the reference's own run); the
// same in a test file, a context file of the task, or in a string or a
// comment of the answer, is not. With no answer named, the driver cannot
// tell the answer from trusted code: its findings are Static, listed only.
// The answer here is right: the evidence is of the form, not of a
// forgery, and the tests keep their outcomes.
func TestGoTestLanguageEscapes(t *testing.T) {
	requireGo(t)
	const right = "func Add(a, b int) int { return a + b }\n"
	unsafeAnswer := "package x\n\nimport \"unsafe\"\n\nvar Size = unsafe.Sizeof(0)\n\n" + right
	linkAnswer := "package x\n\nimport _ \"unsafe\"\n\n//go:linkname nanotime runtime.nanotime\nfunc nanotime() int64\n\n" + right
	honestAnswer := "package x\n\n// Add does not import \"unsafe\", nor use //go:linkname.\nvar note = `import \"unsafe\"`\n\n" + right
	unsafeTest := "package x\n\nimport (\n\t\"testing\"\n\t\"unsafe\"\n)\n\nfunc TestSize(t *testing.T) {\n\tif unsafe.Sizeof(int64(0)) != 8 {\n\t\tt.Fatal(\"size\")\n\t}\n}\n"
	unsafeContext := "package x\n\nimport \"unsafe\"\n\nfunc ptrSize() uintptr { return unsafe.Sizeof(uintptr(0)) }\n"
	tests := []struct {
		name   string
		files  map[string]string
		answer []string
		kinds  []string // evidence expected, in order
		static bool
	}{
		{"unsafe in the answer", map[string]string{"x.go": unsafeAnswer}, []string{"x.go"}, []string{"unsafe-import"}, false},
		{"linkname in the answer", map[string]string{"x.go": linkAnswer}, []string{"x.go"}, []string{"unsafe-import", "linkname"}, false},
		{"unsafe named in a string and a comment", map[string]string{"x.go": honestAnswer}, []string{"x.go"}, nil, false},
		{"unsafe in a test file", map[string]string{"x.go": "package x\n\n" + right, "size_test.go": unsafeTest}, []string{"x.go"}, nil, false},
		{"unsafe in a context file", map[string]string{"x.go": "package x\n\n" + right, "ptr.go": unsafeContext}, []string{"x.go"}, nil, false},
		{"no answer named", map[string]string{"x.go": unsafeAnswer, "size_test.go": unsafeTest}, nil, []string{"unsafe-import"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.files["x_test.go"] = forgeGoTest
			ws := goWorkspace(t, tc.files)
			s := runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: ws, Answer: tc.answer})
			require.Nil(t, s.Compile)
			for _, tr := range s.Tests {
				assert.Equal(t, exec.TestPassed, tr.Status, "%s: %s", tr.Name, tr.Message)
			}
			var kinds []string
			for _, e := range s.Tampered {
				kinds = append(kinds, e.Kind)
				assert.Equal(t, tc.static, e.Static, "%+v", e)
			}
			assert.Equal(t, tc.kinds, kinds, "evidence %+v", s.Tampered)
		})
	}
}

// TestGoTestHonestPatterns: the framework's features that the driver's
// signed outcomes follow, used honestly, keep their outcomes and make no
// evidence: parallel subtests (one failing), a skip after a failure in a
// cleanup, t.Parallel at the top level, a test whose parameter is unnamed
// or "_", a fuzz target's seeds, an example with output, and a TestMain of
// the package's own.
func TestGoTestHonestPatterns(t *testing.T) {
	requireGo(t)
	tests := `package x

import (
	"fmt"
	"testing"
)

func TestSubs(t *testing.T) {
	for _, c := range []struct{ a, b, want int }{{1, 2, 3}, {2, 2, 5}} {
		t.Run(fmt.Sprint(c.a, c.b), func(t *testing.T) {
			t.Parallel()
			if got := Add(c.a, c.b); got != c.want {
				t.Errorf("Add = %d, want %d", got, c.want)
			}
		})
	}
}

func TestCleanupFails(t *testing.T) {
	t.Cleanup(func() { t.Error("cleanup failed") })
}

func TestSkip(t *testing.T) { t.Skip("not here") }

func TestParallel(t *testing.T) {
	t.Parallel()
	_ = Add(1, 1)
}

func TestUnnamed(*testing.T) {}

func Test_(_ *testing.T) {}

func FuzzAdd(f *testing.F) {
	f.Add(1, 2)
	f.Fuzz(func(t *testing.T, a, b int) {
		if Add(a, b) != a+b {
			t.Fatal("wrong")
		}
	})
}

func ExampleAdd() {
	fmt.Println(Add(1, 2))
	// Output: 3
}
`
	main := "package x\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(m.Run()) }\n"
	ws := goWorkspace(t, map[string]string{"x.go": "package x\n\nfunc Add(a, b int) int { return a + b }\n", "x_test.go": tests, "main_test.go": main})
	s := runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: ws, Answer: []string{"x.go"}})
	checkOutcomes(t, s, []wantTest{
		{"ExampleAdd", exec.TestPassed},
		{"FuzzAdd", exec.TestPassed},
		{"FuzzAdd/seed#0", exec.TestPassed},
		{"TestCleanupFails", exec.TestFailed},
		{"TestParallel", exec.TestPassed},
		{"TestSkip", exec.TestSkipped},
		{"TestSubs", exec.TestFailed},
		{"TestSubs/1_2", exec.TestPassed},
		{"TestSubs/2_2", exec.TestFailed},
		{"TestUnnamed", exec.TestPassed},
		{"Test_", exec.TestPassed},
	})
	assert.Empty(t, s.Tampered)
}
