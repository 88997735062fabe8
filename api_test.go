package adaptbench_test

import (
	"flag"
	"fmt"
	"go/types"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/packages"
)

var updateAPI = flag.Bool("update-api", false, "write api.txt from the packages' exported API")

// TestAPI holds the exported API of the public packages to api.txt, a line
// per exported name (as the Go project's api/ files do), so that every new
// export, and every one removed, is a reviewed line of a change. Run
// `go test -run TestAPI . -update-api` to write the file after a change
// that means to alter the API.
func TestAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks every package")
	}
	got := exportedAPI(t)
	if *updateAPI {
		if err := os.WriteFile("api.txt", []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile("api.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	assert.Equal(t, want, got, "the exported API differs from api.txt (expected: api.txt, actual: the packages); if the change means it, run go test -run TestAPI . -update-api")
	perPackage := map[string]int{}
	for _, l := range got {
		pkg, _, _ := strings.Cut(strings.TrimPrefix(l, "pkg "), ",")
		perPackage[pkg]++
	}
	for _, p := range slices.Sorted(maps.Keys(perPackage)) {
		t.Logf("%-28s %4d", p, perPackage[p])
	}
	t.Logf("%-28s %4d", "all", len(got))
}

// exportedAPI lists every exported name of the module's public packages
// (not internal/, examples/ or commands): constants, variables, functions,
// types, their exported fields and methods, and interfaces' methods.
func exportedAPI(t *testing.T) []string {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedDeps | packages.NeedImports}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Fatalf("%s: %v", p.PkgPath, e)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.PkgPath, "github.com/adaptbench/adaptbench"), "/")
		if p.Name == "main" || rel == "" || strings.Contains("/"+rel+"/", "/internal/") || strings.HasPrefix(rel, "examples/") {
			continue
		}
		lines = append(lines, packageAPI(rel, p.Types)...)
	}
	slices.Sort(lines)
	return lines
}

func packageAPI(rel string, pkg *types.Package) []string {
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	var out []string
	add := func(format string, args ...any) { out = append(out, "pkg "+rel+", "+fmt.Sprintf(format, args...)) }
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch o := obj.(type) {
		case *types.Const:
			add("const %s %s", name, types.TypeString(o.Type(), qual))
		case *types.Var:
			add("var %s %s", name, types.TypeString(o.Type(), qual))
		case *types.Func:
			add("func %s%s", name, strings.TrimPrefix(types.TypeString(o.Type(), qual), "func"))
		case *types.TypeName:
			typeAPI(add, name, o, qual)
		}
	}
	return out
}

func typeAPI(add func(string, ...any), name string, o *types.TypeName, qual types.Qualifier) {
	if o.IsAlias() {
		add("type %s = %s", name, types.TypeString(o.Type(), qual))
		return
	}
	switch u := o.Type().Underlying().(type) {
	case *types.Struct:
		add("type %s struct", name)
		for i := range u.NumFields() {
			if f := u.Field(i); f.Exported() {
				add("type %s struct, %s %s", name, f.Name(), types.TypeString(f.Type(), qual))
			}
		}
	case *types.Interface:
		add("type %s interface", name)
		for i := range u.NumExplicitMethods() {
			if m := u.ExplicitMethod(i); m.Exported() {
				add("type %s interface, %s%s", name, m.Name(), strings.TrimPrefix(types.TypeString(m.Type(), qual), "func"))
			}
		}
		return // its methods are listed above
	default:
		add("type %s %s", name, types.TypeString(u, qual))
	}
	for _, recv := range []types.Type{o.Type(), types.NewPointer(o.Type())} {
		ms := types.NewMethodSet(recv)
		for i := range ms.Len() {
			m := ms.At(i).Obj().(*types.Func)
			if !m.Exported() || len(ms.At(i).Index()) > 1 {
				continue // promoted through embedding: listed where declared
			}
			if _, ok := recv.(*types.Pointer); ok && types.NewMethodSet(o.Type()).Lookup(m.Pkg(), m.Name()) != nil {
				continue // a value method, listed once
			}
			r := name
			if _, ok := recv.(*types.Pointer); ok {
				r = "*" + name
			}
			add("method (%s) %s%s", r, m.Name(), strings.TrimPrefix(types.TypeString(m.Type(), qual), "func"))
		}
	}
}
