package ctxbug

import (
	"fmt"
	"slices"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/classeval"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// Base is one reference method that CtxBugs are derived from, with the
// target context they must fail in.
type Base struct {
	// Task is the method's ClassEval task (see classeval.Tasks): its
	// target is the class solution, its tests those of the method's test
	// class, its Reference the method.
	Task adapt.Task
	// Method is the reference method as the rules see it: Task.Reference,
	// dedented, decorators included. Hole offsets are byte offsets in it.
	Method []byte
	// Name is the method's name; Class the class's.
	Name, Class string
	// Requirement is what a generator is told the method does: its
	// signature and docstring (ClassEval's method_description).
	Requirement string
	// Context is what the rules need to know of the class.
	Context Context
	// Libs are the libraries the method uses (by the names it imports
	// them under): the dependency rule's "not allowed" list.
	Libs []string
	// classContext is the class solution with the method and its callers
	// removed: the target context shown when a model adapts the method.
	classContext string
}

// ID returns the base's task ID ("ClassEval_11.add").
func (b *Base) ID() string { return b.Task.ID }

// FromClassEval makes a Base of every method of classes, in order; source
// names the dataset in the tasks' provenance.
func FromClassEval(classes []classeval.Class, source string) ([]*Base, error) {
	tasks, err := classeval.Tasks(classes, source)
	if err != nil {
		return nil, err
	}
	var out []*Base
	k := 0
	for i := range classes {
		c := &classes[i]
		libs := c.ImportedNames()
		for j := range c.Methods {
			m := &c.Methods[j]
			t := tasks[k]
			k++
			method := []byte(t.Reference)
			drop := append([]string{m.Name}, c.Callers(m.Name)...)
			cctx, err := c.SolutionWithout(drop...)
			if err != nil {
				return nil, err
			}
			out = append(out, &Base{
				Task:         t,
				Method:       method,
				Name:         m.Name,
				Class:        c.Name,
				Requirement:  string(syntax.Dedent([]byte("    " + m.Description))),
				Context:      Context{Class: c.Name, Methods: c.Siblings(m.Name), Libs: libs},
				Libs:         usedNames(method, libs),
				classContext: cctx,
			})
		}
	}
	if k != len(tasks) {
		return nil, fmt.Errorf("ctxbug: %d tasks for %d methods", len(tasks), k)
	}
	return out, nil
}

// usedNames returns the names of libs that occur as identifiers in method,
// in the order of libs.
func usedNames(method []byte, libs []string) []string {
	root, err := syntax.ParseNodes(syntax.Python, method)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	for _, id := range root.Identifiers() {
		seen[id.Text(method)] = true
	}
	var out []string
	for _, l := range libs {
		if seen[l] && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}
