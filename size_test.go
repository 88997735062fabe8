package adaptbench_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Limits a maintainer can hold in their head: a function (tests and
// examples included) of at most maxLines lines and cyclomatic complexity
// maxComplexity, a package doc of at most maxDocLines lines.
const (
	maxLines      = 120
	maxComplexity = 30
	maxDocLines   = 150
)

// TestSizes holds every Go file of the module to the limits above, so a
// function or a package doc does not grow past them unnoticed.
func TestSizes(t *testing.T) {
	fset := token.NewFileSet()
	var problems []string
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
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
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
