package transform

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// numpyCalls maps the builtins S9 replaces to their numpy rewrite; %s is
// the argument text.
var numpyCalls = map[string]string{
	"max":      "np.max(np.fromiter(%s, dtype=object))",
	"min":      "np.min(np.fromiter(%s, dtype=object))",
	"sum":      "np.sum(np.fromiter(%s, dtype=object), initial=0)",
	"sorted":   "np.sort(np.fromiter(%s, dtype=object), kind='stable').tolist()",
	"reversed": "iter(np.flip(np.fromiter(%s, dtype=object)).tolist())",
	"abs":      "np.abs(np.fromiter([%s], dtype=object))[0]",
}

// replaceNumpy is S9.
var replaceNumpy = &Transform{
	ID: "S9", Name: "ReplaceNumpy", Family: Structural,
	Doc: `Replaces a call of the builtin max, min, sum, sorted, reversed or abs with one
positional argument and no keywords by numpy: max(x) becomes
"np.max(np.fromiter(x, dtype=object))" (likewise min), sum(x) becomes
"np.sum(np.fromiter(x, dtype=object), initial=0)", sorted(x) becomes
"np.sort(np.fromiter(x, dtype=object), kind='stable').tolist()", reversed(x) becomes
"iter(np.flip(np.fromiter(x, dtype=object)).tolist())" and abs(x) becomes
"np.abs(np.fromiter([x], dtype=object))[0]"; adds "import numpy as np". GeneBench writes
np.max(np.array([args])), which returns numpy scalars (other types and reprs), flattens nested
lists and breaks on strings; object arrays keep the Python elements and Python's comparisons.
Sites: such calls when the builtin's name and np are not bound anywhere else. Conditional: numpy
must be installed; reversed accepts any iterable and returns a list iterator; an empty sum is
the int 0 and summing strings or lists raises TypeError as in Python, but numpy's error
messages differ (max of an empty sequence raises ValueError in both, with another text);
floats with NaN may order differently.`,
	Sites: func(p *Program) []Site {
		return sitesOf(p, func(f *file) []*syntax.Node {
			s := analyse(f)
			if !s.importUsableAs("numpy", "np") {
				return nil
			}
			return f.find(func(n *syntax.Node) bool { return numpySite(s, n) != "" })
		}, nil)
	},
	Apply: func(p *Program, site Site, rng *rand.Rand) (*Program, error) {
		return apply(p, site, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
			s := analyse(f)
			fn := numpySite(s, n)
			if fn == "" {
				return nil, fmt.Errorf("transform: S9: %s is not a site", site.Key)
			}
			arg := n.Child("arguments").NamedChildren()[0]
			var es []syntax.TextEdit
			if !f.idents["np"] {
				es = f.insertImports("import numpy as np")
			}
			return append(es, edit(n.Start, n.End, fmt.Sprintf(numpyCalls[fn], f.text(arg)))), nil
		})
	},
}

// numpySite returns the builtin an S9 site calls, or "".
func numpySite(s *scopes, n *syntax.Node) string {
	f := s.f
	if n.Type != "call" {
		return ""
	}
	fn, args := n.Child("function"), n.Child("arguments")
	if fn == nil || args == nil || fn.Type != "identifier" || args.Type != "argument_list" {
		return ""
	}
	name := f.text(fn)
	if _, ok := numpyCalls[name]; !ok {
		return ""
	}
	if o, ok := s.RefAt(fn); !ok || s.resolve(o) != nil {
		return ""
	}
	as := args.NamedChildren()
	if len(as) != 1 || as[0].Type == "keyword_argument" || as[0].Type == "list_splat" ||
		as[0].Type == "dictionary_splat" || as[0].Type == "comment" {
		return ""
	}
	if as[0].Type == "generator_expression" && len(args.Children) == 1 {
		return "" // max(x for x in y): the generator's own parentheses
	}
	return name
}

// importUsableAs reports whether "import module as alias" can be added.
func (s *scopes) importUsableAs(module, alias string) bool {
	if !s.f.idents[alias] {
		return true
	}
	b := symbol(s.Module(), alias).Binds
	for _, sc := range s.all {
		if len(symbol(sc, alias).Binds) > 0 && sc != s.Module() {
			return false
		}
	}
	if len(b) != 1 {
		return false
	}
	stmt := s.f.parent[s.f.parent[b[0]]]
	return stmt != nil && stmt.Type == "import_statement" &&
		strings.Join(strings.Fields(s.f.text(stmt)), " ") == "import "+module+" as "+alias
}

// transformAugAssignment is S10.
var transformAugAssignment = &Transform{
	ID: "S10", Name: "TransformAugAssignment", Family: Structural,
	Doc: `Rewrites "x op= v" as "x = x op v" for a name x and a number literal v (optionally
negated), for every operator but *= and @= with an integer. GeneBench also accepts any name or
constant v, but "+=", "*=", "|=", "&=", "^=" and "-=" update lists, sets and dicts in place while
"x = x op v" rebinds x, which aliases see. Conditional: an object whose in-place operator
differs from its binary one for a number (a numpy array: in place versus a new array) behaves
differently under aliasing.`,
	Sites: func(p *Program) []Site {
		return sitesOf(p, func(f *file) []*syntax.Node {
			return f.find(func(n *syntax.Node) bool { return augSite(f, n) })
		}, nil)
	},
	Apply: func(p *Program, site Site, rng *rand.Rand) (*Program, error) {
		return apply(p, site, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
			if !augSite(f, n) {
				return nil, fmt.Errorf("transform: S10: %s is not a site", site.Key)
			}
			x, op, v := f.text(n.Child("left")), f.text(n.Child("operator")), f.text(n.Child("right"))
			return []syntax.TextEdit{edit(n.Start, n.End, x+" = "+x+" "+strings.TrimSuffix(op, "=")+" "+v)}, nil
		})
	},
}

func augSite(f *file, n *syntax.Node) bool {
	if n.Type != "augmented_assignment" {
		return false
	}
	l, op, r := n.Child("left"), n.Child("operator"), n.Child("right")
	if l == nil || op == nil || r == nil || l.Type != "identifier" {
		return false
	}
	num := r
	if r.Type == "unary_operator" && r.Child("argument") != nil && f.text(r.Child("operator")) == "-" {
		num = r.Child("argument")
	}
	switch num.Type {
	case "integer":
		o := f.text(op)
		return o != "*=" && o != "@="
	case "float":
		return f.text(op) != "@="
	}
	return false
}

// transformPrimToCompound is S12.
var transformPrimToCompound = &Transform{
	ID: "S12", Name: "TransformPrimToCompound", Family: Structural,
	Doc: `Rewrites the value v of an assignment or augmented assignment, when v is a list
literal, a list comprehension or a constant (number, string, True, False, None), as "[v][0]".
Preserving.`,
	Sites: func(p *Program) []Site {
		return sitesOf(p, func(f *file) []*syntax.Node {
			return f.find(func(n *syntax.Node) bool { return primSite(n) != nil })
		}, nil)
	},
	Apply: func(p *Program, site Site, rng *rand.Rand) (*Program, error) {
		return apply(p, site, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
			v := primSite(n)
			if v == nil {
				return nil, fmt.Errorf("transform: S12: %s is not a site", site.Key)
			}
			return []syntax.TextEdit{edit(v.Start, v.Start, "["), edit(v.End, v.End, "][0]")}, nil
		})
	},
}

func primSite(n *syntax.Node) *syntax.Node {
	if n.Type != "assignment" && n.Type != "augmented_assignment" {
		return nil
	}
	r := n.Child("right")
	if r == nil {
		return nil
	}
	switch r.Type {
	case "list", "list_comprehension", "integer", "float", "string", "concatenated_string", "true", "false", "none":
		return r
	}
	return nil
}
