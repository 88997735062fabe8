package versioned

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// apiHitMode says what APIHit does with code that does not parse.
type apiHitMode uint8

// API hit modes. The zero value is invalid.
const (
	// apiHitSkip leaves unparseable code unscored, as upstream's
	// api_hitrate.py does (which inflates the rate).
	apiHitSkip apiHitMode = iota + 1
	// apiHitStrict counts unparseable code as a miss.
	apiHitStrict
)

// apiHitPythonImports, added to a mode (apiHitSkip|apiHitPythonImports),
// resolves "import a.b" as Python binds it: the name a is the package a.
// Without it, as in upstream's labels, "import a.b" makes a stand for a.b
// (the last such import winning), an oddity the labels of four problems
// depend on: after "import tornado.wsgi" then "import tornado.httpclient",
// the call tornado.wsgi.WSGIContainer(...) is labelled
// "tornado.httpclient.wsgi.WSGIContainer" (#259; #260 and #265 alike), and
// #271's plotly.graph_objects.Figure(...), after "import
// plotly.graph_objects" in its function, is
// "plotly.graph_objects.graph_objects.Figure", which its label is not. The
// ground truth hits 277 of 328 labels the upstream way, 275 with this.
const apiHitPythonImports apiHitMode = 1 << 4

// APIHit reports whether code calls every API in apis (the paper's API
// hit rate: "% of generated solutions that call all APIs in the
// ground-truth solution"), and whether the code was scored at all. An
// empty apis is a hit, as upstream counts it.
//
// Calls are collected as dotted names with import aliases resolved, as
// upstream's algorithm does for Python: after "import numpy as np",
// np.sum(...) is "numpy.sum"; after "from scipy.stats import norm",
// norm.logcdf(...) is "scipy.stats.norm.logcdf"; other names stay as
// written ("input_tensor.numpy"), and a method called on a computed
// value is its bare name (df.groupby(...).sum() calls "df.groupby" and
// "sum"), the form the dataset's labels use. For Go, a package's calls are qualified
// by its import path ("golang.org/x/exp/slices.SortFunc"), and a method
// call on a variable declared in the file with a package's type
// ("var g errgroup.group", "g := new(errgroup.group)", "g := &errgroup.group{}")
// by the type ("golang.org/x/sync/errgroup.group.Go").
func apiHit(lang, code string, apis []string, mode apiHitMode) (hit, scored bool) {
	var calls map[string]bool
	var ok bool
	switch lang {
	case adapt.Go:
		calls, ok = goCalls(code)
	default:
		calls, ok = pythonCalls(code, mode&apiHitPythonImports != 0)
	}
	if !ok {
		return false, mode&^apiHitPythonImports == apiHitStrict
	}
	for _, a := range apis {
		if !calls[a] {
			return false, true
		}
	}
	return true, true
}

// answerAPIHit scores an answer's API hit: a Go answer in a module
// workspace by identity (goAPIHit) against the module cache modcache
// ("" means the go command's), any other by apiHit.
func answerAPIHit(t *adapt.Task, code, modcache string) (hit, scored bool) {
	apis := apiCalls(t)
	if t.Language == adapt.Go && len(apis) > 0 {
		if hit, scored, ok := goAPIHit(t, code, modcache, apis); ok {
			return hit, scored
		}
	}
	return apiHit(t.Language, code, apis, apiHitSkip)
}

// pythonCalls returns the dotted names of the calls in Python code, or
// false when it does not parse.
func pythonCalls(code string, pythonImports bool) (map[string]bool, bool) {
	src := []byte(code)
	root, err := syntax.ParseNodes(syntax.Python, src)
	if err != nil || root.Err {
		return nil, false
	}
	// An alias or a name imported from an absolute module stands for the
	// dotted name it imports; relative imports name nothing absolute.
	alias := map[string]string{}
	for _, im := range syntax.PyImports(root, src) {
		switch {
		case im.Future || im.Wildcard:
		case im.Stmt.Type == "import_statement":
			if im.Alias != "" && im.Module != "" {
				alias[im.Alias] = im.Module
			} else if head, _, _ := strings.Cut(im.Module, "."); im.Module != "" && !pythonImports {
				alias[head] = im.Module // upstream's labels: "import a" resets a
			}
		case im.Level == 0 && im.Module != "" && im.Name != "":
			alias[im.Bind] = im.Module + "." + im.Name
		}
	}
	calls := map[string]bool{}
	root.Walk(func(n *syntax.Node) bool {
		if n.Type == "call" {
			fn := n.Child("function")
			if fn != nil && fn.Type == "attribute" {
				if _, ok := pyDotted(fn.Child("object"), src); !ok {
					// A method of a computed value, (a < b).bool(): its name.
					if attr := fn.Child("attribute"); attr != nil {
						calls[attr.Text(src)] = true
					}
					return true
				}
			}
			if name, ok := pyDotted(fn, src); ok {
				head, rest, dotted := strings.Cut(name, ".")
				if full, ok := alias[head]; ok {
					name = full
					if dotted {
						name += "." + rest
					}
				}
				calls[name] = true
			}
		}
		return true
	})
	return calls, true
}

// pyDotted renders an identifier or a chain of attributes on one as a
// dotted name.
func pyDotted(n *syntax.Node, src []byte) (string, bool) {
	if n == nil {
		return "", false
	}
	switch n.Type {
	case "identifier":
		return n.Text(src), true
	case "attribute":
		obj, ok := pyDotted(n.Child("object"), src)
		attr := n.Child("attribute")
		if !ok || attr == nil {
			return "", false
		}
		return obj + "." + attr.Text(src), true
	}
	return "", false
}

// majorSuffix is a major-version element of an import path ("v2") or of
// a gopkg.in name ("yaml.v3").
var majorSuffix = regexp.MustCompile(`^v[0-9]+$|\.v[0-9]+$`)

// goCalls returns the qualified names of the calls in a Go file, or
// false when it does not parse.
func goCalls(code string) (map[string]bool, bool) {
	f, err := parser.ParseFile(token.NewFileSet(), "solution.go", code, parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	g := goFile{pkgs: goImports(f)}
	g.vars = g.varTypes(f)
	return g.calls(f), true
}

// goFile is what goCalls knows of a file: the import path of each package
// name, and the qualified type of each variable made of a package's type.
type goFile struct {
	pkgs, vars map[string]string
}

// goImports maps the names the file's imports are known by to their
// paths: the declared name, or the path's last element without a major
// version ("v2", "yaml.v3").
func goImports(f *ast.File) map[string]string {
	pkgs := map[string]string{}
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(p)
		if majorSuffix.MatchString(name) && path.Dir(p) != "." {
			if m := majorSuffix.FindString(name); m == name {
				name = path.Base(path.Dir(p))
			} else {
				name = strings.TrimSuffix(name, m)
			}
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		pkgs[name] = p
	}
	return pkgs
}

// qualified renders pkg.Name as importpath.Name.
func (g *goFile) qualified(e ast.Expr) string {
	if st, ok := e.(*ast.StarExpr); ok {
		e = st.X
	}
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok && g.pkgs[id.Name] != "" {
			return g.pkgs[id.Name] + "." + sel.Sel.Name
		}
	}
	return ""
}

// typeOf is the qualified type of an expression that makes a value of a
// package's type: T{}, &T{}, new(T).
func (g *goFile) typeOf(e ast.Expr) string {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		return g.qualified(e.Type)
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && id.Name == "new" && len(e.Args) == 1 {
			return g.qualified(e.Args[0])
		}
	}
	return ""
}

// varTypes maps the variables, parameters and fields declared with a
// package's type, or assigned a value made of one, to that type.
func (g *goFile) varTypes(f *ast.File) map[string]string {
	vars := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if q := g.qualified(n.Type); n.Type != nil && q != "" {
					vars[id.Name] = q
				} else if i < len(n.Values) {
					if q := g.typeOf(n.Values[i]); q != "" {
						vars[id.Name] = q
					}
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						if q := g.typeOf(n.Rhs[i]); q != "" {
							vars[id.Name] = q
						}
					}
				}
			}
		case *ast.Field:
			if q := g.qualified(n.Type); q != "" {
				for _, id := range n.Names {
					vars[id.Name] = q
				}
			}
		}
		return true
	})
	return vars
}

// calls names each call of the file: a package's function or a method of
// a variable of a package's type qualified by the import path, others as
// written.
func (g *goFile) calls(f *ast.File) map[string]bool {
	calls := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fun := call.Fun
		switch x := fun.(type) { // generic instantiation: F[T](...)
		case *ast.IndexExpr:
			fun = x.X
		case *ast.IndexListExpr:
			fun = x.X
		}
		switch x := fun.(type) {
		case *ast.Ident:
			calls[x.Name] = true
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				switch {
				case g.pkgs[id.Name] != "":
					calls[g.pkgs[id.Name]+"."+x.Sel.Name] = true
				case g.vars[id.Name] != "":
					calls[g.vars[id.Name]+"."+x.Sel.Name] = true
				default:
					calls[id.Name+"."+x.Sel.Name] = true
				}
			}
		}
		return true
	})
	return calls
}
