package libapi_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/versioned/internal/libapi"
)

// lib is a module package whose name is not its path's last element, as
// github.com/hashicorp/go-version's is version.
const lib = `package version

type Version struct{ Major int; inner }
type inner struct{ Patch int }

func NewVersion(s string, opts ...int) (*Version, error) { return &Version{}, nil }
func (v *Version) Segments() []int { return nil }
func (v *Version) WithPrefix(p string) *Version { return v }
`

// mapImporter imports the module package from source, the rest from the
// standard library's export data.
type mapImporter map[string]*types.Package

func (m mapImporter) Import(path string) (*types.Package, error) {
	if p, ok := m[path]; ok {
		return p, nil
	}
	return importer.Default().Import(path)
}

func libImporter(t *testing.T) types.Importer {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "lib.go", lib, 0)
	require.NoError(t, err)
	p, err := (&types.Config{}).Check("example.com/go-version", fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	return mapImporter{"example.com/go-version": p}
}

// TestUses resolves uses by identity: the package's name is not its
// path's, methods through a chain, fields (promoted ones by the type that
// declares them), and a call that does not compile uses nothing.
func TestUses(t *testing.T) {
	imp := libImporter(t)
	const p = "example.com/go-version."
	for _, c := range []struct {
		name, code string
		want       []string
	}{
		{"package name", "package p\nimport \"example.com/go-version\"\nfunc solve(s string) (*version.Version, error) { return version.NewVersion(s) }\n", []string{p + "NewVersion", p + "Version"}},
		{"aliased", "package p\nimport gv \"example.com/go-version\"\nfunc solve(s string) []int { v, _ := gv.NewVersion(s); return v.Segments() }\n", []string{p + "NewVersion", p + "Version.Segments"}},
		{"chain", "package p\nimport \"example.com/go-version\"\nfunc solve() *version.Version { v, _ := version.NewVersion(\"1\"); return v.WithPrefix(\"v\").WithPrefix(\"w\") }\n", []string{p + "NewVersion", p + "Version", p + "Version.WithPrefix"}},
		{"field", "package p\nimport \"example.com/go-version\"\nfunc solve(v version.Version) int { return v.Major + v.Patch }\n", []string{p + "Version", p + "Version.Major", p + "inner.Patch"}},
		{"literal", "package p\nimport \"example.com/go-version\"\nfunc solve() version.Version { return version.Version{Major: 1} }\n", []string{p + "Version", p + "Version.Major"}},
		{"type error", "package p\nimport \"example.com/go-version\"\nfunc solve() int { v, _ := version.NewVersion(1); return len(v.Segments()) }\n", []string{p + "Version.Segments"}},
		{"a local name of the same name", "package p\nfunc NewVersion(s string) int { return 0 }\nfunc solve() int { return NewVersion(\"1\") }\n", nil},
	} {
		uses, err := libapi.Uses(imp, map[string]string{"solution.go": c.code}, "solution.go")
		require.NoError(t, err, c.name)
		var got []string
		for k := range uses {
			if len(k) > len(p) && k[:len(p)] == p {
				got = append(got, k)
			}
		}
		slices.Sort(got)
		assert.Equal(t, c.want, got, c.name)
	}
}

// TestUsesCountsOneFile: the helpers of another file of the package do
// not count.
func TestUsesCountsOneFile(t *testing.T) {
	files := map[string]string{
		"check.go":    "package p\nimport \"example.com/go-version\"\nfunc helper() { version.NewVersion(\"1\") }\n",
		"solution.go": "package p\nfunc solve() {}\n",
	}
	uses, err := libapi.Uses(libImporter(t), files, "solution.go")
	require.NoError(t, err)
	assert.Empty(t, uses)
	_, err = libapi.Uses(libImporter(t), map[string]string{"solution.go": "package p\nfunc {"}, "solution.go")
	assert.Error(t, err)
}
