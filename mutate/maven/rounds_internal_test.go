package maven

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/mutate"
)

// TestMavenSharedJVMsSameAsJVMEach checks mutants of testdata/maven in
// shared JVMs (checkBatch) and each in a JVM of its own (Check, the
// TestEach path), and wants the same TestRun from both: a mutant the
// tests kill, one they do not, one that does not compile, one that loops
// (left to Check by the shared JVM, whose watchdog ends it) and one that
// exits the JVM, the same mutant twice with other tests, and the
// original. A batch whose control round does not pass (a test that does
// not exist) decides nothing.
func TestMavenSharedJVMsSameAsJVMEach(t *testing.T) {
	if testing.Short() {
		t.Skip("runs each check in a JVM of its own too")
	}
	ctx := context.Background()
	m, file, edit := openShop(t, exectest.Sandbox(t), &Config{Limits: exec.Limits{CPUTime: 4 * time.Second}})
	codes := []string{"com.example.shop.CodesTest#checkDigit", "com.example.shop.CodesTest#valid", "com.example.shop.CodesTest#number"}
	killed := edit("int weight = 3;", "int weight = 2;")
	reqs := []mutate.CheckRequest{
		{File: file, Src: killed, Tests: codes},
		{File: file, Src: edit("private Codes() {}", "private Codes() { int unused = 1; }"), Tests: codes},
		{File: file, Src: edit("return (10 - sum % 10) % 10;", "return \"ten\";"), Tests: codes},
		{File: file, Src: edit("int sum = 0;", "int sum = 0; while (s != null) { sum++; }"), Tests: codes[:1]},
		{File: file, Src: edit("int sum = 0;", "int sum = 0; if (s != null) { System.exit(0); }"), Tests: codes[:1]},
		{File: file, Src: killed, Tests: codes[1:]},
		{File: "", Src: nil, Tests: codes},
	}
	var cands []*mutate.Candidate
	for _, q := range reqs {
		if q.File != "" {
			cands = append(cands, &mutate.Candidate{File: q.File, Src: q.Src})
		}
	}
	_, release, err := m.Prepare(ctx, cands)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	shared, err := m.CheckBatch(ctx, reqs)
	if err != nil {
		t.Fatal(err)
	}
	undecided := map[int]bool{3: true, 4: true, 6: true} // loops, exits, the original
	for i, q := range reqs {
		alone, err := m.Check(ctx, q.File, q.Src, q.Tests)
		if err != nil {
			t.Fatal(err)
		}
		got := shared[i]
		if undecided[i] {
			if got != nil {
				t.Errorf("check %d: decided in a shared JVM: %+v", i, got)
			}
			continue
		}
		if got == nil {
			t.Errorf("check %d: not decided in a shared JVM (alone: %+v)", i, alone)
			continue
		}
		assert.Empty(t, cmp.Diff(alone, got, cmp.Comparer(func(a, b time.Duration) bool { return true })), "check %d: shared JVM (+) against a JVM of its own (-)", i)
	}
	if r := shared[0]; r == nil || len(r.Failed) == 0 {
		t.Errorf("the mutant the tests kill: %+v", r)
	}
	if r := shared[2]; r == nil || r.Compile == "" {
		t.Errorf("the mutant that does not compile: %+v", r)
	}
	// A control round that does not pass: nothing is decided.
	bad := []mutate.CheckRequest{{File: file, Src: killed, Tests: []string{"com.example.shop.CodesTest#nope"}}, {File: file, Src: reqs[1].Src, Tests: codes}}
	none, err := m.CheckBatch(ctx, bad)
	if err == nil || !strings.Contains(err.Error(), "control round") || !strings.Contains(err.Error(), "CodesTest#nope") {
		t.Errorf("a failed control round: error %v, want one naming it and the test that failed", err)
	}
	for i, r := range none {
		if r != nil {
			t.Errorf("control round failed, yet check %d was decided: %+v", i, r)
		}
	}
}
