package exec_test

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
)

// forgeGoTest is the task's test file of the Go forgeries: two tests of a
// wrong Add.
const forgeGoTest = `package x

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 2); got != 4 {
		t.Fatalf("Add(2, 2) = %d, want 4", got)
	}
}

func TestAddZero(t *testing.T) {
	if got := Add(0, 3); got != 3 {
		t.Fatalf("Add(0, 3) = %d, want 3", got)
	}
}
`

// forgeGoFraming is go test's framing, as -test.v=test2json prints it, for
// both tests passing and the run passing.
const forgeGoFraming = `"\x16=== RUN   TestAdd\n\x16--- PASS: TestAdd (0.00s)\n\x16=== RUN   TestAddZero\n\x16--- PASS: TestAddZero (0.00s)\n\x16PASS\n"`

// TestGoTestCannotForgeItsVerdict: a wrong answer prints go test's framing
// for every test, as the test binary would, then leaves before the real
// tests report, from init (before any test runs) or from inside a test.
// None of it passes: framing before the driver's start marker counts for
// nothing and is evidence; a run that never reaches the driver's end
// marker has not passed, and leaving it with status 0, or with every test
// "passed", is evidence. The control, the same wrong answer without the
// trick, fails. A bare exit from init is the Suite's Compile, as the doc
// says of a binary that runs no test.
func TestGoTestCannotForgeItsVerdict(t *testing.T) {
	requireGo(t)
	const wrong = "func Add(a, b int) int { return a - b }\n"
	tests := []struct {
		name, answer string
		tampered     bool // run-time evidence expected
		compile      bool // the Suite's Compile expected
		reason       string
	}{
		{"control", "package x\n\n" + wrong, false, false, "the wrong answer alone fails"},
		{"framing in init then exit 0", "package x\n\nimport (\"os\"; \"syscall\")\n\nfunc init() {\n\tos.Stdout.WriteString(" + forgeGoFraming + ")\n\tsyscall.Exit(0)\n}\n\n" + wrong,
			true, false, "framing before the start marker"},
		{"framing in init without the marker byte", "package x\n\nimport (\"fmt\"; \"syscall\")\n\nfunc init() {\n\tfmt.Print(\"=== RUN   TestAdd\\n--- PASS: TestAdd (0.00s)\\n=== RUN   TestAddZero\\n--- PASS: TestAddZero (0.00s)\\nPASS\\n\")\n\tsyscall.Exit(0)\n}\n\n" + wrong,
			true, false, "plain framing before the start marker"},
		{"framing in a test then exit 0", "package x\n\nimport (\"os\"; \"syscall\")\n\nfunc Add(a, b int) int {\n\tos.Stdout.WriteString(" + forgeGoFraming + ")\n\tsyscall.Exit(0)\n\treturn 0\n}\n",
			true, false, "an exit with status 0 before the end marker"},
		{"framing in a test then exit 1", "package x\n\nimport (\"os\"; \"syscall\")\n\nfunc Add(a, b int) int {\n\tos.Stdout.WriteString(\"\\x16--- PASS: TestAdd (0.00s)\\n\\x16=== RUN   TestAddZero\\n\\x16--- PASS: TestAddZero (0.00s)\\n\\x16PASS\\n\")\n\tsyscall.Exit(1)\n\treturn 0\n}\n",
			true, false, "every test passed, yet the binary exited before the end marker"},
		{"stdout closed in a test", "package x\n\nimport \"syscall\"\n\nfunc Add(a, b int) int {\n\tsyscall.Close(1)\n\tsyscall.Close(2)\n\treturn a + b\n}\n",
			true, false, "what the framework says afterwards is lost, and so is the end marker"},
		{"bare exit in init", "package x\n\nimport \"syscall\"\n\nfunc init() { syscall.Exit(0) }\n\n" + wrong, false, true, "the binary ran no test"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bothPaths(t, func(t *testing.T, r exec.Runner) {
				ws := goWorkspace(t, map[string]string{"x.go": tc.answer, "x_test.go": forgeGoTest})
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				defer cancel()
				s, err := exec.GoTest{}.Test(ctx, r, exec.TestSpec{Dir: ws, Limits: exec.Limits{WallTime: 30 * time.Second}})
				require.NoError(t, err, tc.reason)
				logSuite(t, s)
				t.Logf("tampered: %+v", s.Tampered)
				for _, tr := range s.Tests {
					assert.NotEqual(t, exec.TestPassed, tr.Status, "%s: %s passed", tc.reason, tr.Name)
				}
				assert.Equal(t, tc.tampered, s.Forged(), "%s: evidence %+v", tc.reason, s.Tampered)
				assert.Equal(t, tc.compile, s.Compile != nil, "%s: compile %v", tc.reason, s.Compile)
				if !tc.compile && !tc.tampered {
					assert.NotEmpty(t, s.Tests, tc.reason)
				}
			})
		})
	}
}

// TestGoTestOwnTestMain: a package with a TestMain of its own (setup before
// m.Run, output after it) is wrapped too: honest outcomes are kept, and a
// forgery from inside a test is still caught.
func TestGoTestOwnTestMain(t *testing.T) {
	requireGo(t)
	testMain := `package x_test

import (
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	fmt.Println("setup")
	code := m.Run()
	fmt.Println("=== RUN   TestAfter\n--- PASS: TestAfter (0.00s)")
	os.Exit(code)
}
`
	forged := "package x\n\nimport (\"os\"; \"syscall\")\n\nfunc Add(a, b int) int {\n\tos.Stdout.WriteString(" + forgeGoFraming + ")\n\tsyscall.Exit(0)\n\treturn 0\n}\n"
	for _, tc := range []struct {
		name, answer string
		want         []wantTest
		tampered     bool
	}{
		{"honest", "package x\n\nfunc Add(a, b int) int { return a + b }\n", []wantTest{{"TestAdd", exec.TestPassed}, {"TestAddZero", exec.TestPassed}}, false},
		{"forged", forged, []wantTest{{"TestAdd", exec.TestError}, {"TestAddZero", exec.TestError}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := goWorkspace(t, map[string]string{"x.go": tc.answer, "x_test.go": forgeGoTest, "main_test.go": testMain})
			s := runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: ws})
			checkOutcomes(t, s, tc.want)
			assert.Equal(t, tc.tampered, s.Forged(), "evidence %+v", s.Tampered)
		})
	}
}

// TestGoTestOversizedBuild: an answer whose test binary does not fit the
// job's workspace (a 256 MiB array in its data) is the code's failure, a
// compile error, never a harness error.
func TestGoTestOversizedBuild(t *testing.T) {
	requireGo(t)
	ws := goWorkspace(t, map[string]string{
		"x.go":      "package x\n\nvar Big = [1 << 28]byte{1}\n\nfunc Add(a, b int) int { return a + b + int(Big[1]) }\n",
		"x_test.go": forgeGoTest,
	})
	s, err := exec.GoTest{}.Test(context.Background(), driverSandbox(t), exec.TestSpec{Dir: ws})
	require.NoError(t, err, "an oversized build is the code's failure")
	logSuite(t, s)
	require.NotNil(t, s.Compile, "an oversized build is a compile error")
	assert.Contains(t, s.Compile.Output, "disk")
	assert.NotEqual(t, exec.StatusInternal, s.Run.Status)
}

// TestGoTestOutputFloodHost: a test that prints 4 MiB of newlines (a few
// hundredths of a second of the job's CPU) must not cost the caller much:
// before, the host's test2json turned it into 4 million JSON events, some
// 800 MiB of the caller's memory and seconds of its CPU. Every host-side
// read and transform is bounded by the job's output limit: this checks
// the bytes this process allocated while the driver ran.
func TestGoTestOutputFloodHost(t *testing.T) {
	requireGo(t)
	ws := goWorkspace(t, map[string]string{
		"x.go":      "package x\n\nfunc Add(a, b int) int { return a + b }\n",
		"x_test.go": "package x\n\nimport (\"os\"; \"strings\"; \"testing\")\n\nfunc TestFlood(t *testing.T) {\n\tos.Stdout.WriteString(strings.Repeat(\"\\n\", 4<<20))\n\tt.Fatal(\"flooded\")\n}\n\nfunc TestAdd(t *testing.T) { _ = Add(1, 2) }\n",
	})
	r := driverSandbox(t)
	// Build once so that the measured run is the run alone.
	runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: ws, Tests: []string{"TestAdd"}})
	var s *exec.Suite
	var err error
	c := measureHost(func() { s, err = exec.GoTest{}.Test(context.Background(), r, exec.TestSpec{Dir: ws}) })
	require.NoError(t, err)
	checkSuite(t, s, []wantTest{{"TestAdd", exec.TestPassed}, {"TestFlood", exec.TestFailed}})
	checkMessages(t, s, map[string]string{"TestFlood": "flooded"})
	t.Logf("host: %s", c)
	assert.Less(t, c.alloc, uint64(64<<20), "the caller's allocations follow the job's output")
	assert.Less(t, c.peak, uint64(64<<20), "the caller's heap follows the job's output")
	if r, _ := s.Lookup("TestFlood"); strings.Count(r.Message, "\n") > 20000 {
		t.Errorf("TestFlood's message has %d lines", strings.Count(r.Message, "\n"))
	}
}

// TestGoTestFramingFloodHost: a test that prints 500,000 lines of framing
// for tests of its own (13 MiB, under the output limit) costs the caller
// a bounded amount: the names are held once each, within the host's
// budget, and test2json's work follows the bytes the job may write.
func TestGoTestFramingFloodHost(t *testing.T) {
	requireGo(t)
	ws := goWorkspace(t, map[string]string{
		"x.go":      "package x\n\nfunc Add(a, b int) int { return a + b }\n",
		"x_test.go": "package x\n\nimport (\"fmt\"; \"os\"; \"strings\"; \"testing\")\n\nfunc TestFlood(t *testing.T) {\n\tvar b strings.Builder\n\tfor i := range 500000 {\n\t\tfmt.Fprintf(&b, \"\\x16=== RUN   TestFlood/%d\\n\", i%1000)\n\t}\n\tos.Stdout.WriteString(b.String())\n}\n\nfunc TestAdd(t *testing.T) { _ = Add(1, 2) }\n",
	})
	r := driverSandbox(t)
	runDriver(t, exec.GoTest{}, exec.TestSpec{Dir: ws, Tests: []string{"TestAdd"}})
	var s *exec.Suite
	var err error
	c := measureHost(func() { s, err = exec.GoTest{}.Test(context.Background(), r, exec.TestSpec{Dir: ws}) })
	require.NoError(t, err)
	logSuite(t, s)
	t.Logf("host: %s", c)
	assert.Less(t, c.peak, uint64(64<<20), "the caller's heap follows the job's output")
	if tr, _ := s.Lookup("TestAdd"); tr.Status != exec.TestPassed {
		t.Errorf("TestAdd: %s", tr.Status)
	}
}

// hostCost is what a driver call cost this process and its children.
type hostCost struct {
	alloc, peak uint64 // bytes allocated; the largest live heap seen
	cpu, wall   time.Duration
}

func (c hostCost) String() string {
	return fmt.Sprintf("%d MiB allocated, peak heap %d MiB, %v CPU (with test2json and the go command), %v wall",
		c.alloc>>20, c.peak>>20, c.cpu.Round(time.Millisecond), c.wall.Round(time.Millisecond))
}

// measureHost runs f, sampling the live heap every 2ms.
func measureHost(f func()) hostCost {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	base := before.HeapAlloc
	var peak uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > base && v-base > peak {
				peak = v - base
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	cpu0, t0 := hostCPU(), time.Now()
	f()
	c := hostCost{cpu: hostCPU() - cpu0, wall: time.Since(t0)}
	close(done)
	<-stopped
	runtime.ReadMemStats(&after)
	c.alloc, c.peak = after.TotalAlloc-before.TotalAlloc, peak
	return c
}
