package mine

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/versioned/internal/libapi"
)

// stdOrSource imports one package checked from source, the rest from the
// standard library.
type stdOrSource struct{ pkg *types.Package }

func (s stdOrSource) Import(path string) (*types.Package, error) {
	if s.pkg != nil && path == s.pkg.Path() {
		return s.pkg, nil
	}
	return importer.Default().Import(path)
}

// TestStandardNameAliased moves an in-package test of a module package
// named like a standard one (errors), whose test file imports the
// standard errors: the package under test is imported aliased (pkgerrors),
// so the check and the reference compile, and the reference uses its API.
func TestStandardNameAliased(t *testing.T) {
	const mod = "example.test/pkg/errors"
	dir := t.TempDir()
	lib := "package errors\n\n// Wrap annotates err.\nfunc Wrap(err error, msg string) error { return err }\n"
	test := "package errors\n\nimport (\n\t\"errors\"\n\t\"testing\"\n)\n\nfunc TestWrap(t *testing.T) {\n\tbase := errors.New(\"x\")\n\tif err := Wrap(base, \"m\"); !errors.Is(err, base) {\n\t\tt.Fatal(err)\n\t}\n}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "errors.go"), []byte(lib), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "errors_test.go"), []byte(test), 0o644))
	p := &goPackage{ImportPath: mod, Name: "errors", Dir: dir, GoFiles: []string{"errors.go"}, TestGoFiles: []string{"errors_test.go"}}
	fs := testFuncs(mod, p, importer.Default(), token.NewFileSet())
	require.Len(t, fs, 1)
	tf := fs[0]
	require.Empty(t, tf.Why)
	require.Len(t, tf.Groups, 1)
	g := tf.Groups[0]
	assert.Equal(t, mod+".Wrap", g.Key)
	assert.Equal(t, "func solve(err error, msg string) error", g.Signature())

	// Moved out, the test names Wrap through the alias, beside the
	// standard errors.
	assert.Contains(t, tf.Src, `pkgerrors "example.test/pkg/errors"`)
	assert.Contains(t, tf.Src, `pkgerrors.Wrap(base, "m")`)
	_, _, check, err := checkSource(tf, g)
	require.NoError(t, err)
	assert.Contains(t, check, `solve(base, "m")`)
	ref, err := solveFile(tf.Package, g, g.Imports, g.body(g.Call))
	require.NoError(t, err)
	assert.Contains(t, ref, "return pkgerrors.Wrap(err, msg)")

	// Both files compile against the package, and the reference uses Wrap.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "errors.go", lib, 0)
	require.NoError(t, err)
	under, err := (&types.Config{Importer: importer.Default()}).Check(mod, fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	uses, err := libapi.Uses(stdOrSource{under}, map[string]string{solutionFile: ref, checkFile: check}, solutionFile)
	require.NoError(t, err)
	assert.True(t, uses[mod+".Wrap"], "uses %v", uses)
	var errs []error
	conf := types.Config{Importer: stdOrSource{under}, Error: func(err error) { errs = append(errs, err) }}
	var files []*ast.File
	for name, src := range map[string]string{solutionFile: ref, checkFile: check} {
		f, err := parser.ParseFile(fset, name, src, 0)
		require.NoError(t, err)
		files = append(files, f)
	}
	conf.Check("adaptbench.invalid/mined", fset, files, nil)
	assert.Empty(t, errs, "%s\n%s", check, ref)
}

// TestExplicitTypeArguments: a call that spells out its type arguments
// (they cannot be inferred) keeps them in the reference.
func TestExplicitTypeArguments(t *testing.T) {
	const mod = "example.test/gen"
	dir := t.TempDir()
	lib := "package gen\n\n// Zero is T's zero value.\nfunc Zero[T any]() T { var z T; return z }\n"
	test := "package gen_test\n\nimport (\n\t\"testing\"\n\n\t\"example.test/gen\"\n)\n\nfunc TestZero(t *testing.T) {\n\tif gen.Zero[int]() != 0 {\n\t\tt.Fatal()\n\t}\n}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "gen.go"), []byte(lib), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "gen_test.go"), []byte(test), 0o644))
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(dir, "gen.go"), lib, 0)
	require.NoError(t, err)
	under, err := (&types.Config{Importer: importer.Default()}).Check(mod, fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	p := &goPackage{ImportPath: mod, Name: "gen", Dir: dir, GoFiles: []string{"gen.go"}, XTestGoFiles: []string{"gen_test.go"}}
	fs := testFuncs(mod, p, stdOrSource{under}, fset)
	require.Len(t, fs, 1)
	require.Len(t, fs[0].Groups, 1)
	assert.Equal(t, "gen.Zero[int]()", fs[0].Groups[0].Call)
	assert.Equal(t, "func solve() int", fs[0].Groups[0].Signature())
}
