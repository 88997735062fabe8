package exec

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckFrames: the host keeps the events that carry the run's nonce in
// order, and reports every other line written to the results channel as
// evidence of tampering.
func TestCheckFrames(t *testing.T) {
	const nonce = "n0"
	ev := func(q int, body string) string { return fmt.Sprintf(`{%s,"k":%q,"q":%d}`+"\n", body, nonce, q) }
	hello, plan := ev(0, `"e":"hello"`), ev(1, `"e":"plan","tests":["a","b"]`)
	startA, endA := ev(2, `"e":"start","test":"a"`), ev(3, `"e":"end","test":"a","status":"failed"`)
	done := ev(4, `"e":"done","exit":1`)
	honest := hello + plan + startA + endA + done
	tests := []struct {
		name, stream string
		events       int    // events kept
		forged       string // a substring of the evidence; "" for none
		reason       string
	}{
		{"honest", honest, 5, "", "every event in order"},
		{"cut last line", honest + `{"e":"end","te`, 5, "", "a process killed while writing leaves a partial line"},
		{"no nonce", hello + plan + `{"e":"end","test":"b","status":"passed"}` + "\n" + startA + endA + done, 5, "without the run's nonce", "a forged event"},
		{"wrong nonce", hello + strings.Replace(plan, nonce, "guess", 1) + startA, 2, "without the run's nonce", "a guessed nonce"},
		{"replayed", honest + endA, 5, "again or out of order", "an event sent twice"},
		{"gap", hello + plan + endA + done, 4, "events 2 to 2 are missing", "an event taken back"},
		{"after done", hello + plan + startA + endA + done + ev(5, `"e":"end","test":"b","status":"passed"`), 5, "after the run's end", "an end after done"},
		{"nested start", hello + plan + startA + ev(3, `"e":"start","test":"b"`), 3, "started while", "a test cannot start inside another"},
		{"end of another", hello + plan + startA + ev(3, `"e":"end","test":"b","status":"passed"`), 3, "ended twice or while", "only the running test ends"},
		{"ended twice", hello + plan + startA + endA + ev(4, `"e":"end","test":"a","status":"passed"`), 4, "ended twice", "a second end would win"},
		{"garbage", hello + "passed\n" + plan, 2, "not an event", "whatever else reaches the channel"},
		{"tamper event", hello + ev(1, `"e":"tamper","kind":"framework-patch","detail":"x"`), 1, "framework-patch", "the reporter's own evidence"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			events, tampered := checkFrames([]byte(tc.stream), nonce)
			if len(events) != tc.events {
				t.Errorf("%s: kept %d events, want %d: %+v", tc.reason, len(events), tc.events, events)
			}
			var got []string
			for _, tp := range tampered {
				got = append(got, tp.Kind+": "+tp.Detail)
			}
			all := strings.Join(got, "\n")
			switch {
			case tc.forged == "" && len(tampered) > 0:
				t.Errorf("%s: evidence %q, want none", tc.reason, all)
			case tc.forged != "" && !strings.Contains(all, tc.forged):
				t.Errorf("%s: evidence %q, want %q", tc.reason, all, tc.forged)
			}
		})
	}
}

// TestScanPython: the known forms in a workspace's Python files are Static
// evidence, one per form and file; an honest file gives none.
func TestScanPython(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"calc.py":   "import unittest\nfor c in unittest.TestResult.__subclasses__():\n    c.addFailure = None\n",
		"honest.py": "def add(a, b):\n    return a + b\n",
		"peek.py":   "import sys\nf = sys._getframe()\nimport ctypes\n",
		"notes.txt": "sys._getframe",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, tp := range scanPython(dir, nil) {
		if !tp.Static {
			t.Errorf("%+v: not Static", tp)
		}
		got = append(got, tp.Kind+" "+tp.Detail)
	}
	want := []string{
		`framework-patch calc.py line 2: "__subclasses__()"`,
		`introspection peek.py line 2: "sys._getframe"`,
		`ctypes peek.py line 3: "import ctypes"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("scanPython:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCheckFramesBounded: a plan of a million names costs the host a
// bounded allocation, as parseEvents's does: past its budget the stream
// ends with an "over" event.
func TestCheckFramesBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"e":"hello","k":"n","q":0}` + "\n")
	b.WriteString(`{"e":"plan","k":"n","q":1,"tests":["`)
	for i := range 1000000 {
		if i > 0 {
			b.WriteString(`","`)
		}
		fmt.Fprintf(&b, "t%d", i)
	}
	b.WriteString(`"]}` + "\n")
	events, _ := checkFrames([]byte(b.String()), "n")
	if len(events) == 0 || events[len(events)-1].kind != "over" {
		t.Fatalf("no over event: %d events", len(events))
	}
	for _, e := range events {
		if len(e.names) > 0 {
			t.Errorf("the plan of a million names was kept")
		}
	}
}
