package ctxbug

import (
	"slices"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// scope is a Python function, lambda or comprehension scope inside the
// method.
type scope struct {
	parent *scope
	bound  map[string]bool
	decl   map[string]string // "global" or "nonlocal"
	keep   map[string]bool   // bound, but must keep its name
	comp   bool              // a comprehension's scope
}

func newScope(parent *scope) *scope {
	return &scope{parent: parent, bound: map[string]bool{}, decl: map[string]string{}, keep: map[string]bool{}}
}

// ref is one occurrence of a name, binding or use.
type ref struct {
	n     *syntax.Node
	sc    *scope
	binds bool // the occurrence binds the name
}

// binding identifies a local variable: its name in the scope binding it.
type binding struct {
	sc   *scope
	name string
}

// scopes analyses the function definition fn (and everything nested in
// it) the way Python scopes names.
type scopes struct {
	src  []byte
	root *scope
	refs []ref
}

func analyse(fn *syntax.Node, src []byte) *scopes {
	s := &scopes{src: src, root: newScope(nil)}
	if ps := fn.Child("parameters"); ps != nil {
		s.params(ps, s.root, nil, false)
	}
	if b := fn.Child("body"); b != nil {
		s.visit(b, s.root)
	}
	slices.SortStableFunc(s.refs, func(a, b ref) int { return a.n.Start - b.n.Start })
	return s
}

// resolve returns the binding n refers to, or false for a global, builtin
// or kept name.
func (s *scopes) resolve(r ref) (binding, bool) {
	name := r.n.Text(s.src)
	for sc := r.sc; sc != nil; sc = sc.parent {
		switch sc.decl[name] {
		case "global":
			return binding{}, false
		case "nonlocal":
			continue
		}
		if sc.bound[name] {
			if sc.keep[name] {
				return binding{}, false
			}
			return binding{sc, name}, true
		}
	}
	return binding{}, false
}

func (s *scopes) use(n *syntax.Node, sc *scope) { s.refs = append(s.refs, ref{n: n, sc: sc}) }

func (s *scopes) bind(n *syntax.Node, sc *scope, keep bool) {
	name := n.Text(s.src)
	sc.bound[name] = true
	if keep || name == "self" || name == "cls" {
		sc.keep[name] = true
	}
	s.refs = append(s.refs, ref{n: n, sc: sc, binds: true})
}

// bindField binds the names in n's child named field (an assignment's left
// side, a for loop's target, a pattern's alias) and visits the rest.
func (s *scopes) bindField(n *syntax.Node, sc *scope, field string) {
	for _, c := range n.Children {
		if c.Field == field {
			s.target(c, sc)
		} else {
			s.visit(c, sc)
		}
	}
}

// target binds the names an assignment target binds.
func (s *scopes) target(n *syntax.Node, sc *scope) {
	switch n.Type {
	case "identifier":
		s.bind(n, sc, false)
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "parenthesized_expression", "list_splat_pattern", "list_splat":
		for _, c := range n.Children {
			s.target(c, sc)
		}
	default:
		s.visit(n, sc) // attribute, subscript: uses
	}
}

// params binds the parameters of ps in inner; defaults and annotations
// are evaluated in outer (nil for the method itself, whose defaults are
// not renamed).
func (s *scopes) params(ps *syntax.Node, inner, outer *scope, keep bool) {
	for _, p := range ps.Children {
		switch p.Type {
		case "identifier":
			s.bind(p, inner, keep)
		case "default_parameter", "typed_default_parameter", "typed_parameter":
			for _, c := range p.Children {
				switch {
				case c.Field == "name" || (p.Type == "typed_parameter" && c.Type == "identifier"):
					s.bind(c, inner, keep)
				case c.Named && outer != nil:
					s.visit(c, outer)
				}
			}
		case "list_splat_pattern", "dictionary_splat_pattern":
			for _, c := range p.Children {
				if c.Type == "identifier" {
					s.bind(c, inner, keep)
				}
			}
		}
	}
}

func (s *scopes) visit(n *syntax.Node, sc *scope) {
	switch n.Type {
	case "identifier":
		s.use(n, sc)
		return
	case "attribute":
		if o := n.Child("object"); o != nil {
			s.visit(o, sc)
		}
		return
	case "keyword_argument":
		if v := n.Child("value"); v != nil {
			s.visit(v, sc)
		}
		return
	case "global_statement", "nonlocal_statement":
		kind := "global"
		if n.Type == "nonlocal_statement" {
			kind = "nonlocal"
		}
		for _, c := range n.Children {
			if c.Type == "identifier" {
				sc.decl[c.Text(s.src)] = kind
				s.use(c, sc)
			}
		}
		return
	case "import_statement", "import_from_statement", "future_import_statement":
		// Imported names keep their names: they name modules.
		for _, c := range n.Children {
			switch {
			case c.Type == "aliased_import":
				if a := c.Child("alias"); a != nil {
					s.bind(a, sc, true)
				}
			case c.Type == "dotted_name" && c.Field == "name" && len(c.Children) > 0:
				s.bind(c.Children[0], sc, true)
			}
		}
		return
	case "function_definition", "class_definition":
		if name := n.Child("name"); name != nil {
			s.bind(name, sc, false)
		}
		if n.Type == "class_definition" {
			for _, c := range n.Children {
				if c.Field != "name" {
					s.visit(c, sc)
				}
			}
			return
		}
		inner := newScope(sc)
		if ps := n.Child("parameters"); ps != nil {
			// Nested functions' parameters keep their names, so that
			// calls with keyword arguments stay right.
			s.params(ps, inner, sc, true)
		}
		if rt := n.Child("return_type"); rt != nil {
			s.visit(rt, sc)
		}
		if b := n.Child("body"); b != nil {
			s.visit(b, inner)
		}
		return
	case "lambda":
		inner := newScope(sc)
		if ps := n.Child("parameters"); ps != nil {
			s.params(ps, inner, sc, false)
		}
		if b := n.Child("body"); b != nil {
			s.visit(b, inner)
		}
		return
	case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
		inner := newScope(sc)
		inner.comp = true
		first := true
		// Bind all loop variables first: they scope over the whole
		// comprehension.
		for _, c := range n.Children {
			if c.Type == "for_in_clause" {
				if l := c.Child("left"); l != nil {
					s.target(l, inner)
				}
			}
		}
		for _, c := range n.Children {
			if c.Type == "for_in_clause" {
				for _, cc := range c.Children {
					if cc.Field == "right" {
						if first {
							s.visit(cc, sc) // the first iterable is evaluated outside
						} else {
							s.visit(cc, inner)
						}
					}
				}
				first = false
				continue
			}
			s.visit(c, inner)
		}
		return
	case "assignment", "augmented_assignment":
		s.bindField(n, sc, "left")
		return
	case "for_statement":
		s.bindField(n, sc, "left")
		return
	case "named_expression":
		// := binds in the enclosing function, not the comprehension.
		fsc := sc
		for fsc.comp && fsc.parent != nil {
			fsc = fsc.parent
		}
		if name := n.Child("name"); name != nil {
			s.bind(name, fsc, false)
		}
		if v := n.Child("value"); v != nil {
			s.visit(v, sc)
		}
		return
	case "as_pattern":
		s.bindField(n, sc, "alias")
		return
	case "as_pattern_target":
		for _, c := range n.Children {
			s.target(c, sc)
		}
		return
	case "except_clause":
		// except E as name: the name after "as".
		for i, c := range n.Children {
			if c.Type == "identifier" && i > 0 && n.Children[i-1].Type == "as" {
				s.bind(c, sc, false)
				continue
			}
			s.visit(c, sc)
		}
		return
	}
	for _, c := range n.Children {
		s.visit(c, sc)
	}
}
