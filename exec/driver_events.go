package exec

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// The reporters this package runs inside the sandbox (driver_unittest.py,
// driver_pytest.py, driver_junit.java) write one JSON object a line to a
// results file in the workspace, flushing each line as it happens, so that
// whatever the process wrote before a limit stopped it can be read:
//
//	{"e":"hello","v":1}                     the reporter started
//	{"e":"plan","tests":["a","b"]}          tests about to run (may repeat)
//	{"e":"start","test":"a"}                a test started
//	{"e":"end","test":"a","status":"failed","message":"...","duration":0.25}
//	{"e":"compile","message":"..."}         a module did not import / compile
//	{"e":"missing","test":"x"}              a requested name selects nothing
//	{"e":"done","exit":1}                   the framework finished
//
// and, in the JUnit reporter's rounds (JUnit.TestRounds):
//
//	{"e":"round","n":0}                     round 0 starts
//	{"e":"round-end","n":0,"duration":0.1}  round 0 finished
//	{"e":"round-timeout","n":0}             round 0 ran out of time
//	{"e":"stop","message":"..."}            no more rounds in this JVM
//
// status is a TestStatus text form and duration is in seconds. The JUnit
// reporter signs and numbers its lines (see parseSigned) and may send
//
//	{"e":"tamper","kind":"reporter-call","message":"..."}  evidence

// wireEvent is the JSON form of an event.
type wireEvent struct {
	E        string   `json:"e"`
	Test     string   `json:"test"`
	Tests    []string `json:"tests"`
	Status   string   `json:"status"`
	Message  string   `json:"message"`
	Duration float64  `json:"duration"`
	Exit     int      `json:"exit"`
	N        int      `json:"n"`
	Kind     string   `json:"kind"`
}

// parseEvents decodes a results file. Lines that are not valid events (such
// as a last line cut short when the process was killed) are skipped. What
// it keeps is bounded (hostBudget): past that it stops with an "over"
// event.
func parseEvents(b []byte) []event {
	var out []event
	budget := newHostBudget(len(b))
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		// Counted before decoding: a plan's names are about one a `","`.
		if !budget.take(2*len(line) + 160 + 320*bytes.Count(line, []byte(`","`))) {
			out = append(out, event{kind: "over"})
			break
		}
		var w wireEvent
		if json.Unmarshal(line, &w) != nil {
			continue
		}
		e := event{kind: w.E, name: w.Test, message: w.Message, exit: w.Exit, round: w.N}
		switch w.E {
		case "hello", "done", "round", "round-timeout", "stop":
		case "round-end":
			e.duration = seconds(w.Duration)
		case "plan":
			for _, n := range w.Tests {
				if n != "" {
					e.names = append(e.names, n)
				}
			}
		case "start", "missing":
			if w.Test == "" {
				continue
			}
		case "end":
			if w.Test == "" {
				continue
			}
			if err := e.status.UnmarshalText([]byte(w.Status)); err != nil || e.status == TestInvalid {
				e.status = TestError
				e.message = "the reporter sent an unknown status " + quoteShort(w.Status) + "\n" + w.Message
			}
			e.duration = seconds(w.Duration)
		case "compile":
		case "tamper":
			e.name = w.Kind
		default:
			continue
		}
		out = append(out, e)
	}
	return out
}

// hostBudget bounds what the host allocates for what a job reported: a
// constant times the bytes it read (which the job's output limit bounds),
// and 16 MiB at least, counted by estimate as names and events are kept.
type hostBudget struct{ left int64 }

func newHostBudget(read int) *hostBudget {
	return &hostBudget{left: max(4*int64(read), 16<<20)}
}

// take spends n and reports whether the budget still holds.
func (b *hostBudget) take(n int) bool {
	b.left -= int64(n)
	return b.left >= 0
}

// parseSigned decodes a results file whose lines the reporter signed
// (driver_junit.java's Channel): "JSON\tTAG", JSON starting with
// {"q":SEQ, and TAG the first 32 hexadecimal digits of SHA-256(JSON KEY).
// A line without a valid tag is dropped, and a "tamper" event stands in
// its place (one for a run of such lines, 16 at most); a signed line out
// of sequence (a line deleted, repeated or moved) ends the stream with a
// "tamper" event. The events are then as parseEvents gives them.
func parseSigned(b []byte, key string) []event {
	var (
		good   []byte // the verified JSON lines, and the host's tamper lines
		next   int64
		forged bool // the last line was not signed
		marks  int
	)
	tamper := func(kind, msg string) {
		w, _ := json.Marshal(wireEvent{E: "tamper", Kind: kind, Message: msg})
		good = append(append(good, w...), '\n')
	}
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			// A last line cut short (the process was killed as it wrote):
			// not evidence, and nothing to decode.
			break
		}
		if len(line) == 0 {
			continue
		}
		i := bytes.LastIndexByte(line, '\t')
		if i < 0 || !signed(line[:i], line[i+1:], key) {
			if !forged && marks < 16 {
				marks++
				tamper("forged-results", "the results file holds a line the reporter did not write: "+quoteShort(string(line)))
			}
			forged = true
			continue
		}
		forged = false
		if q, ok := lineSeq(line[:i]); !ok || q != next {
			tamper("results-order", fmt.Sprintf("the reporter's line %d is missing or out of order in the results file (a line deleted, repeated or moved)", next))
			break
		}
		next++
		good = append(append(good, line[:i]...), '\n')
	}
	return parseEvents(good)
}

// signed reports whether tag signs json with key.
func signed(json, tag []byte, key string) bool {
	h := sha256.New()
	h.Write(json)
	h.Write([]byte(key))
	var want [32]byte
	hex.Encode(want[:], h.Sum(nil)[:16])
	return subtle.ConstantTimeCompare(want[:], tag) == 1
}

// lineSeq reads SEQ from a line that starts {"q":SEQ followed by , or }.
func lineSeq(line []byte) (int64, bool) {
	rest, ok := bytes.CutPrefix(line, []byte(`{"q":`))
	if !ok {
		return 0, false
	}
	end := bytes.IndexAny(rest, ",}")
	if end <= 0 {
		return 0, false
	}
	q, err := strconv.ParseInt(string(rest[:end]), 10, 64)
	return q, err == nil
}

// tampers gathers the evidence among events.
func tampers(events []event) []Tamper {
	var out []Tamper
	for _, e := range events {
		if e.kind == "tamper" {
			out = append(out, Tamper{Kind: e.name, Detail: e.message})
		}
	}
	return out
}

// seconds converts a duration in seconds, clamping nonsense to zero.
func seconds(s float64) time.Duration {
	if math.IsNaN(s) || s <= 0 || s > float64(math.MaxInt64/int64(time.Second)) {
		return 0
	}
	return time.Duration(s * float64(time.Second))
}

func quoteShort(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	b, _ := json.Marshal(s)
	return string(b)
}
