package adapt

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// ParseError reports bad input: the file, the line or record, and what was
// wrong.
type ParseError struct {
	Path string // file name, or "" when reading a stream without one
	Line int    // 1-based line, or 0 when not known
	Err  error
}

func (e *ParseError) Error() string {
	where := e.Path
	if where == "" {
		where = "<input>"
	}
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", where, e.Line)
	}
	return fmt.Sprintf("adapt: %s: %v", where, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// ErrSchemaVersion is wrapped when a task line has a schema version this
// package does not read.
var ErrSchemaVersion = errors.New("unknown schema version")

// taskLine is the on-disk form of one task.
type taskLine struct {
	Schema int `json:"schema"`
	Task
}

// WriteTasks writes tasks as JSON Lines, one task per line, each with the
// schema version. Output is deterministic.
func WriteTasks(w io.Writer, tasks []Task) error {
	bw := bufio.NewWriter(w)
	for i := range tasks {
		b, err := marshalLine(taskLine{Schema: SchemaVersion, Task: tasks[i]})
		if err != nil {
			return fmt.Errorf("adapt: task %q: %w", tasks[i].ID, err)
		}
		bw.Write(b)
	}
	return bw.Flush()
}

// marshalLine encodes v as one line of JSON without HTML escaping, so that
// code (with <, > and &) stays readable.
func marshalLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// MaxLine is the longest line ReadLines accepts: 256 MiB.
const MaxLine = 256 << 20

// ReadLines is the one JSON Lines reader of the SDK: it calls f with each
// non-blank line of r (surrounding white space trimmed) and its 1-based
// number. An error from f is returned as a *ParseError naming name and the
// line (as it is when f already returns one); so is a read error or a line
// longer than MaxLine. raw is valid only during the call.
func ReadLines(r io.Reader, name string, f func(line int, raw []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	line := 0
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		if err := f(line, raw); err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				return err
			}
			return &ParseError{Path: name, Line: line, Err: err}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return &ParseError{Path: name, Line: line + 1, Err: fmt.Errorf("line longer than %d bytes", MaxLine)}
		}
		return &ParseError{Path: name, Err: err}
	}
	return nil
}

// ReadTasks reads tasks written by WriteTasks. name is used in errors. Every
// task is validated; a malformed line, an unknown field, an unknown schema
// version, an invalid task or a duplicate ID is an error naming the line.
// Blank lines are skipped.
func ReadTasks(r io.Reader, name string) ([]Task, error) {
	var tasks []Task
	ids := map[string]int{}
	err := ReadLines(r, name, func(line int, raw []byte) error {
		var head struct {
			Schema *int `json:"schema"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return fmt.Errorf("malformed JSON: %w", err)
		}
		if head.Schema == nil {
			return fmt.Errorf("%w: no \"schema\" field (want %d)", ErrSchemaVersion, SchemaVersion)
		}
		if *head.Schema != SchemaVersion {
			why := ""
			if *head.Schema == 1 {
				why = ": version 1 kept the generators' records in labels; make the tasks again with this version"
			}
			return fmt.Errorf("%w %d (this version reads %d%s)", ErrSchemaVersion, *head.Schema, SchemaVersion, why)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var tl taskLine
		if err := dec.Decode(&tl); err != nil {
			return fmt.Errorf("malformed task: %w", err)
		}
		tl.Task.normalize()
		if err := tl.Task.Validate(); err != nil {
			return err
		}
		if prev, ok := ids[tl.ID]; ok {
			return fmt.Errorf("duplicate task id %q (first on line %d)", tl.ID, prev)
		}
		ids[tl.ID] = line
		tasks = append(tasks, tl.Task)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return tasks, nil
}

// LoadFile reads a JSON Lines task file from disk.
func LoadFile(name string) ([]Task, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("adapt: %w", err)
	}
	defer f.Close()
	return ReadTasks(f, name)
}

// SaveFile writes tasks to a JSON Lines file, replacing it.
func SaveFile(name string, tasks []Task) error {
	var buf bytes.Buffer
	if err := WriteTasks(&buf, tasks); err != nil {
		return err
	}
	return os.WriteFile(name, buf.Bytes(), 0o644)
}

// taskDir is the task.json of the directory format.
type taskDir struct {
	Language    string            `json:"language"`
	Framework   string            `json:"framework,omitempty"`
	Target      dirTarget         `json:"target"`
	Requirement Requirement       `json:"requirement"`
	Tests       []Test            `json:"tests"`
	Labels      map[string]string `json:"labels,omitempty"`
	Context     []Snippet         `json:"context,omitempty"`
	Provenance  *Provenance       `json:"provenance,omitempty"`
	Env         *Environment      `json:"env,omitempty"`
}

type dirTarget struct {
	Path     string `json:"path"`
	Function string `json:"function,omitempty"`
}

// LoadDir reads tasks in the directory format from fsys: every directory
// under root that holds a task.json is one task, named by the directory's
// path below root. Beside task.json, code.<ext> holds the code to adapt,
// reference.<ext> the reference answer, and files/ the workspace, target
// file included. Tasks come in lexical order of their directories.
//
//	py-example/
//	  task.json       {"language", "target": {"path", "function"}, "requirement", "tests", "labels"}
//	  code.py
//	  reference.py
//	  files/utils.py  (the target, with the reference in place)
//	  files/test_utils.py
func LoadDir(fsys fs.FS, root string) ([]Task, error) {
	var dirs []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "task.json" {
			dirs = append(dirs, path.Dir(p))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("adapt: %w", err)
	}
	slices.Sort(dirs)
	tasks := make([]Task, 0, len(dirs))
	for _, dir := range dirs {
		t, err := loadTaskDir(fsys, root, dir)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	return tasks, nil
}

func loadTaskDir(fsys fs.FS, root, dir string) (Task, error) {
	meta := path.Join(dir, "task.json")
	raw, err := fs.ReadFile(fsys, meta)
	if err != nil {
		return Task{}, fmt.Errorf("adapt: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var td taskDir
	if err := dec.Decode(&td); err != nil {
		return Task{}, &ParseError{Path: meta, Line: lineOf(raw, dec.InputOffset()), Err: err}
	}
	id := strings.TrimPrefix(strings.TrimPrefix(dir, root), "/")
	if id == "" {
		id = path.Base(dir)
	}
	t := Task{
		ID: id, Language: td.Language, Framework: td.Framework,
		Target:      Target{Path: td.Target.Path, Function: td.Target.Function},
		Requirement: td.Requirement, Tests: td.Tests, Labels: td.Labels,
		Context: td.Context, Provenance: td.Provenance, Env: td.Env,
	}
	ext := map[string]string{Python: ".py", Go: ".go", Java: ".java"}[td.Language]
	read := func(name string) (string, error) {
		b, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			return "", &ParseError{Path: path.Join(dir, name), Err: err}
		}
		return string(b), nil
	}
	if t.Code, err = read("code" + ext); err != nil {
		return Task{}, err
	}
	if t.Reference, err = read("reference" + ext); err != nil {
		return Task{}, err
	}
	files := path.Join(dir, "files")
	found := false
	err = fs.WalkDir(fsys, files, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(p, files+"/")
		if rel == t.Target.Path {
			t.Target.Content, found = string(b), true
			return nil
		}
		t.Files = append(t.Files, File{Path: rel, Content: string(b)})
		return nil
	})
	if err != nil {
		return Task{}, &ParseError{Path: files, Err: err}
	}
	if !found {
		return Task{}, &ParseError{Path: meta, Err: fmt.Errorf("target %q is not under files/", t.Target.Path)}
	}
	t.normalize()
	if err := t.Validate(); err != nil {
		return Task{}, &ParseError{Path: meta, Err: err}
	}
	return t, nil
}

func lineOf(b []byte, off int64) int {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	return 1 + bytes.Count(b[:off], []byte("\n"))
}
