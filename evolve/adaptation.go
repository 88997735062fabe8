package evolve

import (
	"errors"
	"fmt"
	"slices"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// errNotEvolved is wrapped when a task builder needs an evolved program and
// the run accepted none.
var errNotEvolved = errors.New("evolve: nothing was evolved")

// Adaptation makes a harder adaptation task from a run over a task's
// target file (a subject from [FromTask]), beyond what the paper does: the
// reused code, the requirement and the tests stay as they were, and the
// target file the answer must fit into is the evolved program, which
// still passes the tests. Its helpers may be renamed, wrapped in
// decorators or threads, or moved to new modules, so an answer that
// ignores the context (calls a helper by its old name) can fail. The target
// function keeps its name (it is protected); the reference is its evolved
// definition, found by name in the evolved program, so the gold answer
// passes as the evolved program did.
func Adaptation(s *Subject, res *Evolution) (adapt.Task, error) {
	if s.Task == nil {
		return adapt.Task{}, fmt.Errorf("evolve: %s: an adaptation task needs a subject made from a task", s.ID)
	}
	if res.Best == 0 {
		return adapt.Task{}, fmt.Errorf("%w: %s", errNotEvolved, s.ID)
	}
	evo := res.Evolved().Program
	t := *s.Task
	t.ID = s.ID + "/adapt/evolved"
	t.Target.Content = string(evo.Main)
	if t.Target.Function != "" {
		ref, err := syntax.Extract(syntax.Python, evo.Main, t.Target.Function)
		if err != nil {
			return adapt.Task{}, fmt.Errorf("evolve: %s: the evolved program: %w", s.ID, err)
		}
		t.Reference = string(ref)
	} else {
		t.Reference = string(evo.Main)
	}
	t.Files = append(slices.Clone(s.Task.Files), moduleFiles(evo, t.Target.Path)...)
	t.Tests = slices.Clone(s.Task.Tests)
	t.Context = slices.Clone(s.Task.Context)
	t.Labels = labels(s, res.Best, "adaptation")
	if err := setProvenance(&t, s, res, res.Best, nil); err != nil {
		return adapt.Task{}, err
	}
	if err := t.Validate(); err != nil {
		return adapt.Task{}, err
	}
	return t, nil
}
