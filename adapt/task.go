package adapt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// schemaVersion is the newest version of the native task format (JSON
// Lines, one task per line) that this package writes and reads. Version 2
// moved the generators' machine data (byte ranges, bug spans, test and API
// lists, lineages) from Labels into Provenance.Schema and
// Provenance.Detail; ReadTasks refuses version 1 tasks rather than read
// them without it. Provenance.Repo and Provenance.Commit were added to
// version 2 as optional fields: a task without them is written, read and
// hashed (in a journal's task-set digest) exactly as before, so existing
// task files and journals still read and resume; only a reader older than
// the fields refuses a task that has them, naming the unknown field.
// Version 3 adds shared workspaces (Task.Base): a base's own line, and
// tasks that name it. A task without a base is the same in both, and
// WriteTasks writes it as version 2, which older readers read.
const schemaVersion = 3

// schemaNoBase is the version WriteTasks gives a task without a base.
const schemaNoBase = 2

// Languages the evaluator knows how to splice and test.
const (
	Python = "python"
	Go     = "go"
	Java   = "java"
)

// Test frameworks; the empty string means the language's default
// (unittest, go, junit). A go task runs the tests of its target file's
// package: the workspace is a module, the target anywhere in it.
const (
	FrameworkUnittest = "unittest"
	FrameworkPytest   = "pytest"
	FrameworkGo       = "go"
	FrameworkJUnit    = "junit"
)

// Pass rules: when a test of Task.Tests passes.
const (
	// PassEveryTest (the default): a test passes when it ran and passed;
	// a skipped test did not pass, and a name that selects several tests
	// passes when each of them passed.
	PassEveryTest = ""
	// PassExitStatus is a test runner's exit status, as pytest's: a test
	// passes when it ran and did not fail, a skipped test (or an expected
	// failure) counting as passed; a name that selects several tests
	// passes when none of them failed and at least one was reported. So a
	// file whose tests all skip passes, as "pytest FILE" exits 0, while a
	// file with no tests fails, as pytest exits 5. A sample's result shows such a
	// skipped test as passed, with a message saying it skipped.
	PassExitStatus = "exit-status"
)

// Task is one adaptation task: code to adapt, the place it must fit into,
// what the adaptation must achieve, a reference answer and the tests that
// decide. Every generator in this module produces Tasks and Evaluate
// consumes them.
type Task struct {
	// ID names the task uniquely within its benchmark.
	ID string `json:"id"`
	// Language is Python, Go or Java.
	Language string `json:"language"`
	// Code is the code to adapt: a snippet reused from elsewhere.
	Code string `json:"code"`
	// Target is where the adapted code goes.
	Target Target `json:"target"`
	// Files are the other files of the workspace the tests run in: context
	// modules, test files, go.mod. Paths are slash-separated and relative.
	// With a Base, they are the files the task changes or adds to it.
	Files []File `json:"files,omitempty"`
	// Base, if set, is a workspace shared with other tasks (a project at
	// one state), stored once: the task's workspace is the base with Files
	// and then the target written over it (see WorkspaceFiles). Written as
	// its digest.
	Base *Base `json:"base,omitempty"`
	// Context holds related code from the target code base that a prompt
	// may show (AdaptEval's "oracle" context).
	Context []Snippet `json:"context,omitempty"`
	// Requirement says what the adaptation must achieve; empty for an
	// instruction-free task.
	Requirement Requirement `json:"requirement"`
	// Reference is the adapted code: the gold answer, in the form a model
	// is asked to give (the target function).
	Reference string `json:"reference"`
	// Framework is the test framework; empty means the language's default.
	Framework string `json:"framework,omitempty"`
	// Tests are the test cases that decide, by the names the framework
	// reports. With pytest a name may also select several tests, as a
	// node id prefix does ("test_x.py", "test_x.py::TestX"): it passes when
	// the tests it selects do.
	Tests []Test `json:"tests"`
	// PassRule says when a test passes: PassEveryTest (the default) or
	// PassExitStatus.
	PassRule string `json:"pass_rule,omitempty"`
	// Labels are low-cardinality grouping keys, the dimensions a researcher
	// breaks scores down by (Options.Breakdown names them): a benchmark, a
	// library, an operator, a context level, a setting. A value that is
	// per task (an ID, a byte offset, a list of tests, a JSON record) is
	// not a label: it belongs in Provenance.Detail, where the generator
	// that made the task keeps it typed.
	Labels map[string]string `json:"labels,omitempty"`
	// Provenance says where a derived task came from.
	Provenance *Provenance `json:"provenance,omitempty"`
	// Env names the environment the tests need (library versions); nil
	// means the machine's default toolchain.
	Env *Environment `json:"env,omitempty"`
}

// Target is the file the adapted code goes into and the function in it that
// the adapted code replaces.
type Target struct {
	// Path of the file in the workspace.
	Path string `json:"path"`
	// Function is the (qualified) name of the function the answer
	// replaces, such as "parse", "Stack.push" or "Client.Do". Empty means
	// the answer replaces the whole file.
	Function string `json:"function,omitempty"`
	// Content is the file as the tests expect it, with a version of
	// Function in place (usually the reference).
	Content string `json:"content"`
}

// File is one file of a task's workspace.
type File struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// Snippet is a named piece of context code.
type Snippet struct {
	Name string `json:"name"`
	Code string `json:"code"`
}

// Requirement is what an adaptation must achieve: a task-level sentence,
// ordered adaptation-level steps, both, or neither (instruction-free).
type Requirement struct {
	Task  string `json:"task,omitempty"`
	Steps []Step `json:"steps,omitempty"`
}

// Step is one adaptation-level requirement.
type Step struct {
	// ID identifies the step within its task.
	ID string `json:"id"`
	// Type labels the kind of adaptation, "Category.Type" such as
	// "Logic.Ins_Call".
	Type string `json:"type,omitempty"`
	// Description says what to do, in words.
	Description string `json:"description"`
}

// Category is the part of the step type before the first dot
// ("Logic" for "Logic.Ins_Call").
func (s Step) Category() string {
	c, _, _ := strings.Cut(s.Type, ".")
	return c
}

// Test is one test case of a task.
type Test struct {
	// Name is the name the framework reports and selects by:
	// "test_utils.TestParse.test_empty" (unittest: module.Class.method),
	// "tests/test_utils.py::test_empty" (pytest: file::test) or
	// "TestParse" (go: a top-level test, example or fuzz target, run with
	// all its subtests; a subtest such as "TestParse/empty" cannot be
	// selected alone, and Validate rejects it).
	Name string `json:"name"`
	// File is the workspace file that holds the test, if known; it must be
	// one of the task's files.
	File string `json:"file,omitempty"`
	// Steps lists the IDs of the adaptation steps this test checks; none
	// makes it a function-level test.
	Steps []string `json:"steps,omitempty"`
}

// Provenance records how a derived task was made.
type Provenance struct {
	// Generator names what made the task ("mutate", "ctxbug", "evolve", or
	// a loader such as "adapteval").
	Generator string `json:"generator"`
	// Parent is the ID of the task it was derived from.
	Parent string `json:"parent,omitempty"`
	// Operators lists the operators or rules applied, in order.
	Operators []string `json:"operators,omitempty"`
	// Seed is the seed of the generator's random choices.
	Seed uint64 `json:"seed"`
	// Source names the dataset or file the task was loaded from: with
	// Repo, the path inside the repository.
	Source string `json:"source,omitempty"`
	// Repo names the git repository the task's data was read from (a
	// path or a URL without credentials, as the loader was given it),
	// and Commit that data's commit, in full hex (40 digits; 64 for a
	// SHA-256 repository). Both are set together, by a loader's
	// LoadRevision, or neither: a task from a plain file or directory has
	// none.
	Repo   string `json:"repo,omitempty"`
	Commit string `json:"commit,omitempty"`
	// Schema names the format of Detail, "<generator>/v<N>" such as
	// "mutate/v1"; empty when there is no Detail.
	Schema string `json:"schema,omitempty"`
	// Detail is the generator's machine record of the task (the byte
	// ranges, spans, test lists or lineage its own functions read back),
	// as JSON in the format Schema names (Task.SetDetail writes it; each
	// generator's DetailOf reads it with Task.DecodeDetail into its own
	// type: adapt knows none of them). It is kept
	// compact (as json.Marshal gives it; ReadTasks and LoadDir compact
	// what they read), so that a task written and read back is equal.
	Detail json.RawMessage `json:"detail,omitempty"`
}

// commitHash is the form of Provenance.Commit.
var commitHash = regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`)

// ErrDetailSchema is wrapped by a generator's decoder of
// Provenance.Detail when the task's Provenance.Schema is not the one it
// reads (a task of another generator, or of another version of it).
var ErrDetailSchema = errors.New("wrong provenance schema")

// detailSchema is the form of Provenance.Schema.
var detailSchema = regexp.MustCompile(`^[a-z][a-z0-9-]*/v[1-9][0-9]*$`)

// Environment names what a task's tests need beyond the default toolchain.
// It is plain data; an EnvProvider turns it into something runnable.
type Environment struct {
	// Runtime is the interpreter or toolchain version, such as "3.9".
	Runtime string `json:"runtime,omitempty"`
	// Packages are the libraries and versions the tests need.
	Packages []Package `json:"packages,omitempty"`
}

// Package is one library at one version.
type Package struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// StepTests returns the names of the tests that check step id.
func (t *Task) StepTests(id string) []string {
	var names []string
	for _, tc := range t.Tests {
		if slices.Contains(tc.Steps, id) {
			names = append(names, tc.Name)
		}
	}
	return names
}

// FrameworkOrDefault returns the task's framework, or its language's default.
func (t *Task) FrameworkOrDefault() string {
	if t.Framework != "" {
		return t.Framework
	}
	switch t.Language {
	case Go:
		return FrameworkGo
	case Java:
		return FrameworkJUnit
	}
	return FrameworkUnittest
}

// normalize makes empty lists nil, so that a task read from any format
// compares equal to the same task written and read again.
func (t *Task) normalize() {
	for i := range t.Tests {
		if len(t.Tests[i].Steps) == 0 {
			t.Tests[i].Steps = nil
		}
	}
	if len(t.Files) == 0 {
		t.Files = nil
	}
	if len(t.Context) == 0 {
		t.Context = nil
	}
	if len(t.Requirement.Steps) == 0 {
		t.Requirement.Steps = nil
	}
	if len(t.Labels) == 0 {
		t.Labels = nil
	}
	if p := t.Provenance; p != nil {
		var b bytes.Buffer
		switch {
		case len(p.Detail) == 0 || string(p.Detail) == "null":
			p.Detail = nil
		case json.Compact(&b, p.Detail) == nil:
			p.Detail = json.RawMessage(b.Bytes())
		}
	}
}

// ErrInvalidTask is wrapped by every error Validate returns.
var ErrInvalidTask = errors.New("adapt: invalid task")

// Validate checks that the task is complete and consistent: an ID, a known
// language and framework, a target path, at least one test, tests that name
// existing files and steps, safe, distinct relative file paths, and a
// provenance detail, if any, that is JSON under a schema of the form
// "<generator>/v<N>", and a provenance repository and commit set together,
// the commit a full hash.
func (t *Task) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w %q: %s", ErrInvalidTask, t.ID, fmt.Sprintf(format, args...))
	}
	if t.ID == "" {
		return fmt.Errorf("%w: empty id", ErrInvalidTask)
	}
	if err := t.checkFramework(); err != nil {
		return bad("%v", err)
	}
	if err := checkPath(t.Target.Path); err != nil {
		return bad("target: %v", err)
	}
	if t.Base != nil && !t.Base.resolved {
		return bad("base %s is not loaded (read tasks with ReadTasks or LoadDir, which resolve it)", t.Base.digest)
	}
	paths := map[string]bool{t.Target.Path: true}
	for _, f := range t.Files {
		if err := checkPath(f.Path); err != nil {
			return bad("file: %v", err)
		}
		if paths[f.Path] {
			return bad("file %q appears twice", f.Path)
		}
		paths[f.Path] = true
	}
	switch t.PassRule {
	case PassEveryTest, PassExitStatus:
	default:
		return bad("unknown pass rule %q (want %q or %q)", t.PassRule, PassEveryTest, PassExitStatus)
	}
	if len(t.Tests) == 0 {
		return bad("no tests")
	}
	if err := checkProvenance(t.Provenance); err != nil {
		return bad("%v", err)
	}
	// has reports whether the workspace holds a file: the target, one of
	// Files, or one of the base's.
	has := func(p string) bool { return paths[p] || t.Base != nil && t.Base.has(p) }
	if err := t.checkTests(has); err != nil {
		return bad("%v", err)
	}
	if t.Target.Function != "" {
		if err := checkTargetFunction(t); err != nil {
			return bad("target %s: %v", t.Target.Path, err)
		}
	}
	return nil
}

// checkFramework checks the task's language, and that its framework is
// one of that language's.
func (t *Task) checkFramework() error {
	switch t.Language {
	case Python, Go, Java:
	default:
		return fmt.Errorf("unknown language %q (want python, go or java)", t.Language)
	}
	switch t.FrameworkOrDefault() {
	case FrameworkUnittest, FrameworkPytest:
		if t.Language != Python {
			return fmt.Errorf("framework %q needs language python", t.Framework)
		}
	case FrameworkGo:
		if t.Language != Go {
			return errors.New("framework go needs language go")
		}
	case FrameworkJUnit:
		if t.Language != Java {
			return errors.New("framework junit needs language java")
		}
	default:
		return fmt.Errorf("unknown framework %q (want unittest, pytest, go or junit)", t.Framework)
	}
	return nil
}

// checkProvenance checks that a provenance's detail has a schema of the
// right form and is JSON, and that it names a repository and a full
// commit hash together or neither.
func checkProvenance(p *Provenance) error {
	switch {
	case p == nil:
	case len(p.Detail) > 0 && p.Schema == "":
		return errors.New("provenance detail without a schema")
	case p.Schema != "" && len(p.Detail) == 0:
		return fmt.Errorf("provenance schema %q without a detail", p.Schema)
	case p.Schema != "" && !detailSchema.MatchString(p.Schema):
		return fmt.Errorf("provenance schema %q (want <generator>/v<N>, such as mutate/v1)", p.Schema)
	case len(p.Detail) > 0 && !json.Valid(p.Detail):
		return fmt.Errorf("provenance detail (schema %s) is not JSON", p.Schema)
	case (p.Repo == "") != (p.Commit == ""):
		return fmt.Errorf("provenance names a repository without a commit or a commit without a repository (repo %q, commit %q)", p.Repo, p.Commit)
	case p.Commit != "" && !commitHash.MatchString(p.Commit):
		return fmt.Errorf("provenance commit %q is not a full hash (want 40 or 64 lowercase hex digits)", p.Commit)
	}
	return nil
}

// checkTests checks the task's tests: named, once each, selectable by the
// framework's driver, their files in the workspace (has) and their steps
// the requirement's.
func (t *Task) checkTests(has func(string) bool) error {
	steps := map[string]bool{}
	for _, s := range t.Requirement.Steps {
		steps[s.ID] = true
	}
	seen := map[string]bool{}
	for _, tc := range t.Tests {
		if tc.Name == "" {
			return errors.New("a test has no name")
		}
		if err := checkTestName(t.FrameworkOrDefault(), tc.Name, has); err != nil {
			return fmt.Errorf("test %q: %v", tc.Name, err)
		}
		if seen[tc.Name] {
			return fmt.Errorf("test %q appears twice", tc.Name)
		}
		seen[tc.Name] = true
		if tc.File != "" && !has(tc.File) {
			return fmt.Errorf("test %q references missing file %q", tc.Name, tc.File)
		}
		for _, s := range tc.Steps {
			if !steps[s] {
				return fmt.Errorf("test %q references unknown step %q", tc.Name, s)
			}
		}
	}
	return nil
}

// checkTestName checks that a test name is one the framework's driver can
// select, and that the file it names (a Python test module) is one of the
// task's files (has): a mistake there would otherwise load and only show
// at run time, as an invalid task.
func checkTestName(framework, name string, has func(string) bool) error {
	switch framework {
	case FrameworkGo:
		if strings.Contains(name, "/") {
			top, _, _ := strings.Cut(name, "/")
			return fmt.Errorf("a Go subtest cannot be selected alone; name its top-level test %q, which runs it", top)
		}
	case FrameworkPytest:
		// A node id: a file (all its tests), or file::test, file::Class
		// or file::Class::test.
		file, _, _ := strings.Cut(name, "::")
		if !strings.HasSuffix(file, ".py") {
			return errors.New(`want a pytest node id "file.py", "file.py::test" or "file.py::Class::test"`)
		}
		if !has(file) {
			return fmt.Errorf("its file %q is not one of the task's files", file)
		}
	case FrameworkUnittest:
		parts := strings.Split(name, ".")
		if len(parts) < 2 || slices.Contains(parts, "") {
			return errors.New(`want a unittest id "module.Class.method"`)
		}
		// The module is a prefix of the dotted name; the rest names the
		// class and the method.
		for k := len(parts) - 1; k >= 1; k-- {
			mod := strings.Join(parts[:k], "/")
			if has(mod+".py") || has(mod+"/__init__.py") {
				return nil
			}
		}
		return fmt.Errorf("no file of the task is its module (%s.py or a package above it)", strings.Join(parts[:len(parts)-1], "/"))
	}
	return nil
}

// checkTargetFunction checks that the target file defines the function an
// answer replaces, where the language's parser is known.
func checkTargetFunction(t *Task) error {
	lang, err := syntax.LangByName(t.Language)
	if err != nil {
		return nil // Validate has checked the language; no parser, no check
	}
	if _, err := syntax.FindFunction(lang, []byte(t.Target.Content), t.Target.Function); err != nil {
		if errors.Is(err, syntax.ErrNotFound) {
			return fmt.Errorf("does not define the function %q that answers replace", t.Target.Function)
		}
		return err
	}
	return nil
}

func checkPath(p string) error {
	switch {
	case p == "":
		return errors.New("empty path")
	case strings.Contains(p, `\`), path.IsAbs(p), path.Clean(p) != p, p == "..", strings.HasPrefix(p, "../"):
		return fmt.Errorf("path %q must be relative, clean and slash-separated", p)
	}
	return nil
}
