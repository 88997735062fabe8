package measure

import (
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// importTable is the artifact's ImportCollector: every name an import
// statement anywhere in the file binds, and for aliases and from-imports
// the module the name comes from.
type importTable struct {
	names  map[string]struct{}
	module map[string]string // bound name -> module ("" for `from . import x`)
}

func newImportTable() *importTable {
	return &importTable{names: map[string]struct{}{}, module: map[string]string{}}
}

// add records an import, import-from or __future__ import statement.
//
//   - import a.b         binds "a.b" (the artifact records the dotted name)
//   - import a.b as c    binds "a.b" and "c", with c from module "a.b"
//   - from a.b import c  binds "c", from module "a" (the top-level package)
//   - from a import c as d  binds "c" and "d", both from "a"
//
// As in the artifact, a name keeps the first module recorded for it.
func (t *importTable) add(n *syntax.Node, src []byte) {
	for _, im := range syntax.PyImports(n, src) {
		if im.Wildcard {
			continue
		}
		from := im.Stmt.Type != "import_statement"
		name, module := im.Module, ""
		if from {
			name = im.Name
			module, _, _ = strings.Cut(im.Module, ".")
		}
		if name != "" && !t.has(name) {
			t.names[name] = struct{}{}
			if from {
				t.module[name] = module
			}
		}
		if im.Alias != "" && !t.has(im.Alias) {
			t.names[im.Alias] = struct{}{}
			if from {
				t.module[im.Alias] = module
			} else {
				t.module[im.Alias] = name
			}
		}
	}
}

func (t *importTable) has(name string) bool {
	_, ok := t.names[name]
	return ok
}

// callee is a call C5-C7 look at: the called name (for a.b.c(), the root
// a; for self.m(), the attribute m) and whether the callee was an
// attribute.
type callee struct {
	name string
	attr bool
}

// classifyCalls applies the artifact's APICallExtractor to the recorded
// calls: a call to an imported name is third-party (C5) when the name or
// its module is a standard-library module or an allowed third-party
// package, and inter-class (C6) otherwise; a call to a name defined by a
// def in the file is intra-class (C7). A bare enumerate(...) is never
// counted.
func (c *counter) classifyCalls(thirdParty []string) (third, inter, intra int) {
	known := func(module string) bool {
		if module == "" {
			return false
		}
		top, _, _ := strings.Cut(module, ".")
		if _, ok := stdlib310[top]; ok {
			return true
		}
		for _, p := range thirdParty {
			if strings.EqualFold(p, top) {
				return true
			}
		}
		return false
	}
	for _, cl := range c.calls {
		if !cl.attr && cl.name == "enumerate" {
			continue
		}
		if c.imports.has(cl.name) {
			if known(cl.name) || known(c.imports.module[cl.name]) {
				third++
			} else {
				inter++
			}
			continue
		}
		if _, ok := c.funcs[cl.name]; ok {
			intra++
		}
	}
	return third, inter, intra
}
