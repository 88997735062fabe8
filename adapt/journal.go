package adapt

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/adaptbench/adaptbench/adapt/internal/store"
	"github.com/adaptbench/adaptbench/adapt/report"

	"github.com/adaptbench/adaptbench/exec"
)

// A journal is a JSON Lines file to which an evaluation appends every
// model answer and every test result as it becomes final. Running the same
// evaluation again with the same journal skips what it already holds; the
// journals of the shards of one evaluation merge into its report.
//
// Line kinds: "header" (the format version, what evaluation this is and
// which shard), "gold" (the reference check of a task), "completion" (one
// sample's model output, or the model's error for it, with the number of
// attempts), "result" (one sample's test result, infrastructure errors
// included, with the number of attempts) and "machine" (the manifest of
// the machine that wrote the lines after it, where a run resumed on
// another machine than the header's or the last "machine" line's). Every
// line but the header and "machine" lines carries the task ID and a hash
// of the task. A later line for the same sample replaces an earlier one
// (a resumed run asking again for an errored sample).

// journalVersion is the format written; older journals are refused.
// Format 3 added each line's checksum, Bytes, and the runner, limits,
// model identity and prompt digest to the header. Format 4 chains the
// lines: the header holds a random ID, and each line's checksum covers
// that ID and the checksum of the line before it, so that a line deleted,
// moved, edited or copied from another journal breaks the chain at a line
// the error names.
//
// Format 3 is refused rather than read with a notice: it cannot show that
// no line was deleted or copied in, which is what format 4 is for, and a
// notice would reach no one in Merge and only a Progress callback in
// Evaluate. The promise kept for format 3 journals (a runner renamed since,
// a run that had no name) holds in the fingerprint, which format 4 keeps.
const journalVersion = 4

type journalRecord struct {
	Kind    string `json:"kind"`
	Version int    `json:"version,omitempty"`
	// ID is the header's random identity of the journal, which every
	// line's checksum covers.
	ID string `json:"id,omitempty"`
	// Machine is a "machine" line's manifest.
	Machine     *report.Manifest `json:"machine,omitempty"`
	Fingerprint string           `json:"fingerprint,omitempty"`
	Meta        *report.RunInfo  `json:"meta,omitempty"`
	Shard       *Shard           `json:"shard,omitempty"`
	Task        string           `json:"task,omitempty"`
	TaskHash    string           `json:"task_hash,omitempty"`
	Sample      int              `json:"sample"`
	// Round is the repair round of a completion or result (0: the first
	// answer); Repair marks a result that asks for the next round.
	Round      int                  `json:"round,omitempty"`
	Repair     bool                 `json:"repair,omitempty"`
	Attempts   int                  `json:"attempts,omitempty"`
	Completion *report.Completion   `json:"completion,omitempty"`
	Result     *report.SampleResult `json:"result,omitempty"`
	// Sum is the checksum of the line (see marshalRecord).
	Sum string `json:"sum,omitempty"`
	// Bytes holds the answer strings of the record that are not valid
	// UTF-8, which JSON would turn into U+FFFD: "completion.text",
	// "completion.reasoning" and "result.code", each with its string
	// field left empty, so that a resumed run checks the bytes the model
	// gave.
	Bytes map[string][]byte `json:"bytes,omitempty"`
}

type sampleKey struct {
	task   string
	sample int
	round  int // repair round; 0 is the first answer
}

// records holds what journals know, keyed by task and sample.
type records struct {
	gold        map[string]report.SampleResult
	completions map[sampleKey]report.Completion
	results     map[sampleKey]report.SampleResult
	// compAttempts counts the model requests behind each completion.
	compAttempts map[sampleKey]int
	// repair marks the results that ask for the next repair round.
	repair map[sampleKey]bool
	// stale counts the lines of tasks that are not in the task set (or
	// changed), with the first such task.
	stale      int
	firstStale string
	// machines says which machine each record came from.
	machines machines
}

func newRecords() *records {
	return &records{gold: map[string]report.SampleResult{}, completions: map[sampleKey]report.Completion{}, results: map[sampleKey]report.SampleResult{}, compAttempts: map[sampleKey]int{}, repair: map[sampleKey]bool{}, machines: newMachines()}
}

// add files a record if it matches the hash of its task.
func (r *records) add(rec journalRecord, hashes map[string]string) {
	if h, ok := hashes[rec.Task]; !ok || h != rec.TaskHash {
		if r.stale == 0 {
			r.firstStale = rec.Task
		}
		r.stale++
		return
	}
	k := sampleKey{rec.Task, rec.Sample, rec.Round}
	switch {
	case rec.Kind == "gold" && rec.Result != nil:
		r.gold[rec.Task] = *rec.Result
		r.machines.gold[rec.Task] = r.machines.cur
	case rec.Kind == "completion" && rec.Completion != nil:
		r.completions[k] = *rec.Completion
		r.compAttempts[k] = rec.Attempts
		r.machines.comps[k] = r.machines.cur
		// A new answer replaces the check of an earlier one.
		delete(r.results, k)
		delete(r.repair, k)
	case rec.Kind == "result" && rec.Result != nil:
		r.results[k] = *rec.Result
		r.repair[k] = rec.Repair
		r.machines.results[k] = r.machines.cur
	}
}

// ErrJournalMismatch is matched (errors.Is) by a *JournalMismatchError:
// a journal written by a different evaluation.
var ErrJournalMismatch = errors.New("adapt: journal belongs to a different evaluation")

// ErrJournalLocked is wrapped when another process holds a journal.
var ErrJournalLocked = store.ErrLocked

// JournalMismatchError reports a journal written by a different evaluation
// than the one that wants to resume or merge it, and which settings differ.
type JournalMismatchError struct {
	Path string
	// Diffs names each setting that differs, with both values.
	Diffs []string
	// merge is set when Merge found it: the advice is then about which
	// journals to merge, not how to resume.
	merge bool
}

func (e *JournalMismatchError) Error() string {
	advice := "delete the journal (or give it another name) or run with the original settings"
	if e.merge {
		advice = "merge only the journals of one evaluation, with the tasks it ran: leave this journal out, or merge it with its own evaluation's"
	}
	return fmt.Sprintf("adapt: journal %s belongs to a different evaluation: %s; %s", e.Path, strings.Join(e.Diffs, "; "), advice)
}

// Is reports whether target is ErrJournalMismatch.
func (e *JournalMismatchError) Is(target error) bool { return target == ErrJournalMismatch }

// diffRunInfo names the settings in which two evaluations differ.
func diffRunInfo(journal, now report.RunInfo) []string {
	return diffRunInfos(journal, now, "in the journal", "now")
}

// diffRunInfos names the settings in which a (described by aIn) and b
// differ.
func diffRunInfos(journal, now report.RunInfo, aIn, bIn string) []string {
	var d []string
	add := func(name string, a, b any) {
		if !reflect.DeepEqual(a, b) {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			d = append(d, fmt.Sprintf("%s is %s %s and %s %s", name, ja, aIn, jb, bIn))
		}
	}
	add("model", journal.Model, now.Model)
	add("model identity", journal.ModelIdentity, now.ModelIdentity)
	add("template", journal.Template, now.Template)
	add("prompt digest (the template's text)", journal.Prompts, now.Prompts)
	add("runner", journal.Runner, now.Runner)
	d = append(d, diffLimits(journal.Limits, now.Limits, aIn, bIn)...)
	add("samples", journal.Samples, now.Samples)
	add("samples per task", journal.TaskSamples, now.TaskSamples)
	add("sampling", journal.Sampling, now.Sampling)
	add("K", journal.K, now.K)
	add("gold", journal.Gold, now.Gold)
	add("repair", journal.Repair, now.Repair)
	if journal.TaskSet != now.TaskSet {
		d = append(d, fmt.Sprintf("the task set differs (%d tasks, digest %s, %s; %d tasks, digest %s, %s)",
			journal.TaskCount, journal.TaskSet, aIn, now.TaskCount, now.TaskSet, bIn))
	}
	if len(d) == 0 {
		d = append(d, "the fingerprint differs")
	}
	return d
}

// diffLimits names each limit in which a and b differ.
func diffLimits(a, b *exec.Limits, aIn, bIn string) []string {
	if a == nil || b == nil {
		if (a == nil) != (b == nil) {
			return []string{fmt.Sprintf("limits are %v %s and %v %s", a, aIn, b, bIn)}
		}
		return nil
	}
	var d []string
	va, vb := reflect.ValueOf(*a), reflect.ValueOf(*b)
	for i := range va.NumField() {
		if fa, fb := va.Field(i).Interface(), vb.Field(i).Interface(); fa != fb {
			d = append(d, fmt.Sprintf("limit %s is %v %s and %v %s", va.Type().Field(i).Name, fa, aIn, fb, bIn))
		}
	}
	return d
}

// JournalError reports a journal that cannot be read, with what to do.
type JournalError struct {
	Path string
	Line int // 1-based, or 0
	Err  error
}

func (e *JournalError) Error() string {
	where := e.Path
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", where, e.Line)
	}
	return fmt.Sprintf("adapt: journal %s: %v", where, e.Err)
}

func (e *JournalError) Unwrap() error { return e.Err }

// journalFile is what reading one journal found.
type journalFile struct {
	meta  *report.RunInfo
	shard Shard
	fp    string
	// chain is the journal's ID and the checksum of its last whole line.
	chain store.Chain
	// machine is the manifest of the machine that wrote the last lines.
	machine *report.Manifest
	// lines counts the records read (header included); size is the
	// offset after the last whole line.
	lines int
	size  int64
	// torn is the length of a last line cut short by a crash (no newline).
	torn int64
}

// readJournal reads a journal's records into recs. want, when not nil, is
// the evaluation that expects to resume it: a header of another evaluation
// is a *JournalMismatchError. A last line without its newline (a process
// killed while writing) is reported in torn and not read. Every line must
// continue the chain of the lines before it, and a sample's result must
// follow its completion.
func readJournal(r io.Reader, name string, want *report.RunInfo, hashes map[string]string, into *records) (journalFile, error) {
	var jf journalFile
	answered := map[sampleKey]bool{}
	br := bufio.NewReaderSize(r, 1<<16)
	for line := 1; ; line++ {
		raw, err := br.ReadBytes('\n')
		if err == io.EOF {
			jf.torn = int64(len(raw))
			return jf, nil
		}
		if err != nil {
			return jf, &JournalError{Path: name, Line: line, Err: err}
		}
		n := int64(len(raw))
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			jf.size += n
			continue
		}
		var rec journalRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return jf, &JournalError{Path: name, Line: line, Err: fmt.Errorf(
				"not a journal record (%v): the file is damaged; delete it to start over, or cut it before line %d to keep the records above", err, line)}
		}
		if line == 1 {
			if err := checkHeader(rec); err != nil {
				return jf, &JournalError{Path: name, Line: 1, Err: err}
			}
			jf.chain = store.Chain{ID: rec.ID}
		}
		if jf.chain, err = jf.chain.Check(raw); err != nil {
			return jf, &JournalError{Path: name, Line: line, Err: fmt.Errorf(
				"%v: the line was edited or damaged after it was written, copied from another journal, or a line before it was deleted or moved, and its result cannot be trusted; delete the journal to start over, or cut it before line %d to keep the records above", err, line)}
		}
		rec = restoreBytes(rec)
		switch {
		case line == 1:
			jf.meta, jf.fp, jf.machine = rec.Meta, rec.Fingerprint, rec.Meta.Manifest
			into.machines.use(jf.machine)
			if rec.Shard != nil {
				jf.shard = *rec.Shard
			}
			if want != nil && rec.Fingerprint != fingerprint(*want) {
				return jf, &JournalMismatchError{Path: name, Diffs: diffRunInfo(*rec.Meta, *want)}
			}
		case rec.Kind == "header":
			return jf, &JournalError{Path: name, Line: line, Err: errors.New("a second header: two journals were joined into one file; give each its own file")}
		case rec.Kind == "machine":
			jf.machine = rec.Machine
			into.machines.use(jf.machine)
		default:
			if err := orphanResult(rec, hashes, answered); err != nil {
				return jf, &JournalError{Path: name, Line: line, Err: err}
			}
			into.add(rec, hashes)
		}
		jf.lines++
		jf.size += n
	}
}

// checkHeader checks the first line of a journal.
func checkHeader(rec journalRecord) error {
	if rec.Kind != "header" {
		return errors.New("no header line: this is not an adaptbench journal; delete it or name another file")
	}
	if rec.Version != journalVersion || rec.Meta == nil || rec.ID == "" {
		return fmt.Errorf("journal format %d, this adaptbench reads format %d (whose lines are chained, so that a line deleted or copied from another journal is found): finish it with the version that wrote it, or delete it", rec.Version, journalVersion)
	}
	return nil
}

// orphanResult refuses a result of a sample whose completion no line
// before it holds (a completion line deleted), noting the completions in
// answered. Records of tasks not in hashes are left to the stale count.
func orphanResult(rec journalRecord, hashes map[string]string, answered map[sampleKey]bool) error {
	k := sampleKey{rec.Task, rec.Sample, rec.Round}
	switch {
	case hashes[rec.Task] != rec.TaskHash:
	case rec.Kind == "completion":
		answered[k] = true
	case rec.Kind == "result" && !answered[k]:
		return fmt.Errorf("the result of task %q sample %d (round %d) has no completion before it: the completion line was deleted, and the report would lose its answer and its tokens; delete the journal to start over", rec.Task, rec.Sample, rec.Round)
	}
	return nil
}

// journal appends records to a file it holds locked, one write per record.
type journal struct {
	mu   sync.Mutex
	f    *os.File
	path string
	// lines counts the records in the file, the header included; size is
	// the offset after the last of them.
	lines int
	size  int64
	// chain is the journal's ID and the checksum of its last line.
	chain store.Chain
	// err is the first failed write: the journal takes no more records
	// after it, so that no record follows one that is missing or torn.
	err error
}

// openJournal opens (or creates) the journal at path for an evaluation,
// locks it for this process, reads what it holds into recs, cuts off a
// torn last line, and writes the header when the file is new. notice
// receives a sentence for the caller when a torn line was cut.
func openJournal(path string, info report.RunInfo, shard Shard, hashes map[string]string, recs *records, notice func(string)) (*journal, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("adapt: open journal: %w", err)
	}
	if err := store.Lock(f, true); err != nil {
		f.Close()
		return nil, err
	}
	j := &journal{f: f, path: path}
	jf, err := readJournal(f, path, &info, hashes, recs)
	if err != nil {
		f.Close()
		return nil, err
	}
	if jf.meta != nil && jf.shard != shard {
		f.Close()
		return nil, &JournalMismatchError{Path: path, Diffs: []string{fmt.Sprintf("it holds shard %d of %d, this run is shard %d of %d", jf.shard.Index, jf.shard.Count, shard.Index, shard.Count)}}
	}
	if recs.stale > 0 {
		f.Close()
		return nil, &JournalMismatchError{Path: path, Diffs: []string{fmt.Sprintf("%d records name tasks that changed since (first: %q)", recs.stale, recs.firstStale)}}
	}
	if jf.torn > 0 {
		if err := f.Truncate(jf.size); err != nil {
			f.Close()
			return nil, fmt.Errorf("adapt: journal %s: cut torn last line: %w", path, err)
		}
		if notice != nil {
			notice(fmt.Sprintf("journal %s: cut off a torn last line (%d bytes written by a run that stopped mid-write); its work is done again", path, jf.torn))
		}
	}
	if _, err := f.Seek(jf.size, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("adapt: journal %s: %w", path, err)
	}
	j.lines, j.size, j.chain = jf.lines, jf.size, jf.chain
	if jf.meta == nil {
		if jf.size > 0 {
			// Only blank lines: start over.
			if err := f.Truncate(0); err != nil {
				f.Close()
				return nil, err
			}
			f.Seek(0, io.SeekStart)
			j.size = 0
		}
		sh := shard
		id := make([]byte, 16)
		rand.Read(id) // never fails (crypto/rand)
		j.chain = store.Chain{ID: hex.EncodeToString(id)}
		if err := j.append(journalRecord{Kind: "header", Version: journalVersion, ID: j.chain.ID, Fingerprint: fingerprint(info), Meta: &info, Shard: &sh}); err != nil {
			f.Close()
			return nil, err
		}
	} else if info.Manifest != nil && !reflect.DeepEqual(info.Manifest, jf.machine) {
		// Resumed on another machine: the lines after this are its.
		if err := j.append(journalRecord{Kind: "machine", Machine: info.Manifest}); err != nil {
			f.Close()
			return nil, err
		}
	}
	return j, nil
}

// writeHook, when set (by tests), replaces the write of one journal line:
// it lets a crash test kill the process in the middle of a write.
var writeHook func(f *os.File, line []byte) (int, error)

func (j *journal) append(rec journalRecord) error {
	if j == nil {
		return nil
	}
	body, err := marshalBody(rec)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return j.err
	}
	b, next := j.chain.Sign(body)
	if writeHook != nil {
		_, err = writeHook(j.f, b)
	} else {
		_, err = j.f.Write(b)
	}
	if err != nil {
		j.err = j.fail(err)
		return j.err
	}
	j.lines++
	j.size += int64(len(b))
	j.chain = next
	return nil
}

// fail cuts what a failed write left of its line (a short write: ENOSPC,
// EIO) and returns the error that stops the journal: a later write that
// succeeds (space freed, a transient storage error gone) must not follow
// a missing or torn record.
func (j *journal) fail(err error) error {
	whole := fmt.Sprintf("the journal is whole up to %d records", max(j.lines-1, 0))
	if cerr := j.f.Truncate(j.size); cerr != nil {
		whole = fmt.Sprintf("cutting the failed line off failed too (%v): the journal is whole up to %d records and a resume cuts off the rest", cerr, max(j.lines-1, 0))
	} else if _, serr := j.f.Seek(j.size, io.SeekStart); serr != nil {
		whole = fmt.Sprintf("%s (then: %v)", whole, serr)
	}
	return fmt.Errorf("adapt: write journal %s: %w; %s and no more were written: free the space or fix the storage, then run again with the same settings to resume", j.path, err, whole)
}

// finished is the number of records after the header.
func (j *journal) finished() int {
	if j == nil {
		return 0
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return max(j.lines-1, 0)
}

func (j *journal) close() error {
	if j == nil {
		return nil
	}
	return j.f.Close() // releases the lock
}

// readJournalFile reads a finished journal for Merge, under a shared lock:
// a journal a running evaluation holds is refused.
func readJournalFile(path string, hashes map[string]string, recs *records) (journalFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return journalFile{}, fmt.Errorf("adapt: %w", err)
	}
	defer f.Close()
	if err := store.Lock(f, false); err != nil {
		return journalFile{}, err
	}
	jf, err := readJournal(f, path, nil, hashes, recs)
	if err != nil {
		return jf, err
	}
	if jf.meta == nil {
		return jf, &JournalError{Path: path, Err: errors.New("empty: no header line")}
	}
	if jf.torn > 0 {
		return jf, &JournalError{Path: path, Err: fmt.Errorf(
			"its last line is torn (%d bytes: the run stopped mid-write); resume that run to finish it (the torn line is cut off), or cut the line off yourself", jf.torn)}
	}
	return jf, nil
}

// taskHash is a short content hash of a task.
func taskHash(t *Task) string {
	b, _ := json.Marshal(t)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// taskSetDigest is a short hash of the IDs and hashes of a task set, in
// ID order.
func taskSetDigest(hashes map[string]string) string {
	h := sha256.New()
	for _, id := range slices.Sorted(maps.Keys(hashes)) {
		fmt.Fprintf(h, "%s\x00%s\n", id, hashes[id])
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// marshalBody is the journal line of rec without its checksum and
// newline: its answer strings that are not valid UTF-8 kept in Bytes.
func marshalBody(rec journalRecord) ([]byte, error) {
	rec.Sum = ""
	b, err := marshalLine(keepBytes(rec))
	if err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b, []byte("\n")), nil
}

// keepBytes moves the answer strings of rec that are not valid UTF-8 into
// rec.Bytes, on copies.
func keepBytes(rec journalRecord) journalRecord {
	keep := func(key string, s *string) {
		if utf8.ValidString(*s) {
			return
		}
		if rec.Bytes == nil {
			rec.Bytes = map[string][]byte{}
		}
		rec.Bytes[key] = []byte(*s)
		*s = ""
	}
	if c := rec.Completion; c != nil && (!utf8.ValidString(c.Text) || !utf8.ValidString(c.Reasoning)) {
		cp := *c
		rec.Completion = &cp
		keep("completion.text", &cp.Text)
		keep("completion.reasoning", &cp.Reasoning)
	}
	if r := rec.Result; r != nil && !utf8.ValidString(r.Code) {
		cp := *r
		rec.Result = &cp
		keep("result.code", &cp.Code)
	}
	return rec
}

// restoreBytes puts the strings keepBytes kept back in their fields.
func restoreBytes(rec journalRecord) journalRecord {
	for key, b := range rec.Bytes {
		switch {
		case key == "completion.text" && rec.Completion != nil:
			rec.Completion.Text = string(b)
		case key == "completion.reasoning" && rec.Completion != nil:
			rec.Completion.Reasoning = string(b)
		case key == "result.code" && rec.Result != nil:
			rec.Result.Code = string(b)
		}
	}
	rec.Bytes = nil
	return rec
}

// scrubText applies store.ValidText to the words of rec (not its answers,
// which keepBytes keeps), on copies.
func scrubText(rec journalRecord) journalRecord {
	if c := rec.Completion; c != nil && !utf8.ValidString(c.Err) {
		cp := *c
		cp.Err = store.ValidText(cp.Err)
		rec.Completion = &cp
	}
	if r := rec.Result; r != nil {
		cp := *r
		cp.Detail = store.ValidText(cp.Detail)
		cp.Tests = slices.Clone(cp.Tests)
		for i := range cp.Tests {
			t := &cp.Tests[i]
			t.Name, t.Message, t.ErrorType = store.ValidText(t.Name), store.ValidText(t.Message), store.ValidText(t.ErrorType)
		}
		rec.Result = &cp
	}
	return rec
}
