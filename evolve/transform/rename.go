package transform

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// renaming is one name bound in one scope, with every occurrence that
// refers to it.
type renaming struct {
	sc   *syntax.Scope
	name string
	at   *syntax.Node // the first binding occurrence: the site
	refs []syntax.Ref
}

// rename returns the edits that rename r to to.
func (r renaming) edits(to string) []syntax.TextEdit {
	var es []syntax.TextEdit
	for _, o := range r.refs {
		es = append(es, edit(o.Node.Start, o.Node.End, to))
	}
	return es
}

// renameSafe reports whether the binding of name in sc may be renamed:
// no scope that sees it reads names dynamically, and it is not protected,
// a builtin, a dunder or imported.
func (s *scopes) renameSafe(p *Program, sc *syntax.Scope, name string) bool {
	sym := symbol(sc, name)
	if p.protected(name) || builtins[name] || (strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")) ||
		sym.Imported || sym.Global || sym.Nonlocal {
		return false
	}
	for t := range s.dynamic {
		if t.Within(sc) {
			return false
		}
	}
	return true
}

// variables returns the N1 renamings: local variables of functions.
func variables(p *Program, s *scopes) []renaming {
	var out []renaming
	for _, sc := range s.all {
		if !isFunc(sc) {
			continue
		}
		for _, sym := range sc.Symbols() {
			if len(sym.Binds) == 0 || sym.Param || sym.Defined || !s.renameSafe(p, sc, sym.Name) {
				continue
			}
			out = append(out, renaming{sc: sc, name: sym.Name, at: sym.Binds[0]})
		}
	}
	slices.SortFunc(out, func(a, b renaming) int { return a.at.Start - b.at.Start })
	return out
}

// functions returns the N2 renamings: functions that are not methods,
// bound once, not protected.
func functions(p *Program, s *scopes) []renaming {
	var out []renaming
	for _, sc := range s.all {
		if sc.Kind != syntax.ScopeFunction {
			continue
		}
		nm := sc.Node.Child("name")
		outer := sc.Parent
		if nm == nil || outer.Kind == syntax.ScopeClass || outer.Kind == syntax.ScopeComprehension {
			continue
		}
		name := s.name(nm)
		if len(symbol(outer, name).Binds) != 1 || strings.HasPrefix(name, "Func_") || name == "my_decorator" ||
			!s.renameSafe(p, outer, name) {
			continue
		}
		if outer == s.Module() && len(p.Modules) > 0 {
			continue // a generated module might import it
		}
		out = append(out, renaming{sc: outer, name: name, at: nm})
	}
	slices.SortFunc(out, func(a, b renaming) int { return a.at.Start - b.at.Start })
	return out
}

// renameTransform builds N1 or N2 from the function listing its renamings
// and the new-name pattern.
func renameTransform(id, name, doc string, list func(p *Program, s *scopes) []renaming, newName func(old string, k int) string) *Transform {
	return &Transform{
		ID: id, Name: name, Family: Renaming, Doc: doc,
		Sites: func(p *Program) []Site {
			return sitesOf(p, func(f *file) []*syntax.Node {
				var out []*syntax.Node
				for _, r := range list(p, analyse(f)) {
					out = append(out, r.at)
				}
				return out
			}, nil)
		},
		Apply: func(p *Program, site Site, rng *rand.Rand) (*Program, error) {
			return apply(p, site, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
				s := analyse(f)
				i := slices.IndexFunc(list(p, s), func(r renaming) bool { return r.at == n })
				if i < 0 {
					return nil, fmt.Errorf("transform: %s: %s is not a site", id, site.Key)
				}
				r := list(p, s)[i]
				r.refs = s.RefsTo(r.sc.Symbol(r.name))
				k := 0
				for f.idents[newName(r.name, k)] {
					k++
				}
				return r.edits(newName(r.name, k)), nil
			})
		},
	}
}

// renameVariable is N1.
var renameVariable = renameTransform("N1", "RenameVariable",
	`Renames a local variable of a function to "new<name>_<k>" (k the smallest unused), at every
occurrence that refers to that binding under Python's scoping rules: nested functions, lambdas,
comprehensions and nonlocal declarations follow, a comprehension or nested function that binds
the name itself does not, and attributes and keyword arguments are never touched. GeneBench
renames every Name and argument with that id module-wide, and picks the name by set iteration
order. Sites: each variable bound in a function (not a parameter, which callers may pass by
keyword; not an import, a def or a class; not global, nonlocal, protected, a builtin or a dunder),
in functions where no enclosed scope calls locals, vars, eval, exec, globals or dir or uses
match. Conditional: code that reads the name as a string (f.__code__.co_varnames, frame
inspection) and self-documenting f-strings ("{x=}") see the new name.`,
	variables, func(old string, k int) string { return "new" + old + "_" + strconv.Itoa(k) })

// renameFunction is N2.
var renameFunction = renameTransform("N2", "RenameFunction",
	`Renames a function that is not a method to "Func_<name>_<k>" (k the smallest unused) at its
def and at every reference to that binding (calls, decorators, values passed around, global
declarations). GeneBench renames only bare-name calls. Sites: functions defined in a module or
function body whose name is bound only by that def, not protected (entry points and names the
tests call), not a dunder, not my_decorator and not already renamed, when no scope that sees the
name reads names dynamically and no generated module exists that might import it. Conditional:
the function's __name__ and tracebacks change, and code that looks the function up by string
(getattr(module, "name"), __all__) no longer finds it.`,
	functions, func(old string, k int) string { return "Func_" + old + "_" + strconv.Itoa(k) })
