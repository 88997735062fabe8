package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// refResults holds the reference checks made in this process, by cache
// key: every evaluation of a task set pays for each reference once, the
// second model's run none.
var refResults sync.Map // string -> SampleResult

// cacheable reports whether a reference's result may stand for its next
// check: not an infrastructure error (never a verdict) nor a timeout (a
// busy machine's verdict as much as the code's), which are checked again.
func cacheable(r report.SampleResult) bool {
	return r.Outcome != report.OutcomeInfraError && r.Outcome != report.OutcomeInvalid && r.Outcome != report.OutcomeTimeout && r.Attempts == 0
}

// refEntry is a cache file: the key it answers and the result, with the
// result's digest, so that a torn or edited file is not trusted.
type refEntry struct {
	Key    string          `json:"key"`
	Result json.RawMessage `json:"result"`
	SHA256 string          `json:"sha256"`
}

// GetReference returns the reference check kept under key k, in this
// process or, with dir, in dir's file of k.
func GetReference(dir, k string) (report.SampleResult, bool) {
	if v, ok := refResults.Load(k); ok {
		return v.(report.SampleResult), true
	}
	if dir == "" {
		return report.SampleResult{}, false
	}
	b, err := os.ReadFile(filepath.Join(dir, k+".json"))
	if err != nil {
		return report.SampleResult{}, false
	}
	// Anything but a whole entry for this key whose digest holds is
	// ignored: the check is made again and the entry rewritten.
	var e refEntry
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if d.Decode(&e) != nil || e.Key != k || e.SHA256 != digestHex(e.Result) {
		return report.SampleResult{}, false
	}
	var r report.SampleResult
	if json.Unmarshal(e.Result, &r) != nil || !cacheable(r) || r.Sample != -1 {
		return report.SampleResult{}, false
	}
	refResults.Store(k, r)
	return r, true
}

// PutReference keeps r under key k, in the process and, with dir, in a
// file written whole and renamed into place, so that processes writing
// the same entry at once each leave a whole one. A file that cannot be
// written costs the next process a check, not a number.
func PutReference(dir, k string, r report.SampleResult) {
	if !cacheable(r) {
		return
	}
	refResults.Store(k, r)
	if dir == "" {
		return
	}
	res, err := json.Marshal(r)
	if err != nil {
		return
	}
	b, err := json.Marshal(refEntry{Key: k, Result: res, SHA256: digestHex(res)})
	if err != nil || os.MkdirAll(dir, 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(dir, ".tmp-"+k[:16]+"-*")
	if err != nil {
		return
	}
	_, werr := f.Write(append(b, '\n'))
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), filepath.Join(dir, k+".json")) != nil {
		os.Remove(f.Name())
	}
}

func digestHex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ForgetReferences empties the process's reference checks (for tests that
// count checks).
func ForgetReferences() { refResults.Clear() }
