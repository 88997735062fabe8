package adapt

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// A journal is a JSON Lines file to which an evaluation appends every
// completion and every test result as it finishes. Running the same
// evaluation again with the same journal skips what it already holds; the
// journals of the shards of one evaluation merge into its report.
//
// Line kinds: "header" (what evaluation this is), "gold" (the reference
// check of a task), "completion" (one sample's model output) and "result"
// (one sample's test result). Every line but the header carries the task ID
// and a hash of the task, so that a changed task is evaluated anew.

type journalRecord struct {
	Kind        string        `json:"kind"`
	Fingerprint string        `json:"fingerprint,omitempty"`
	Meta        *RunInfo      `json:"meta,omitempty"`
	Task        string        `json:"task,omitempty"`
	TaskHash    string        `json:"task_hash,omitempty"`
	Sample      int           `json:"sample"`
	Completion  *Completion   `json:"completion,omitempty"`
	Result      *SampleResult `json:"result,omitempty"`
}

type sampleKey struct {
	task   string
	sample int
}

// records holds what a journal knows, keyed by task and sample.
type records struct {
	gold        map[string]SampleResult
	completions map[sampleKey]Completion
	results     map[sampleKey]SampleResult
}

func newRecords() *records {
	return &records{gold: map[string]SampleResult{}, completions: map[sampleKey]Completion{}, results: map[sampleKey]SampleResult{}}
}

// add files a record if it matches the hash of its task.
func (r *records) add(rec journalRecord, hashes map[string]string) {
	if h, ok := hashes[rec.Task]; !ok || h != rec.TaskHash {
		return
	}
	k := sampleKey{rec.Task, rec.Sample}
	switch {
	case rec.Kind == "gold" && rec.Result != nil:
		r.gold[rec.Task] = *rec.Result
	case rec.Kind == "completion" && rec.Completion != nil:
		r.completions[k] = *rec.Completion
	case rec.Kind == "result" && rec.Result != nil:
		r.results[k] = *rec.Result
	}
}

// ErrJournalMismatch is wrapped when a journal was written by a different
// evaluation (another model, template, sampling or sample count).
var ErrJournalMismatch = errors.New("adapt: journal belongs to a different evaluation")

// readJournal loads a journal's records. A last line cut short (a process
// killed while writing) is ignored; any other bad line is an error.
func readJournal(name, fingerprint string, hashes map[string]string, into *records) (*RunInfo, error) {
	var meta *RunInfo
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("adapt: %w", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	for line := 1; ; line++ {
		raw, err := br.ReadBytes('\n')
		if err == io.EOF {
			// A line without its newline was cut short: drop it.
			return meta, nil
		}
		if err != nil {
			return nil, &ParseError{Path: name, Line: line, Err: err}
		}
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		var rec journalRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return nil, &ParseError{Path: name, Line: line, Err: fmt.Errorf("malformed journal record: %w", err)}
		}
		if rec.Kind == "header" {
			if fingerprint != "" && rec.Fingerprint != fingerprint {
				return nil, &ParseError{Path: name, Line: line, Err: fmt.Errorf("%w (fingerprint %s, this evaluation %s)", ErrJournalMismatch, rec.Fingerprint, fingerprint)}
			}
			meta = rec.Meta
			continue
		}
		into.add(rec, hashes)
	}
}

// journal appends records to a file, one write per record.
type journal struct {
	mu sync.Mutex
	f  *os.File
}

func openJournal(name, fingerprint string, meta RunInfo) (*journal, error) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("adapt: open journal: %w", err)
	}
	j := &journal{f: f}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("adapt: open journal: %w", err)
	}
	if fi.Size() == 0 {
		if err := j.append(journalRecord{Kind: "header", Fingerprint: fingerprint, Meta: &meta}); err != nil {
			f.Close()
			return nil, err
		}
	} else if err := terminateLastLine(f, fi.Size()); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// terminateLastLine ends a line cut short by a kill, so that the next
// record starts on a line of its own.
func terminateLastLine(f *os.File, size int64) error {
	r, err := os.Open(f.Name())
	if err != nil {
		return err
	}
	defer r.Close()
	b := make([]byte, 1)
	if _, err := r.ReadAt(b, size-1); err != nil {
		return err
	}
	if b[0] != '\n' {
		_, err = f.Write([]byte("\n"))
	}
	return err
}

func (j *journal) append(rec journalRecord) error {
	if j == nil {
		return nil
	}
	b, err := marshalLine(rec)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := j.f.Write(b); err != nil {
		return fmt.Errorf("adapt: write journal: %w", err)
	}
	return nil
}

func (j *journal) close() error {
	if j == nil {
		return nil
	}
	return j.f.Close()
}

// taskHash is a short content hash of a task.
func taskHash(t *Task) string {
	b, _ := json.Marshal(t)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
