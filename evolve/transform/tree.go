package transform

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// file is a parsed Python source with parent links, the base every
// transform works on.
type file struct {
	src    []byte
	root   *syntax.Node
	parent map[*syntax.Node]*syntax.Node
	hard   [][2]int // string literals spanning several lines
	idents map[string]bool
}

// parse parses src; it returns an error wrapping ErrSyntax when src has
// syntax errors, so no transform starts from a broken program.
func parse(src []byte) (*file, error) {
	root, err := syntax.ParseNodes(syntax.Python, src)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	if root.Err {
		return nil, fmt.Errorf("%w: the program has error or missing nodes", ErrSyntax)
	}
	f := &file{src: src, root: root, parent: map[*syntax.Node]*syntax.Node{}, idents: map[string]bool{}}
	root.Walk(func(n *syntax.Node) bool {
		for _, c := range n.Children {
			f.parent[c] = n
		}
		switch n.Type {
		case "string":
			if n.Line != n.EndLine {
				f.hard = append(f.hard, [2]int{n.Start, n.End})
			}
			return true
		case "identifier":
			f.idents[f.text(n)] = true
		}
		return true
	})
	return f, nil
}

// sitesOf parses p.Main and returns a site for each node find returns,
// of kind kind(n) (the node type when kind is nil). Sites has no error
// result: a program that does not parse has no sites.
func sitesOf(p *Program, find func(f *file) []*syntax.Node, kind func(n *syntax.Node) string) []Site {
	f, err := parse(p.Main)
	if err != nil {
		return nil
	}
	var out []Site
	for _, n := range find(f) {
		k := n.Type
		if kind != nil {
			k = kind(n)
		}
		out = append(out, Site{Start: n.Start, End: n.End, Kind: k, Key: f.key(n)})
	}
	return out
}

func (f *file) text(n *syntax.Node) string { return string(f.src[n.Start:n.End]) }

// key is the path of n from the root: "i:type" per level, i the index
// among all children.
func (f *file) key(n *syntax.Node) string {
	var parts []string
	for n != f.root {
		p := f.parent[n]
		parts = append(parts, strconv.Itoa(slices.Index(p.Children, n))+":"+n.Type)
		n = p
	}
	slices.Reverse(parts)
	return strings.Join(parts, "/")
}

// lookup finds the node of site s in f and checks that it is still where
// s says.
func (f *file) lookup(s Site) (*syntax.Node, error) {
	n := f.root
	if s.Key != "" {
		for _, part := range strings.Split(s.Key, "/") {
			is, typ, ok := strings.Cut(part, ":")
			i, err := strconv.Atoi(is)
			if !ok || err != nil || i < 0 || i >= len(n.Children) || n.Children[i].Type != typ {
				return nil, fmt.Errorf("transform: site %q is not in this program", s.Key)
			}
			n = n.Children[i]
		}
	}
	if n.Start != s.Start || n.End != s.End {
		return nil, fmt.Errorf("transform: site %q spans [%d,%d), not [%d,%d)", s.Key, n.Start, n.End, s.Start, s.End)
	}
	return n, nil
}

// find returns the nodes for which keep is true, in document order.
func (f *file) find(keep func(n *syntax.Node) bool) []*syntax.Node {
	var out []*syntax.Node
	f.root.Walk(func(n *syntax.Node) bool {
		if keep(n) {
			out = append(out, n)
		}
		return true
	})
	return out
}

// ancestors returns the ancestors of n, nearest first.
func (f *file) ancestors(n *syntax.Node) []*syntax.Node {
	var out []*syntax.Node
	for p := f.parent[n]; p != nil; p = f.parent[p] {
		out = append(out, p)
	}
	return out
}

// isStatement reports whether n is a statement: a named, non-comment
// child of a block or of the module.
func (f *file) isStatement(n *syntax.Node) bool {
	p := f.parent[n]
	return p != nil && (p.Type == "block" || p.Type == "module") && n.Named && n.Type != "comment"
}

// ownLines reports whether n starts its line (only white space before it)
// and ends its line (only white space or a comment after it), so it can be
// moved, wrapped or preceded by new lines.
func (f *file) ownLines(n *syntax.Node) bool {
	if !isBlankBytes(f.src[lineStart(f.src, n.Start):n.Start]) {
		return false
	}
	rest := f.src[n.End:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	rest = bytes.TrimLeft(rest, " \t\r")
	return len(rest) == 0 || rest[0] == '#'
}

// blockOnOwnLines reports whether the statements of block b sit on lines of
// their own (not "if x: return y").
func (f *file) blockOnOwnLines(b *syntax.Node) bool {
	for _, c := range b.NamedChildren() {
		if c.Type != "comment" && !f.ownLines(c) {
			return false
		}
	}
	return len(b.Children) > 0
}

// indentOf returns the white space that starts the line of off.
func (f *file) indentOf(off int) string {
	ls := lineStart(f.src, off)
	i := ls
	for i < len(f.src) && (f.src[i] == ' ' || f.src[i] == '\t') {
		i++
	}
	return string(f.src[ls:i])
}

// unit returns the indentation unit of the file: a tab if its first
// indented line starts with one, else four spaces.
func (f *file) unit() string {
	for _, line := range bytes.Split(f.src, []byte{'\n'}) {
		if len(line) > 0 && (line[0] == ' ' || line[0] == '\t') && !isBlankBytes(line) {
			if line[0] == '\t' {
				return "\t"
			}
			return "    "
		}
	}
	return "    "
}

// indented returns the lines of src[lineStart(start):end] with prefix added
// to every non-blank line that does not start inside a multi-line string
// literal (whose text must not change). It is syntax.Indent made aware of
// string literals.
func (f *file) indented(start, end int, prefix string) string {
	start = lineStart(f.src, start)
	var b strings.Builder
	for at := start; at < end; {
		nl := bytes.IndexByte(f.src[at:end], '\n')
		stop := end
		if nl >= 0 {
			stop = at + nl + 1
		}
		line := f.src[at:stop]
		if !f.inString(at) && !isBlankBytes(bytes.TrimRight(line, "\n")) {
			b.WriteString(prefix)
		}
		b.Write(line)
		at = stop
	}
	return b.String()
}

// inString reports whether off lies strictly inside a multi-line string.
func (f *file) inString(off int) bool {
	for _, h := range f.hard {
		if h[0] < off && off < h[1] {
			return true
		}
	}
	return false
}

// fresh returns base if no identifier of the file (nor any name in taken)
// is base, else base2, base3, ...
func (f *file) fresh(base string, taken ...string) string {
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name = base + strconv.Itoa(i)
		}
		if !f.idents[name] && !slices.Contains(taken, name) && !pyKeywords[name] {
			return name
		}
	}
}

// importPos returns the offset where new top-level imports go: the start
// of the line of the first top-level statement that is not the module
// docstring or a __future__ import, or the end of the file.
func (f *file) importPos() int {
	for _, c := range f.root.NamedChildren() {
		if c.Type == "comment" {
			continue
		}
		if isDocstringOf(f.root, c) {
			continue
		}
		if c.Type == "future_import_statement" {
			continue
		}
		return lineStart(f.src, c.Start)
	}
	return len(f.src)
}

// topLevel returns the top-level statement holding n.
func (f *file) topLevel(n *syntax.Node) *syntax.Node {
	for n != nil && f.parent[n] != f.root {
		n = f.parent[n]
	}
	return n
}

// isDocstringOf reports whether c is the docstring of block (or module)
// b: a string expression that is its first statement, comments aside.
func isDocstringOf(b, c *syntax.Node) bool {
	for _, d := range b.NamedChildren() {
		if d.Type != "comment" {
			return d == c && isDocstring(c)
		}
	}
	return false
}

// isDocstring reports whether statement n is a string expression.
func isDocstring(n *syntax.Node) bool {
	return n.Type == "expression_statement" && len(n.Children) == 1 && n.Children[0].Type == "string"
}

// edit replaces src[start:end] with text.
func edit(start, end int, text string) syntax.TextEdit {
	return syntax.TextEdit{Start: start, End: end, Text: text}
}

// applyEdits applies non-overlapping edits to src with syntax.ApplyEdits
// (edits at the same offset in the order given) and returns the result.
// A space is added where an edit would glue two identifier characters
// together.
func applyEdits(src []byte, edits []syntax.TextEdit) ([]byte, error) {
	es := slices.Clone(edits)
	// Pad in the order ApplyEdits applies them, knowing the byte that
	// will precede each text.
	slices.SortStableFunc(es, func(a, b syntax.TextEdit) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
	})
	var before byte // the last byte written so far, 0 at the start
	at := 0
	for i, e := range es {
		if e.Start < at || e.Start > len(src) || e.End < e.Start || e.End > len(src) {
			break // ApplyEdits rejects it
		}
		if e.Start > at {
			before = src[e.Start-1]
		}
		text := e.Text
		// Keep tokens apart: "if(x)" negated is "if not (x)", not "ifnot (x)".
		if text != "" && isIdentByte(before) && isIdentByte(text[0]) {
			text = " " + text
		}
		if text != "" && e.End < len(src) && isIdentByte(text[len(text)-1]) && isIdentByte(src[e.End]) {
			text += " "
		}
		es[i].Text = text
		if text != "" {
			before = text[len(text)-1]
		}
		at = e.End
	}
	out, _, err := syntax.ApplyEdits(src, es)
	if err != nil {
		return nil, fmt.Errorf("transform: %w", err)
	}
	return out, nil
}

// insertImports returns the edit that adds the import lines at
// importPos, or nothing if lines is empty.
func (f *file) insertImports(lines ...string) []syntax.TextEdit {
	if len(lines) == 0 {
		return nil
	}
	pos := f.importPos()
	text := strings.Join(lines, "\n") + "\n"
	if next := f.statementAt(pos); next != nil && next.Type != "import_statement" && next.Type != "import_from_statement" {
		text += "\n\n"
	}
	if pos == len(f.src) && pos > 0 && f.src[pos-1] != '\n' {
		text = "\n" + text
	}
	return []syntax.TextEdit{edit(pos, pos, text)}
}

func lineStart(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

func isBlankBytes(b []byte) bool { return len(bytes.TrimLeft(b, " \t\r\f\v")) == 0 }

var pyKeywords = set(`False None True and as assert async await break class continue def del
		elif else except finally for from global if import in is lambda nonlocal not or pass raise return
		try while with yield match case type _`)

// statementAt returns the top-level statement starting at the line
// starting at off, or nil.
func (f *file) statementAt(off int) *syntax.Node {
	for _, c := range f.root.NamedChildren() {
		if c.Type != "comment" && lineStart(f.src, c.Start) == off {
			return c
		}
	}
	return nil
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// set returns the fields of s as a set.
func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// scopes is the Python scope analysis of a file (syntax.PyScopes), with
// what the transforms ask of it.
type scopes struct {
	*syntax.Scopes
	f    *file
	refs []syntax.Ref    // every occurrence of a name, in source order
	all  []*syntax.Scope // every scope, the module first
	// dynamic holds the scopes whose code reads names by string (calls
	// locals, vars, eval, exec, globals or dir; a star import) or has a
	// match statement: renaming stays clear of them.
	dynamic map[*syntax.Scope]bool
}

func analyse(f *file) *scopes {
	s := &scopes{Scopes: syntax.PyScopes(f.root, f.src), f: f, dynamic: map[*syntax.Scope]bool{}}
	s.refs, s.all = s.Refs(), s.All()
	for _, sc := range s.all {
		if sc.Dynamic {
			s.dynamic[sc] = true
		}
	}
	for _, m := range f.find(func(n *syntax.Node) bool { return n.Type == "match_statement" }) {
		s.dynamic[s.enclosing(m)] = true
	}
	return s
}

// name returns the name an occurrence or binding node spells.
func (s *scopes) name(n *syntax.Node) string { return s.f.text(n) }

// resolve returns the scope whose binding o refers to, or nil for a
// builtin or an undefined global.
func (s *scopes) resolve(o syntax.Ref) *syntax.Scope {
	if o.Symbol == nil {
		return nil
	}
	return o.Symbol.Scope
}

// symbol returns sc's entry for name, or a zero Symbol when the name does
// not occur in sc's code.
func symbol(sc *syntax.Scope, name string) syntax.Symbol {
	if sym := sc.Symbol(name); sym != nil {
		return *sym
	}
	return syntax.Symbol{}
}

// isFunc reports whether sc is a def or lambda scope.
func isFunc(sc *syntax.Scope) bool {
	return sc.Kind == syntax.ScopeFunction || sc.Kind == syntax.ScopeLambda
}

// inside reports whether scope sc was opened by a node inside [start, end).
func inside(sc *syntax.Scope, start, end int) bool {
	return sc != nil && sc.Kind != syntax.ScopeModule && sc.Node.Start >= start && sc.Node.End <= end
}

// enclosing returns the scope that the statement or expression n is
// evaluated in.
func (s *scopes) enclosing(n *syntax.Node) *syntax.Scope {
	f := s.f
	for c, p := n, f.parent[n]; p != nil; c, p = p, f.parent[p] {
		switch p.Type {
		case "function_definition", "lambda", "class_definition":
			if c.Field == "body" {
				return s.ScopeOf(p)
			}
		case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
			return s.ScopeOf(p)
		}
	}
	return s.Module()
}

// builtins are the names of Python 3's builtins module that transforms
// must never rename or shadow.
var builtins = set(`abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr
		classmethod compile complex copyright credits delattr dict dir divmod enumerate eval exec exit filter
		float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter
		len license list locals map max memoryview min next object oct open ord pow print property quit range
		repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip __import__
		__name__ __file__ __doc__ __builtins__ __spec__ __loader__ __package__
		ArithmeticError AssertionError AttributeError BaseException BlockingIOError BrokenPipeError
		BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
		ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError Ellipsis EnvironmentError
		Exception False FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit
		IOError ImportError ImportWarning IndentationError IndexError InterruptedError IsADirectoryError
		KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError None
		NotADirectoryError NotImplemented NotImplementedError OSError OverflowError PendingDeprecationWarning
		PermissionError ProcessLookupError RecursionError ReferenceError ResourceWarning RuntimeError
		RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit
		TabError TimeoutError True TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError
		UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning ZeroDivisionError
		ExceptionGroup BaseExceptionGroup EncodingWarning`)
