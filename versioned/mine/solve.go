package mine

import (
	"fmt"
	"go/ast"
	gobuild "go/build"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/adaptbench/adaptbench/versioned/internal/libapi"
)

// A problem's answer is a function solve with the argument and result
// types of one call into the library (or of one read of a field); its
// reference body is that call. The check is the module's own test or
// example with the call replaced by solve(...), so its assertions, or the
// output it prints, judge the answer.

// site is one call of the module's API in a test or example function (or
// one read of a field): where it is, and what solve is given.
type site struct {
	start, end int    // the call's offsets in its file
	recv       string // the receiver's text (a method, a field), "" for a function
	args       []string
	// consts are the constant arguments' values as Go literals ("" for
	// an argument that is not a constant).
	consts   []string
	ellipsis bool
}

// siteGroup is the calls of one API with one solve signature in a
// function.
type siteGroup struct {
	Key      string   // the API's key (libapi.Key)
	Pkg      string   // its package's path
	Fun      string   // a function's name as the reference calls it ("lib.F", "lib.F[int]")
	Name     string   // the name called (F, M or a field)
	Method   bool     // a method or a field: solve's first parameter is the receiver
	Field    bool     // a field read
	Params   []string // solve's parameters, "name type"
	Results  []string // solve's result types
	Variadic bool
	// Imports are those the signature and the call need: path to local
	// name and package name.
	Imports map[string][2]string
	// Call is the reference's expression: the call in terms of solve's
	// parameters.
	Call string
	// Hidden is the function with every site replaced; Visible with the
	// first only ("" when there is one site). Both renamed by the caller.
	Hidden, Visible string
	sites           []site
}

// sig is solve's declaration with a body.
func (g *siteGroup) decl(body string) string {
	res := strings.Join(g.Results, ", ")
	if len(g.Results) > 1 {
		res = "(" + res + ")"
	}
	if res != "" {
		res = " " + res
	}
	return "func solve(" + strings.Join(g.Params, ", ") + ")" + res + " {\n" + body + "\n}\n"
}

// Signature is solve's signature line.
func (g *siteGroup) Signature() string {
	d := g.decl("")
	return strings.TrimSuffix(d[:strings.Index(d, " {")], "")
}

// paramNames are solve's parameter names.
func (g *siteGroup) paramNames() []string {
	var names []string
	for _, p := range g.Params {
		n, _, _ := strings.Cut(p, " ")
		names = append(names, n)
	}
	return names
}

// callOf renders a call with solve's parameters.
func (g *siteGroup) callOf(fun string) string {
	names := g.paramNames()
	if g.Method {
		if g.Field {
			return names[0] + "." + g.Name
		}
		fun, names = names[0]+"."+fun, names[1:]
	}
	if g.Variadic && len(names) > 0 {
		names[len(names)-1] += "..."
	}
	return fun + "(" + strings.Join(names, ", ") + ")"
}

// body is a body for solve that returns what expr gives, or runs it.
func (g *siteGroup) body(expr string) string {
	if len(g.Results) == 0 {
		return "\t" + expr
	}
	return "\treturn " + expr
}

// zeroBody returns zero values.
func (g *siteGroup) zeroBody() string {
	if len(g.Results) == 0 {
		return "\t// Nothing."
	}
	var b strings.Builder
	var names []string
	for i, r := range g.Results {
		fmt.Fprintf(&b, "\tvar r%d %s\n", i, r)
		names = append(names, fmt.Sprintf("r%d", i))
	}
	b.WriteString("\treturn " + strings.Join(names, ", "))
	return b.String()
}

// isStdName reports whether a standard package's import path is name
// ("errors", "sort"): a package of that name is imported aliased. (A
// directory of GOROOT/src: go/build's Import would run the go command.)
func isStdName(name string) bool {
	if v, ok := stdNames.Load(name); ok {
		return v.(bool)
	}
	first, _, _ := strings.Cut(name, "/")
	std := false
	if !strings.Contains(first, ".") && gobuild.Default.GOROOT != "" {
		fi, err := os.Stat(filepath.Join(gobuild.Default.GOROOT, "src", filepath.FromSlash(name)))
		std = err == nil && fi.IsDir()
	}
	stdNames.Store(name, std)
	return std
}

var stdNames sync.Map // name -> bool

var notIdent = regexp.MustCompile(`[^A-Za-z0-9]`)

// localName is the name a package is imported by in a moved or written
// file: its own, unless a standard package has that name, when it is
// prefixed by the import path's element before it ("errors" of
// github.com/pkg/errors is pkgerrors).
func localName(p *types.Package) string {
	name := p.Name()
	if !isStdName(p.Path()) && isStdName(name) {
		dir := path.Base(path.Dir(p.Path()))
		if majorSuffix.MatchString(dir) {
			dir = path.Base(path.Dir(path.Dir(p.Path())))
		}
		return strings.ToLower(notIdent.ReplaceAllString(dir, "")) + name
	}
	return name
}

var majorSuffix = regexp.MustCompile(`^v[0-9]+$`)

// sites finds fd's calls of the module's exported API (functions and
// methods: a conversion, a method value or expression is no call) and
// reads of its fields, and groups them by API and solve signature. edits
// are fd's qualifying edits. A site whose types solve cannot name is left
// out.
func (sc *scope) sites(fd *ast.FuncDecl, edits []edit) []*siteGroup {
	var groups []*siteGroup
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		parent := ast.Node(nil)
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		var g *siteGroup
		var s site
		switch n := n.(type) {
		case *ast.CallExpr:
			g, s = sc.callSite(n, edits)
		case *ast.SelectorExpr:
			g, s = sc.fieldSite(n, parent, edits)
		}
		if g == nil {
			return true
		}
		for _, h := range groups {
			if h.Key == g.Key && h.Signature() == g.Signature() {
				// Not one inside another of the group.
				if !slices.ContainsFunc(h.sites, func(o site) bool { return o.start <= s.start && s.end <= o.end }) {
					h.sites = append(h.sites, s)
				}
				return true
			}
		}
		g.sites = []site{s}
		groups = append(groups, g)
		return true
	})
	for _, g := range groups {
		g.Hidden = sc.replaced(fd, edits, g, len(g.sites))
		if len(g.sites) > 1 {
			g.Visible = sc.replaced(fd, edits, g, 1)
		}
	}
	return groups
}

// replaced is fd's text with the first n sites of g replaced by solve.
func (sc *scope) replaced(fd *ast.FuncDecl, edits []edit, g *siteGroup, n int) string {
	var out []edit
	for _, e := range edits {
		if !slices.ContainsFunc(g.sites[:n], func(s site) bool { return s.start <= e.start && e.end <= s.end }) {
			out = append(out, e)
		}
	}
	for _, s := range g.sites[:n] {
		args := slices.Clone(s.args)
		if s.recv != "" {
			args = append([]string{s.recv}, args...)
		}
		if s.ellipsis {
			args[len(args)-1] += "..."
		}
		out = append(out, edit{s.start, s.end, "solve(" + strings.Join(args, ", ") + ")"})
	}
	return sc.text(fd, out)
}

// textOf is an expression's source with the edits inside it.
func (sc *scope) textOf(e ast.Expr, edits []edit) string {
	start, end := sc.off(e.Pos()), sc.off(e.End())
	var in []edit
	for _, ed := range edits {
		if ed.start >= start && ed.end <= end {
			in = append(in, ed)
		}
	}
	src := sc.srcs[sc.fset.File(e.Pos()).Name()]
	return applyEdits(src[start:end], in, start)
}

// apiObject is the module's exported function or method a callee names,
// and the receiver expression of a method call.
func (sc *scope) apiObject(fun ast.Expr) (obj *types.Func, recv ast.Expr) {
	fun = ast.Unparen(fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	switch f := fun.(type) {
	case *ast.Ident:
		obj, _ = sc.info.Uses[f].(*types.Func)
	case *ast.SelectorExpr:
		if sel := sc.info.Selections[f]; sel != nil {
			if sel.Kind() != types.MethodVal {
				return nil, nil
			}
			obj, _ = sel.Obj().(*types.Func)
			recv = f.X
		} else {
			obj, _ = sc.info.Uses[f.Sel].(*types.Func)
		}
	}
	if obj == nil || !sc.isAPI(obj) {
		return nil, nil
	}
	return obj, recv
}

// isAPI reports whether obj is the module's exported API (not a test
// file's, not an internal package's).
func (sc *scope) isAPI(obj types.Object) bool {
	p := obj.Pkg()
	if p == nil || !obj.Exported() || p.Path() != sc.mod && !strings.HasPrefix(p.Path(), sc.mod+"/") || isInternal(sc.mod, p.Path()) {
		return false
	}
	if sc.inTestFile(obj) {
		return false
	}
	return p != sc.home || sc.home == sc.under
}

// inTestFile reports whether obj is declared in a test file of the
// package (an object imported from export data is not).
func (sc *scope) inTestFile(obj types.Object) bool {
	f := sc.fset.File(obj.Pos())
	return f != nil && sc.testFile[f.Name()]
}

// callSite makes a call of the API a site, with its group.
func (sc *scope) callSite(call *ast.CallExpr, edits []edit) (*siteGroup, site) {
	obj, recv := sc.apiObject(call.Fun)
	if obj == nil {
		return nil, site{}
	}
	sig, ok := sc.info.Types[call.Fun].Type.(*types.Signature)
	if !ok {
		return nil, site{}
	}
	key := libapi.Key(obj)
	if key == "" {
		return nil, site{}
	}
	r := newRenderer(sc)
	g := &siteGroup{Key: key, Pkg: obj.Pkg().Path(), Name: obj.Name(), Variadic: sig.Variadic() && call.Ellipsis.IsValid()}
	s := site{start: sc.off(call.Pos()), end: sc.off(call.End()), ellipsis: call.Ellipsis.IsValid()}
	// solve takes what the call passes: a variadic parameter only when the
	// call spreads a slice into it, one parameter per argument otherwise.
	var names, typs []string
	if recv != nil {
		g.Method = true
		rt := sc.info.Types[recv].Type
		s.recv = sc.textOf(recv, edits)
		if _, ptrRecv := obj.Type().(*types.Signature).Recv().Type().(*types.Pointer); ptrRecv && !isPointer(rt) && !types.IsInterface(rt) {
			rt = types.NewPointer(rt)
			s.recv = "&" + s.recv
		}
		names, typs = append(names, "recv"), append(typs, r.typ(rt))
	}
	params := sig.Params()
	for i, a := range call.Args {
		var t types.Type
		switch {
		case sig.Variadic() && i >= params.Len()-1 && !call.Ellipsis.IsValid():
			t = params.At(params.Len() - 1).Type().(*types.Slice).Elem()
		case i < params.Len():
			t = params.At(i).Type()
		default:
			return nil, site{}
		}
		name := "arg"
		if i < params.Len() && token.IsIdentifier(params.At(i).Name()) && params.At(i).Name() != "_" {
			name = params.At(i).Name()
		}
		typ := r.typ(t)
		if g.Variadic && i == len(call.Args)-1 {
			typ = "..." + r.typ(t.(*types.Slice).Elem())
		}
		names, typs = append(names, name), append(typs, typ)
		s.args = append(s.args, sc.textOf(a, edits))
		s.consts = append(s.consts, constText(sc.info.Types[a]))
	}
	for i := range sig.Results().Len() {
		g.Results = append(g.Results, r.typ(sig.Results().At(i).Type()))
	}
	fun := obj.Name()
	if !g.Method {
		fun = r.qualify(obj.Pkg()) + "." + obj.Name()
		// Type arguments the call spells out (inference needs them).
		if inst, ok := sc.info.Instances[calleeIdent(call.Fun)]; ok && explicitTypeArgs(call.Fun) && inst.TypeArgs.Len() > 0 {
			var targs []string
			for i := range inst.TypeArgs.Len() {
				targs = append(targs, r.typ(inst.TypeArgs.At(i)))
			}
			fun += "[" + strings.Join(targs, ", ") + "]"
		}
	}
	// The parameters do not hide an import the body names.
	used := map[string]bool{"solve": true}
	for _, im := range r.imports {
		used[im[0]] = true
	}
	for i := range names {
		g.Params = append(g.Params, uniqueName(names[i], used)+" "+typs[i])
	}
	if r.why != "" {
		return nil, site{}
	}
	g.Imports, g.Fun = r.imports, fun
	g.Call = g.callOf(fun)
	return g, s
}

// fieldSite makes a read of an exported field of the module's a site: not
// one assigned to, incremented or whose address is taken.
func (sc *scope) fieldSite(n *ast.SelectorExpr, parent ast.Node, edits []edit) (*siteGroup, site) {
	sel := sc.info.Selections[n]
	if sel == nil || sel.Kind() != types.FieldVal {
		return nil, site{}
	}
	v := sel.Obj().(*types.Var)
	if !sc.isAPI(v) {
		return nil, site{}
	}
	switch p := parent.(type) {
	case *ast.AssignStmt:
		if slices.Contains(p.Lhs, ast.Expr(n)) {
			return nil, site{}
		}
	case *ast.IncDecStmt, *ast.RangeStmt:
		return nil, site{}
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			return nil, site{}
		}
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.CallExpr:
		// x.F.G, x.F[i] may be assigned to; x.F() is a func field's call:
		// kept simple, a read in an expression of its own only.
		if _, isCall := p.(*ast.CallExpr); !isCall || p.(*ast.CallExpr).Fun == n {
			return nil, site{}
		}
	}
	key := libapi.FieldKey(sel)
	if key == "" {
		return nil, site{}
	}
	r := newRenderer(sc)
	rt := sc.info.Types[n.X].Type
	g := &siteGroup{Key: key, Pkg: v.Pkg().Path(), Name: v.Name(), Method: true, Field: true,
		Params:  []string{"recv " + r.typ(rt)},
		Results: []string{r.typ(v.Type())}}
	if r.why != "" {
		return nil, site{}
	}
	g.Imports = r.imports
	g.Call = g.callOf("")
	return g, site{start: sc.off(n.Pos()), end: sc.off(n.End()), recv: sc.textOf(n.X, edits)}
}

func calleeIdent(e ast.Expr) *ast.Ident {
	e = ast.Unparen(e)
	switch f := e.(type) {
	case *ast.IndexExpr:
		e = f.X
	case *ast.IndexListExpr:
		e = f.X
	}
	switch f := e.(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// explicitTypeArgs reports whether a callee is instantiated explicitly
// (F[int]).
func explicitTypeArgs(fun ast.Expr) bool {
	switch ast.Unparen(fun).(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// constText is a constant argument's value as a Go literal, "" for
// another.
func constText(tv types.TypeAndValue) string {
	if tv.Value == nil {
		return ""
	}
	switch tv.Value.Kind() {
	case constant.String, constant.Int, constant.Float, constant.Bool:
		return tv.Value.ExactString()
	}
	return ""
}

func uniqueName(name string, used map[string]bool) string {
	n := name
	for i := 2; used[n]; i++ {
		n = fmt.Sprintf("%s%d", name, i)
	}
	used[n] = true
	return n
}

// renderer writes types as solve's file names them, gathering the
// imports; why says why a type cannot be named there (a type declared in
// a function, an unexported or internal one, a type parameter).
type renderer struct {
	sc      *scope
	imports map[string][2]string // path to local name, package name
	why     string
}

func newRenderer(sc *scope) *renderer {
	return &renderer{sc: sc, imports: map[string][2]string{}}
}

// qualify is the name of a package in solve's file: the test package
// itself (an external test's) is unqualified.
func (r *renderer) qualify(p *types.Package) string {
	if p == r.sc.home && r.sc.home != r.sc.under {
		return ""
	}
	if im, ok := r.imports[p.Path()]; ok {
		return im[0]
	}
	name := localName(p)
	for _, im := range r.imports {
		if im[0] == name {
			name = uniqueName(name, map[string]bool{name: true})
		}
	}
	r.imports[p.Path()] = [2]string{name, p.Name()}
	return name
}

// typ renders t, noting why it cannot be named.
func (r *renderer) typ(t types.Type) string {
	r.check(t, map[types.Type]bool{})
	return types.TypeString(t, r.qualify)
}

func (r *renderer) fail(format string, args ...any) {
	if r.why == "" {
		r.why = fmt.Sprintf(format, args...)
	}
}

// check walks t for what solve's file cannot name.
func (r *renderer) check(t types.Type, seen map[types.Type]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Basic:
		if t.Info()&types.IsUntyped != 0 || t.Kind() == types.Invalid {
			r.fail("untyped or invalid type")
		}
	case *types.Pointer:
		r.check(t.Elem(), seen)
	case *types.Slice:
		r.check(t.Elem(), seen)
	case *types.Array:
		r.check(t.Elem(), seen)
	case *types.Chan:
		r.check(t.Elem(), seen)
	case *types.Map:
		r.check(t.Key(), seen)
		r.check(t.Elem(), seen)
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := range tup.Len() {
				r.check(tup.At(i).Type(), seen)
			}
		}
	case *types.Struct:
		for i := range t.NumFields() {
			if !t.Field(i).Exported() && t.Field(i).Pkg() != r.sc.home {
				r.fail("a struct with an unexported field")
			}
			r.check(t.Field(i).Type(), seen)
		}
	case *types.Interface:
		for i := range t.NumExplicitMethods() {
			r.check(t.ExplicitMethod(i).Type(), seen)
		}
		for i := range t.NumEmbeddeds() {
			r.check(t.EmbeddedType(i), seen)
		}
	case *types.TypeParam:
		r.fail("a type parameter")
	case *types.Alias:
		r.named(t.Obj())
		if args := t.TypeArgs(); args != nil {
			for i := range args.Len() {
				r.check(args.At(i), seen)
			}
		}
	case *types.Named:
		r.named(t.Obj())
		if args := t.TypeArgs(); args != nil {
			for i := range args.Len() {
				r.check(args.At(i), seen)
			}
		}
	case *types.Tuple:
		for i := range t.Len() {
			r.check(t.At(i).Type(), seen)
		}
	}
}

// named checks a named type's name.
func (r *renderer) named(obj *types.TypeName) {
	p := obj.Pkg()
	switch {
	case p == nil: // error, comparable
	case obj.Parent() != p.Scope():
		r.fail("%s is declared in a function", obj.Name())
	case strings.Contains(p.Path()+"/", "/internal/") || p.Path() == "internal" || strings.HasPrefix(p.Path(), "internal/"):
		r.fail("%s is in an internal package", obj.Name())
	case p == r.sc.home && r.sc.home != r.sc.under:
		// A type of the external test package: it moves with the test.
	case p == r.sc.under && r.sc.inTestFile(obj):
		r.fail("%s is a type of its package's in-package tests", obj.Name())
	case !obj.Exported():
		r.fail("%s is unexported", obj.Name())
	}
}
