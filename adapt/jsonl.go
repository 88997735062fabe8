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

	"github.com/adaptbench/adaptbench/internal/textkit"
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

// baseTaskLine is the on-disk form of a task with a base (schema 3): its
// target's content is left out when the base holds the same file, as
// it does for a task made from the project the base is (the target with
// the reference in place is the project's file): the task then stores
// only what it changes.
type baseTaskLine struct {
	Schema int `json:"schema"`
	Task
	Target lineTarget `json:"target"` // in place of Task.Target
}

// lineTarget is a Target whose Content is nil when it is the base's file.
type lineTarget struct {
	Path     string  `json:"path"`
	Function string  `json:"function,omitempty"`
	Content  *string `json:"content,omitempty"`
}

// baseLine is the on-disk form of a Base: its own line, kind "base".
type baseLine struct {
	Schema int    `json:"schema"`
	Kind   string `json:"kind"`
	Base   string `json:"base"`
	Files  []File `json:"files"`
}

// kindBase is the kind of a base's line.
const kindBase = "base"

// WriteTasks writes tasks as JSON Lines, one task per line, each with the
// schema version. Each Base is written once, as a line of its own
// (schema 3, "kind": "base", its digest and files) just before the first
// task that uses it; tasks name it by digest, and leave out their target's
// content when it is the base's file at that path. A task without a base
// is written as schema version 2. Output is deterministic.
func WriteTasks(w io.Writer, tasks []Task) error {
	bw := bufio.NewWriter(w)
	written := map[string]bool{}
	for i := range tasks {
		t := &tasks[i]
		schema := schemaNoBase
		if b := t.Base; b != nil {
			schema = schemaVersion
			if !b.resolved {
				return fmt.Errorf("%w: task %q: base %s is not loaded", ErrBase, t.ID, b.digest)
			}
			if !written[b.digest] {
				line, err := marshalLine(baseLine{Schema: schemaVersion, Kind: kindBase, Base: b.digest, Files: b.files})
				if err != nil {
					return fmt.Errorf("adapt: base %s: %w", b.digest, err)
				}
				bw.Write(line)
				written[b.digest] = true
			}
		}
		var line any = taskLine{Schema: schema, Task: *t}
		if t.Base != nil {
			lt := lineTarget{Path: t.Target.Path, Function: t.Target.Function, Content: &t.Target.Content}
			if c, ok := t.Base.file(t.Target.Path); ok && c == t.Target.Content {
				lt.Content = nil
			}
			line = baseTaskLine{Schema: schema, Task: *t, Target: lt}
		}
		b, err := marshalLine(line)
		if err != nil {
			return fmt.Errorf("adapt: task %q: %w", t.ID, err)
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

// readLines reads r with textkit.ReadJSONL, an error naming name and the line as
// a *ParseError (as it is when f already returns one).
func readLines(r io.Reader, name string, f func(line int, raw []byte) error) error {
	return textkit.ReadJSONL(r, f, func(line int, err error) error {
		var pe *ParseError
		if errors.As(err, &pe) {
			return err
		}
		return &ParseError{Path: name, Line: line, Err: err}
	})
}

// ReadTasks reads tasks written by WriteTasks (schema versions 2 and 3).
// name is used in errors. Every task is validated; a malformed line, an
// unknown field, an unknown schema version, an invalid task or a duplicate
// ID is an error naming the line. Each base line is hashed again: one
// whose files do not give its digest (edited, or cut short) is an error
// naming the line and both digests, and so is a task naming a base the
// input does not hold (a base may come after its tasks). Tasks that share
// a base share one *Base. Blank lines are skipped.
func ReadTasks(r io.Reader, name string) ([]Task, error) {
	var tasks []Task
	lines := []int{}   // line of each task
	var fromBase []int // tasks whose target's content is their base's file
	ids := map[string]int{}
	bs := bases{}
	err := readLines(r, name, func(line int, raw []byte) error {
		var head struct {
			Schema *int   `json:"schema"`
			Kind   string `json:"kind"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return fmt.Errorf("malformed JSON: %w", err)
		}
		if head.Schema == nil {
			return fmt.Errorf("%w: no \"schema\" field (want %d)", ErrSchemaVersion, schemaVersion)
		}
		if *head.Schema != schemaVersion && *head.Schema != schemaNoBase {
			why := ""
			if *head.Schema == 1 {
				why = ": version 1 kept the generators' records in labels; make the tasks again with this version"
			}
			return fmt.Errorf("%w %d (this version reads %d and %d%s)", ErrSchemaVersion, *head.Schema, schemaNoBase, schemaVersion, why)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if head.Kind != "" {
			if head.Kind != kindBase || *head.Schema < schemaVersion {
				return fmt.Errorf("a line of kind %q in schema version %d (want tasks, or kind %q in version %d)", head.Kind, *head.Schema, kindBase, schemaVersion)
			}
			var bl baseLine
			if err := dec.Decode(&bl); err != nil {
				return fmt.Errorf("malformed base: %w", err)
			}
			_, err := bs.add(bl.Base, bl.Files)
			return err
		}
		var tl taskLine
		if *head.Schema >= schemaVersion {
			var bl baseTaskLine
			if err := dec.Decode(&bl); err != nil {
				return fmt.Errorf("malformed task: %w", err)
			}
			tl = taskLine{Schema: bl.Schema, Task: bl.Task}
			tl.Target = Target{Path: bl.Target.Path, Function: bl.Target.Function}
			if bl.Target.Content != nil {
				tl.Target.Content = *bl.Target.Content
			} else {
				if tl.Base == nil {
					return fmt.Errorf("task %q: its target has no content and it has no base to take it from", tl.ID)
				}
				fromBase = append(fromBase, len(tasks))
			}
		} else if err := dec.Decode(&tl); err != nil {
			return fmt.Errorf("malformed task: %w", err)
		}
		if tl.Base != nil && *head.Schema < schemaVersion {
			return fmt.Errorf("task %q has a base, which schema version %d does not have (want %d)", tl.ID, *head.Schema, schemaVersion)
		}
		tl.Task.normalize()
		if tl.Base == nil {
			if err := tl.Task.Validate(); err != nil {
				return err
			}
		}
		if prev, ok := ids[tl.ID]; ok {
			return fmt.Errorf("duplicate task id %q (first on line %d)", tl.ID, prev)
		}
		ids[tl.ID] = line
		tasks = append(tasks, tl.Task)
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Bases may follow their tasks: resolve them at the end.
	for i := range tasks {
		t := &tasks[i]
		if t.Base == nil {
			continue
		}
		if err := bs.resolve(t); err != nil {
			return nil, &ParseError{Path: name, Line: lines[i], Err: err}
		}
		if len(fromBase) > 0 && fromBase[0] == i {
			fromBase = fromBase[1:]
			c, ok := t.Base.file(t.Target.Path)
			if !ok {
				return nil, &ParseError{Path: name, Line: lines[i], Err: fmt.Errorf("%w: task %q: its target %s has no content, and base %s has no such file", ErrBase, t.ID, t.Target.Path, t.Base.digest)}
			}
			t.Target.Content = c
		}
		if err := t.Validate(); err != nil {
			return nil, &ParseError{Path: name, Line: lines[i], Err: err}
		}
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
	Base        *Base             `json:"base,omitempty"`
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
//
// A task.json may name a Base, "base": "sha256:<hex>": its files are
// those under _bases/<hex>/ below root (a directory that holds no task),
// and files/ then holds the target and the files the task changes or adds.
// Each base is read and hashed once; one whose files do not give its
// digest, or that is missing, is an error naming the task and the digest.
//
//	_bases/3f2a…/go.mod, _bases/3f2a…/calc.go, …
func LoadDir(fsys fs.FS, root string) ([]Task, error) {
	var dirs []string
	basesDir := path.Join(root, dirBases)
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p == basesDir {
			return fs.SkipDir
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
	bs := bases{}
	for _, dir := range dirs {
		t, err := loadTaskDir(fsys, root, dir, bs)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	return tasks, nil
}

// dirBases is the directory below LoadDir's root that holds the bases.
const dirBases = "_bases"

// loadBaseDir reads the base with this digest from root's _bases
// directory into bs, once.
func loadBaseDir(fsys fs.FS, root, digest string, bs bases) error {
	if bs[digest] != nil {
		return nil
	}
	dir := path.Join(root, dirBases, strings.TrimPrefix(digest, "sha256:"))
	var files []File
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files = append(files, File{Path: strings.TrimPrefix(p, dir+"/"), Content: string(b)})
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w %s: %v", ErrBase, digest, err)
	}
	_, err = bs.add(digest, files)
	return err
}

func loadTaskDir(fsys fs.FS, root, dir string, bs bases) (Task, error) {
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
		Context: td.Context, Provenance: td.Provenance, Env: td.Env, Base: td.Base,
	}
	if t.Base != nil {
		if err := loadBaseDir(fsys, root, t.Base.digest, bs); err != nil {
			return Task{}, &ParseError{Path: meta, Err: fmt.Errorf("task %q: %w", id, err)}
		}
		if err := bs.resolve(&t); err != nil {
			return Task{}, &ParseError{Path: meta, Err: err}
		}
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
