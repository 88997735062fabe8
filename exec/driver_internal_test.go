package exec

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestDriverTestStatusText(t *testing.T) {
	for s := TestInvalid; s <= TestTimedOut; s++ {
		b, err := s.MarshalText()
		if err != nil {
			t.Fatalf("%d: MarshalText: %v", s, err)
		}
		var back TestStatus
		if err := back.UnmarshalText(b); err != nil || back != s {
			t.Errorf("%s: round trip gave %v, %v", b, back, err)
		}
		if s.String() != string(b) {
			t.Errorf("%d: String %q != MarshalText %q", s, s.String(), b)
		}
	}
	var s TestStatus
	for _, bad := range []string{"", "PASSED", "pass", "ok"} {
		if err := s.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) = nil, want an error", bad)
		}
	}
	if _, err := TestStatus(200).MarshalText(); err == nil {
		t.Error("MarshalText(200) = nil, want an error")
	}
	b, err := json.Marshal(TestResult{Name: "t", Status: TestTimedOut})
	if err != nil || string(b) != `{"name":"t","status":"timeout"}` {
		t.Errorf("json.Marshal(TestResult) = %s, %v", b, err)
	}
}

func TestDriverAssemble(t *testing.T) {
	ev := func(lines ...string) []event { return parseEvents([]byte(strings.Join(lines, "\n"))) }
	for _, tc := range []struct {
		name   string
		events []event
		run    Result
		want   []TestResult
		reason string
	}{{
		name: "finished",
		events: ev(`{"e":"hello","v":1}`, `{"e":"plan","tests":["b","a"]}`,
			`{"e":"start","test":"b"}`, `{"e":"end","test":"b","status":"failed","message":"boom","duration":0.5}`,
			`{"e":"start","test":"a"}`, `{"e":"end","test":"a","status":"passed"}`, `{"e":"done"}`),
		run:    Result{Status: StatusOK},
		want:   []TestResult{{Name: "a", Status: TestPassed}, {Name: "b", Status: TestFailed, Message: "boom", Duration: 500 * time.Millisecond}},
		reason: "results are sorted by name whatever the run order",
	}, {
		name: "wall-time",
		events: ev(`{"e":"hello","v":1}`, `{"e":"plan","tests":["a","b","c"]}`,
			`{"e":"start","test":"a"}`, `{"e":"end","test":"a","status":"passed"}`,
			`{"e":"start","test":"b"}`, `{"e":"end","test":"b","stat`),
		run: Result{Status: StatusWallTime, Detail: "too slow"},
		want: []TestResult{{Name: "a", Status: TestPassed},
			{Name: "b", Status: TestTimedOut, Message: "the suite hit its time limit while this test ran: too slow"},
			{Name: "c", Status: TestTimedOut, Message: msgNotRunTime}},
		reason: "a cut last line is skipped; the running test and those not reached time out",
	}, {
		name:   "worst-wins",
		events: ev(`{"e":"hello"}`, `{"e":"end","test":"a","status":"failed","message":"x"}`, `{"e":"end","test":"a","status":"error","message":"y"}`, `{"e":"end","test":"a","status":"passed"}`, `{"e":"done"}`),
		run:    Result{Status: StatusOK},
		want:   []TestResult{{Name: "a", Status: TestError, Message: "x\ny"}},
		reason: "a test that reports twice (body, then teardown) keeps the worse outcome",
	}, {
		name:   "unknown-status",
		events: ev(`{"e":"hello"}`, `{"e":"end","test":"a","status":"weird"}`, `{"e":"done"}`),
		run:    Result{Status: StatusOK},
		want:   []TestResult{{Name: "a", Status: TestError, Message: "the reporter sent an unknown status \"weird\"\n"}},
		reason: "a status the driver does not know is an error, not a pass",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, compile, _, err := assemble(assembly{events: tc.events, run: tc.run, needHello: true, what: "test process"})
			if err != nil || compile != nil {
				t.Fatalf("assemble: %v, %v", compile, err)
			}
			assert.Equal(t, tc.want, got, tc.reason)
		})
	}
	if _, _, _, err := assemble(assembly{run: Result{Status: StatusExit, Detail: "exit code 1"}, needHello: true, what: "x"}); err == nil {
		t.Error("no hello after a plain exit: no error, want a harness error")
	}
	if _, _, _, err := assemble(assembly{run: Result{Status: StatusWallTime}, needHello: true, what: "x"}); err != nil {
		t.Errorf("no hello after a time limit: %v, want an (empty) outcome", err)
	}
}

// checkAssembled checks the invariants of assembled results.
func checkAssembled(t *testing.T, tests []TestResult) {
	t.Helper()
	if !slices.IsSortedFunc(tests, func(a, b TestResult) int { return strings.Compare(a.Name, b.Name) }) {
		t.Fatalf("results not sorted: %v", tests)
	}
	for i, r := range tests {
		if r.Status == TestInvalid || r.Status > TestTimedOut {
			t.Fatalf("%q: status %d", r.Name, r.Status)
		}
		if r.Name == "" || i > 0 && tests[i-1].Name == r.Name {
			t.Fatalf("empty or duplicate name %q", r.Name)
		}
		if len(r.Message) > maxMessage+64 || r.Duration < 0 {
			t.Fatalf("%q: message of %d bytes, duration %v", r.Name, len(r.Message), r.Duration)
		}
	}
}

func FuzzDriverEvents(f *testing.F) {
	f.Add([]byte(`{"e":"hello","v":1}
{"e":"plan","tests":["a","b"]}
{"e":"start","test":"a"}
{"e":"end","test":"a","status":"passed","duration":0.1}
{"e":"missing","test":"z"}
{"e":"done","exit":0}
`), uint8(StatusOK))
	f.Add([]byte(`{"e":"hello"}`+"\n"+`{"e":"compile","message":"SyntaxError"}`), uint8(StatusExit))
	f.Add([]byte(`{"e":"end","test":"a","status":"timeout","duration":1e300}`+"\n"+`{"e":"end","test":"a","duration":-1}`+"\n{"), uint8(StatusWallTime))
	f.Add([]byte("\x00\xff{\"e\":\"plan\",\"tests\":[\"\",null,1]}\n"), uint8(StatusMemory))
	f.Add([]byte(`{"e":"hello","v":1}
{"e":"round","n":0}
{"e":"plan","tests":["a"]}
{"e":"end","test":"a","status":"passed","duration":0.1}
{"e":"round-end","n":0,"duration":0.2}
{"e":"round","n":1}
{"e":"start","test":"a"}
{"e":"round-timeout","n":1}
{"e":"round","n":2}
{"e":"round-end","n":2}
{"e":"stop","message":"a thread is still running"}
{"e":"done","exit":0}
`), uint8(StatusOK))
	f.Fuzz(func(t *testing.T, data []byte, st uint8) {
		events := parseEvents(data)
		// The rounds of a JUnit.TestRounds JVM: only rounds that started
		// can be decided, each with events of its own.
		n := int(st%5) + 1
		decided, last := splitRounds(events, n)
		if len(decided) != n || last < -1 || last >= n {
			t.Fatalf("%d rounds: %d decided, last %d", n, len(decided), last)
		}
		for i, d := range decided {
			if d != nil && (i > last || d.wall < 0 || len(d.events) == 0 || d.events[len(d.events)-1].kind != "done") {
				t.Fatalf("round %d of %d (last %d) decided with %+v", i, n, last, d)
			}
		}
		for _, e := range events {
			switch e.kind {
			case "hello", "plan", "start", "end", "compile", "missing", "done", "round", "round-end", "round-timeout", "stop":
			default:
				t.Fatalf("unknown event kind %q", e.kind)
			}
			if e.kind == "end" && (e.status == TestInvalid || e.status > TestTimedOut) {
				t.Fatalf("end event with status %d", e.status)
			}
			if e.duration < 0 {
				t.Fatalf("negative duration %v", e.duration)
			}
		}
		run := Result{Status: Status(st % uint8(StatusInternal+1)), Detail: "x"}
		tests, compile, _, err := assemble(assembly{events: events, run: run, needHello: true, what: "p"})
		if err != nil {
			return
		}
		if compile != nil && len(tests) != 0 {
			t.Fatalf("compile error with %d tests", len(tests))
		}
		checkAssembled(t, tests)
	})
}

func FuzzDriverTest2JSON(f *testing.F) {
	f.Add([]byte(`{"Action":"start","Package":"p"}
{"Action":"run","Test":"TestA"}
{"Action":"output","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Test":"TestA","Output":"    a_test.go:3: boom\n"}
{"Action":"fail","Test":"TestA","Elapsed":0.01}
{"Action":"run","Test":"TestA/sub"}
{"Action":"pass","Test":"TestA/sub"}
{"Action":"fail","Elapsed":0.02}
`), []byte("TestA\nTestB\nBenchmarkC\n"))
	f.Add([]byte(`{"Action":"run","Test":"TestP"}
{"Action":"output","Test":"TestP","Output":"--- FAIL: TestP (0.00s)\n"}
{"Action":"output","Test":"TestP","Output":"panic: boom\n"}
`), []byte("TestP\nTestQ\n"))
	f.Fuzz(func(t *testing.T, conv, list []byte) {
		events, _, _, _ := goTestEvents(bytes.NewReader(conv), list, []string{"TestA", "TestZ"}, newHostBudget(len(conv)))
		for _, st := range []Status{StatusOK, StatusExit, StatusWallTime} {
			tests, _, _, err := assemble(assembly{events: events, run: Result{Status: st}, what: "test binary"})
			if err != nil {
				t.Fatal(err)
			}
			checkAssembled(t, tests)
		}
	})
}

func TestDriverCut(t *testing.T) {
	s := strings.Repeat("a", 100) + strings.Repeat("b", 100)
	got := cut(s, 50)
	if !strings.HasPrefix(got, strings.Repeat("a", 25)) || !strings.HasSuffix(got, strings.Repeat("b", 25)) || !strings.Contains(got, "150 bytes omitted") {
		t.Errorf("cut = %q", got)
	}
	if cut("short", 50) != "short" {
		t.Error("cut changed a short string")
	}
}

// TestGoTestEventsListFailed: the list of a test binary is a run of its
// own; when it gives nothing (it failed), a test the run reported keeps
// its outcome, and one the run did not report is not found only when the
// run finished, else not run.
func TestGoTestEventsListFailed(t *testing.T) {
	const ran = `{"Action":"run","Test":"TestA"}
{"Action":"output","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Test":"TestA","Output":"--- PASS: TestA (0.00s)\n"}
{"Action":"pass","Test":"TestA","Elapsed":0}
`
	for _, tc := range []struct {
		name  string
		conv  string
		run   Result
		want  map[string]TestStatus
		wantB string
	}{
		{"finished", ran + `{"Action":"pass","Elapsed":0.01}` + "\n", Result{Status: StatusOK},
			map[string]TestStatus{"TestA": TestPassed, "TestB": TestError}, msgNotFound},
		{"died", ran + `{"Action":"run","Test":"TestC"}` + "\n", Result{Status: StatusSignal, Detail: "killed"},
			map[string]TestStatus{"TestA": TestPassed, "TestB": TestError, "TestC": TestError}, "not run: the test binary died first (killed)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			events, _, _, _ := goTestEvents(strings.NewReader(tc.conv), nil, []string{"TestA", "TestB", "TestC"}, newHostBudget(0))
			tests, _, _, err := assemble(assembly{events: events, run: tc.run, what: "test binary"})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]TestStatus{}
			for _, tr := range tests {
				got[tr.Name] = tr.Status
				if tr.Name == "TestB" && tr.Message != tc.wantB {
					t.Errorf("TestB: message %q, want %q", tr.Message, tc.wantB)
				}
			}
			for n, st := range tc.want {
				if got[n] != st {
					t.Errorf("%s: %s, want %s (all: %v)", n, got[n], st, got)
				}
			}
		})
	}
}
