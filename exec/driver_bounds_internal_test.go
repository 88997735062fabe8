package exec

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
)

// allocated returns the bytes f allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestResultsPlanBounded: a results file whose plan names a million tests
// (9.5 MiB, which a job writes in a moment) cost the caller 225 MiB to
// decode and assemble. What the host holds is bounded by a constant times
// what it read (16 MiB at least): past it the events stop, and the tests
// that did not end get the output-limit outcome.
func TestResultsPlanBounded(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"e":"hello","v":1}` + "\n" + `{"e":"plan","tests":[`)
	for i := range 1_000_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"t%d"`, i)
	}
	b.WriteString("]}\n" + `{"e":"start","test":"t1"}` + "\n")
	raw := b.Bytes()
	var tests []TestResult
	alloc := allocated(func() {
		events := parseEvents(raw)
		var err error
		tests, _, _, err = assemble(assembly{events: events, run: Result{Status: StatusOK}, needHello: true, what: "test process"})
		if err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%d MiB read, %d MiB allocated, %d tests", len(raw)>>20, alloc>>20, len(tests))
	if limit := uint64(4*len(raw) + 16<<20); alloc > limit {
		t.Errorf("allocated %d bytes for %d read, over %d", alloc, len(raw), limit)
	}
	for _, tr := range tests {
		if tr.Status == TestPassed {
			t.Errorf("%s passed", tr.Name)
		}
	}
}

// TestGoTestEventsBounded: test2json output naming a test per line (what
// "=== RUN" lines with distinct names become) is held up to the budget,
// and over is reported past it.
func TestGoTestEventsBounded(t *testing.T) {
	var b bytes.Buffer
	for i := range 300_000 {
		fmt.Fprintf(&b, `{"Action":"run","Test":"TestX/%d"}`+"\n", i)
	}
	conv := b.Bytes()
	var over bool
	alloc := allocated(func() {
		_, _, _, over = goTestEvents(bytes.NewReader(conv), nil, nil, newHostBudget(1<<20))
	})
	t.Logf("%d MiB of events, %d MiB allocated, over %v", len(conv)>>20, alloc>>20, over)
	if !over {
		t.Error("300,000 test names within a budget of 16 MiB")
	}
	if alloc > 64<<20 {
		t.Errorf("allocated %d MiB", alloc>>20)
	}
}
