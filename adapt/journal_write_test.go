package adapt_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	aexec "github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// paidModel answers with the reference and a padding comment, and
// reports tokens, so that a lost completion shows in the usage.
func paidModel(pad int) adapt.Model {
	return adapt.ModelFunc("paid", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
		out := make([]report.Completion, len(req.Samples))
		for i, s := range req.Samples {
			code := strings.Replace(req.Task.Reference, "    return", fmt.Sprintf("    # sample %d %s\n    return", s, strings.Repeat("x", pad)), 1)
			out[i] = report.Completion{Text: "```python\n" + code + "```\n", FinishReason: "stop",
				Usage: report.Usage{PromptTokens: 100, CompletionTokens: 10 + s}}
		}
		return out, nil
	})
}

// TestJournalWriteFailureStopsTheRun: a journal write that fails (EIO, at
// the file layer; whole or after a short write) ends the run with the
// error, leaves the journal whole up to the records before it, and lets
// no later write (the storage back) follow the lost record: the resume
// gives the uninterrupted report.
func TestJournalWriteFailureStopsTheRun(t *testing.T) {
	tasks := pyTasks(4)
	opts := adapt.Options{Runner: runner(t), Samples: 2, ModelConcurrency: 1}
	want, err := adapt.Evaluate(context.Background(), tasks, paidModel(0), &opts)
	require.NoError(t, err)
	tests := []struct {
		name   string
		kind   string // the kind of line whose write fails
		short  bool   // half the line is written first
		reason string
	}{
		{"completion lost", "completion", false, "a result line without its completion under-counts tokens"},
		{"result lost", "result", false, "a sample with its completion and no result is checked again"},
		{"completion torn", "completion", true, "a torn fragment mid-file damages the journal"},
		{"gold torn", "gold", true, "a reference check cut short"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			journal := filepath.Join(t.TempDir(), "run.jsonl")
			var mu sync.Mutex
			failed, after := false, 0
			adapt.SetWriteHook(func(f *os.File, line []byte) (int, error) {
				mu.Lock()
				defer mu.Unlock()
				if failed {
					after++ // the storage is back
					return f.Write(line)
				}
				if bytes.Contains(line, []byte(`"kind":"`+tc.kind+`"`)) {
					failed = true
					n := 0
					if tc.short {
						n, _ = f.Write(line[:len(line)/2])
					}
					return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.EIO}
				}
				return f.Write(line)
			})
			defer adapt.SetWriteHook(nil)
			o := opts
			o.Journal = journal
			_, err := adapt.Evaluate(context.Background(), tasks, paidModel(0), &o)
			adapt.SetWriteHook(nil)
			require.ErrorIs(t, err, syscall.EIO, tc.reason)
			n := checkJournalLines(t, journal) - 1
			assert.Contains(t, err.Error(), fmt.Sprintf("the journal is whole up to %d records and no more were written", n))
			assert.Zero(t, after, "no record is written after a failed one")

			got, err := adapt.Evaluate(context.Background(), tasks, paidModel(0), &o)
			require.NoError(t, err, tc.reason)
			assert.Equal(t, reportJSON(t, want), reportJSON(t, got), "the resume gives the uninterrupted report: %s", tc.reason)
			merged, err := adapt.Merge(tasks, []string{journal}, nil)
			require.NoError(t, err)
			assert.Equal(t, reportJSON(t, want), reportJSON(t, merged))
		})
	}
}

// journalHelper runs a small evaluation in its own process, with the
// journal ADAPT_JOURNAL, and writes its report to ADAPT_REPORT; an error
// goes to stderr, with exit status 3.
func journalHelper() {
	sb, err := sandbox.New(nil)
	if err != nil {
		panic(err)
	}
	defer sb.Close()
	rep, err := adapt.Evaluate(context.Background(), pyTasks(4), paidModel(0), &adapt.Options{
		Runner: sb, Samples: 2, ModelConcurrency: 1, Parallelism: 1, Journal: os.Getenv("ADAPT_JOURNAL")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		sb.Close()
		os.Exit(3)
	}
	var b bytes.Buffer
	rep.WriteJSON(&b)
	if err := os.WriteFile(os.Getenv("ADAPT_REPORT"), b.Bytes(), 0o644); err != nil {
		panic(err)
	}
}

// TestJournalEIOFromTheKernel: the write(2) calls of a journal fail with
// EIO once, as strace injects it (a transient NFS or Lustre error), and
// succeed after. The run stops at the failure, and the resume gives the
// report of an uninterrupted run, byte for byte.
func TestJournalEIOFromTheKernel(t *testing.T) {
	newSandbox(t)
	strace, err := osexec.LookPath("strace")
	if err != nil {
		t.Skip("no strace to inject a failing write")
	}
	if out, err := osexec.Command(strace, "-o", "/dev/null", "true").CombinedOutput(); err != nil {
		t.Skipf("strace cannot trace here: %v: %s", err, out)
	}
	dir := t.TempDir()
	run := func(journal string, wrap ...string) (report string, stderr string, err error) {
		t.Helper()
		rep := filepath.Join(dir, filepath.Base(journal)+".report.json")
		args := append(wrap, os.Args[0], "-test.run=^$")
		cmd := osexec.Command(args[0], args[1:]...)
		cmd.Env = append(os.Environ(), "ADAPT_TEST_HELPER=journal", "ADAPT_JOURNAL="+journal, "ADAPT_REPORT="+rep)
		var eb bytes.Buffer
		cmd.Stderr = &eb
		err = cmd.Run()
		b, _ := os.ReadFile(rep)
		return string(b), eb.String(), err
	}
	want, stderr, err := run(filepath.Join(dir, "whole.jsonl"))
	require.NoError(t, err, stderr)
	journal := filepath.Join(dir, "run.jsonl")
	// strace counts the writes of each thread: the second write to the
	// journal from any one thread fails, and the other threads' writes
	// would succeed.
	_, stderr, err = run(journal, strace, "-f", "-qq", "-o", "/dev/null", "-e", "trace=write",
		"-e", "inject=write:error=EIO:when=2", "-P", journal)
	var ee *osexec.ExitError
	require.ErrorAs(t, err, &ee, stderr)
	require.Equal(t, 3, ee.ExitCode(), stderr)
	assert.Contains(t, stderr, "input/output error")
	assert.Contains(t, stderr, fmt.Sprintf("the journal is whole up to %d records", checkJournalLines(t, journal)-1))
	got, stderr, err := run(journal)
	require.NoError(t, err, stderr)
	assert.Equal(t, want, got, "the resume gives the uninterrupted report, byte for byte")
}

// TestJournalOutOfSpace: the journal on a real 512 KiB tmpfs that fills
// up mid-run, and whose space comes back (a filler file deleted) while the
// run goes on. The run stops at the first short write, with ENOSPC; the
// resume gives the uninterrupted report.
func TestJournalOutOfSpace(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=512k,mode=0755"); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	tasks := pyTasks(4)
	const pad = 600 // bytes of comment in each answer: lines of ~1.5 KiB
	journal := filepath.Join(dir, "run.jsonl")
	filler := filepath.Join(dir, "filler")
	// Once a write has been cut short (the file ends mid-line), the
	// space comes back.
	var mu sync.Mutex
	freed := false
	free := func() {
		mu.Lock()
		defer mu.Unlock()
		b, err := os.ReadFile(journal)
		if freed || err != nil || len(b) == 0 || b[len(b)-1] == '\n' {
			return
		}
		freed = true
		os.Remove(filler)
	}
	m := paidModel(pad)
	model := adapt.ModelFunc("paid", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
		free()
		return m.Complete(ctx, req)
	})
	sb := runner(t)
	run := aexec.RunnerFunc(func(ctx context.Context, j aexec.Job) (aexec.Result, error) {
		free()
		return sb.Run(ctx, j)
	})
	plain := adapt.Options{Runner: run, Samples: 3, ModelConcurrency: 1, Parallelism: 1}
	want, err := adapt.Evaluate(context.Background(), tasks, model, &plain)
	require.NoError(t, err)

	// Leave 4 pages for the journal, which needs some 20 KiB.
	var st syscall.Statfs_t
	require.NoError(t, syscall.Statfs(dir, &st))
	require.NoError(t, os.WriteFile(filler, make([]byte, (int64(st.Bfree)-4)*st.Bsize), 0o644))
	o := plain
	o.Journal = journal
	_, err = adapt.Evaluate(context.Background(), tasks, model, &o)
	require.ErrorIs(t, err, syscall.ENOSPC)
	n := checkJournalLines(t, journal) - 1
	assert.Contains(t, err.Error(), fmt.Sprintf("the journal is whole up to %d records", n))
	if _, serr := os.Stat(filler); serr == nil {
		require.NoError(t, os.Remove(filler))
	} else {
		t.Log("the space came back mid-run")
	}
	got, err := adapt.Evaluate(context.Background(), tasks, model, &o)
	require.NoError(t, err)
	assert.Equal(t, reportJSON(t, want), reportJSON(t, got), "the resume gives the uninterrupted report")
	merged, err := adapt.Merge(tasks, []string{journal}, nil)
	require.NoError(t, err)
	assert.Equal(t, reportJSON(t, want), reportJSON(t, merged))
	require.False(t, errors.Is(err, syscall.ENOSPC))
}

// TestJournalKeepsAnswerBytes: an answer that is not valid UTF-8 (an
// answer file read as raw bytes) is checked on the same bytes whether it
// is checked at once or after a resume, and the report of a finished run
// equals the Merge of its journal.
func TestJournalKeepsAnswerBytes(t *testing.T) {
	tasks := pyTasks(2)
	fsys := fstest.MapFS{}
	for i := range tasks {
		// Python refuses a string literal that is not UTF-8: the answer
		// fails. With U+FFFD for the byte it would pass.
		fsys[tasks[i].ID+"/0.py"] = &fstest.MapFile{Data: []byte(strings.Replace(tasks[i].Reference, "    return x", "    return len(\"caf\xe9\") - 4 + x", 1))}
	}
	rp, err := adapt.LoadReplayDir("latin1", fsys, ".", "answers")
	require.NoError(t, err)
	dir := t.TempDir()
	opts := adapt.Options{Runner: runner(t), Parallelism: 1, ModelConcurrency: 1}
	want, err := adapt.Evaluate(context.Background(), tasks, rp, &opts)
	require.NoError(t, err)
	p1, _ := want.Score(1)
	require.Equal(t, 0.0, p1, "checked at once, the answers do not compile")

	// A finished run and the Merge of its journal.
	o := opts
	o.Journal = filepath.Join(dir, "whole.jsonl")
	whole, err := adapt.Evaluate(context.Background(), tasks, rp, &o)
	require.NoError(t, err)
	assert.Equal(t, want, whole)
	merged, err := adapt.Merge(tasks, []string{o.Journal}, nil)
	require.NoError(t, err)
	assert.Equal(t, want, merged, "the Merge of the journal is the run's report")

	// A run stopped before its first result, resumed: the journaled
	// completions are checked on their bytes.
	o.Journal = filepath.Join(dir, "resumed.jsonl")
	adapt.SetWriteHook(func(f *os.File, line []byte) (int, error) {
		if bytes.Contains(line, []byte(`"kind":"result"`)) {
			return 0, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.EIO}
		}
		return f.Write(line)
	})
	_, err = adapt.Evaluate(context.Background(), tasks, rp, &o)
	adapt.SetWriteHook(nil)
	require.ErrorIs(t, err, syscall.EIO)
	resumed, err := adapt.Evaluate(context.Background(), tasks, rp, &o)
	require.NoError(t, err)
	assert.Equal(t, want, resumed, "the resumed run checks the bytes the model gave")
	b, err := os.ReadFile(o.Journal)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"bytes":{"completion.text":"`, "the answer's bytes are in the journal")
}

// TestJournalLineEditedByHand: a result line flipped by hand ("failed"
// made "passed") no longer matches its checksum: resume and Merge refuse
// the journal, naming the line, rather than score it. A journal of the
// format before (3, lines not chained) is refused by its format.
func TestJournalLineEditedByHand(t *testing.T) {
	tasks := pyTasks(3)
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	failing := adapt.ModelFunc("wrong", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
		return []report.Completion{{Text: "```python\ndef f(x):\n    return x\n```\n"}}, nil
	})
	opts := adapt.Options{Runner: runner(t), Journal: journal}
	rep, err := adapt.Evaluate(context.Background(), tasks, failing, &opts)
	require.NoError(t, err)
	p1, _ := rep.Score(1)
	require.InDelta(t, 1.0/3, p1, 1e-9, "t00 alone passes")
	b, err := os.ReadFile(journal)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(b), "\n")
	flipped := -1
	for i, l := range lines {
		if strings.Contains(l, `"outcome":"failed"`) && flipped < 0 {
			lines[i] = strings.Replace(strings.ReplaceAll(l, `"status":"failed"`, `"status":"passed"`), `"outcome":"failed"`, `"outcome":"passed"`, 1)
			require.NotEqual(t, l, lines[i])
			flipped = i + 1
		}
	}
	require.NoError(t, os.WriteFile(journal, []byte(strings.Join(lines, "")), 0o644))
	want := fmt.Sprintf("run.jsonl:%d: the line does not match its checksum", flipped)
	_, err = adapt.Evaluate(context.Background(), tasks, failing, &opts)
	require.Error(t, err, "resume refuses a hand-edited result")
	assert.Contains(t, err.Error(), want)
	assert.Contains(t, err.Error(), "edited or damaged after it was written")
	_, err = adapt.Merge(tasks, []string{journal}, nil)
	require.Error(t, err, "Merge refuses a hand-edited result")
	assert.Contains(t, err.Error(), want)

	// The format before this one: refused by name.
	old := strings.Replace(string(b), `"version":4`, `"version":3`, 1)
	require.NoError(t, os.WriteFile(journal, []byte(old), 0o644))
	_, err = adapt.Evaluate(context.Background(), tasks, failing, &opts)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "run.jsonl:1: journal format 3, this adaptbench reads format 4")
}
