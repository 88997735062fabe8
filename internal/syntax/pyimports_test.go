package syntax

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// pyImportView is the part of a PyImport a test compares: the fields as
// values, with the statement's type and first line and the bound
// identifier's text standing for the nodes.
type pyImportView struct {
	Stmt, Module string
	Level        int
	Name, Alias  string
	Bind         string
	BindNode     string // text of BindNode, "-" when nil
	Wildcard     bool
	Future       bool
	Nested       bool
}

func viewPyImports(ims []PyImport, src []byte) []pyImportView {
	var out []pyImportView
	for _, im := range ims {
		v := pyImportView{
			Stmt: im.Stmt.Type, Module: im.Module, Level: im.Level, Name: im.Name, Alias: im.Alias,
			Bind: im.Bind, BindNode: "-", Wildcard: im.Wildcard, Future: im.Future, Nested: im.Nested,
		}
		if im.BindNode != nil {
			v.BindNode = im.BindNode.Text(src)
		}
		out = append(out, v)
	}
	return out
}

// The statement types of pyImportView.Stmt.
const (
	imp  = "import_statement"
	from = "import_from_statement"
	fut  = "future_import_statement"
)

// pyImportsCases are TestPyImports's cases: Python source and the
// imports PyImports finds in it.
var pyImportsCases = []struct {
	name, src string
	want      []pyImportView
	reason    string
}{
	{
		name:   "plain",
		src:    "import os\n",
		want:   []pyImportView{{Stmt: imp, Module: "os", Bind: "os", BindNode: "os"}},
		reason: "import m binds m",
	},
	{
		name:   "dotted",
		src:    "import os.path\n",
		want:   []pyImportView{{Stmt: imp, Module: "os.path", Bind: "os", BindNode: "os"}},
		reason: "import a.b binds the top-level package a",
	},
	{
		name:   "dotted/spaces",
		src:    "import os . path\n",
		want:   []pyImportView{{Stmt: imp, Module: "os.path", Bind: "os", BindNode: "os"}},
		reason: "the module is the dotted name without white space",
	},
	{
		name:   "aliased",
		src:    "import numpy.linalg as la\n",
		want:   []pyImportView{{Stmt: imp, Module: "numpy.linalg", Alias: "la", Bind: "la", BindNode: "la"}},
		reason: "import a.b as c binds c",
	},
	{
		name: "several",
		src:  "import a, b as c, d.e\n",
		want: []pyImportView{
			{Stmt: imp, Module: "a", Bind: "a", BindNode: "a"},
			{Stmt: imp, Module: "b", Alias: "c", Bind: "c", BindNode: "c"},
			{Stmt: imp, Module: "d.e", Bind: "d", BindNode: "d"},
		},
		reason: "one item per imported name, in order",
	},
	{
		name: "from",
		src:  "from a.b import c, d as e\n",
		want: []pyImportView{
			{Stmt: from, Module: "a.b", Name: "c", Bind: "c", BindNode: "c"},
			{Stmt: from, Module: "a.b", Name: "d", Alias: "e", Bind: "e", BindNode: "e"},
		},
		reason: "from m import x binds x, x as y binds y",
	},
	{
		name: "from/parentheses",
		src:  "from m import (\n    x,\n    y as z,\n)\n",
		want: []pyImportView{
			{Stmt: from, Module: "m", Name: "x", Bind: "x", BindNode: "x"},
			{Stmt: from, Module: "m", Name: "y", Alias: "z", Bind: "z", BindNode: "z"},
		},
		reason: "parentheses and a trailing comma are punctuation",
	},
	{
		name:   "relative/dot",
		src:    "from . import x\n",
		want:   []pyImportView{{Stmt: from, Level: 1, Name: "x", Bind: "x", BindNode: "x"}},
		reason: "from . import x: level 1, no module name",
	},
	{
		name:   "relative/dots-module",
		src:    "from ..a.b import c as d\n",
		want:   []pyImportView{{Stmt: from, Module: "a.b", Level: 2, Name: "c", Alias: "d", Bind: "d", BindNode: "d"}},
		reason: "the level counts the dots, the module is what follows",
	},
	{
		name:   "relative/three",
		src:    "from ...pkg import y\n",
		want:   []pyImportView{{Stmt: from, Module: "pkg", Level: 3, Name: "y", Bind: "y", BindNode: "y"}},
		reason: "three dots, however the grammar tokenises them",
	},
	{
		name:   "wildcard",
		src:    "from m import *\n",
		want:   []pyImportView{{Stmt: from, Module: "m", Name: "*", BindNode: "-", Wildcard: true}},
		reason: "a wildcard binds no name the parser can see",
	},
	{
		name: "future",
		src:  "from __future__ import annotations, division as d\n",
		want: []pyImportView{
			{Stmt: fut, Module: "__future__", Name: "annotations", Bind: "annotations", BindNode: "annotations", Future: true},
			{Stmt: fut, Module: "__future__", Name: "division", Alias: "d", Bind: "d", BindNode: "d", Future: true},
		},
		reason: "__future__ imports are from-imports of module __future__",
	},
	{
		name: "nested",
		src: `import a
def f():
    import b
    class C:
        from c import d
try:
    import e
except ImportError:
    e = None
if x:
    from g import h
async def k():
    with w:
        import l
`,
		want: []pyImportView{
			{Stmt: imp, Module: "a", Bind: "a", BindNode: "a"},
			{Stmt: imp, Module: "b", Bind: "b", BindNode: "b", Nested: true},
			{Stmt: from, Module: "c", Name: "d", Bind: "d", BindNode: "d", Nested: true},
			{Stmt: imp, Module: "e", Bind: "e", BindNode: "e"},
			{Stmt: from, Module: "g", Name: "h", Bind: "h", BindNode: "h"},
			{Stmt: imp, Module: "l", Bind: "l", BindNode: "l", Nested: true},
		},
		reason: "imports anywhere, in source order; nested only inside def or class bodies",
	},
	{
		name:   "none",
		src:    "x = 'import os'\n# from a import b\n",
		reason: "strings and comments are not imports",
	},
	{
		name:   "syntax-error",
		src:    "import a as\nfrom b import (c,\ndef f(:\n    import d\n",
		reason: "broken code: no panic, and the import in the broken def is still found (checked below)",
	},
}

func TestPyImports(t *testing.T) {
	for _, tt := range pyImportsCases {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			root, err := ParseNodes(Python, src)
			if err != nil {
				t.Fatal(err)
			}
			got := viewPyImports(PyImports(root, src), src)
			if tt.name == "syntax-error" {
				if !root.Err {
					t.Fatal("source parsed without errors")
				}
				found := false
				for _, v := range got {
					found = found || v.Bind == "d"
				}
				if !found {
					t.Errorf("import d not found in %+v", got)
				}
				return
			}
			assert.Equal(t, tt.want, got, "PyImports(%q), %s", tt.src, tt.reason)
		})
	}
}

func TestPyImportsStatement(t *testing.T) {
	src := []byte("def f():\n    import a, b\n")
	root, err := ParseNodes(Python, src)
	if err != nil {
		t.Fatal(err)
	}
	var stmt *Node
	root.Walk(func(n *Node) bool {
		if n.Type == "import_statement" {
			stmt = n
		}
		return stmt == nil
	})
	ims := PyImports(stmt, src)
	if len(ims) != 2 || ims[0].Stmt != stmt || ims[1].Stmt != stmt || ims[0].Nested {
		t.Errorf("PyImports(statement) = %+v, want a and b of the statement, not nested below it", ims)
	}
	if PyImports(nil, nil) != nil {
		t.Error("PyImports(nil) is not empty")
	}
}

func FuzzPyImports(f *testing.F) {
	for _, s := range []string{
		"import a.b as c, d\nfrom .. import (x, y as z,)\nfrom m import *\n",
		"from __future__ import annotations\ndef f():\n    import g\n",
		"import a as\nfrom b import (c,\n",
		"from . import\n",
		"from ....x.y import z as",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		root, err := ParseNodes(Python, src)
		if err != nil {
			return
		}
		for _, im := range PyImports(root, src) {
			if im.Stmt == nil {
				t.Fatal("item without statement")
			}
			if im.Stmt.Start > im.Stmt.End || im.Stmt.End > len(src) {
				t.Fatalf("statement range [%d,%d) outside the source", im.Stmt.Start, im.Stmt.End)
			}
			if im.BindNode != nil && im.Bind != im.BindNode.Text(src) {
				t.Fatalf("Bind %q is not the text %q of BindNode", im.Bind, im.BindNode.Text(src))
			}
			if im.Wildcard && (im.Bind != "" || im.Name != "*") {
				t.Fatalf("wildcard item %+v", im)
			}
			if im.Level < 0 || strings.Contains(im.Module, " ") {
				t.Fatalf("item %+v", im)
			}
		}
	})
}
