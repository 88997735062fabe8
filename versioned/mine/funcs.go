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
	"maps"
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
// be.
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
	// Src is the function in a file of its own (imports, the test-file
	// declarations it needs, qualified names), gofmt'ed; "" when the
	// function cannot be moved: Why says why.
	Src, Why string
	// Given is the test-file declarations it needs, as moved; Imports
	// theirs and the function's (path to local name, package name).
	Given   string
	Imports map[string][2]string
	// Groups are its calls of the module's API (and reads of its fields),
	// by API and solve signature, in order.
	Groups []*siteGroup
	// Body is the function as written, to compare releases.
	Body string
	// Package is the name of the function's package (p or p_test), which
	// its file keeps: an example's output may name its types.
	Package string
	// GoVersion is the Go version its file's build constraint asks for
	// ("go1.23" under //go:build go1.23), which is the file's language
	// version: the workspace's go line is at least this.
	GoVersion string
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
	srcs := map[string][]byte{}
	parse := func(names []string) []*ast.File {
		var files []*ast.File
		for _, n := range names {
			name := filepath.Join(p.Dir, n)
			src, err := os.ReadFile(name)
			if err != nil {
				continue
			}
			f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
			if err != nil {
				continue
			}
			files = append(files, f)
			srcs[name] = src
		}
		return files
	}
	root := strings.TrimPrefix(strings.TrimPrefix(p.Dir, moduleDir(p.Dir, mod, p.ImportPath)), "/")
	var out []*testFunc
	var typeErrs, xtypeErrs []types.Error
	conf := types.Config{Importer: imp, Error: func(err error) {
		if te, ok := err.(types.Error); ok {
			typeErrs = append(typeErrs, te)
		}
	}}
	inFiles := parse(append(slices.Clone(p.GoFiles), p.TestGoFiles...))
	info := newInfo()
	inPkg, _ := conf.Check(p.ImportPath, fset, inFiles, info)
	if inPkg == nil {
		return nil
	}
	testFile := map[string]bool{}
	for _, n := range p.TestGoFiles {
		testFile[filepath.Join(p.Dir, n)] = true
	}
	var inTests []*ast.File
	for _, f := range inFiles {
		if testFile[fset.File(f.Pos()).Name()] {
			inTests = append(inTests, f)
		}
	}
	sc := &scope{mod: mod, fset: fset, info: info, home: inPkg, under: inPkg, testFile: testFile, srcs: srcs, root: root}
	sc.index(inTests)
	sc.errs = typeErrs
	for _, f := range inTests {
		out = append(out, sc.funcsOf(f)...)
	}
	if len(p.XTestGoFiles) > 0 {
		xFiles := parse(p.XTestGoFiles)
		for _, n := range p.XTestGoFiles {
			testFile[filepath.Join(p.Dir, n)] = true
		}
		xinfo := newInfo()
		xconf := types.Config{Importer: pkgImporter{inPkg, imp}, Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				xtypeErrs = append(xtypeErrs, te)
			}
		}}
		xPkg, _ := xconf.Check(p.ImportPath+"_test", fset, xFiles, xinfo)
		if xPkg != nil {
			xs := &scope{mod: mod, fset: fset, info: xinfo, home: xPkg, under: inPkg, testFile: testFile, srcs: srcs, root: root}
			xs.index(xFiles)
			xs.errs = xtypeErrs
			for _, f := range xFiles {
				out = append(out, xs.funcsOf(f)...)
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
		Instances:  map[*ast.Ident]types.Instance{},
	}
}

// scope is what moving the functions of one type-checked test package
// needs: home is that package (the package under test itself, or its
// external test package), under the package under test.
type scope struct {
	mod         string
	fset        *token.FileSet
	info        *types.Info
	home, under *types.Package
	testFile    map[string]bool
	srcs        map[string][]byte
	root        string
	// declOf is the declaration of each package-level name of home's
	// test files; methods the methods declared there, by receiver type.
	declOf  map[types.Object]ast.Decl
	methods map[string][]ast.Decl
	// errs are the type errors of the package (the module's own tests may
	// not compile at a release).
	errs []types.Error
}

// index fills in declOf and methods from home's test files.
func (sc *scope) index(files []*ast.File) {
	info := sc.info
	sc.declOf, sc.methods = map[types.Object]ast.Decl{}, map[string][]ast.Decl{}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && len(d.Recv.List) == 1 {
					sc.methods[recvTypeName(d.Recv.List[0].Type)] = append(sc.methods[recvTypeName(d.Recv.List[0].Type)], d)
				} else if obj := info.Defs[d.Name]; obj != nil {
					sc.declOf[obj] = d
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						if obj := info.Defs[spec.Name]; obj != nil {
							sc.declOf[obj] = d
						}
					case *ast.ValueSpec:
						for _, id := range spec.Names {
							if obj := info.Defs[id]; obj != nil {
								sc.declOf[obj] = d
							}
						}
					}
				}
			}
		}
	}
}

func (sc *scope) off(p token.Pos) int { return sc.fset.Position(p).Offset }

// text is a declaration's source, doc comment included, with edits.
func (sc *scope) text(d ast.Decl, edits []edit) string {
	start := d.Pos()
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Doc != nil {
			start = d.Doc.Pos()
		}
	case *ast.GenDecl:
		if d.Doc != nil {
			start = d.Doc.Pos()
		}
	}
	src := sc.srcs[sc.fset.File(d.Pos()).Name()]
	return applyEdits(src[sc.off(start):sc.off(d.End())], edits, sc.off(start))
}

// funcsOf returns the test and example functions of one file.
func (sc *scope) funcsOf(f *ast.File) []*testFunc {
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
		name := sc.fset.File(f.Pos()).Name()
		tf := &testFunc{Name: fd.Name.Name, File: filepath.ToSlash(filepath.Join(sc.root, filepath.Base(name))), Package: f.Name.Name, GoVersion: f.GoVersion}
		src := sc.srcs[name]
		tf.Body = string(src[sc.off(fd.Pos()):sc.off(fd.End())])
		if fd.Doc != nil {
			tf.Doc = string(src[sc.off(fd.Doc.Pos()):sc.off(fd.Doc.End())])
		}
		if strings.HasPrefix(tf.Name, "Example") {
			ex := outputs[tf.Name]
			if ex == nil || ex.Output == "" || fd.Type.Params.NumFields() != 0 {
				continue // not run by go test, or nothing to check
			}
			tf.Example, tf.Output, tf.Unordered = true, ex.Output, ex.Unordered
		} else if !isTestSig(fd, sc.info) {
			continue
		}
		sc.move(tf, fd)
		if err := sc.typeError(fd); err != "" {
			// The module's own test does not compile at this release.
			tf.Src, tf.Why, tf.Groups = "", "does not compile at its release: "+err, nil
		}
		out = append(out, tf)
	}
	return out
}

// typeError is the first type error inside fd, if any.
func (sc *scope) typeError(fd *ast.FuncDecl) string {
	for _, e := range sc.errs {
		if e.Fset == sc.fset && e.Pos >= fd.Pos() && e.Pos < fd.End() {
			return e.Msg
		}
	}
	return ""
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

// moved is what moving declarations gathers: the imports they need,
// the module names they use, the edits that qualify the names of the
// package under test, the test files' declarations they need, and why
// they cannot move.
type moved struct {
	imports map[string][2]string // path -> local name, package name
	uses    map[string]bool
	edits   map[ast.Decl][]edit
	needs   []ast.Decl
	why     string
}

// fail records why the declaration cannot move, unless a reason is
// already recorded: the first one met is the one reported.
func (m *moved) fail(format string, args ...any) {
	if m.why == "" {
		m.why = fmt.Sprintf(format, args...)
	}
}

// need records that the declaration being moved, decl, needs d too.
func (m *moved) need(decl, d ast.Decl) {
	if d != decl && !slices.Contains(m.needs, d) {
		m.needs = append(m.needs, d)
	}
}

// inModule reports whether the package path is of the module mined.
func (sc *scope) inModule(path string) bool {
	return path == sc.mod || strings.HasPrefix(path, sc.mod+"/")
}

// move records the module names fd uses and, when fd (with the
// declarations of its package's test files it needs: helpers, types and
// their methods) refers to nothing else of its own package but exported
// declarations of the package under test (which it then names
// qualified), writes it as a file of its own.
func (sc *scope) move(tf *testFunc, fd *ast.FuncDecl) {
	m := &moved{imports: map[string][2]string{}, uses: map[string]bool{}, edits: map[ast.Decl][]edit{}}
	sc.inspect(m, fd)
	tf.Uses = sortedKeys(m.uses)
	// Its calls, kept when it cannot move too (the funnel counts them).
	tf.Groups = sc.sites(fd, m.edits[fd])
	// The helpers, and theirs.
	helpers := &moved{imports: map[string][2]string{}, uses: map[string]bool{}, edits: m.edits}
	seen := map[ast.Decl]bool{fd: true}
	for len(m.needs) > 0 && m.why == "" {
		d := m.needs[0]
		m.needs = m.needs[1:]
		if seen[d] {
			continue
		}
		seen[d] = true
		helpers.needs = nil
		sc.inspect(helpers, d)
		m.needs = append(m.needs, helpers.needs...)
		if helpers.why != "" {
			m.why = helpers.why
		}
	}
	if m.why != "" {
		tf.Why = m.why
		return
	}
	var decls []ast.Decl
	for d := range seen {
		if d != ast.Decl(fd) {
			decls = append(decls, d)
		}
	}
	slices.SortFunc(decls, func(a, b ast.Decl) int {
		pa, pb := sc.fset.Position(a.Pos()), sc.fset.Position(b.Pos())
		if c := strings.Compare(pa.Filename, pb.Filename); c != 0 {
			return c
		}
		return pa.Offset - pb.Offset
	})
	var given strings.Builder
	for _, d := range decls {
		given.WriteString(sc.text(d, m.edits[d]) + "\n\n")
	}
	all := maps.Clone(helpers.imports)
	maps.Copy(all, m.imports)
	var err error
	if tf.Src, err = movedFile(tf.Package, all, given.String()+sc.text(fd, m.edits[fd])); err != nil {
		tf.Src, tf.Why = "", "does not format once moved: "+err.Error()
		return
	}
	tf.Given, tf.Imports = given.String(), all
}

// inspect walks one declaration.
func (sc *scope) inspect(m *moved, decl ast.Decl) {
	inModule, fail := sc.inModule, m.fail
	ast.Inspect(decl, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			sel := sc.info.Selections[n]
			if sel == nil || sel.Obj().Pkg() == nil || !inModule(sel.Obj().Pkg().Path()) || sel.Obj().Pkg() == sc.home && sc.home != sc.under {
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
			case sc.testFile[sc.fset.File(sel.Obj().Pos()).Name()]:
				// A test type's field or method: it comes with its type.
			case !sel.Obj().Exported():
				fail("uses unexported %s", n.Sel.Name)
			case tn != "":
				m.uses[sel.Obj().Pkg().Path()+"."+tn+"."+sel.Obj().Name()] = true
			}
		case *ast.CompositeLit:
			t := sc.info.Types[n].Type
			tn, local := namedOf(t)
			if tn == "" || local {
				return true
			}
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			obj := types.Unalias(t).(*types.Named).Obj()
			if !inModule(obj.Pkg().Path()) || sc.testFile[sc.fset.File(obj.Pos()).Name()] {
				return true
			}
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						if !ast.IsExported(id.Name) {
							fail("uses unexported field %s", id.Name)
						} else {
							m.uses[obj.Pkg().Path()+"."+tn+"."+id.Name] = true
						}
					}
				}
			}
		case *ast.Ident:
			sc.ident(m, n, decl)
		}
		return true
	})
}

// ident handles one identifier of a declaration being moved.
func (sc *scope) ident(m *moved, n *ast.Ident, decl ast.Decl) {
	inModule, fail := sc.inModule, m.fail
	need := func(d ast.Decl) { m.need(decl, d) }
	obj := sc.info.Uses[n]
	if obj == nil || obj.Pkg() == nil {
		return
	}
	if pn, ok := obj.(*types.PkgName); ok {
		if path := pn.Imported().Path(); strings.Contains(path+"/", "/internal/") {
			fail("imports %s", path)
		}
		m.imports[pn.Imported().Path()] = [2]string{n.Name, pn.Imported().Name()}
		return
	}
	if obj.Parent() != obj.Pkg().Scope() {
		return // a local name, or a field or method (see inspect)
	}
	if inModule(obj.Pkg().Path()) && obj.Pkg() != sc.home || obj.Pkg() == sc.under {
		m.uses[obj.Pkg().Path()+"."+obj.Name()] = true
	}
	if obj.Pkg() != sc.home {
		if obj.Pkg() == sc.under && sc.testFile[sc.fset.File(obj.Pos()).Name()] {
			fail("uses %s of its package's in-package tests", n.Name)
		}
		if !isQualified(n, decl) {
			fail("uses %s through a dot import", n.Name)
		}
		return
	}
	if d := sc.declOf[obj]; d != nil {
		// A declaration of the test files: it moves too, with a type's
		// methods.
		need(d)
		if _, ok := obj.(*types.TypeName); ok {
			for _, md := range sc.methods[obj.Name()] {
				need(md)
			}
		}
		return
	}
	// A name of the package under test (an in-package test): its exported
	// API, named qualified once moved.
	if sc.home != sc.under || !obj.Exported() {
		fail("uses %s of its own package", n.Name)
		return
	}
	name := localName(sc.under)
	m.imports[sc.under.Path()] = [2]string{name, sc.under.Name()}
	m.edits[decl] = append(m.edits[decl], edit{sc.off(n.Pos()), sc.off(n.Pos()), name + "."})
}

// isQualified reports whether id is the Sel of a selector in fd.
func isQualified(id *ast.Ident, fd ast.Node) bool {
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

// movedFile writes declarations (a function last) as a file of package
// pkg, with their imports. (A package may import one of its own name.)
func movedFile(pkg string, imports map[string][2]string, decls string) (string, error) {
	var b strings.Builder
	b.WriteString("package " + pkg + "\n\n")
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
	b.WriteString(decls + "\n")
	out, err := format.Source([]byte(b.String()))
	return string(out), err
}
