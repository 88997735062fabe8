package mine

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// testFunc is a test or example function of a package at one release,
// moved into a module of its own (the problem's workspace) when it can
// be: a file of package mined_test holding the function alone.
type testFunc struct {
	Name    string // TestX or ExampleX
	File    string // the file it is in, relative to the module root
	Example bool
	// Output is an example's expected output; Unordered its
	// "Unordered output:" form.
	Output    string
	Unordered bool
	Doc       string // its doc comment, as written
	// Uses are the module's exported names it uses: package path "."
	// name ("T.M" for methods and fields).
	Uses []string
	// Src is the function alone in a file of package mined_test (imports
	// and qualified names), gofmt'ed; Stub the same with the body
	// replaced by a panic. Both "" when the function cannot be moved:
	// Why says why.
	Src, Stub, Why string
	Body           string // the function as written, to compare releases
}

var testName = regexp.MustCompile(`^(Test|Example)([^a-z].*)?$`)

// exportImporter imports packages from the export data "go list -export"
// wrote.
func exportImporter(fset *token.FileSet, exports map[string]string) types.Importer {
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f := exports[path]
		if f == "" {
			return nil, fmt.Errorf("no export data for %q", path)
		}
		return os.Open(f)
	})
}

// pkgImporter imports one package from a value, the rest from imp.
type pkgImporter struct {
	pkg *types.Package
	imp types.Importer
}

func (p pkgImporter) Import(path string) (*types.Package, error) {
	if p.pkg != nil && path == p.pkg.Path() {
		return p.pkg, nil
	}
	return p.imp.Import(path)
}

// testFuncs type-checks a package with its tests (the in-package test
// files, then the external ones) and returns its test and example
// functions, each moved out where it can be.
func testFuncs(mod string, p *goPackage, imp types.Importer, fset *token.FileSet) []*testFunc {
	parse := func(names []string) ([]*ast.File, map[*ast.File][]byte) {
		var files []*ast.File
		srcs := map[*ast.File][]byte{}
		for _, n := range names {
			src, err := os.ReadFile(filepath.Join(p.Dir, n))
			if err != nil {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, n), src, parser.ParseComments)
			if err != nil {
				continue
			}
			files = append(files, f)
			srcs[f] = src
		}
		return files, srcs
	}
	root := strings.TrimPrefix(strings.TrimPrefix(p.Dir, moduleDir(p.Dir, mod, p.ImportPath)), "/")
	var out []*testFunc
	conf := types.Config{Importer: imp, Error: func(error) {}}
	inFiles, inSrc := parse(append(slices.Clone(p.GoFiles), p.TestGoFiles...))
	info := newInfo()
	inPkg, _ := conf.Check(p.ImportPath, fset, inFiles, info)
	if inPkg == nil {
		return nil
	}
	testFile := map[string]bool{}
	for _, n := range p.TestGoFiles {
		testFile[filepath.Join(p.Dir, n)] = true
	}
	for _, f := range inFiles {
		if testFile[fset.File(f.Pos()).Name()] {
			out = append(out, funcsOf(mod, f, inSrc[f], fset, info, inPkg, inPkg, testFile, root)...)
		}
	}
	if len(p.XTestGoFiles) > 0 {
		xFiles, xSrc := parse(p.XTestGoFiles)
		xinfo := newInfo()
		xconf := types.Config{Importer: pkgImporter{inPkg, imp}, Error: func(error) {}}
		xPkg, _ := xconf.Check(p.ImportPath+"_test", fset, xFiles, xinfo)
		if xPkg != nil {
			for _, f := range xFiles {
				out = append(out, funcsOf(mod, f, xSrc[f], fset, xinfo, xPkg, inPkg, testFile, root)...)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// moduleDir is the module root of a package directory.
func moduleDir(dir, mod, path string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(path, mod), "/")
	if rel == "" {
		return dir
	}
	return strings.TrimSuffix(dir, "/"+rel)
}

func newInfo() *types.Info {
	return &types.Info{
		Uses:       map[*ast.Ident]types.Object{},
		Defs:       map[*ast.Ident]types.Object{},
		Types:      map[ast.Expr]types.TypeAndValue{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
}

// funcsOf returns the test and example functions of one file. home is
// the package the file belongs to, under the package under test.
func funcsOf(mod string, f *ast.File, src []byte, fset *token.FileSet, info *types.Info, home, under *types.Package, testFile map[string]bool, root string) []*testFunc {
	outputs := map[string]*doc.Example{}
	for _, ex := range doc.Examples(f) {
		outputs["Example"+ex.Name] = ex
	}
	var out []*testFunc
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || !testName.MatchString(fd.Name.Name) {
			continue
		}
		tf := &testFunc{Name: fd.Name.Name, File: filepath.ToSlash(filepath.Join(root, filepath.Base(fset.File(f.Pos()).Name())))}
		off := func(p token.Pos) int { return fset.Position(p).Offset }
		tf.Body = string(src[off(fd.Pos()):off(fd.End())])
		if fd.Doc != nil {
			tf.Doc = string(src[off(fd.Doc.Pos()):off(fd.Doc.End())])
		}
		if strings.HasPrefix(tf.Name, "Example") {
			ex := outputs[tf.Name]
			if ex == nil || ex.Output == "" || fd.Type.Params.NumFields() != 0 {
				continue // not run by go test, or nothing to check
			}
			tf.Example, tf.Output, tf.Unordered = true, ex.Output, ex.Unordered
		} else if !isTestSig(fd, info) {
			continue
		}
		move(mod, tf, fd, src, off, info, home, under, testFile, fset)
		out = append(out, tf)
	}
	return out
}

// isTestSig reports whether fd is func(*testing.T).
func isTestSig(fd *ast.FuncDecl, info *types.Info) bool {
	obj, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	sig := obj.Type().(*types.Signature)
	if sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return false
	}
	ptr, ok := sig.Params().At(0).Type().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := ptr.Elem().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" && n.Obj().Name() == "T"
}

// edit replaces src[start:end].
type edit struct {
	start, end int
	text       string
}

// move records the module names fd uses and, when fd refers to nothing
// of its own package but exported declarations of the package under
// test (which it then names qualified), writes it as a file of its own.
func move(mod string, tf *testFunc, fd *ast.FuncDecl, src []byte, off func(token.Pos) int, info *types.Info, home, under *types.Package, testFile map[string]bool, fset *token.FileSet) {
	imports := map[string][2]string{} // path -> local name, package name
	uses := map[string]bool{}
	var edits []edit
	inModule := func(path string) bool { return path == mod || strings.HasPrefix(path, mod+"/") }
	why := ""
	fail := func(format string, args ...any) {
		if why == "" {
			why = fmt.Sprintf(format, args...)
		}
	}
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			sel := info.Selections[n]
			if sel == nil || sel.Obj().Pkg() == nil || !inModule(sel.Obj().Pkg().Path()) {
				return true
			}
			// The type that declares the method, or the field's.
			recv := sel.Recv()
			if f, ok := sel.Obj().(*types.Func); ok && f.Type().(*types.Signature).Recv() != nil {
				recv = f.Type().(*types.Signature).Recv().Type()
			}
			tn, local := namedOf(recv)
			switch {
			case local:
				// A type of the function's own (a test table's row).
			case !sel.Obj().Exported():
				fail("uses unexported %s", n.Sel.Name)
			case tn != "":
				uses[sel.Obj().Pkg().Path()+"."+tn+"."+sel.Obj().Name()] = true
			}
		case *ast.CompositeLit:
			tn, local := namedOf(info.Types[n].Type)
			if tn == "" || local {
				return true
			}
			pkg := info.Types[n].Type
			if p, ok := pkg.(*types.Pointer); ok {
				pkg = p.Elem()
			}
			path := types.Unalias(pkg).(*types.Named).Obj().Pkg().Path()
			if !inModule(path) {
				return true
			}
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						if !ast.IsExported(id.Name) {
							fail("uses unexported field %s", id.Name)
						} else {
							uses[path+"."+tn+"."+id.Name] = true
						}
					}
				}
			}
		case *ast.Ident:
			obj := info.Uses[n]
			if obj == nil || obj.Pkg() == nil {
				return true
			}
			if pn, ok := obj.(*types.PkgName); ok {
				if strings.Contains(pn.Imported().Path(), "/internal/") || strings.HasSuffix(pn.Imported().Path(), "/internal") {
					fail("imports %s", pn.Imported().Path())
				}
				imports[pn.Imported().Path()] = [2]string{n.Name, pn.Imported().Name()}
				return true
			}
			if obj.Parent() != obj.Pkg().Scope() {
				// A local name, or a field or method (see the cases above).
				return true
			}
			if inModule(obj.Pkg().Path()) && obj.Pkg() != home || obj.Pkg() == under {
				uses[obj.Pkg().Path()+"."+obj.Name()] = true
			}
			if obj.Pkg() != home {
				if !isQualified(n, fd) {
					fail("uses %s through a dot import", n.Name)
				}
				return true
			}
			// A package-level name of the file's own package: the package
			// under test's exported API (qualified once moved), or a helper
			// the function would need too.
			if home != under || !obj.Exported() || testFile[fset.File(obj.Pos()).Name()] {
				fail("uses %s of its own package", n.Name)
				return true
			}
			imports[under.Path()] = [2]string{under.Name(), under.Name()}
			edits = append(edits, edit{off(n.Pos()), off(n.Pos()), under.Name() + "."})
		}
		return true
	})
	tf.Uses = sortedKeys(uses)
	if why != "" {
		tf.Why = why
		return
	}
	body := applyEdits(src[off(fd.Pos()):off(fd.End())], edits, off(fd.Pos()))
	var err error
	if tf.Src, err = movedFile(imports, tf.Doc, body); err != nil {
		tf.Src, tf.Why = "", "does not format once moved: "+err.Error()
		return
	}
	stub := string(src[off(fd.Pos()):off(fd.Body.Lbrace)]) + "{\n\tpanic(\"not implemented\")\n}"
	stubImports := map[string][2]string{}
	if !tf.Example {
		stubImports["testing"] = imports["testing"]
	}
	if tf.Stub, err = movedFile(stubImports, tf.Doc, stub); err != nil {
		tf.Src, tf.Stub, tf.Why = "", "", "its stub does not format: "+err.Error()
	}
}

// isQualified reports whether id is the Sel of a selector in fd.
func isQualified(id *ast.Ident, fd *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fd, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok && s.Sel == id {
			found = true
		}
		return !found
	})
	return found
}

// namedOf is the name of a (pointer to a) named type, and whether the
// type is declared inside a function.
func namedOf(t types.Type) (name string, local bool) {
	if t == nil {
		return "", false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return "", !ok
	}
	return n.Obj().Name(), n.Obj().Parent() != n.Obj().Pkg().Scope()
}

func applyEdits(b []byte, edits []edit, base int) string {
	slices.SortFunc(edits, func(x, y edit) int { return x.start - y.start })
	var s strings.Builder
	last := 0
	for _, e := range edits {
		s.Write(b[last : e.start-base])
		s.WriteString(e.text)
		last = e.end - base
	}
	s.Write(b[last:])
	return s.String()
}

// movedFile writes a function as the one declaration of a file of package
// mined_test, with its imports.
func movedFile(imports map[string][2]string, docText, fn string) (string, error) {
	var b strings.Builder
	b.WriteString("package mined_test\n\n")
	paths := sortedKeys(imports)
	if len(paths) > 0 {
		b.WriteString("import (\n")
		for _, p := range paths {
			if name := imports[p][0]; name != imports[p][1] {
				b.WriteString("\t" + name + " " + strconv.Quote(p) + "\n")
			} else {
				b.WriteString("\t" + strconv.Quote(p) + "\n")
			}
		}
		b.WriteString(")\n\n")
	}
	if docText != "" {
		b.WriteString(docText + "\n")
	}
	b.WriteString(fn + "\n")
	out, err := format.Source([]byte(b.String()))
	return string(out), err
}
