package exec_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
)

// forgeGoPipe is an answer whose init puts a pipe in place of its
// descriptor 1 and serves the test binary's output through a goroutine,
// which does what mode says: "exit" passes the output on up to the
// driver's start marker, then prints go test's framing of both tests
// passing and the end marker with the token it read, and exits 0;
// "rewrite" passes every line on with each failure turned into a pass
// (the end marker's code too) and exits 0 after the end marker (what
// comes after the binary's last test may be lost as it exits). Neither
// imports unsafe: the descriptors are the process's own.
const forgeGoPipe = `package x

import (
	"bufio"
	"os"
	"strings"
	"syscall"
	"time"
)

const mode = "MODE"

func init() {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		return
	}
	saved, _ := syscall.Dup(1)
	syscall.Dup2(p[1], 1)
	out := os.NewFile(uintptr(saved), "stdout")
	go func() {
		in := bufio.NewReader(os.NewFile(uintptr(p[0]), "pipe"))
		for {
			line, err := in.ReadString('\n')
			if i := strings.Index(line, "adaptbench-gotest start "); i >= 0 && mode == "exit" {
				token := strings.TrimSpace(line[i+len("adaptbench-gotest start "):])
				out.WriteString(line + FRAMING + "\n\x1eadaptbench-gotest end " + token + " 0\n")
				syscall.Exit(0)
			}
			if mode == "rewrite" {
				line = strings.ReplaceAll(line, "--- FAIL: ", "--- PASS: ")
				if strings.HasPrefix(line, "\x16FAIL") {
					line = "\x16PASS\n"
				}
				if i := strings.Index(line, "adaptbench-gotest end "); i >= 0 {
					out.WriteString(strings.TrimSuffix(strings.TrimSpace(line), " 1") + " 0\n")
					syscall.Exit(0)
				}
			}
			out.WriteString(line)
			if err != nil {
				return
			}
		}
	}()
}

// Add is wrong, and slow enough for the goroutine to keep up.
func Add(a, b int) int {
	time.Sleep(300 * time.Millisecond)
	return a - b
}
`

// TestGoTestPipedStdoutCannotForge: the answer's init takes the test
// binary's descriptor 1 (a pipe of its own in its place) and so reads
// everything the binary prints, the driver's markers included. Before,
// it printed the passes and the end marker with the token it read and
// exited 0, or rewrote each failure into a pass: every test "passed",
// with no evidence. Now the framework's outcomes of each test and its
// exit code travel signed on a descriptor of their own, with a key that
// never leaves the driver's package: neither forgery passes, and each is
// evidence. The answer imports no unsafe.
func TestGoTestPipedStdoutCannotForge(t *testing.T) {
	requireGo(t)
	for _, mode := range []string{"exit", "rewrite"} {
		t.Run(mode, func(t *testing.T) {
			bothPaths(t, func(t *testing.T, r exec.Runner) {
				answer := strings.NewReplacer("MODE", mode, "FRAMING", forgeGoFraming).Replace(forgeGoPipe)
				ws := goWorkspace(t, map[string]string{"x.go": answer, "x_test.go": forgeGoTest})
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				defer cancel()
				s, err := exec.GoTest{}.Test(ctx, r, exec.TestSpec{Dir: ws, Answer: []string{"x.go"}, Limits: exec.Limits{WallTime: 30 * time.Second}})
				require.NoError(t, err)
				logSuite(t, s)
				t.Logf("tampered: %+v", s.Tampered)
				require.Nil(t, s.Compile)
				require.NotEmpty(t, s.Tests)
				for _, tr := range s.Tests {
					assert.NotEqual(t, exec.TestPassed, tr.Status, "%s passed", tr.Name)
				}
				assert.True(t, s.Forged(), "evidence %+v", s.Tampered)
			})
		})
	}
}

// TestGoTestKeyReadFirst: the driver's key reaches the test binary on
// stdin. An answer in a package of the module whose path sorts before the
// driver's (example.com/x/0) reads stdin in its init; the driver's package
// is initialized before every package of the module, so the answer reads
// nothing, and the run is the wrong answer's plain failure.
func TestGoTestKeyReadFirst(t *testing.T) {
	requireGo(t)
	steal := "package zero\n\nimport \"os\"\n\nvar Stole int\n\nfunc init() {\n\tb := make([]byte, 256)\n\tn, _ := os.Stdin.Read(b)\n\tStole = n\n}\n"
	answer := "package x\n\nimport \"example.com/x/0\"\n\nfunc Add(a, b int) int { return a - b + 1000*zero.Stole }\n"
	ws := goWorkspace(t, map[string]string{"x.go": answer, "0/zero.go": steal, "x_test.go": forgeGoTest})
	s := runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: ws, Answer: []string{"x.go", "0/zero.go"}})
	require.Nil(t, s.Compile)
	checkOutcomes(t, s, []wantTest{{"TestAdd", exec.TestFailed}, {"TestAddZero", exec.TestFailed}})
	tr, _ := s.Lookup("TestAdd")
	assert.Contains(t, tr.Message, "Add(2, 2) = 0,", "the answer's init read nothing on stdin")
	assert.False(t, s.Forged(), "evidence %+v", s.Tampered)
}
