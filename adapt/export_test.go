package adapt

import (
	"bytes"
	"encoding/json"
	"os"

	"github.com/adaptbench/adaptbench/adapt/internal/store"
	"github.com/adaptbench/adaptbench/adapt/report"

	"github.com/adaptbench/adaptbench/exec"
)

// SetWriteHook replaces the write of journal lines, for crash tests.
func SetWriteHook(h func(f *os.File, line []byte) (int, error)) { writeHook = h }

// Rechain gives every line of a journal (JSON objects, one a line, their
// checksums left out or stale) its checksum in the chain of the ID in its
// first line, for tests that write journals as another version, or a
// forger who knows the scheme, would have.
func Rechain(journal []byte) []byte {
	var out []byte
	var c store.Chain
	for i, line := range bytes.Split(bytes.TrimSuffix(journal, []byte("\n")), []byte("\n")) {
		var rec journalRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			panic(err)
		}
		if i == 0 {
			c = store.Chain{ID: rec.ID}
		}
		body, err := marshalBody(rec)
		if err != nil {
			panic(err)
		}
		var b []byte
		b, c = c.Sign(body)
		out = append(out, b...)
	}
	return out
}

// ReadLines is the JSON Lines reader of ReadTasks and LoadReplay.
var ReadLines = readLines

// MaxPreload bounds how many modules Preload returns.
const MaxPreload = maxPreload

// Preload lists the modules Evaluate's fork server imports once for tasks.
func Preload(tasks []Task) []string {
	ptrs := make([]*Task, len(tasks))
	for i := range tasks {
		ptrs[i] = &tasks[i]
	}
	return preload(ptrs)
}

// NewReplay is LoadReplay's reader of one JSON Lines stream, file naming
// it in errors.
var NewReplay = newReplay

// LoadReplayDir is LoadReplay's reader of a directory of answer files,
// root of fsys, display naming it in errors.
var LoadReplayDir = loadReplayDir

// Judge gives the verdict of a test run of a task.
func Judge(t *Task, s *exec.Suite) report.SampleResult { return judge(t, s, nil) }

// JudgeAllowing gives the verdict with the evidence kinds a task's
// reference produced allowed.
var JudgeAllowing = judge

// InShard reports whether the task with this ID belongs to shard s.
func InShard(s Shard, id string) bool { return s.has(id) }

// ForgetReferenceChecks empties the process's reference cache, as a new
// process starts with it empty.
func ForgetReferenceChecks() { store.ForgetReferences() }
