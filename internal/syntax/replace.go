//go:build cgo

package syntax

import (
	"bytes"
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// SpliceError reports that the source produced by [Replace] does not parse.
// Replace returns the spliced source together with it.
type SpliceError struct {
	Name   string        // the function name passed to Replace
	Errors []SyntaxError // syntax errors of the spliced source, in source order
}

// Error summarises the first syntax error and how many more there are.
func (e *SpliceError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "syntax: source is invalid after replacing %q", e.Name)
	if len(e.Errors) > 0 {
		fmt.Fprintf(&b, ": %v", e.Errors[0])
		if n := len(e.Errors) - 1; n > 0 {
			fmt.Fprintf(&b, " (and %d more)", n)
		}
	}
	return b.String()
}

// Unwrap returns the individual syntax errors, so errors.As can extract a
// [SyntaxError].
func (e *SpliceError) Unwrap() []error {
	errs := make([]error, len(e.Errors))
	for i, se := range e.Errors {
		errs[i] = se
	}
	return errs
}

// Replace replaces the definition of the function name in src (found as by
// [FindFunction]) with replacement, a single definition such as the result
// of [Extract], and returns the new source. src is not modified.
//
// The replacement is re-indented to the indentation of the line where the
// original definition starts (see the package comment about multi-line
// strings); its first line is placed where the original definition started,
// after whatever precedes it on that line, and leading blank lines and
// trailing white space are dropped, so every byte of src outside the
// replaced range — including the newline(s) after the definition — is kept
// exactly. Line endings of the replacement are converted to those of the
// original definition (LF or CRLF).
//
// Decorators and annotations: if the replacement's definition has its own
// Python decorators or leading Java annotations, they replace the original
// ones (the range [Func.Start, Func.End) is replaced); otherwise the
// original ones are kept and only [Func.DeclStart, Func.End) is replaced,
// so a model that drops @staticmethod or @Override does not remove it.
//
// Errors: if the function is not in src the error wraps [ErrNotFound] and
// the result is nil. If splicing succeeded but the result does not parse,
// Replace returns the spliced source AND a [*SpliceError] listing the syntax
// errors of the whole result (errors src already had included): the
// evaluator is expected to run the code anyway and let the test run record
// the failure. Any other error comes with a nil result.
func Replace(lang Lang, src []byte, name string, replacement []byte) ([]byte, error) {
	t, err := NewTarget(lang, src)
	if err != nil {
		return nil, err
	}
	defer t.r.tree.Close() // now, not when the collector finds it
	return t.Replace(name, replacement)
}

// A Target is a source whose functions are replaced again and again (each
// answer a model gives for one task): it is parsed once, and
// [Target.Replace] parses only the replacement and checks the result with
// an incremental parse. It is safe for concurrent use.
type Target struct {
	lang Lang
	tree *Tree
	r    *Reparser
}

// NewTarget parses src as lang. src must not be modified afterwards.
func NewTarget(lang Lang, src []byte) (*Target, error) {
	r, err := NewReparser(lang, src)
	if err != nil {
		return nil, err
	}
	return &Target{lang: lang, tree: r.g.collect(lang, r.tree, src), r: r}, nil
}

// Replace is [Replace] on the target's source.
func (t *Target) Replace(name string, replacement []byte) ([]byte, error) {
	src, lang := t.r.src, t.lang
	f, err := t.tree.Find(name)
	if err != nil {
		return nil, err
	}
	rt, err := Parse(lang, replacement)
	if err != nil {
		return nil, err
	}

	cut := f.DeclStart
	if hasDecorators(rt, name) {
		cut = f.Start
	}
	indent := leadingSpace(src[lineStart(src, cut):cut])
	body := reindent(replacement, rt.hard, rt.soft, string(indent))
	// Drop leading blank lines (never inside a literal: no token starts
	// before the first non-blank line) and trailing white space.
	for {
		line, term := nextLine(body)
		if len(term) == 0 || !isBlank(line) {
			break
		}
		body = body[len(line)+len(term):]
	}
	body = bytes.TrimRight(body, " \t\r\n\f\v")
	if len(body) == 0 {
		return nil, fmt.Errorf("syntax: empty replacement for %q", name)
	}
	// The first line got indent like the others, but the original line
	// already has it before cut.
	body = bytes.TrimPrefix(body, indent)
	body = convertEOL(body, usesCRLF(src, f))

	out := make([]byte, 0, len(src)-(f.End-cut)+len(body))
	out = append(out, src[:cut]...)
	out = append(out, body...)
	out = append(out, src[f.End:]...)

	// Check the result with an incremental parse: much cheaper than
	// parsing the whole file again.
	errs, err := t.r.Errors(out, cut, f.End, cut+len(body))
	if err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		return out, &SpliceError{Name: name, Errors: errs}
	}
	return out, nil
}

// hasDecorators reports whether the definition in a replacement has leading
// decorators or annotations. The definition is the function name if the
// replacement defines it, else its first outermost function.
func hasDecorators(rt *Tree, name string) bool {
	f, err := rt.Find(name)
	if err != nil {
		base, _, _ := cutParams(name)
		if _, short, serr := splitName(base); serr == nil {
			f, err = rt.Find(short)
		}
	}
	if err != nil {
		if len(rt.funcs) == 0 {
			return false
		}
		f = rt.funcs[0]
		for _, g := range rt.funcs[1:] {
			if g.Depth < f.Depth {
				f = g
			}
		}
	}
	return f.Start < f.DeclStart
}

// usesCRLF reports whether the original definition (or, if it is a single
// line, the file) ends its lines with "\r\n".
func usesCRLF(src []byte, f Func) bool {
	region := src[f.Start:f.End]
	if bytes.IndexByte(region, '\n') < 0 {
		region = src
	}
	i := bytes.IndexByte(region, '\n')
	return i > 0 && region[i-1] == '\r'
}

// convertEOL converts the line endings of b to CRLF or LF.
func convertEOL(b []byte, crlf bool) []byte {
	if !crlf {
		return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	}
	if bytes.IndexByte(b, '\n') < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+bytes.Count(b, []byte{'\n'}))
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, c)
	}
	return out
}

// pointOf returns the tree-sitter position (0-based row, byte column) of
// offset off in src.
func pointOf(src []byte, off int) sitter.Point {
	ls := lineStart(src, off)
	return sitter.Point{
		Row:    uint32(bytes.Count(src[:ls], []byte{'\n'})),
		Column: uint32(off - ls),
	}
}
