package classeval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// methodNames returns the names of c's methods (other than __init__), in
// order.
func (c *Class) methodNames() []string {
	out := make([]string, len(c.Methods))
	for i, m := range c.Methods {
		out[i] = m.Name
	}
	return out
}

// Siblings returns the names of c's methods other than name, in order.
func (c *Class) Siblings(name string) []string {
	var out []string
	for _, m := range c.Methods {
		if m.Name != name {
			out = append(out, m.Name)
		}
	}
	return out
}

// Callers returns the methods of c whose method_dependencies name the
// method name: the methods that call it, in order.
func (c *Class) Callers(name string) []string {
	var out []string
	for _, m := range c.Methods {
		if m.Name != name && slices.Contains(m.Dependencies.Methods, name) {
			out = append(out, m.Name)
		}
	}
	return out
}

// methodSolution returns the reference of method name as it stands in the
// class solution, dedented, decorators included (as syntax.Extract gives
// it).
func (c *Class) methodSolution(name string) ([]byte, error) {
	code, err := syntax.Extract(syntax.Python, []byte(c.Solution), c.Name+"."+name)
	if err != nil {
		return nil, fmt.Errorf("classeval: %s.%s: %w", c.TaskID, name, err)
	}
	return code, nil
}

// ImportedNames returns the names c's import statements bind, each once,
// in order: "np" for "import numpy as np", "Document" for "from docx
// import Document", "urllib" for "import urllib.parse". Uses of these
// names are library usage (the CtxBugGen dependency rule).
func (c *Class) ImportedNames() []string {
	var out []string
	for _, st := range c.Imports {
		src := []byte(strings.TrimSpace(st))
		root, err := syntax.ParseNodes(syntax.Python, src)
		if err != nil {
			continue
		}
		for _, im := range syntax.PyImports(root, src) {
			if im.Bind != "" && !slices.Contains(out, im.Bind) {
				out = append(out, im.Bind)
			}
		}
	}
	return out
}

// SolutionWithout returns c's solution with the methods named in drop
// taken out (with their decorators and docstrings): the class context a
// model sees when it adapts one method, with the method and its callers
// removed.
func (c *Class) SolutionWithout(drop ...string) (string, error) {
	return removeMethods(c, c.Solution, drop)
}

func removeMethods(c *Class, src string, drop []string) (string, error) {
	t, err := syntax.Parse(syntax.Python, []byte(src))
	if err != nil {
		return "", fmt.Errorf("classeval: %s: %w", c.TaskID, err)
	}
	type cut struct{ start, end int }
	var cuts []cut
	for _, name := range drop {
		f, err := t.Find(c.Name + "." + name)
		if err != nil {
			continue // not in this text (the skeleton may lack a method)
		}
		start, end := f.Start, f.End
		// Whole lines: from the start of the first line to the end of the
		// last, so no blank indentation is left behind.
		for start > 0 && src[start-1] != '\n' {
			start--
		}
		if end < len(src) && src[end] == '\n' {
			end++
		}
		cuts = append(cuts, cut{start, end})
	}
	slices.SortFunc(cuts, func(a, b cut) int { return a.start - b.start })
	var b strings.Builder
	last := 0
	for _, k := range cuts {
		if k.start < last {
			continue
		}
		b.WriteString(src[last:k.start])
		last = k.end
	}
	b.WriteString(src[last:])
	return collapseBlankLines(b.String()), nil
}

// collapseBlankLines turns runs of blank lines into one blank line.
func collapseBlankLines(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	blank := 0
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			blank++
			if blank > 1 {
				continue
			}
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
