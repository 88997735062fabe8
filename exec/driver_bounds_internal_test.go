package exec

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"strings"
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

// TestWrapTestMain: a package's own TestMain has each m.Run() on its
// *testing.M parameter wrapped (once, inside a literal too), every line
// where it was; a file without TestMain is left alone; a TestMain whose
// m.Run the driver cannot find is an error, not a run without markers.
func TestWrapTestMain(t *testing.T) {
	src := "package x_test\n\nimport (\n\t\"os\"\n\tt \"testing\"\n)\n\nfunc TestMain(m *t.M) {\n\tcode := func() int { return m.Run() }()\n\tos.Exit(code)\n}\n"
	out, main, _, err := wrapTestFile([]byte(src), "w", "example.com/x/0w")
	if err != nil || !main {
		t.Fatalf("main %v, err %v", main, err)
	}
	want := "package x_test; import w \"example.com/x/0w\"\n\nimport (\n\t\"os\"\n\tt \"testing\"\n)\n\nfunc TestMain(m *t.M) {\n\tcode := func() int { return w.Run(m) }()\n\tos.Exit(code)\n}\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if out, main, _, err := wrapTestFile([]byte("package x\n\nfunc TestA() {}\n"), "w", "p"); out != nil || main || err != nil {
		t.Errorf("no TestMain: %q %v %v", out, main, err)
	}
	if _, _, _, err := wrapTestFile([]byte("package x\n\nimport \"testing\"\n\nfunc TestMain(m *testing.M) { run := m.Run; run() }\n"), "w", "p"); err == nil {
		t.Error("a TestMain whose m.Run() is not a call: no error")
	}
}

// TestCapSegments: output between two framing lines keeps its head and
// tail; lines that only start with the marker byte are output too.
func TestCapSegments(t *testing.T) {
	flood := bytes.Repeat([]byte("\x16\n"), 100_000)
	in := append(append([]byte("\x16=== RUN   TestA\n"), flood...), "said last\n\x16--- FAIL: TestA (0.00s)\n"...)
	out := capSegments(in, 1000, 100)
	if len(out) > 2000 {
		t.Errorf("%d bytes kept of %d", len(out), len(in))
	}
	for _, want := range []string{"\x16=== RUN   TestA\n", "bytes of output omitted", "said last\n\x16--- FAIL: TestA"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("no %q in %q", want, out)
		}
	}
	if small := []byte("\x16=== RUN   TestA\nhi\n\x16--- PASS: TestA (0.00s)\n"); !bytes.Equal(capSegments(small, 1000, 100), small) {
		t.Errorf("a small output changed: %q", capSegments(small, 1000, 100))
	}
}

// TestParseSigned: signed lines in sequence decode; a line the reporter
// did not sign is dropped and is evidence where it was; a line out of
// sequence ends the stream; a last line cut short is neither.
func TestParseSigned(t *testing.T) {
	const key = "k3y"
	sign := func(json string) string {
		h := sha256.Sum256([]byte(json + key))
		return json + "\t" + hex.EncodeToString(h[:16]) + "\n"
	}
	hello, plan := sign(`{"q":0,"e":"hello","v":1}`), sign(`{"q":1,"e":"plan","tests":["a","b"]}`)
	endA := sign(`{"q":2,"e":"end","test":"a","status":"failed","message":"no"}`)
	forged := `{"q":2,"e":"end","test":"a","status":"passed"}` + "\tdeadbeefdeadbeefdeadbeefdeadbeef\n"
	kinds := func(events []event) string {
		var b strings.Builder
		for _, e := range events {
			fmt.Fprintf(&b, "%s:%s ", e.kind, e.name)
		}
		return b.String()
	}
	for _, tc := range []struct{ name, in, want string }{
		{"honest", hello + plan + endA, "hello: plan: end:a "},
		{"forged line", hello + plan + forged + endA, "hello: plan: tamper:forged-results end:a "},
		{"replayed line", hello + plan + plan + endA, "hello: plan: tamper:results-order "},
		{"cut short", hello + plan + endA[:20], "hello: plan: "},
		{"wrong key", strings.ReplaceAll(hello, "a", "b"), "tamper:forged-results "},
	} {
		if got := kinds(parseSigned([]byte(tc.in), key)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestWrapTestFileTracks: each top-level test and fuzz target starts with
// the driver's Track on its parameter (named for it when unnamed or "_"),
// every line where it was; methods, helpers with other signatures and
// functions whose names only start with Test are left alone.
func TestWrapTestFileTracks(t *testing.T) {
	src := "package x\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n}\n\nfunc Test_b(*testing.T) {}\n\nfunc TestC(_ *testing.T) { t := 1; _ = t }\n\nfunc FuzzD(f *testing.F) {}\n\nfunc Testify(t *testing.T) {}\n\nfunc TestE(t *testing.T, n int) {}\n\nfunc (s) TestF(t *testing.T) {}\n\nfunc TestG(b *testing.B) {}\n"
	out, main, tracked, err := wrapTestFile([]byte(src), "w", "p")
	if err != nil || main {
		t.Fatalf("main %v, err %v", main, err)
	}
	want := "package x; import w \"p\"\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { w.Track(t, \"TestA\");\n}\n\nfunc Test_b(adaptbenchT *testing.T) { w.Track(adaptbenchT, \"Test_b\");}\n\nfunc TestC(adaptbenchT *testing.T) { w.Track(adaptbenchT, \"TestC\"); t := 1; _ = t }\n\nfunc FuzzD(f *testing.F) { w.Track(f, \"FuzzD\");}\n\nfunc Testify(t *testing.T) {}\n\nfunc TestE(t *testing.T, n int) {}\n\nfunc (s) TestF(t *testing.T) {}\n\nfunc TestG(b *testing.B) {}\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if got := strings.Join(tracked, " "); got != "TestA Test_b TestC FuzzD" {
		t.Errorf("tracked %q", got)
	}
}
