package evolve

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/evolve/transform"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// Subject is one program to evolve with the tests that decide whether a
// variant is still equivalent to it.
type Subject struct {
	// ID names the program, such as "HumanEval/0"; it also seeds the
	// program's random stream in [Generate].
	ID string
	// Program is the original program. Its Protected names are never
	// renamed, moved or removed.
	Program *transform.Program
	// Suite holds the benchmark's own tests.
	Suite *TestSuite
	// Task is the task the subject was made from, if any; the task
	// builders ([OutputPrediction], [Repair], [Adaptation]) derive new
	// tasks from it.
	Task *adapt.Task
}

// FromTask makes a subject of a Python task with unittest or pytest tests
// (HumanEval, ClassEval, AdaptEval and the native format): the program is
// the target file as the tests expect it (Target.Content, with the
// reference in place), the suite is the task's other files and tests. The
// protected names are the target function (and its class) and every
// top-level name of the program that a test file mentions, since the tests
// reach them by name (HumanEval's decode_cyclic test calls encode_cyclic).
func FromTask(t *adapt.Task) (*Subject, error) {
	if t.Language != adapt.Python {
		return nil, fmt.Errorf("%w: task %q has language %q", errNotPython, t.ID, t.Language)
	}
	fw := t.FrameworkOrDefault()
	if fw != adapt.FrameworkUnittest && fw != adapt.FrameworkPytest {
		return nil, fmt.Errorf("%w: task %q has framework %q", errNotPython, t.ID, fw)
	}
	if t.Target.Content == "" {
		return nil, fmt.Errorf("evolve: task %q: empty target content", t.ID)
	}
	s := &TestSuite{Path: t.Target.Path, Files: slices.Clone(t.Files), Framework: fw}
	for _, tc := range t.Tests {
		s.Tests = append(s.Tests, tc.Name)
	}
	if err := s.validate(); err != nil {
		return nil, fmt.Errorf("evolve: task %q: %w", t.ID, err)
	}
	main := []byte(t.Target.Content)
	prot, err := protectedNames(main, t.Target.Function, t.Files)
	if err != nil {
		return nil, fmt.Errorf("evolve: task %q: %w", t.ID, err)
	}
	task := *t
	return &Subject{ID: t.ID, Program: &transform.Program{Main: main, Protected: prot}, Suite: s, Task: &task}, nil
}

// protectedNames returns, sorted, the parts of the target function's
// qualified name and the top-level names of main mentioned in files.
func protectedNames(main []byte, function string, files []adapt.File) ([]string, error) {
	set := map[string]bool{}
	for part := range strings.SplitSeq(function, ".") {
		if part != "" {
			set[part] = true
		}
	}
	root, err := syntax.ParseNodes(syntax.Python, main)
	if err != nil {
		return nil, err
	}
	if root.Err {
		return nil, fmt.Errorf("target content does not parse")
	}
	defined := topLevelNames(root, main)
	mentioned := map[string]bool{}
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".py") {
			continue
		}
		src := []byte(f.Content)
		n, err := syntax.ParseNodes(syntax.Python, src)
		if err != nil {
			return nil, err
		}
		for _, id := range n.Identifiers() {
			mentioned[id.Text(src)] = true
		}
	}
	for _, name := range defined {
		if mentioned[name] {
			set[name] = true
		}
	}
	return sortedKeys(set), nil
}

// topLevelNames lists the functions, classes and assigned names defined at
// the top level of a module, in source order.
func topLevelNames(root *syntax.Node, src []byte) []string {
	var names []string
	var def func(n *syntax.Node)
	def = func(n *syntax.Node) {
		switch n.Type {
		case "function_definition", "class_definition":
			if c := n.Child("name"); c != nil {
				names = append(names, c.Text(src))
			}
		case "decorated_definition":
			if c := n.Child("definition"); c != nil {
				def(c)
			}
		case "expression_statement":
			for _, c := range n.NamedChildren() {
				if c.Type == "assignment" {
					if l := c.Child("left"); l != nil {
						for _, id := range l.Identifiers() {
							names = append(names, id.Text(src))
						}
					}
				}
			}
		}
	}
	for _, c := range root.NamedChildren() {
		def(c)
	}
	return names
}

// sortedKeys returns the keys of m in increasing order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// FromTasks makes one subject of several tasks that share a target file,
// such as ClassEval's method tasks of one class: the program is their
// common target file, the suite runs the tests of all of them (so that an
// evolved class must pass every method's tests), and every target
// function is protected. The subject's ID is id; its Task is the first
// task, with the union of the tests. The tasks must agree on the target
// path and content, the framework and the files.
func FromTasks(id string, tasks []adapt.Task) (*Subject, error) {
	if len(tasks) == 0 {
		return nil, fmt.Errorf("evolve: %s: no tasks", id)
	}
	first := tasks[0]
	merged := first
	merged.ID = id
	merged.Tests = nil
	seen := map[string]bool{}
	var prot []string
	for i := range tasks {
		t := &tasks[i]
		if t.Target.Path != first.Target.Path || t.Target.Content != first.Target.Content ||
			t.FrameworkOrDefault() != first.FrameworkOrDefault() || !slices.Equal(t.Files, first.Files) {
			return nil, fmt.Errorf("evolve: %s: task %q does not share %q's target, framework and files", id, t.ID, first.ID)
		}
		for _, tc := range t.Tests {
			if !seen[tc.Name] {
				seen[tc.Name] = true
				merged.Tests = append(merged.Tests, tc)
			}
		}
		prot = append(prot, t.Target.Function)
	}
	s, err := FromTask(&merged)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, p := range s.Program.Protected {
		set[p] = true
	}
	for _, fn := range prot {
		for part := range strings.SplitSeq(fn, ".") {
			if part != "" {
				set[part] = true
			}
		}
	}
	s.Program.Protected = sortedKeys(set)
	return s, nil
}
