package adaptbench_test

import (
	"flag"
	"fmt"
	"go/types"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

var updateAPI = flag.Bool("update-api", false, "rewrite api/ from the packages' exported API, keeping its reasons and budgets")

// apiDir holds one file per public package, api/<package path>.txt: a
// "# budget N" header, then a line per exported name (as the Go project's
// api/ files do), each type's head line followed by " // " and the reason
// it is exported. One file per package keeps a change's diff, and a
// merge's conflicts, to the packages it touches.
const apiDir = "api"

// reasonSep splits a type's head line from its reason; no Go type string
// contains it.
const reasonSep = " // "

// apiName is one exported name as api/ lists it; typeName is set on the
// head line of a type ("type Report struct"), which carries a reason.
type apiName struct {
	line     string
	typeName string
}

// apiFile is one package's file under api/.
type apiFile struct {
	budget  int               // at most this many names; 0 when the file has none
	lines   []string          // the names, reasons stripped, in file order
	reasons map[string]string // type name → why it is exported
}

// TestAPI holds the exported API of the public packages to api/, so that
// every new export, and every one removed, is a reviewed line of a change;
// each package stays within the budget its file sets, and each exported
// type says why it is exported. On a difference it lists the added (+) and
// removed (-) names per package. Run `go test -run TestAPI . -update-api`
// after a change that means to alter the API: it rewrites the names,
// keeps the reasons (carrying a type's reason along when it moves to
// another package and its name is unique), lowers a budget to the count
// when names went away, and gives a new package the budget of its count.
func TestAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks every package")
	}
	got := exportedAPI(t)
	files, err := readAPIDir(apiDir)
	if err != nil {
		t.Fatal(err)
	}
	if *updateAPI {
		if err := writeAPIDir(apiDir, got, files); err != nil {
			t.Fatal(err)
		}
		if files, err = readAPIDir(apiDir); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range apiProblems(got, files) {
		t.Error(p)
	}
	total := 0
	for _, p := range slices.Sorted(maps.Keys(got)) {
		t.Logf("%-28s %4d (budget %d)", p, len(got[p]), files[p].budget)
		total += len(got[p])
	}
	t.Logf("%-28s %4d", "all", total)
}

// apiProblems compares the packages' API with api/: per package the
// names added and removed, a count over its budget, and a type without a
// reason, each message saying what to do.
func apiProblems(got map[string][]apiName, files map[string]*apiFile) []string {
	var out []string
	for _, pkg := range slices.Sorted(maps.Keys(files)) {
		if _, ok := got[pkg]; !ok {
			out = append(out, fmt.Sprintf("package %s: %s lists it, but it has no exported API (gone or made internal): run go test -run TestAPI . -update-api to remove the file", pkg, apiPath(apiDir, pkg)))
		}
	}
	for _, pkg := range slices.Sorted(maps.Keys(got)) {
		names, f := got[pkg], files[pkg]
		if f == nil {
			out = append(out, fmt.Sprintf("package %s: %d exported names and no %s: run go test -run TestAPI . -update-api, then write each type's reason", pkg, len(names), apiPath(apiDir, pkg)))
			continue
		}
		lines := make([]string, len(names))
		for i, n := range names {
			lines[i] = n.line
		}
		if d := apiDiff(f.lines, lines); d != "" {
			out = append(out, fmt.Sprintf("package %s: the exported API differs from %s (+ added in the code, - gone from it); if the change means it, run go test -run TestAPI . -update-api:\n%s", pkg, apiPath(apiDir, pkg), d))
		}
		if len(names) > f.budget {
			out = append(out, fmt.Sprintf("package %s: %d names, %d over its budget %d: unexport what callers need not name, or raise \"# budget\" in %s in a reviewed change", pkg, len(names), len(names)-f.budget, f.budget, apiPath(apiDir, pkg)))
		}
		for _, n := range names {
			if n.typeName != "" && f.reasons[n.typeName] == "" {
				out = append(out, fmt.Sprintf("package %s: type %s has no reason: in %s, end its line with \"%s<why callers need it exported>\"", pkg, n.typeName, apiPath(apiDir, pkg), reasonSep))
			}
		}
	}
	return out
}

// apiDiff lists, one per line, the names in got and not in want ("+ ")
// and those in want and not in got ("- "), sorted; "" when they agree.
func apiDiff(want, got []string) string {
	in := func(s []string) map[string]bool {
		m := make(map[string]bool, len(s))
		for _, l := range s {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var diff []string
	for _, l := range got {
		if !w[l] {
			diff = append(diff, "+ "+l)
		}
	}
	for _, l := range want {
		if !g[l] {
			diff = append(diff, "- "+l)
		}
	}
	slices.SortFunc(diff, func(a, b string) int { return strings.Compare(a[2:], b[2:]) })
	if len(diff) == 0 && !slices.Equal(want, got) {
		diff = append(diff, "(same names, out of order or repeated: rewrite the file with -update-api)")
	}
	return strings.Join(diff, "\n")
}

func apiPath(dir, pkg string) string { return filepath.Join(dir, filepath.FromSlash(pkg)+".txt") }

// readAPIDir reads every api/<package>.txt; a missing directory is no
// packages.
func readAPIDir(dir string) (map[string]*apiFile, error) {
	files := map[string]*apiFile{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".txt") {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parseAPIFile(path, string(b))
		files[filepath.ToSlash(strings.TrimSuffix(rel, ".txt"))] = f
		return err
	})
	if os.IsNotExist(err) {
		err = nil
	}
	return files, err
}

func parseAPIFile(path, text string) (*apiFile, error) {
	f := &apiFile{reasons: map[string]string{}}
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if b, ok := strings.CutPrefix(l, "# budget "); ok {
			n, err := strconv.Atoi(b)
			if err != nil || n < 0 {
				return f, fmt.Errorf("%s:%d: %q: want \"# budget N\" with N a count", path, i+1, l)
			}
			f.budget = n
			continue
		}
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		name, reason, ok := strings.Cut(l, reasonSep)
		if ok {
			tn, isHead := typeHead(name)
			if !isHead {
				return f, fmt.Errorf("%s:%d: a reason on %q: only a type's head line (\"type T struct\") carries one", path, i+1, name)
			}
			f.reasons[tn] = strings.TrimSpace(reason)
		}
		f.lines = append(f.lines, name)
	}
	return f, nil
}

// typeHead reports whether line is a type's head line as packageAPI
// writes it, and the type's name: "type T struct", "type T interface",
// "type T = U" or "type T <underlying>", but not a field's or interface
// method's line ("type T struct, F int").
func typeHead(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "type ")
	if !ok {
		return "", false
	}
	name, kind, _ := strings.Cut(rest, " ")
	if strings.HasPrefix(kind, "struct, ") || strings.HasPrefix(kind, "interface, ") {
		return "", false
	}
	return name, true
}

// writeAPIDir rewrites api/ to got, keeping each type's reason (or
// carrying it from another package when the type's name is declared in
// only one package before) and each package's budget (lowered to its
// count when it shrank), and removes the files of packages gone.
func writeAPIDir(dir string, got map[string][]apiName, old map[string]*apiFile) error {
	owners := map[string][]string{} // type name → the packages whose file gives it a reason
	for pkg, f := range old {
		for tn := range f.reasons {
			owners[tn] = append(owners[tn], pkg)
		}
	}
	for pkg := range old {
		if _, ok := got[pkg]; !ok {
			if err := os.Remove(apiPath(dir, pkg)); err != nil {
				return err
			}
		}
	}
	for pkg, names := range got {
		f := old[pkg]
		if f == nil {
			f = &apiFile{budget: len(names), reasons: map[string]string{}}
		}
		budget := min(f.budget, len(names))
		var b strings.Builder
		fmt.Fprintf(&b, "# github.com/adaptbench/adaptbench/%s: one line per exported name; each type's reason after %q.\n", pkg, strings.TrimSpace(reasonSep))
		fmt.Fprintf(&b, "# budget %d\n", budget)
		for _, n := range names {
			b.WriteString(n.line)
			if n.typeName != "" {
				r := f.reasons[n.typeName]
				if o := owners[n.typeName]; r == "" && len(o) == 1 {
					r = old[o[0]].reasons[n.typeName]
				}
				if r != "" {
					b.WriteString(reasonSep + r)
				}
			}
			b.WriteString("\n")
		}
		p := apiPath(dir, pkg)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// exportedAPI lists, per package path relative to the module, every
// exported name of the module's public packages (not internal/, examples/
// or commands): constants, variables, functions, types, their exported
// fields and methods, and interfaces' methods.
func exportedAPI(t *testing.T) map[string][]apiName {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedDeps | packages.NeedImports}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]apiName{}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Fatalf("%s: %v", p.PkgPath, e)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.PkgPath, "github.com/adaptbench/adaptbench"), "/")
		if p.Name == "main" || rel == "" || strings.Contains("/"+rel+"/", "/internal/") || strings.HasPrefix(rel, "examples/") {
			continue
		}
		if names := packageAPI(p.Types); len(names) > 0 {
			slices.SortFunc(names, func(a, b apiName) int { return strings.Compare(a.line, b.line) })
			out[rel] = names
		}
	}
	return out
}

func packageAPI(pkg *types.Package) []apiName {
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	var out []apiName
	add := func(format string, args ...any) { out = append(out, apiName{line: fmt.Sprintf(format, args...)}) }
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
			n := len(out)
			typeAPI(add, name, o, qual)
			out[n].typeName = name // typeAPI's first line is the type's head
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
