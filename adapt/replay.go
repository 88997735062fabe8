package adapt

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// Recorded is one line of a Replay file in the native form: a completion
// recorded for one task, by sample index.
type Recorded struct {
	Task       string            `json:"task"`
	Sample     int               `json:"sample"`
	Completion report.Completion `json:"completion"`
}

// Replay is a Model that answers from answers given in advance, so that
// published model outputs (or any completions made elsewhere) can be
// scored. It reads three forms:
//
//   - Recorded lines ({"task", "sample", "completion"}): each completion is
//     a model's answer, from which Evaluate extracts the target function as
//     from any completion (Extract).
//   - human-eval's samples ({"task_id", "completion"}, as
//     evaluate_functional_correctness reads them; EvalPlus's
//     {"task_id", "solution"} too): the lines of a task are its samples, in
//     file order. A "completion" continues the task's code (HumanEval's
//     prompt, Task.Code), and the two together are the whole target file,
//     as human-eval runs them; a "solution" is the whole target file.
//   - a directory of answer files (EvalPlus's layout):
//     <root>/<task id with each "/" replaced by "_">/<n>.<ext>, where n
//     counts the samples from 0 with no gap and ext is any extension (one
//     file per n); each file is the whole target file. Names starting with
//     "." are skipped.
//
// Each task is asked for exactly the samples the source holds for it:
// Replay is a SampleCounter, so a task with fewer answers is not padded
// with model errors (it gets no pass@k for a k above its count, and one
// with none is reported unanswered). Match checks the answers against a
// task set. Replay answers requests by sample index (Request.Samples), so
// a resumed run gets the answer each sample was given before.
type Replay struct {
	name string
	recs map[string][]*report.Completion
	// whole: the completions are whole target files (human-eval lines, a
	// directory), to be tested as they are (Answer).
	whole bool
	// cont: the completions continue the task's code (human-eval's
	// "completion"), by task.
	cont map[string]bool
	// escaped: recs is keyed by escaped task ids (a directory).
	escaped bool
	format  string // for messages: "recorded", "human-eval", "directory"
}

// replayLine is one line of a Replay file in either JSON form.
type replayLine struct {
	// Recorded
	Task       string          `json:"task"`
	Sample     *int            `json:"sample"`
	Completion json.RawMessage `json:"completion"`
	// human-eval and EvalPlus
	TaskID   string  `json:"task_id"`
	Solution *string `json:"solution"`
}

// newReplay reads answers from a JSON Lines stream of Recorded values or of
// human-eval samples (the form is told by each line's keys; one stream
// holds one form), gzip-compressed or not, as human-eval reads them. name
// is the model name reports show; file names the stream in errors, which
// give the line and what was expected.
func newReplay(name string, r io.Reader, file string) (*Replay, error) {
	rp := &Replay{name: name, recs: map[string][]*report.Completion{}, cont: map[string]bool{}}
	br := bufio.NewReader(r)
	if head, err := br.Peek(2); err == nil && head[0] == 0x1f && head[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, &ParseError{Path: file, Err: err}
		}
		defer gz.Close()
		r = gz
	} else {
		r = br
	}
	err := readLines(r, file, func(line int, raw []byte) error {
		var l replayLine
		if err := json.Unmarshal(raw, &l); err != nil {
			return fmt.Errorf("malformed answer (want a JSON object: {\"task_id\", \"completion\"} as human-eval writes, or {\"task\", \"sample\", \"completion\"}): %w", err)
		}
		format := "recorded"
		if l.TaskID != "" || (l.Task == "" && l.Sample == nil) {
			format = "human-eval"
		}
		if rp.format == "" {
			rp.format = format
		} else if rp.format != format {
			return fmt.Errorf("a %s answer in a file of %s answers (the first line's form): one file holds one form", format, rp.format)
		}
		if format == "human-eval" {
			return rp.addHumanEval(l)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var rec Recorded
		if err := dec.Decode(&rec); err != nil {
			return fmt.Errorf("malformed record (want {\"task\", \"sample\", \"completion\"}): %w", err)
		}
		if rec.Task == "" || rec.Sample < 0 {
			return fmt.Errorf("record needs a task id and a sample index >= 0")
		}
		c := rec.Completion
		return rp.set(rec.Task, rec.Sample, &c)
	})
	if err != nil {
		return nil, err
	}
	if err := rp.gaps(file); err != nil {
		return nil, err
	}
	rp.whole = rp.format == "human-eval"
	return rp, nil
}

// addHumanEval files one human-eval line as the task's next sample.
func (rp *Replay) addHumanEval(l replayLine) error {
	const want = `want {"task_id", "completion"} (human-eval) or {"task_id", "solution"} (EvalPlus)`
	if l.TaskID == "" {
		return fmt.Errorf("answer has no task_id: %s", want)
	}
	var text string
	switch {
	case l.Completion != nil && l.Solution != nil:
		return fmt.Errorf("task %q: answer has both completion and solution: %s", l.TaskID, want)
	case l.Completion != nil:
		if err := json.Unmarshal(l.Completion, &text); err != nil {
			return fmt.Errorf("task %q: completion is not a string: %s", l.TaskID, want)
		}
		if len(rp.recs[l.TaskID]) > 0 && !rp.cont[l.TaskID] {
			return fmt.Errorf("task %q: a completion after a solution: one task's answers take one form", l.TaskID)
		}
		rp.cont[l.TaskID] = true
	case l.Solution != nil:
		text = *l.Solution
		if rp.cont[l.TaskID] {
			return fmt.Errorf("task %q: a solution after a completion: one task's answers take one form", l.TaskID)
		}
	default:
		return fmt.Errorf("task %q: answer has neither completion nor solution: %s", l.TaskID, want)
	}
	return rp.set(l.TaskID, len(rp.recs[l.TaskID]), &report.Completion{Text: text})
}

// set files the completion of a task's sample.
func (rp *Replay) set(task string, sample int, c *report.Completion) error {
	s := rp.recs[task]
	for len(s) <= sample {
		s = append(s, nil)
	}
	if s[sample] != nil {
		return fmt.Errorf("task %q sample %d recorded twice", task, sample)
	}
	s[sample] = c
	rp.recs[task] = s
	return nil
}

// gaps returns an error naming the first sample missing below a task's
// last one: a source's samples count from 0 with no gap.
func (rp *Replay) gaps(file string) error {
	for _, task := range slices.Sorted(maps.Keys(rp.recs)) {
		for i, c := range rp.recs[task] {
			if c == nil {
				return &ParseError{Path: file, Err: fmt.Errorf("task %q has sample %d but not sample %d: samples count from 0 with no gap", task, len(rp.recs[task])-1, i)}
			}
		}
	}
	return nil
}

// LoadReplay reads the answers in file, in any form Replay reads: a
// directory of answer files, or a JSON Lines file of Recorded values or of
// human-eval samples (the form is told by each line's keys; one file holds
// one form), gzip-compressed or not, as human-eval reads them. name is the
// model name reports show; empty, it is "answers (FILE)", FILE the file's
// base name, so that a report of it does not pass for a model's. Errors name the file and line (or the answer
// file) and what was expected.
func LoadReplay(name, file string) (*Replay, error) {
	if name == "" {
		name = "answers (" + filepath.Base(file) + ")"
	}
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		return loadReplayDir(name, os.DirFS(file), ".", file)
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("adapt: %w", err)
	}
	defer f.Close()
	return newReplay(name, f, file)
}

// loadReplayDir reads a directory of answer files: root of fsys holds a
// directory per task, named by the task id with each "/" replaced by "_",
// holding the task's samples as files <n>.<ext> (0.py, 1.py, ...), each
// the whole target file. display names root in errors.
func loadReplayDir(name string, fsys fs.FS, root, display string) (*Replay, error) {
	rp := &Replay{name: name, recs: map[string][]*report.Completion{}, cont: map[string]bool{}, whole: true, escaped: true, format: "directory"}
	where := func(p string) string { return path.Join(display, p) }
	tasks, err := fs.ReadDir(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("adapt: answers: %w", err)
	}
	for _, td := range tasks {
		if strings.HasPrefix(td.Name(), ".") {
			continue
		}
		dir := path.Join(root, td.Name())
		if !td.IsDir() {
			return nil, &ParseError{Path: where(td.Name()), Err: errors.New("not a directory: want <task id, / replaced by _>/<n>.<ext>")}
		}
		files, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return nil, fmt.Errorf("adapt: answers: %w", err)
		}
		for _, f := range files {
			if strings.HasPrefix(f.Name(), ".") {
				continue
			}
			rel := path.Join(td.Name(), f.Name())
			stem, _, _ := strings.Cut(f.Name(), ".")
			n, err := strconv.Atoi(stem)
			if err != nil || n < 0 || f.IsDir() || strconv.Itoa(n) != stem {
				return nil, &ParseError{Path: where(rel), Err: errors.New("not an answer file: want <n>.<ext>, n the sample index (0, 1, ...)")}
			}
			b, err := fs.ReadFile(fsys, path.Join(dir, f.Name()))
			if err != nil {
				return nil, fmt.Errorf("adapt: answers: %w", err)
			}
			if err := rp.set(td.Name(), n, &report.Completion{Text: string(b)}); err != nil {
				return nil, &ParseError{Path: where(rel), Err: fmt.Errorf("two files for sample %d", n)}
			}
		}
	}
	if err := rp.gaps(display); err != nil {
		return nil, err
	}
	return rp, nil
}

// escapeID is a task id as a directory name: each "/" replaced by "_".
func escapeID(id string) string { return strings.ReplaceAll(id, "/", "_") }

// key is the key of a task's answers.
func (r *Replay) key(task string) string {
	if r.escaped {
		return escapeID(task)
	}
	return task
}

// Name returns the model name given to LoadReplay.
func (r *Replay) Name() string { return r.name }

// Identity implements Identifier: a digest of the answers the replay
// holds and of how it reads them, so that a journal of one answer file
// is not resumed with another file given the same name.
func (r *Replay) Identity() string {
	h := sha256.New()
	// "as-given": completions come back as the file holds them and
	// Answer joins a continuation to the task's code; a journal of the
	// time Complete joined them is not resumed.
	fmt.Fprintf(h, "%s whole=%t as-given\n", r.format, r.whole)
	for _, k := range slices.Sorted(maps.Keys(r.recs)) {
		fmt.Fprintf(h, "%q cont=%t\n", k, r.cont[k])
		for _, c := range r.recs[k] {
			b, _ := json.Marshal(c)
			fmt.Fprintf(h, "%d %s %d %x\n", len(c.Text), b, len(c.Reasoning), sha256.Sum256([]byte(c.Text+"\x00"+c.Reasoning)))
		}
	}
	return fmt.Sprintf("replay %s answers sha256:%x", r.format, h.Sum(nil)[:8])
}

// SampleCount returns how many answers the replay holds for a task.
func (r *Replay) SampleCount(task string) int { return len(r.recs[r.key(task)]) }

// Match checks the answers against the tasks they are to be scored on: it
// returns an error listing the answered task ids the tasks do not hold
// (a misnamed task would otherwise be silently unanswered), two tasks
// whose ids name one answer directory, and a human-eval completion for a
// task whose target file does not begin with its code (a completion
// continues that code).
func (r *Replay) Match(tasks []Task) error {
	known := map[string]string{}
	var problems []string
	for i := range tasks {
		t := &tasks[i]
		k := r.key(t.ID)
		if other, dup := known[k]; dup {
			problems = append(problems, fmt.Sprintf("tasks %q and %q share the answer directory %q", other, t.ID, k))
		}
		known[k] = t.ID
		if r.cont[k] && !strings.HasPrefix(t.Target.Content, t.Code) {
			problems = append(problems, fmt.Sprintf("task %q: a human-eval completion continues the task's code, and its target file %s does not begin with it", t.ID, t.Target.Path))
		}
	}
	var unknown []string
	for k := range r.recs {
		if _, ok := known[k]; !ok {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		const show = 10
		list := strings.Join(unknown[:min(show, len(unknown))], ", ")
		if len(unknown) > show {
			list += fmt.Sprintf(", and %d more", len(unknown)-show)
		}
		what := "task ids"
		if r.escaped {
			what = "task directories"
		}
		problems = append(problems, fmt.Sprintf("%d answered %s are not in the task set: %s", len(unknown), what, list))
	}
	if len(problems) > 0 {
		return fmt.Errorf("adapt: replay %s: %s", r.name, strings.Join(problems, "; "))
	}
	return nil
}

// Complete returns the answers of req.Task's requested samples
// (Request.Samples; without it, samples 0 to N-1). A sample the replay does
// not hold is a model error. Each comes back as the file holds it (a
// human-eval completion is not joined to the task's code here: Answer
// does that, so that a report keeps the answer as given).
func (r *Replay) Complete(ctx context.Context, req Request) ([]report.Completion, error) {
	if req.Task == nil {
		return nil, fmt.Errorf("adapt: replay needs Request.Task")
	}
	k := r.key(req.Task.ID)
	recs := r.recs[k]
	n := max(req.Sampling.N, 1)
	if len(req.Samples) > 0 {
		n = len(req.Samples)
	}
	out := make([]report.Completion, n)
	for i := range out {
		s := i
		if len(req.Samples) > 0 {
			s = req.Samples[i]
		}
		if s >= len(recs) || recs[s] == nil {
			out[i] = report.Completion{Err: fmt.Sprintf("no completion recorded for task %q sample %d", req.Task.ID, s)}
			continue
		}
		out[i] = *recs[s]
	}
	return out, nil
}

// Answer implements Answerer: a completion that is a whole target file
// (a human-eval answer, an answer file) is tested as it is; a Recorded
// completion goes through Extract.
func (r *Replay) Answer(t *Task, c report.Completion) (Answer, error) {
	if r.whole {
		if r.cont[r.key(t.ID)] {
			// A human-eval completion continues the task's code: the
			// file tested is the two joined. The completion itself is
			// kept as given (the report shows what the model wrote).
			return Answer{Code: t.Code + c.Text, File: true}, nil
		}
		return Answer{Code: c.Text, File: true}, nil
	}
	return Extract(t, c.Text)
}

// Answerer is implemented by a model that knows how its completions hold
// their answers (a Replay of whole files): Evaluate takes each answer with
// it when Options.Answer is nil.
type Answerer interface {
	Answer(t *Task, c report.Completion) (Answer, error)
}
