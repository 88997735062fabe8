//go:build cgo

package syntax

import "strings"

// PyImport is one name a Python import statement imports: one item of its
// import list. The fields follow Python's ast (ast.Import, ast.ImportFrom
// and ast.alias).
//
//	statement                  Module  Level  Name  Alias  Bind
//	import a.b                 "a.b"   0      ""    ""     "a"
//	import a.b as c            "a.b"   0      ""    "c"    "c"
//	from a.b import c          "a.b"   0      "c"   ""     "c"
//	from ..a import c as d     "a"     2      "c"   "d"    "d"
//	from . import x            ""      1      "x"   ""     "x"
//	from m import *            "m"     0      "*"   ""     ""  (Wildcard)
//	from __future__ import f   "__future__" 0 "f"   ""     "f" (Future)
type PyImport struct {
	// Stmt is the statement: an import_statement, import_from_statement
	// or future_import_statement. The items of one statement share it.
	Stmt *Node
	// Module is the module as written, its dotted name without white
	// space: for `import a.b` the module imported, for a from-import the
	// module imported from, without the leading dots of a relative import
	// ("" for `from . import x`), and "__future__" for a __future__
	// import.
	Module string
	// Level is the number of leading dots of a relative from-import, 0
	// for an absolute one.
	Level int
	// Name is the name a from-import imports from Module ("*" for a
	// wildcard); "" for `import a.b`, which imports Module itself.
	Name string
	// Alias is the name after "as", or "".
	Alias string
	// Bind is the name the import binds in the scope it runs in: the
	// alias if any, else the first component of Module for `import a.b`
	// or Name for a from-import; "" for a wildcard. BindNode is the
	// identifier that binds it (nil for a wildcard or where broken code
	// lacks it).
	Bind     string
	BindNode *Node
	// Wildcard reports `from m import *`; Future a __future__ import.
	Wildcard, Future bool
	// Nested reports that the statement lies in the body of a def or a
	// class below the node [PyImports] was given, rather than at its top
	// level (inside if, try, with, for or while blocks is top level).
	Nested bool
}

// PyImports returns the items of the Python import statements in the tree
// rooted at root (from [ParseNodes]; root may itself be a statement), in
// source order: one [PyImport] per imported name, and one for a wildcard.
// Statements inside ERROR nodes count; a statement that broken code leaves
// without a name yields nothing. It never fails; root may be nil.
func PyImports(root *Node, src []byte) []PyImport {
	var out []PyImport
	var walk func(n *Node, nested bool)
	walk = func(n *Node, nested bool) {
		switch n.Type {
		case "import_statement", "import_from_statement", "future_import_statement":
			out = pyImportItems(out, n, src, nested)
			return
		case "function_definition", "class_definition":
			nested = true
		}
		for _, c := range n.Children {
			walk(c, nested)
		}
	}
	if root != nil {
		walk(root, false)
	}
	return out
}

// pyImportItems appends the items of the import statement n to out.
func pyImportItems(out []PyImport, n *Node, src []byte, nested bool) []PyImport {
	base := PyImport{Stmt: n, Nested: nested}
	switch n.Type {
	case "future_import_statement":
		base.Module, base.Future = "__future__", true
	case "import_from_statement":
		if m := n.Child("module_name"); m != nil && m.Type == "dotted_name" {
			base.Module = dottedName(m, src)
		} else if m != nil { // relative_import: dots, then maybe a dotted name
			for _, c := range m.Children {
				switch c.Type {
				case "import_prefix":
					base.Level = strings.Count(c.Text(src), ".")
				case "dotted_name":
					base.Module = dottedName(c, src)
				}
			}
		}
	}
	plain := n.Type == "import_statement"
	for _, c := range n.Children {
		if c.Type == "wildcard_import" {
			im := base
			im.Name, im.Wildcard = "*", true
			out = append(out, im)
			continue
		}
		if c.Field != "name" {
			continue
		}
		im := base
		name := c
		if c.Type == "aliased_import" {
			name = c.Child("name")
			if a := c.Child("alias"); a != nil {
				im.Alias = a.Text(src)
				if a.Type == "identifier" {
					im.BindNode = a
				}
			}
		} else if c.Type != "dotted_name" {
			continue
		}
		var first *Node
		if name != nil {
			if len(name.Children) > 0 && name.Children[0].Type == "identifier" {
				first = name.Children[0]
			}
			if plain {
				im.Module = dottedName(name, src)
			} else {
				im.Name = dottedName(name, src)
			}
		}
		if c.Type == "dotted_name" {
			im.BindNode = first
		}
		if im.BindNode != nil {
			im.Bind = im.BindNode.Text(src)
		}
		out = append(out, im)
	}
	return out
}

// dottedName returns the identifiers of a dotted_name joined by dots,
// without the white space or comments between them.
func dottedName(n *Node, src []byte) string {
	var b strings.Builder
	for _, c := range n.Children {
		if c.Type == "identifier" {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(c.Text(src))
		}
	}
	return b.String()
}
