package adapteval

// Python source helpers over tree-sitter (internal/syntax), written to
// match what the artifact's ast-based helpers (evaluation/src/utils.py)
// return.

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// pyFile is a parsed Python source file.
type pyFile struct {
	src   []byte
	root  *syntax.Node
	lines []string // split on "\n", a trailing "\r" removed
}

func parsePy(src string) (*pyFile, error) {
	root, err := syntax.ParseNodes(syntax.Python, []byte(src))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return &pyFile{src: []byte(src), root: root, lines: lines}, nil
}

func (f *pyFile) text(n *syntax.Node) string { return n.Text(f.src) }

// lineRange returns lines from..to (1-based, inclusive).
func (f *pyFile) lineRange(from, to int) []string {
	from = max(from, 1)
	to = min(to, len(f.lines))
	if from > to {
		return nil
	}
	return f.lines[from-1 : to]
}

// lastLine returns the line of the last token of n that is not a comment:
// the end_lineno of the ast node.
func lastLine(n *syntax.Node) int {
	if len(n.Children) == 0 {
		return n.EndLine
	}
	for i := len(n.Children) - 1; i >= 0; i-- {
		c := n.Children[i]
		if c.Type == "comment" || (c.End == c.Start && len(c.Children) == 0) {
			continue
		}
		return lastLine(c)
	}
	return n.Line
}

// nodeLines returns the lines of n, from its first line to its last token.
func (f *pyFile) nodeLines(n *syntax.Node) []string { return f.lineRange(n.Line, lastLine(n)) }

func isAsync(fn *syntax.Node) bool { return fn.Has("async") }

// name returns the text of n's name field.
func (f *pyFile) name(n *syntax.Node) string {
	if c := n.Child("name"); c != nil {
		return f.text(c)
	}
	return ""
}

// assignment returns the assignment of an expression statement, or nil.
func assignment(stmt *syntax.Node) *syntax.Node {
	if stmt.Type != "expression_statement" {
		return nil
	}
	for _, c := range stmt.Children {
		if c.Type == "assignment" {
			return c
		}
	}
	return nil
}

// classDefinition is DataUtil.extract_class_definition: the header line
// of every class named name (not nested in a function), then, in order,
// the assignments in its body and its __init__ method. The artifact's ast
// visitor descends into async functions, so their assignments count too.
func (f *pyFile) classDefinition(name string) string {
	var out []string
	var visit func(n *syntax.Node, scope string)
	visit = func(n *syntax.Node, scope string) {
		switch n.Type {
		case "function_definition":
			if !isAsync(n) {
				if scope == name && f.name(n) == "__init__" {
					out = append(out, f.nodeLines(n)...)
				}
				return
			}
		case "class_definition":
			if f.name(n) != name {
				return
			}
			out = append(out, f.lineRange(n.Line, n.Line)...)
			for _, c := range n.Children {
				visit(c, name)
			}
			return
		case "expression_statement":
			if assignment(n) != nil {
				if scope == name {
					out = append(out, f.nodeLines(n)...)
				}
				return
			}
		}
		for _, c := range n.Children {
			visit(c, scope)
		}
	}
	visit(f.root, "")
	return strings.Join(out, "\n")
}

// astDepth approximates the depth of a definition in Python's ast, which
// orders ast.walk: the number of enclosing compound statements and clauses
// that are ast nodes of their own.
func astDepth(path []*syntax.Node) int {
	d := 0
	for _, n := range path {
		switch n.Type {
		case "function_definition", "class_definition", "if_statement", "elif_clause", "for_statement",
			"while_statement", "try_statement", "except_clause", "with_statement", "match_statement", "case_clause":
			d++
		}
	}
	return d
}

// defs returns the nodes of the given type with their ancestors, ordered
// as ast.walk (breadth first) meets them.
func (f *pyFile) defs(typ string) [][]*syntax.Node {
	type found struct {
		path  []*syntax.Node
		depth int
	}
	var all []found
	var walk func(n *syntax.Node, path []*syntax.Node)
	walk = func(n *syntax.Node, path []*syntax.Node) {
		if n.Type == typ {
			all = append(all, found{append(slices.Clone(path), n), astDepth(path)})
		}
		path = append(path, n)
		for _, c := range n.Children {
			walk(c, path)
		}
	}
	walk(f.root, nil)
	sort.SliceStable(all, func(i, j int) bool { return all[i].depth < all[j].depth })
	out := make([][]*syntax.Node, len(all))
	for i, a := range all {
		out[i] = a.path
	}
	return out
}

// functionFromFile is DataUtil.extract_function_from_file: the lines of the
// first (non-async) function named name, from its def line (decorators
// left out) to its end.
func (f *pyFile) functionFromFile(name string) (string, bool) {
	for _, p := range f.defs("function_definition") {
		n := p[len(p)-1]
		if !isAsync(n) && f.name(n) == name {
			return strings.Join(f.nodeLines(n), "\n"), true
		}
	}
	return "", false
}

// methodFromClass is DataUtil.extract_method_from_class: the method
// (directly in the body of a class named class) from its def line to its
// end.
func (f *pyFile) methodFromClass(class, method string) (string, bool) {
	for _, p := range f.defs("class_definition") {
		c := p[len(p)-1]
		if f.name(c) != class {
			continue
		}
		for _, fn := range bodyFuncs(c) {
			if !isAsync(fn) && f.name(fn) == method {
				return strings.Join(f.nodeLines(fn), "\n"), true
			}
		}
	}
	return "", false
}

// bodyFuncs returns the function definitions directly in a class body,
// decorated ones included.
func bodyFuncs(class *syntax.Node) []*syntax.Node {
	body := class.Child("body")
	if body == nil {
		return nil
	}
	var out []*syntax.Node
	for _, s := range body.Children {
		switch s.Type {
		case "function_definition":
			out = append(out, s)
		case "decorated_definition":
			if d := s.Child("definition"); d != nil && d.Type == "function_definition" {
				out = append(out, d)
			}
		}
	}
	return out
}

// moduleLevel calls fn for the nodes the artifact's module-scope visitors
// see with current_scope None: everything outside (non-async) functions
// and classes.
func (f *pyFile) moduleLevel(fn func(n *syntax.Node)) {
	var visit func(n *syntax.Node)
	visit = func(n *syntax.Node) {
		switch n.Type {
		case "class_definition":
			return
		case "function_definition":
			if !isAsync(n) {
				return
			}
		}
		fn(n)
		for _, c := range n.Children {
			visit(c)
		}
	}
	visit(f.root)
}

// variableFromFile is DataUtil.extract_variable_from_file: the lines of
// every module-level assignment to the plain name var. (The artifact
// crashes on an annotated assignment; here it counts like any other.)
func (f *pyFile) variableFromFile(name string) string {
	var out []string
	f.moduleLevel(func(n *syntax.Node) {
		a := assignment(n)
		if a == nil {
			return
		}
		for ; a != nil && a.Type == "assignment"; a = a.Child("right") {
			if l := a.Child("left"); l != nil && l.Type == "identifier" && f.text(l) == name {
				out = append(out, f.nodeLines(n)...)
			}
		}
	})
	return strings.Join(out, "\n")
}

// importsFromFile is DataUtil.extract_imports_from_file: the module-level
// imports of the module pkg ("import pkg", "import pkg as p", "from pkg
// import x", "from .pkg import x"; not "import pkg.sub"), each as
// ast.unparse writes it: an import statement once per item that imports
// pkg, a from-import once.
func (f *pyFile) importsFromFile(pkg string) []string {
	if pkg == "" {
		return nil
	}
	var out []string
	f.moduleLevel(func(n *syntax.Node) {
		switch n.Type {
		case "import_statement", "import_from_statement", "future_import_statement":
		default:
			return
		}
		ims := syntax.PyImports(n, f.src)
		for _, im := range ims {
			if im.Module != pkg {
				continue
			}
			out = append(out, unparseImport(ims))
			if n.Type != "import_statement" {
				break
			}
		}
	})
	return out
}

// unparseImport writes the import statement of ims (the items of one
// statement) as Python's ast.unparse does: one line, names separated by
// ", ", no parentheses.
func unparseImport(ims []syntax.PyImport) string {
	names := make([]string, len(ims))
	for i, im := range ims {
		names[i] = im.Name
		if im.Stmt.Type == "import_statement" {
			names[i] = im.Module
		}
		if im.Alias != "" {
			names[i] += " as " + im.Alias
		}
	}
	if im := ims[0]; im.Stmt.Type != "import_statement" {
		return "from " + strings.Repeat(".", im.Level) + im.Module + " import " + strings.Join(names, ", ")
	}
	return "import " + strings.Join(names, ", ")
}

// removeLeadingSpaces is DataUtil.remove_leading_spaces: cut from every
// line as many characters as the first line has leading white space.
func removeLeadingSpaces(code string) string {
	lines := strings.Split(code, "\n")
	if code == "" {
		return ""
	}
	first := []rune(lines[0])
	lead := 0
	for lead < len(first) && isPySpace(first[lead]) {
		lead++
	}
	for i, l := range lines {
		r := []rune(l)
		if len(r) > lead {
			lines[i] = string(r[lead:])
		} else {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// leadingSpaces is DataUtil.get_leading_spaces: the number of leading
// white-space characters.
func leadingSpaces(s string) int {
	n := 0
	for _, r := range s {
		if !isPySpace(r) {
			break
		}
		n++
	}
	return n
}

// isPySpace reports whether Python's str.isspace holds for r.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// allSpace reports whether every character of s is white space (true for
// "").
func allSpace(s string) bool {
	for _, r := range s {
		if !isPySpace(r) {
			return false
		}
	}
	return true
}
