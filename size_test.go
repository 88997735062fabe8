package adaptbench_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Limits a maintainer can hold in their head: a function (tests and
// examples included) of at most maxLines lines and cyclomatic complexity
// maxComplexity, a file of at most maxFileLines lines, a package doc of at
// most maxDocLines lines (maxLeafDocLines for a leaf package, one no other
// package of the module imports, the examples aside: it says what it is
// for and how to use it, and the why of each step sits beside the code).
// Across the module: at most maxManyParams functions (tests aside) with
// manyParams or more parameters, the receiver not counted (state a step
// struct or an options value should hold), and at most maxInternal
// internal packages (a package under an internal/ directory, but for the
// test helpers, whose names end in "test").
const (
	maxLines        = 120
	maxComplexity   = 30
	maxFileLines    = 1000
	maxDocLines     = 150
	maxLeafDocLines = 80
	manyParams      = 6
	maxManyParams   = 12
	maxInternal     = 10
)

// TestSizes holds every Go file of the module, and the module as a whole,
// to the limits above, so that nothing grows past them unnoticed.
func TestSizes(t *testing.T) {
	fset := token.NewFileSet()
	var problems []string
	pkgs := map[string]*pkgFacts{} // by directory
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		problems = append(problems, fileProblems(fset, path, f)...)
		dir := filepath.ToSlash(filepath.Dir(path))
		if pkgs[dir] == nil {
			pkgs[dir] = &pkgFacts{imports: map[string]bool{}}
		}
		pkgs[dir].add(fset, path, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	problems = append(problems, moduleProblems(pkgs)...)
	for _, p := range problems {
		t.Error(p)
	}
}

// pkgFacts is what TestSizes learns of one package directory: its name,
// the module's packages its code (tests aside) imports, as directories,
// its doc.go's lines and its functions of manyParams or more parameters.
type pkgFacts struct {
	name     string
	imports  map[string]bool
	docLines int
	many     []string // "file:line: name has N parameters"
}

func (p *pkgFacts) add(fset *token.FileSet, path string, f *ast.File) {
	if strings.HasSuffix(path, "_test.go") {
		return
	}
	p.name = f.Name.Name
	for _, imp := range f.Imports {
		if rel, ok := strings.CutPrefix(strings.Trim(imp.Path.Value, `"`), modulePath+"/"); ok {
			p.imports[rel] = true
		}
	}
	if filepath.Base(path) == "doc.go" {
		if b, err := os.ReadFile(path); err == nil {
			p.docLines = strings.Count(string(b), "\n")
		}
	}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok {
			if n := paramCount(fn.Type); n >= manyParams {
				p.many = append(p.many, fmt.Sprintf("%s: %s has %d parameters", fset.Position(fn.Pos()), fn.Name.Name, n))
			}
		}
	}
}

// paramCount counts a function's declared parameters, unnamed ones
// included, its receiver not.
func paramCount(ft *ast.FuncType) int {
	n := 0
	for _, f := range ft.Params.List {
		n += max(len(f.Names), 1)
	}
	return n
}

const modulePath = "github.com/adaptbench/adaptbench"

// moduleProblems lists what is over the module-wide limits: too many
// functions of many parameters (each named), a leaf package's doc over
// maxLeafDocLines, too many internal packages (each named).
func moduleProblems(pkgs map[string]*pkgFacts) []string {
	var out, many, internal []string
	imported := map[string]bool{}
	for dir, p := range pkgs {
		many = append(many, p.many...)
		if isInternal(dir) && !strings.HasSuffix(p.name, "test") {
			internal = append(internal, dir)
		}
		if p.name != "main" {
			for imp := range p.imports {
				imported[imp] = true
			}
		}
	}
	slices.Sort(many)
	slices.Sort(internal)
	if len(many) > maxManyParams {
		out = append(out, fmt.Sprintf("%d functions have %d or more parameters, over %d: make them methods of a step struct or give them one options value:\n\t%s", len(many), manyParams, maxManyParams, strings.Join(many, "\n\t")))
	}
	for _, dir := range slices.Sorted(maps.Keys(pkgs)) {
		p := pkgs[dir]
		// The root holds no code: its doc is the module's map.
		if p.name != "main" && dir != "." && !imported[dir] && p.docLines > maxLeafDocLines {
			out = append(out, fmt.Sprintf("%s/doc.go: %d lines, over %d for a leaf package (no other package imports it): say what it is for and how to use it; move the why of each step into a comment beside the code", dir, p.docLines, maxLeafDocLines))
		}
	}
	if len(internal) > maxInternal {
		out = append(out, fmt.Sprintf("%d internal packages, over %d: merge them by who uses them:\n\t%s", len(internal), maxInternal, strings.Join(internal, "\n\t")))
	}
	return out
}

// isInternal reports whether the package in dir is internal: under a
// directory named internal.
func isInternal(dir string) bool {
	return strings.Contains("/"+dir+"/", "/internal/")
}

// fileProblems lists f's functions over the limits, and its package doc
// when f is a doc.go over maxDocLines.
func fileProblems(fset *token.FileSet, path string, f *ast.File) []string {
	var out []string
	if filepath.Base(path) == "doc.go" {
		b, err := os.ReadFile(path)
		if err == nil && strings.Count(string(b), "\n") > maxDocLines {
			out = append(out, fmt.Sprintf("%s: %d lines, over %d: a package doc says what, how and the contracts; figures go to BENCHMARKS.md", path, strings.Count(string(b), "\n"), maxDocLines))
		}
	}
	if n := fset.File(f.Pos()).LineCount(); n > maxFileLines {
		out = append(out, fmt.Sprintf("%s: %d lines, over %d: split it by what its parts do", path, n, maxFileLines))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		var body *ast.BlockStmt
		name := "a function literal"
		switch fn := n.(type) {
		case *ast.FuncDecl:
			body, name = fn.Body, fn.Name.Name
			if c := complexity(fn); body != nil && c > maxComplexity {
				out = append(out, fmt.Sprintf("%s: %s has cyclomatic complexity %d, over %d: name its steps", fset.Position(fn.Pos()), name, c, maxComplexity))
			}
		case *ast.FuncLit:
			body = fn.Body
		}
		if body != nil {
			if l := fset.Position(body.End()).Line - fset.Position(n.Pos()).Line + 1; l > maxLines {
				out = append(out, fmt.Sprintf("%s: %s is %d lines, over %d: name its steps", fset.Position(n.Pos()), name, l, maxLines))
			}
		}
		return true
	})
	return out
}

// complexity is fn's cyclomatic complexity as gocyclo counts it: one, and
// one more for each if, for, range, non-default case and && or ||,
// function literals inside included.
func complexity(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}
