package adapt

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// ErrNoCode is returned (wrapped) when a completion holds no usable code.
var ErrNoCode = errors.New("adapt: no code in the completion")

// ErrWrongName is returned (wrapped) by Extract when a completion does not
// define the target function but defines a function of the task's code
// under its old name: the model adapted the snippet without renaming it.
// Evaluate records such a sample as OutcomeWrongName.
var ErrWrongName = errors.New("adapt: the completion keeps the snippet's function name")

var fenceRE = regexp.MustCompile("(?ms)^[ \t]*(```|~~~)[ \t]*([A-Za-z0-9_+#.-]*)[^\n]*\n(.*?)^[ \t]*```|(?ms)^[ \t]*(```|~~~)[ \t]*([A-Za-z0-9_+#.-]*)[^\n]*\n(.*)\\z")

// CodeBlocks returns the fenced code blocks of a completion, in order. An
// unterminated last fence runs to the end of the text (a truncated answer).
// A completion without fences is returned whole, as one block.
func CodeBlocks(completion string) []string {
	var blocks []string
	for _, m := range fenceRE.FindAllStringSubmatch(completion, -1) {
		body := m[3]
		if m[1] == "" {
			body = m[6]
		}
		if strings.TrimSpace(body) != "" {
			blocks = append(blocks, body)
		}
	}
	if len(blocks) == 0 && strings.TrimSpace(completion) != "" && !strings.Contains(completion, "```") {
		blocks = append(blocks, completion)
	}
	return blocks
}

// Answer is the code taken from a completion for a task.
type Answer struct {
	// Code is the target function (or the whole file when the task's
	// target names no function).
	Code string
	// Imports are top-level import statements of the block the code came
	// from, which the splice carries into the target file if missing.
	Imports []string
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
	blocks := CodeBlocks(completion)
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
	for _, b := range blocks {
		code, err := syntax.Extract(lang, []byte(b), t.Target.Function)
		if err == nil {
			return Answer{Code: string(code), Imports: imports(lang, b)}, nil
		}
	}
	if old := snippetNames(lang, t); len(old) > 0 {
		for _, b := range blocks {
			tree, err := syntax.Parse(lang, []byte(b))
			if err != nil {
				continue
			}
			for _, f := range tree.Functions() {
				if slices.Contains(old, f.Name) {
					return Answer{}, fmt.Errorf("%w: it defines %s, not %s", ErrWrongName, f.Name, t.Target.Function)
				}
			}
		}
	}
	for _, b := range blocks {
		tree, err := syntax.Parse(lang, []byte(b))
		if err != nil {
			continue
		}
		var top []syntax.Func
		for _, f := range tree.Functions() {
			if f.Depth == 0 {
				top = append(top, f)
			}
		}
		if len(top) == 1 {
			code, err := syntax.Extract(lang, []byte(b), top[0].Name)
			if err == nil {
				return Answer{Code: string(code), Imports: imports(lang, b)}, nil
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
	target := t.Target.Function
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

func imports(lang syntax.Lang, block string) []string {
	ims, err := syntax.Imports(lang, []byte(block))
	if err != nil {
		return nil
	}
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
	if t.Target.Function == "" {
		return a.Code, nil
	}
	lang, err := syntax.LangByName(t.Language)
	if err != nil {
		return "", err
	}
	out, err := syntax.Replace(lang, []byte(t.Target.Content), t.Target.Function, []byte(a.Code))
	if out == nil {
		return "", fmt.Errorf("adapt: task %q: splice: %w", t.ID, err)
	}
	src := string(out)
	if t.Language == Python {
		src = carryPythonImports(src, a.Imports)
	}
	return src, err
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
