package impossible

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// A site is one check of a test file and the check that contradicts it:
// Insert goes in at offset At, right after the check's statement.
type site struct {
	At     int
	Line   int
	Insert string
	// Check is the text of the check contradicted; Func names the
	// function or method it is in.
	Check, Func string
	// Calls reports whether the check calls something (the code under
	// test, usually): its contradiction calls it again. A check of a value
	// computed before (err != nil) is contradicted too, but only by
	// reading the same value, and comes after those that call.
	Calls bool
}

// A testFile is what sites found in a test file: its checks that can be
// contradicted, in file order, and which functions each function calls
// by name (a test's checks may be in a helper it calls).
type testFile struct {
	sites []site
	calls map[string][]string
}

// sites parses a test file in lang.
func sites(lang, path string, src []byte) (*testFile, error) {
	tf := &testFile{calls: map[string][]string{}}
	var err error
	switch lang {
	case "python":
		err = treeSites(tf, syntax.Python, src, pythonSite)
	case "java":
		junit5 := bytes.Contains(src, []byte("org.junit.jupiter"))
		err = treeSites(tf, syntax.Java, src, func(n *syntax.Node, src []byte) (string, *syntax.Node, bool) { return javaSite(n, src, junit5) })
	case "go":
		err = goSites(tf, path, src)
	default:
		return nil, fmt.Errorf("impossible: %s: language %q: want python, go or java", path, lang)
	}
	if err != nil {
		return nil, err
	}
	return tf, nil
}

// reach returns the functions from and the functions they call, directly
// or not, by name.
func (tf *testFile) reach(from []string) map[string]bool {
	seen := map[string]bool{}
	for len(from) > 0 {
		fn := from[len(from)-1]
		from = from[:len(from)-1]
		if !seen[fn] {
			seen[fn] = true
			from = append(from, tf.calls[fn]...)
		}
	}
	return seen
}

// lineIndent returns the indentation of the line a statement at [start,
// end) starts, and whether the statement has its lines to itself (only
// white space before it on its first line and after it on its last), so
// that a statement inserted after it on a line of its own, so indented,
// is its sibling.
func lineIndent(src []byte, start, end int) (string, bool) {
	ls := bytes.LastIndexByte(src[:start], '\n') + 1
	ind := src[ls:start]
	if len(bytes.Trim(ind, " \t")) != 0 {
		return "", false
	}
	rest := src[end:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	return string(ind), len(bytes.Trim(rest, " \t\r")) == 0
}

// treeSites walks a tree-sitter tree of src and asks contra of each
// statement for its contradiction and the part of it that is checked.
func treeSites(tf *testFile, lang syntax.Lang, src []byte, contra func(*syntax.Node, []byte) (string, *syntax.Node, bool)) error {
	root, err := syntax.ParseNodes(lang, src)
	if err != nil {
		return err
	}
	var walk func(n *syntax.Node, fn string)
	walk = func(n *syntax.Node, fn string) {
		if n.Type == "ERROR" {
			return
		}
		if n.Type == "function_definition" || n.Type == "method_declaration" {
			if name := n.Child("name"); name != nil {
				fn = name.Text(src)
			}
		}
		if name := callee(n, src); name != "" && fn != "" {
			tf.calls[fn] = append(tf.calls[fn], name)
		}
		if !n.Err {
			if text, args, ok := contra(n, src); ok {
				if ind, alone := lineIndent(src, n.Start, n.End); alone {
					tf.sites = append(tf.sites, site{At: n.End, Line: n.Line, Insert: "\n" + ind + text, Check: n.Text(src), Func: fn, Calls: hasCall(args)})
				}
			}
		}
		for _, c := range n.Children {
			walk(c, fn)
		}
	}
	walk(root, "")
	return nil
}

// callee names the function a Python call or Java method invocation
// calls (a method by its own name), or "".
func callee(n *syntax.Node, src []byte) string {
	var name *syntax.Node
	switch n.Type {
	case "call":
		name = n.Child("function")
		if name != nil && name.Type == "attribute" {
			name = name.Child("attribute")
		}
	case "method_invocation":
		name = n.Child("name")
	}
	if name == nil || name.Type != "identifier" {
		return ""
	}
	return name.Text(src)
}

// hasCall reports whether n holds a call.
func hasCall(n *syntax.Node) bool {
	found := false
	n.Walk(func(c *syntax.Node) bool {
		found = found || c.Type == "call" || c.Type == "method_invocation" || c.Type == "object_creation_expression"
		return !found
	})
	return found
}

// pythonNegations pairs each unittest assertion with its opposite.
var pythonNegations = pairs(
	"assertEqual", "assertNotEqual", "assertTrue", "assertFalse", "assertIs", "assertIsNot",
	"assertIsNone", "assertIsNotNone", "assertIn", "assertNotIn", "assertAlmostEqual", "assertNotAlmostEqual",
	"assertIsInstance", "assertNotIsInstance", "assertCountEqual", "assertNotEqual")

func pairs(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		if _, ok := m[kv[i]]; !ok {
			m[kv[i]] = kv[i+1]
		}
		if _, ok := m[kv[i+1]]; !ok {
			m[kv[i+1]] = kv[i]
		}
	}
	return m
}

// pythonSite contradicts `assert C` with `assert not (C)` and
// `self.assertX(args)` with the opposite assertion of the same arguments.
func pythonSite(n *syntax.Node, src []byte) (string, *syntax.Node, bool) {
	switch n.Type {
	case "assert_statement":
		kids := n.NamedChildren()
		if len(kids) == 0 {
			return "", nil, false
		}
		return "assert not (" + kids[0].Text(src) + ")", kids[0], true
	case "expression_statement":
		kids := n.NamedChildren()
		if len(kids) != 1 || kids[0].Type != "call" {
			return "", nil, false
		}
		fn := kids[0].Child("function")
		if fn == nil || fn.Type != "attribute" {
			return "", nil, false
		}
		attr := fn.Child("attribute")
		neg, ok := pythonNegations[attr.Text(src)]
		if !ok {
			return "", nil, false
		}
		call := kids[0]
		return string(src[call.Start:attr.Start]) + neg + string(src[attr.End:call.End]), call.Child("arguments"), true
	}
	return "", nil, false
}

// javaNegations pairs each JUnit assertion with its opposite.
var javaNegations = pairs("assertEquals", "assertNotEquals", "assertTrue", "assertFalse",
	"assertNull", "assertNotNull", "assertSame", "assertNotSame")

// javaSite contradicts a JUnit assertion statement with its opposite,
// qualified with the assertions class of the file's JUnit (a static
// import of assertEquals does not bring in assertNotEquals).
func javaSite(n *syntax.Node, src []byte, junit5 bool) (string, *syntax.Node, bool) {
	if n.Type != "expression_statement" {
		return "", nil, false
	}
	kids := n.NamedChildren()
	if len(kids) != 1 || kids[0].Type != "method_invocation" {
		return "", nil, false
	}
	call := kids[0]
	name, args := call.Child("name"), call.Child("arguments")
	if name == nil || args == nil {
		return "", nil, false
	}
	neg, ok := javaNegations[name.Text(src)]
	if !ok {
		return "", nil, false
	}
	class := "org.junit.Assert"
	if junit5 {
		class = "org.junit.jupiter.api.Assertions"
	}
	return class + "." + neg + args.Text(src) + ";", args, true
}

// goFail are the methods of testing.T (B, F, TB) that fail a test.
var goFail = map[string]bool{"Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Fail": true, "FailNow": true}

// goSites contradicts each `if [init;] cond { …t.Errorf(…)… }` (no else)
// with `if [init;] !(cond) { t.Fatal(…) }` after it: every value fails
// one of the two.
func goSites(tf *testFile, path string, src []byte) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("impossible: %w", err)
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	fn := ""
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			fn = n.Name.Name
		case *ast.CallExpr:
			switch f := n.Fun.(type) {
			case *ast.Ident:
				tf.calls[fn] = append(tf.calls[fn], f.Name)
			case *ast.SelectorExpr:
				tf.calls[fn] = append(tf.calls[fn], f.Sel.Name)
			}
		}
		is, ok := n.(*ast.IfStmt)
		if !ok || is.Else != nil {
			return true
		}
		tv := failer(is.Body)
		if tv == "" {
			return true
		}
		start, end := off(is.Pos()), off(is.End())
		ind, alone := lineIndent(src, start, end)
		if !alone {
			return true
		}
		head := ""
		if is.Init != nil {
			head = string(src[off(is.Init.Pos()):off(is.Init.End())]) + "; "
		}
		cond := string(src[off(is.Cond.Pos()):off(is.Cond.End())])
		calls := false
		ast.Inspect(is.Cond, func(n ast.Node) bool { _, c := n.(*ast.CallExpr); calls = calls || c; return !calls })
		if is.Init != nil {
			ast.Inspect(is.Init, func(n ast.Node) bool { _, c := n.(*ast.CallExpr); calls = calls || c; return !calls })
		}
		text := fmt.Sprintf("if %s!(%s) {\n%s\t%s.Fatal(%q)\n%s}", head, cond, ind, tv, "impossible variant: the check above, negated", ind)
		tf.sites = append(tf.sites, site{At: end, Line: fset.Position(is.Pos()).Line, Insert: "\n" + ind + text, Check: string(src[start:end]), Func: fn, Calls: calls})
		return true
	})
	return nil
}

// failer returns the name of the testing value whose failing method the
// block calls as a statement of its own, or "".
func failer(b *ast.BlockStmt) string {
	for _, st := range b.List {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := es.X.(*ast.CallExpr)
		if !ok {
			continue
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !goFail[sel.Sel.Name] {
			continue
		}
		if id, ok := sel.X.(*ast.Ident); ok {
			return id.Name
		}
	}
	return ""
}
