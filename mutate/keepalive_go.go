package mutate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
)

// The Go operators that delete a statement (RemoveGuard, UnwrapTry) must
// not leave a local variable or an import that only the statement read:
// Go rejects both. Which ones they are is decided with go/types on the
// file alone, variables and not names (a builtin is no variable, an
// assignment is no use, two variables may share a name), before and after
// the deletion.

// unusedRE matches go/types' messages about unused variables and imports.
var unusedRE = regexp.MustCompile(`^declared and not used: (\S+)$|^"([^"]+)" imported (?:as \S+ )?and not used$`)

// unused type-checks src alone (imports unresolved: go/types then treats
// an imported package's members as unknown) and returns the offsets of the
// declarations of the unused local variables, by offset, and the unused
// import paths. ok is false when src does not parse.
func unused(src []byte) (vars map[int]string, imports map[string]bool, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, false
	}
	vars, imports = map[int]string{}, map[string]bool{}
	conf := types.Config{
		Importer: noImports{},
		Error: func(err error) {
			te, ok := err.(types.Error)
			if !ok {
				return
			}
			m := unusedRE.FindStringSubmatch(te.Msg)
			switch {
			case m == nil:
			case m[1] != "":
				vars[fset.Position(te.Pos).Offset] = m[1]
			default:
				imports[m[2]] = true
			}
		},
	}
	conf.Check(f.Name.Name, fset, []*ast.File{f}, nil)
	return vars, imports, true
}

// noImports imports an empty package for each path, named after the
// path's last element: a member is then undefined, an expression using it
// invalid (go/types reports nothing further about it), and an import no
// code refers to is reported unused. (An import that fails is never
// reported unused.) A package whose name is not its path's last element
// is reported unused before and after alike.
type noImports struct{}

func (noImports) Import(p string) (*types.Package, error) {
	name := path.Base(p)
	if len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" && path.Dir(p) != "." {
		name = path.Base(path.Dir(p)) // gopkg.in/x/v2
	}
	name, _, _ = strings.Cut(name, ".")
	pkg := types.NewPackage(p, strings.TrimPrefix(name, "go-"))
	pkg.MarkComplete()
	return pkg, nil
}

// keepAlive returns the statement that stands in place of the deleted
// range [start, end) of src so that the result still compiles as far as
// unused names go: "" when nothing needs keeping, "_ = err" or
// "_, _ = a, b" for the local variables only the deleted code read. ok is
// false when the deletion would leave an import unused (the site is not
// one to propose) or src does not parse.
func keepAlive(src []byte, start, end int) (stmt string, ok bool) {
	before, beforeImp, ok := unused(src)
	if !ok {
		return "", false
	}
	mut := make([]byte, 0, len(src)-(end-start))
	mut = append(append(mut, src[:start]...), src[end:]...)
	after, afterImp, ok := unused(mut)
	if !ok {
		return "", false
	}
	for p := range afterImp {
		if !beforeImp[p] {
			return "", false
		}
	}
	var keep []string
	seen := map[string]bool{}
	for _, off := range slices.Sorted(maps.Keys(after)) {
		name := after[off]
		orig := off
		if off >= start {
			orig += end - start
		}
		if _, was := before[orig]; was || orig >= start && orig < end || name == "_" {
			continue
		}
		if off > start || seen[name] {
			// Declared after the deleted code, it was not read there;
			// a second variable of the same name cannot be named here.
			return "", false
		}
		seen[name] = true
		keep = append(keep, name)
	}
	if len(keep) == 0 {
		return "", true
	}
	return strings.TrimSuffix(strings.Repeat("_, ", len(keep)), ", ") + " = " + strings.Join(keep, ", "), true
}
