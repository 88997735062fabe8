package libapi

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// Key is the API key of an object: "path.Name" for a package-level name,
// "path.T.Member" for a method or a field (T the type that declares it,
// generic types by their origin).
func Key(obj types.Object) string {
	if obj == nil || obj.Pkg() == nil {
		return ""
	}
	switch o := obj.(type) {
	case *types.Func:
		o = o.Origin()
		if recv := o.Type().(*types.Signature).Recv(); recv != nil {
			if tn := typeName(recv.Type()); tn != "" {
				return o.Pkg().Path() + "." + tn + "." + o.Name()
			}
			return ""
		}
		return o.Pkg().Path() + "." + o.Name()
	case *types.Var:
		if o.IsField() {
			return "" // needs its struct: see Uses
		}
	}
	if obj.Parent() != obj.Pkg().Scope() {
		return ""
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// typeName is the name of a (pointer to a) named type, "" for another.
func typeName(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	switch n := types.Unalias(t).(type) {
	case *types.Named:
		return n.Origin().Obj().Name()
	case *types.Interface:
		return ""
	}
	return ""
}

// fieldKey is the key of the field a selection reaches: the struct type
// that declares it (through embedded fields).
func fieldKey(sel *types.Selection) string {
	t := sel.Recv()
	idx := sel.Index()
	for _, i := range idx[:len(idx)-1] {
		st := structOf(t)
		if st == nil {
			return ""
		}
		t = st.Field(i).Type()
	}
	if typeName(t) == "" {
		return ""
	}
	return sel.Obj().Pkg().Path() + "." + typeName(t) + "." + sel.Obj().Name()
}

func structOf(t types.Type) *types.Struct {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, _ := t.Underlying().(*types.Struct)
	return st
}

// Uses type-checks files (name to source) as one package, importing with
// imp, and returns the keys of the objects the file named count uses
// (calls, references, fields selected or set in a composite literal). A
// use inside a call (the innermost) that has a type error does not
// count: code that does not compile against the module does not use its
// API. The error is for a file that does not parse or a package that
// cannot be checked at all.
func Uses(imp types.Importer, files map[string]string, count string) (map[string]bool, error) {
	fset := token.NewFileSet()
	var parsed []*ast.File
	var target *ast.File
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		f, err := parser.ParseFile(fset, n, files[n], parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		parsed = append(parsed, f)
		if n == count {
			target = f
		}
	}
	if target == nil {
		return nil, errors.New("goapi: no file " + count)
	}
	var errPos []token.Pos
	info := &types.Info{
		Uses:       map[*ast.Ident]types.Object{},
		Types:      map[ast.Expr]types.TypeAndValue{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{Importer: imp, Error: func(err error) {
		if te, ok := err.(types.Error); ok {
			errPos = append(errPos, te.Pos)
		}
	}}
	pkg, _ := conf.Check(target.Name.Name, fset, parsed, info)
	if pkg == nil {
		return nil, errors.New("goapi: the package could not be checked")
	}
	return collect(target, info, pkg, errPos), nil
}

// collect walks f for the API it uses.
func collect(f *ast.File, info *types.Info, pkg *types.Package, errPos []token.Pos) map[string]bool {
	uses := map[string]bool{}
	var stack []ast.Node
	broken := func() bool {
		for i := len(stack) - 1; i >= 0; i-- {
			if c, ok := stack[i].(*ast.CallExpr); ok {
				return slices.ContainsFunc(errPos, func(p token.Pos) bool { return p >= c.Pos() && p < c.End() })
			}
		}
		return false
	}
	add := func(key string) {
		if key != "" && !broken() {
			uses[key] = true
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if sel := info.Selections[n]; sel != nil {
				if v, ok := sel.Obj().(*types.Var); ok && v.IsField() {
					add(fieldKey(sel))
				} else {
					add(Key(sel.Obj()))
				}
			}
		case *ast.Ident:
			if obj := info.Uses[n]; obj != nil && obj.Pkg() != nil && obj.Pkg() != pkg {
				if _, ok := obj.(*types.PkgName); !ok {
					add(Key(obj))
				}
			}
		case *ast.CompositeLit:
			for _, k := range literalFields(n, info) {
				add(k)
			}
		}
		return true
	})
	return uses
}

// literalFields are the keys of the fields a struct literal sets by name.
func literalFields(n *ast.CompositeLit, info *types.Info) []string {
	t := info.Types[n].Type
	st := structOf(t)
	if st == nil || typeName(t) == "" {
		return nil
	}
	var out []string
	for _, e := range n.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		id, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		for i := range st.NumFields() {
			if f := st.Field(i); f.Name() == id.Name && f.Pkg() != nil {
				out = append(out, f.Pkg().Path()+"."+typeName(t)+"."+f.Name())
			}
		}
	}
	return out
}

// HitsAll reports whether uses has every key of apis.
func HitsAll(uses map[string]bool, apis []string) bool {
	for _, a := range apis {
		if !uses[strings.TrimSpace(a)] {
			return false
		}
	}
	return true
}

// FieldKey is the key of the field a selection reads, "" for a selection
// that is not a field's.
func FieldKey(sel *types.Selection) string {
	if v, ok := sel.Obj().(*types.Var); !ok || !v.IsField() || v.Pkg() == nil {
		return ""
	}
	return fieldKey(sel)
}
