package adapt

import (
	"os"

	"github.com/adaptbench/adaptbench/exec"
)

// SetWriteHook replaces the write of journal lines, for crash tests.
func SetWriteHook(h func(f *os.File, line []byte) (int, error)) { writeHook = h }

// SignLine gives a journal line (a JSON object, no newline) its checksum,
// for tests that write journals as another version would have.
func SignLine(b []byte) []byte { return signLine(b) }

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
func Judge(t *Task, s *exec.Suite) SampleResult { return judge(t, s, nil) }

// JudgeAllowing gives the verdict with the evidence kinds a task's
// reference produced allowed.
var JudgeAllowing = judge

// InShard reports whether the task with this ID belongs to shard s.
func InShard(s Shard, id string) bool { return s.has(id) }
