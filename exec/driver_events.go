package exec

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"
)

// The reporters this package runs inside the sandbox (driver_unittest.py,
// driver_pytest.py, driver_junit.java) write one JSON object a line to a
// results file in the workspace (the Python ones to a results channel, see
// checkFrames), flushing each line as it happens, so that whatever the
// process wrote before a limit stopped it can be read:
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
	// The Python reporters' framing (checkFrames): the run's nonce, the
	// event's number in the stream, and a tamper event's evidence.
	K      string `json:"k"`
	Q      *int   `json:"q"`
	Detail string `json:"detail"`
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
		if e, ok := w.event(); ok {
			out = append(out, e)
		}
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

// event decodes w; ok is false for what is not an event.
func (w *wireEvent) event() (e event, ok bool) {
	e = event{kind: w.E, name: w.Test, message: w.Message, exit: w.Exit, round: w.N}
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
			return e, false
		}
	case "end":
		if w.Test == "" {
			return e, false
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
		return e, false
	}
	return e, true
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

// The Python reporters (driver_guard.py) send their events on a results
// channel (Job.Results), each with the run's nonce, which they read from
// stdin before any code of the job runs, and its number in the stream:
//
//	{"e":"start","test":"a","k":"<nonce>","q":3}
//
// and evidence of tampering as {"e":"tamper","kind":"...","detail":"..."}.

// resultsChannel is the host's end of a reporter's results channel.
type resultsChannel struct {
	nonce string
	r, w  *os.File
	got   chan []byte
}

// openChannel makes the channel of one run, with a fresh nonce, and starts
// reading it.
func openChannel() (*resultsChannel, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("exec: results channel: %w", err)
	}
	var b [16]byte
	rand.Read(b[:])
	c := &resultsChannel{nonce: hex.EncodeToString(b[:]), r: r, w: w, got: make(chan []byte, 1)}
	go func() { c.got <- readCapped(r, maxReport) }()
	return c, nil
}

// wait closes the host's write end and returns what the job sent, once
// every writer is gone. The runner has ended every process of the job; a
// writer outside its reach (a process escaping an Unsandboxed runner) is
// given a second.
func (c *resultsChannel) wait() []byte {
	c.w.Close()
	select {
	case b := <-c.got:
		return b
	case <-time.After(time.Second):
		c.r.SetReadDeadline(time.Now())
		return <-c.got
	}
}

func (c *resultsChannel) close() {
	c.w.Close()
	c.r.Close()
}

// readCapped returns the first n bytes r gives, reading (and dropping) the
// rest to its end so that the writer never blocks.
func readCapped(r io.Reader, n Size) []byte {
	var out []byte
	buf := make([]byte, 64<<10)
	for {
		k, err := r.Read(buf)
		if room := int(n) - len(out); room > 0 {
			out = append(out, buf[:min(k, room)]...)
		}
		if err != nil {
			return out
		}
	}
}

// checkFrames decodes a results stream of a run with the nonce, keeping the
// events that carry it in order. What breaks the framing is evidence that
// the code under test wrote to the channel: a line without the nonce, an
// event out of order, duplicated or after the run's end, a test started
// while another runs, ended twice, or ended while another runs. A last line
// cut short (the process was killed while writing it) is not. What it
// keeps is bounded as in parseEvents.
func checkFrames(b []byte, nonce string) (events []event, tampered []Tamper) {
	var (
		seq     int
		done    bool
		running string
		ended   = map[string]bool{}
	)
	forged := func(n int, format string, a ...any) {
		if len(tampered) < 20 {
			tampered = append(tampered, Tamper{Kind: "forged-event", Detail: fmt.Sprintf("results line %d: ", n) + fmt.Sprintf(format, a...)})
		}
	}
	budget := newHostBudget(len(b))
	for n := 1; len(b) > 0; n++ {
		line, rest, whole := bytes.Cut(b, []byte{'\n'})
		b = rest
		// Counted before decoding, as parseEvents does.
		if !budget.take(2*len(line) + 160 + 320*bytes.Count(line, []byte(`","`))) {
			events = append(events, event{kind: "over"})
			break
		}
		var w wireEvent
		if err := json.Unmarshal(line, &w); err != nil {
			if whole {
				forged(n, "not an event: %s", quoteShort(string(line)))
			}
			continue
		}
		switch {
		case w.K != nonce:
			forged(n, "an event without the run's nonce: %s", quoteShort(string(line)))
			continue
		case w.Q == nil || *w.Q < seq:
			forged(n, "an event sent again or out of order: %s", quoteShort(string(line)))
			continue
		case *w.Q > seq:
			forged(n, "events %d to %d are missing: they were written elsewhere or taken back", seq, *w.Q-1)
		}
		seq = *w.Q + 1
		if w.E == "tamper" {
			if len(tampered) < 100 {
				tampered = append(tampered, Tamper{Kind: cut(w.Kind, 64), Detail: cut(w.Detail, 2048)})
			}
			continue
		}
		if done {
			forged(n, "an event after the run's end: %s", quoteShort(string(line)))
			continue
		}
		e, ok := w.event()
		if !ok {
			continue
		}
		switch e.kind {
		case "done":
			done = true
		case "start":
			if running != "" {
				forged(n, "test %s started while %s ran", quoteShort(e.name), quoteShort(running))
				continue
			}
			running = e.name
		case "end":
			if ended[e.name] || (running != "" && running != e.name) {
				forged(n, "test %s ended twice or while %s ran", quoteShort(e.name), quoteShort(running))
				continue
			}
			ended[e.name] = true
			if running == e.name {
				running = ""
			}
		}
		events = append(events, e)
	}
	return events, tampered
}
