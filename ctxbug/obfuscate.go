package ctxbug

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// Obfuscated is a method (or template) whose local identifiers were
// renamed var_0, var_1, … so that a generator model cannot read the
// target context off the names.
type Obfuscated struct {
	// Code is the renamed code; placeholders are kept.
	Code string
	// Requirement is the requirement with the method's own locals and
	// parameters renamed the same way.
	Requirement string
	// Names maps each new name back to the original.
	Names map[string]string
}

// placeholders are swapped for identifiers while code is parsed, so that
// templates parse as Python; the spaces keep a stand-in from running into
// an adjacent identifier.
var placeholders = strings.NewReplacer(placeholderParams, " __PARAMS__ ", placeholderReturn, " __RETURN__ ", Infill, " __INFILL__ ", placeholderVar, " __VAR__ ")
var unplaceholders = strings.NewReplacer(" __PARAMS__ ", placeholderParams, " __RETURN__ ", placeholderReturn, " __INFILL__ ", Infill, " __VAR__ ", placeholderVar)

// obfuscate renames the local variables and parameters of the first
// function definition in code (a method or a template made from one) to
// var_0, var_1, … in order of first occurrence, and renames them in
// requirement too.
//
// Renaming follows Python's scoping: a name is renamed where it refers to
// a variable bound in the method, a nested function, a lambda or a
// comprehension, and kept where it refers to a global, a builtin, an
// attribute or a keyword argument (so f(x=x) renames only the second x).
// self and cls, imported names and the parameters of nested functions
// keep their names. Two variables of the same name in different scopes
// get different new names. New names never clash with names already in
// the code.
//
// In requirement, whole words equal to a renamed name of the method's own
// scope are replaced; one-letter names only after ":param ".
func obfuscate(code []byte, requirement string) (*Obfuscated, error) {
	src := []byte(placeholders.Replace(string(code)))
	r, err := rename(src)
	if err != nil {
		return nil, err
	}
	out, err := applyHoles(src, r.holes)
	if err != nil {
		return nil, fmt.Errorf("ctxbug: obfuscate: %w", err)
	}
	return &Obfuscated{Code: unplaceholders.Replace(string(out)), Requirement: r.requirement(requirement), Names: r.names}, nil
}

// obfuscateTemplate obfuscates template t of method (the method given to
// perturb) as obfuscate would obfuscate the method itself, leaving
// the holes masked. Unlike Obfuscate on t.Code, it works for templates
// that do not parse, such as those with masked operators.
func obfuscateTemplate(method []byte, t template, requirement string) (*Obfuscated, error) {
	r, err := rename(method)
	if err != nil {
		return nil, err
	}
	edits := mergeHoles(r.holes, t.Holes)
	out, err := applyHoles(method, edits)
	if err != nil {
		return nil, fmt.Errorf("ctxbug: obfuscate: %w", err)
	}
	return &Obfuscated{Code: string(out), Requirement: r.requirement(requirement), Names: r.names}, nil
}

// mergeHoles merges renames (sorted, disjoint identifiers) into holes
// (sorted, disjoint; zero-width holes insert text): a rename inside a hole
// is dropped (masked anyway), and a zero-width hole at the start of a
// rename goes before it.
func mergeHoles(renames, holes []Hole) []Hole {
	var out []Hole
	i := 0
	for _, h := range renames {
		for i < len(holes) && holes[i].End <= h.Start {
			out = append(out, holes[i])
			i++
		}
		if i < len(holes) && holes[i].Start < h.End && h.Start < holes[i].End {
			continue
		}
		out = append(out, h)
	}
	return append(out, holes[i:]...)
}

// renaming is the renaming of a method's locals.
type renaming struct {
	holes   []Hole // each occurrence, with its new name as Placeholder
	names   map[string]string
	newName map[*syntax.Symbol]string
	method  *syntax.Scope
}

func rename(src []byte) (*renaming, error) {
	root, err := syntax.ParseNodes(syntax.Python, src)
	if err != nil {
		return nil, fmt.Errorf("ctxbug: %w", err)
	}
	fn := firstFunc(root)
	if fn == nil {
		return nil, errNoFunction
	}
	taken := map[string]bool{}
	for _, id := range root.Identifiers() {
		taken[id.Text(src)] = true
	}
	method, refs := locals(root, fn, src)
	r := &renaming{names: map[string]string{}, newName: map[*syntax.Symbol]string{}, method: method}
	next := 0
	for _, ref := range refs {
		k := ref.Symbol
		if strings.HasPrefix(k.Name, "__") {
			continue
		}
		nn, ok := r.newName[k]
		if !ok {
			for {
				nn = fmt.Sprintf("var_%d", next)
				next++
				if !taken[nn] {
					break
				}
			}
			r.newName[k] = nn
			r.names[nn] = k.Name
		}
		r.holes = append(r.holes, Hole{Start: ref.Node.Start, End: ref.Node.End, Node: ref.Node.Type, Placeholder: nn})
	}
	return r, nil
}

// locals returns the scope of the method fn (a function definition in the
// tree root of src) and, in source order, the occurrences of its local
// variables that may be renamed: those of the method, and of the
// functions, lambdas and comprehensions in it, found by Python's scoping
// rules (see syntax.PyScopes). self and cls, imported names and the
// parameters of nested functions (which calls may pass by keyword) keep
// their names.
func locals(root, fn *syntax.Node, src []byte) (*syntax.Scope, []syntax.Ref) {
	sc := syntax.PyScopes(root, src)
	method := sc.ScopeOf(fn)
	return method, sc.Locals(func(sym *syntax.Symbol) bool {
		return !sym.Scope.Within(method) || sym.Imported || sym.Name == "self" || sym.Name == "cls" ||
			(sym.Param && sym.Scope.Kind == syntax.ScopeFunction && sym.Scope != method)
	})
}

// requirement renames the method's own variables in req.
func (r *renaming) requirement(req string) string {
	for k, nn := range r.newName {
		if k.Scope != r.method {
			continue
		}
		if len(k.Name) == 1 {
			pat := `(:param\s+)` + regexp.QuoteMeta(k.Name) + `\b`
			req = regexp.MustCompile(pat).ReplaceAllString(req, "${1}"+nn)
			continue
		}
		req = regexp.MustCompile(`\b`+regexp.QuoteMeta(k.Name)+`\b`).ReplaceAllString(req, nn)
	}
	return req
}

// deobfuscateCode renames back, in code written against an obfuscated
// method (a model's infilled template, say), every identifier that names
// maps to its original. Placeholders, strings and comments are left
// alone.
func deobfuscateCode(code []byte, names map[string]string) ([]byte, error) {
	out, _, err := deobfuscate(code, names)
	return out, err
}

// deobfuscate is Deobfuscate that also returns the map between the
// offsets of code and of the result (valid only when code holds no
// placeholder).
func deobfuscate(code []byte, names map[string]string) ([]byte, *syntax.EditMap, error) {
	src := []byte(placeholders.Replace(string(code)))
	root, err := syntax.ParseNodes(syntax.Python, src)
	if err != nil {
		return nil, nil, fmt.Errorf("ctxbug: %w", err)
	}
	var holes []Hole
	for _, id := range root.Identifiers() {
		if orig, ok := names[id.Text(src)]; ok {
			holes = append(holes, Hole{Start: id.Start, End: id.End, Node: id.Type, Placeholder: orig})
		}
	}
	out, m, err := apply(src, holes)
	if err != nil {
		return nil, nil, fmt.Errorf("ctxbug: deobfuscate: %w", err)
	}
	return []byte(unplaceholders.Replace(string(out))), m, nil
}

// unmap maps offset o of a text that deobfuscate produced back to its
// input: an offset inside a rename maps to the renamed identifier's start
// (or end, with end set).
func unmap(o int, m *syntax.EditMap, end bool) int { return m.Old(o, end) }
