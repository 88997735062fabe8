//go:build cgo

package syntax

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// SyntaxError is one ERROR or MISSING node of a parse tree.
type SyntaxError struct {
	Line   int    // 1-based line of the node's start
	Column int    // 1-based byte column of the node's start
	Offset int    // byte offset of the node's start
	End    int    // byte offset just past the node (== Offset for MISSING nodes)
	Msg    string // short description: `unexpected "…"` or `missing ")"`
}

// Error formats the error as `line 3, column 5: missing ")"`.
func (e SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Tree is the result of parsing a source file: its syntax errors, function
// definitions, top-level imports and the source itself. It is an immutable
// snapshot (the underlying tree-sitter tree is freed by [Parse]), so it
// needs no Close and may be shared between goroutines.
type Tree struct {
	lang    Lang
	src     []byte
	errs    []SyntaxError
	funcs   []Func
	imports []span
	hard    []span // multi-line string literals
	soft    []span // multi-line comments
}

// span is a half-open byte range [start, end).
type span struct{ start, end int }

// Parse parses src as lang. The result is usable even when src has syntax
// errors (tree-sitter recovers from them; see [Tree.Errors]); an error is
// returned only for an unsupported language or an input tree-sitter cannot
// handle at all. The tree keeps a reference to src, which must not be
// modified afterwards. Parse is safe for concurrent use.
func Parse(lang Lang, src []byte) (*Tree, error) {
	g, st, err := parseNew(lang, src)
	if err != nil {
		return nil, err
	}
	// Free the C tree now instead of waiting for its finalizer; the Tree
	// holds no tree-sitter node.
	defer st.Close()
	return g.collect(lang, st, src), nil
}

// parseNew parses src as lang from scratch. The caller must Close the
// tree.
func parseNew(lang Lang, src []byte) (*grammar, *sitter.Tree, error) {
	g, err := grammarOf(lang)
	if err != nil {
		return nil, nil, err
	}
	st, err := g.parse(src, nil)
	if err != nil {
		return nil, nil, err
	}
	return g, st, nil
}

// parse runs a pooled parser on src. old, if not nil, is an edited tree of
// a previous version of src, for an incremental parse. The caller must Close
// the result.
func (g *grammar) parse(src []byte, old *sitter.Tree) (*sitter.Tree, error) {
	if len(src) > math.MaxUint32 {
		return nil, fmt.Errorf("syntax: source of %d bytes is too large", len(src))
	}
	p := g.parsers.Get().(*sitter.Parser)
	st, err := p.ParseCtx(context.Background(), old, src)
	if err != nil {
		p.Reset()
		g.parsers.Put(p)
		return nil, fmt.Errorf("syntax: parsing: %w", err)
	}
	g.parsers.Put(p) // a tree-sitter tree does not depend on its parser
	return st, nil
}

// collect builds the Tree of src from its tree-sitter tree st.
func (g *grammar) collect(lang Lang, st *sitter.Tree, src []byte) *Tree {
	c := collector{t: &Tree{lang: lang, src: src}}
	root := st.RootNode()
	if root.HasError() {
		c.walkErrors(root)
	}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	qc.Exec(g.query, root)
	for {
		m, i, ok := qc.NextCapture()
		if !ok {
			break
		}
		capt := m.Captures[i]
		c.capture(g.kinds[capt.Index], capt.Node)
	}
	t := c.t
	t.hard = mergeSpans(t.hard)
	t.soft = mergeSpans(t.soft)
	return t
}

// syntaxErrors returns the ERROR and MISSING nodes of st, a tree of src.
func syntaxErrors(st *sitter.Tree, src []byte) []SyntaxError {
	root := st.RootNode()
	if !root.HasError() {
		return nil
	}
	c := collector{t: &Tree{src: src}}
	c.walkErrors(root)
	return c.t.errs
}

// Lang returns the language the tree was parsed as.
func (t *Tree) Lang() Lang { return t.lang }

// Source returns the parsed source (not a copy).
func (t *Tree) Source() []byte { return t.src }

// HasErrors reports whether the source has syntax errors.
func (t *Tree) HasErrors() bool { return len(t.errs) > 0 }

// Errors returns every ERROR and MISSING node of the tree in source order
// (nested ERROR nodes included), or nil if the source parsed cleanly.
func (t *Tree) Errors() []SyntaxError { return slices.Clone(t.errs) }

// Functions returns every function, method and constructor definition in
// source order (by Start). See [Func] for what is included.
func (t *Tree) Functions() []Func { return slices.Clone(t.funcs) }

// Imports returns the source text of the top-level import statements in
// source order: Python `import` and `from … import` statements, Go and
// Java import declarations. The slices alias the parsed source but have
// their capacity clipped, so appending to them is safe.
func (t *Tree) Imports() [][]byte {
	var out [][]byte
	for _, s := range t.imports {
		out = append(out, t.src[s.start:s.end:s.end])
	}
	return out
}

// collector gathers everything a Tree needs from the query captures, which
// arrive in document order.
type collector struct {
	t         *Tree
	scopes    []scope // enclosing class and function definitions
	decorated span    // the last Python decorated_definition seen
	lineOff   int     // lineOf cache: offset lineOff is on line lineNo
	lineNo    int
}

// lineOf returns the 1-based line of offset off, counting incrementally
// since definitions arrive in source order.
func (c *collector) lineOf(off int) int {
	if off < c.lineOff || c.lineNo == 0 {
		c.lineOff, c.lineNo = 0, 1
	}
	c.lineNo += bytes.Count(c.t.src[c.lineOff:off], []byte{'\n'})
	c.lineOff = off
	return c.lineNo
}

// scope is an enclosing definition ending at end; name is "" for anonymous
// classes.
type scope struct {
	name  string
	class bool
	end   int
}

func (c *collector) capture(kind captureKind, n *sitter.Node) {
	start, end := int(n.StartByte()), int(n.EndByte())
	for k := len(c.scopes); k > 0 && c.scopes[k-1].end <= start; k-- {
		c.scopes = c.scopes[:k-1]
	}
	switch kind {
	case capFunc:
		var f Func
		switch c.t.lang {
		case Python:
			f = c.pythonFunc(n, start, end)
		case Go:
			f = c.goFunc(n)
		case Java:
			f = c.javaFunc(n, start)
		}
		if f.Name != "" { // else a definition mangled by error recovery
			c.t.funcs = append(c.t.funcs, f)
		}
		c.scopes = append(c.scopes, scope{name: f.Name, end: end})
	case capClass:
		c.scopes = append(c.scopes, scope{name: c.text(n.ChildByFieldName("name")), class: true, end: end})
	case capAnon:
		c.scopes = append(c.scopes, scope{class: true, end: end})
	case capDecorated:
		c.decorated = span{start, end}
	case capString, capComment:
		if bytes.IndexByte(c.t.src[start:end], '\n') >= 0 {
			if kind == capString {
				c.t.hard = append(c.t.hard, span{start, end})
			} else {
				c.t.soft = append(c.t.soft, span{start, end})
			}
		}
	case capImport:
		c.t.imports = append(c.t.imports, span{start, end})
	}
}

// walkErrors records the ERROR and MISSING nodes under n, visiting only
// subtrees that contain errors.
func (c *collector) walkErrors(n *sitter.Node) {
	c.checkError(n)
	for i, k := 0, int(n.ChildCount()); i < k; i++ {
		if ch := n.Child(i); ch != nil && ch.HasError() {
			c.walkErrors(ch)
		}
	}
}

// checkError records n if it is an ERROR or MISSING node.
func (c *collector) checkError(n *sitter.Node) {
	var msg string
	switch {
	case n.IsMissing():
		typ := n.Type()
		if n.IsNamed() {
			msg = "missing " + typ
		} else {
			msg = "missing " + strconv.Quote(typ)
		}
	case n.IsError():
		msg = c.unexpected(n)
	default:
		return
	}
	p := n.StartPoint()
	c.t.errs = append(c.t.errs, SyntaxError{
		Line:   int(p.Row) + 1,
		Column: int(p.Column) + 1,
		Offset: int(n.StartByte()),
		End:    int(n.EndByte()),
		Msg:    msg,
	})
}

// unexpected describes an ERROR node by the start of its text.
func (c *collector) unexpected(n *sitter.Node) string {
	const max = 24
	start, end := int(n.StartByte()), int(n.EndByte())
	if start >= end {
		if start >= len(c.t.src) {
			return "unexpected end of input"
		}
		return "syntax error"
	}
	text := c.t.src[start:end]
	cut := false
	for i, b := range text {
		if b == '\n' || b == '\r' {
			text, cut = text[:i], true
			break
		}
	}
	if len(text) > max {
		i := max
		for i > 0 && !utf8.RuneStart(text[i]) {
			i--
		}
		text, cut = text[:i], true
	}
	s := string(text)
	if cut {
		s += "…"
	}
	return "unexpected " + strconv.Quote(s)
}

// text returns the source of n, or "" for a nil node.
func (c *collector) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(c.t.src[n.StartByte():n.EndByte()])
}

// container returns the name of the nearest enclosing definition if it is a
// class, else "".
func (c *collector) container() string {
	if k := len(c.scopes); k > 0 && c.scopes[k-1].class {
		return c.scopes[k-1].name
	}
	return ""
}

// newFunc fills in a Func. The definition spans [start, end) and starts
// its definition proper at declStart.
func (c *collector) newFunc(start, declStart, end int, name, container string, body *sitter.Node) Func {
	ls := lineStart(c.t.src, start)
	f := Func{
		Name:      name,
		Container: container,
		Depth:     len(c.scopes),
		Start:     start,
		DeclStart: declStart,
		BodyStart: -1,
		End:       end,
		Line:      c.lineOf(ls),
		Indent:    string(leadingSpace(c.t.src[ls:start])),
	}
	if body != nil {
		f.BodyStart = int(body.StartByte())
	}
	return f
}

func (c *collector) pythonFunc(n *sitter.Node, start, end int) Func {
	outer := start
	// A decorated_definition is captured just before its function and
	// ends with it. (Error recovery may put another function between.)
	if d := c.decorated; d.start < start && d.end == end {
		outer = d.start
	}
	c.decorated = span{}
	return c.newFunc(outer, start, end, c.text(n.ChildByFieldName("name")), c.container(), n.ChildByFieldName("body"))
}

func (c *collector) goFunc(n *sitter.Node) Func {
	container := ""
	if n.Type() == "method_declaration" {
		container = c.receiverType(n.ChildByFieldName("receiver"))
	}
	start, end := int(n.StartByte()), int(n.EndByte())
	return c.newFunc(start, start, end, c.text(n.ChildByFieldName("name")), container, n.ChildByFieldName("body"))
}

// receiverType returns the base type name of a Go receiver parameter list:
// "T" for (t T), (t *T), (t *T[K, V]) or (t *(T)).
func (c *collector) receiverType(recv *sitter.Node) string {
	if recv == nil {
		return ""
	}
	var typ *sitter.Node
	for i, k := 0, int(recv.NamedChildCount()); i < k; i++ {
		if p := recv.NamedChild(i); p != nil && p.Type() == "parameter_declaration" {
			typ = p.ChildByFieldName("type")
			break
		}
	}
	for typ != nil {
		switch typ.Type() {
		case "type_identifier":
			return c.text(typ)
		case "generic_type":
			typ = typ.ChildByFieldName("type")
		case "pointer_type", "parenthesized_type":
			typ = typ.NamedChild(0)
		default:
			return c.text(typ)
		}
	}
	return ""
}

func (c *collector) javaFunc(n *sitter.Node, start int) Func {
	declStart := start
	// Leading annotations are the Java counterpart of Python decorators:
	// DeclStart skips them (and comments between them).
	if first := n.Child(0); first != nil && first.Type() == "modifiers" && int(first.StartByte()) == start {
		declStart = -1
		for i, k := 0, int(first.ChildCount()); i < k && declStart < 0; i++ {
			ch := first.Child(i)
			switch ch.Type() {
			case "marker_annotation", "annotation", "line_comment", "block_comment":
			default:
				declStart = int(ch.StartByte())
			}
		}
		if declStart < 0 {
			if next := first.NextSibling(); next != nil {
				declStart = int(next.StartByte())
			} else {
				declStart = int(first.EndByte())
			}
		}
	}
	f := c.newFunc(start, declStart, int(n.EndByte()), c.text(n.ChildByFieldName("name")), c.container(), n.ChildByFieldName("body"))
	f.Params = c.javaParams(n.ChildByFieldName("parameters"))
	return f
}

// javaParams returns the types of a Java formal_parameters node, white
// space removed; a variable-arity parameter's ends in "...". A receiver
// parameter is no parameter. Not nil: a method without parameters has
// the empty signature "()".
func (c *collector) javaParams(ps *sitter.Node) []string {
	out := []string{}
	if ps == nil {
		return out
	}
	for i, k := 0, int(ps.NamedChildCount()); i < k; i++ {
		p := ps.NamedChild(i)
		var typ string
		switch p.Type() {
		case "formal_parameter":
			typ = c.text(p.ChildByFieldName("type"))
			if d := p.ChildByFieldName("dimensions"); d != nil {
				typ += c.text(d) // int a[]
			}
		case "spread_parameter":
			for j, m := 0, int(p.NamedChildCount()); j < m; j++ {
				if ch := p.NamedChild(j); ch.Type() != "modifiers" {
					typ = c.text(ch) + "..."
					break
				}
			}
		default:
			continue
		}
		out = append(out, strings.Join(strings.Fields(typ), ""))
	}
	return out
}

// mergeSpans sorts spans and merges overlapping ones.
func mergeSpans(s []span) []span {
	if len(s) < 2 {
		return s
	}
	slices.SortFunc(s, func(a, b span) int { return a.start - b.start })
	out := s[:1]
	for _, r := range s[1:] {
		last := &out[len(out)-1]
		if r.start < last.end {
			last.end = max(last.end, r.end)
			continue
		}
		out = append(out, r)
	}
	return out
}

// lineStart returns the offset of the first byte of the line containing
// offset i.
func lineStart(src []byte, i int) int {
	for i > 0 && src[i-1] != '\n' {
		i--
	}
	return i
}

// leadingSpace returns the longest prefix of b made of spaces and tabs.
func leadingSpace(b []byte) []byte {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return b[:i]
}
