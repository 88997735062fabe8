package mutate

import (
	"slices"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// Fragment bounds, in top-level statements (the paper's 3 to 20).
const (
	minStmts = 3
	maxStmts = 20
)

// A Fragment is a candidate F: a syntactically complete, contiguous run of
// the statements of one block (a function or method body, a loop body, a
// branch or switch case, a try, catch or finally block, a synchronized
// block or a lambda body). Offsets are bytes in Src, the whole file.
type Fragment struct {
	Lang Lang
	Src  []byte
	// Kind is "method_body", "lambda_body", "loop_body", "branch",
	// "case_body", "try_block", "catch_block", "finally_block" or
	// "synchronized".
	Kind string
	// Start and End span the block's statements, from the start of the
	// first to the end of the last (braces excluded).
	Start, End    int
	Line, EndLine int
	// Stmts is the number of top-level statements in the block.
	Stmts int
	// Identifiers are the distinct non-keyword identifiers, sorted.
	Identifiers []string
	// block is the block node, and fn the innermost enclosing function,
	// method, constructor or lambda (nil at top level).
	block, fn *syntax.Node
	// file checks mutants of Src with incremental parses; shared by the
	// fragments of one file (nil: a full parse).
	file *syntax.Reparser
}

// Fragments returns the candidate fragments of src in source order (by
// Start, outer blocks before the blocks they contain). A block qualifies
// when it parses without errors, has minStmts to maxStmts top-level
// statements and at least two distinct non-keyword identifiers.
//
// Test coverage, the paper's other condition, is not checked here: callers
// filter the result with coverage data from a build system (for example by
// keeping fragments whose lines Line..EndLine are covered). The error is
// only for an unsupported language or an unparsable input.
func Fragments(lang Lang, src []byte) ([]Fragment, error) {
	lg, err := languageOf(lang)
	if err != nil {
		return nil, err
	}
	file, err := syntax.NewReparser(syntax.Lang(lang), src)
	if err != nil {
		return nil, err
	}
	root := file.Nodes()
	scan := fragmentScan{lg, lang, src}
	var out []Fragment
	var walk func(n, fn *syntax.Node)
	walk = func(n, fn *syntax.Node) {
		if lg.isFunc(n.Type) {
			fn = n
		}
		for _, c := range n.Children {
			if k := lg.blockKind(n, c); k != "" && !c.Err {
				if f, ok := scan.fragment(k, c, fn); ok {
					f.file = file
					out = append(out, f)
				}
			}
			walk(c, fn)
		}
	}
	walk(root, nil)
	return out, nil
}

func statements(lg language, block *syntax.Node) []*syntax.Node {
	var out []*syntax.Node
	for _, c := range block.NamedChildren() {
		if c.Type == "statement_list" { // newer Go grammars
			return statements(lg, c)
		}
		// Fielded children of a case (its values, type or channel
		// operation) are not statements.
		if c.Field == "" && lg.isStatement(c.Type) {
			out = append(out, c)
		}
	}
	return out
}

// fragmentScan is Fragments' walk over one file's tree.
type fragmentScan struct {
	lg   language
	lang Lang
	src  []byte
}

// fragment returns block, of the given kind inside function fn, as a
// Fragment if it qualifies (see Fragments).
func (fs fragmentScan) fragment(kind string, block, fn *syntax.Node) (Fragment, bool) {
	lg, lang, src := fs.lg, fs.lang, fs.src
	st := statements(lg, block)
	if len(st) < minStmts || len(st) > maxStmts {
		return Fragment{}, false
	}
	seen := map[string]bool{}
	block.Walk(func(n *syntax.Node) bool {
		if isIdent(n.Type) {
			if w := n.Text(src); w != "_" && !lg.reserved(w) {
				seen[w] = true
			}
		}
		return true
	})
	if len(seen) < 2 {
		return Fragment{}, false
	}
	ids := make([]string, 0, len(seen))
	for w := range seen {
		ids = append(ids, w)
	}
	slices.Sort(ids)
	first, last := st[0], st[len(st)-1]
	return Fragment{
		Lang: lang, Src: src, Kind: kind,
		Start: first.Start, End: last.End, Line: first.Line, EndLine: last.EndLine,
		Stmts: len(st), Identifiers: ids, block: block, fn: fn,
	}, true
}

func isIdent(kind string) bool {
	switch kind {
	case "identifier", "field_identifier", "type_identifier", "package_identifier":
		return true
	}
	return false
}

// nodes calls fn for every node lying inside the fragment's span, in
// source order, with its parent and its path from f.block (indices into
// [syntax.Node.Children]).
func (f *Fragment) nodes(fn func(n, parent *syntax.Node, path []int)) {
	var walk func(n, parent *syntax.Node, path []int)
	walk = func(n, parent *syntax.Node, path []int) {
		if n.End <= f.Start || n.Start >= f.End {
			return
		}
		if n != f.block {
			fn(n, parent, path)
		}
		for i, c := range n.Children {
			walk(c, n, append(slices.Clip(path), i))
		}
	}
	walk(f.block, nil, nil)
}
