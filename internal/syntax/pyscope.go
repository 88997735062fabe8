//go:build cgo

package syntax

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ScopeKind is the kind of a Python [Scope].
type ScopeKind uint8

// The scope kinds. The zero value is invalid.
const (
	ScopeInvalid       ScopeKind = iota
	ScopeModule                  // the whole file
	ScopeFunction                // a def (async or not)
	ScopeLambda                  // a lambda
	ScopeClass                   // a class body
	ScopeComprehension           // a list, set or dict comprehension or a generator expression
)

var scopeKindNames = [...]string{"invalid", "module", "function", "lambda", "class", "comprehension"}

// String returns "module", "function", "lambda", "class", "comprehension"
// or "invalid".
func (k ScopeKind) String() string {
	if int(k) < len(scopeKindNames) {
		return scopeKindNames[k]
	}
	return fmt.Sprintf("ScopeKind(%d)", uint8(k))
}

// Scope is one Python scope of a [Scopes] analysis. It and everything it
// points to are read-only.
type Scope struct {
	Kind ScopeKind
	// Node is the node that opens the scope: the module, a
	// function_definition, a lambda, a class_definition or a
	// comprehension (list_comprehension, set_comprehension,
	// dictionary_comprehension, generator_expression).
	Node *Node
	// Parent is the enclosing scope (nil for the module). Children are
	// the scopes opened directly in this one, in source order.
	Parent   *Scope
	Children []*Scope
	// Dynamic reports that the scope's own code reads or writes names by
	// string: it calls locals, vars, eval, exec, globals or dir by those
	// names, or has a star import. A renamer must leave the names this
	// scope sees alone.
	Dynamic bool

	symbols map[string]*Symbol
}

// Symbol is a name as one scope sees it: every name that occurs in the
// scope's own code (bound, used or declared) has one, like an entry of
// Python's symtable, and the module has one for every name some scope
// declares global. Which variable an occurrence refers to is
// [Ref.Symbol], found by Python's rules from these entries.
type Symbol struct {
	Name  string
	Scope *Scope
	// Binds are the occurrences in the scope's code that bind the name,
	// in source order: parameters, assignment, augmented-assignment,
	// annotation, for, with, except, del and match-capture targets,
	// imports, def and class names. A walrus target inside a comprehension
	// is listed in the symbol of the nearest enclosing scope that is not a
	// comprehension, where it binds (PEP 572).
	Binds []*Node
	// Param: a parameter of the function or lambda. Imported: bound by an
	// import. Defined: bound by a def or class statement.
	Param, Imported, Defined bool
	// Global and Nonlocal report a global or nonlocal statement for the
	// name in this scope.
	Global, Nonlocal bool
}

// Ref is one occurrence of a name: an identifier that names a variable
// (not an attribute, a keyword-argument name, a keyword of a class pattern
// or a module path in an import).
type Ref struct {
	Node *Node
	// Scope is the scope the occurrence is resolved from: the scope whose
	// code holds it, except that a walrus target inside a comprehension
	// belongs to the nearest enclosing scope that is not a comprehension.
	Scope *Scope
	// Binds reports that the occurrence binds the name (see
	// [Symbol.Binds]; the target of an augmented assignment, which also
	// reads it, counts as binding); Declares that it is the name of a
	// global or nonlocal statement. An occurrence that does neither reads
	// the name.
	Binds, Declares bool
	// Symbol is the variable the occurrence refers to: the symbol of the
	// scope that binds it. It is nil for a name that no scope binds, a
	// builtin or an undefined global. A name declared global refers to
	// the module's symbol, which exists even when the module never binds
	// the name.
	Symbol *Symbol
}

// Scopes is the result of [PyScopes]: the scopes of a Python module and
// every occurrence of a name in it, resolved by Python's rules. It is
// immutable and safe for concurrent use.
type Scopes struct {
	src     []byte
	module  *Scope
	all     []*Scope // in source order of their nodes (pre-order)
	refs    []Ref    // in source order
	byNode  map[*Node]*Scope
	refAt   map[*Node]int
	symRefs map[*Symbol][]int
}

// dynamicCalls are the builtins that read or write names by string.
var dynamicCalls = map[string]bool{"locals": true, "vars": true, "eval": true, "exec": true, "globals": true, "dir": true}

// PyScopes analyses the Python module root (from [ParseNodes] of src) the
// way CPython's symbol table does, and resolves every occurrence of a name
// to the variable it refers to:
//
//   - Scopes are the module, functions, lambdas, classes and
//     comprehensions (generator expressions included; each is its own
//     scope, as in Python 3.11's symtable).
//   - A name bound anywhere in a scope is local to it throughout, unless
//     the scope declares it global or nonlocal. del binds; so do the
//     targets of for, with, except, match captures and annotations
//     without a value.
//   - A free name is looked up in the enclosing function, lambda and
//     comprehension scopes, then the module; class scopes are skipped, so
//     a name bound in a class body is not visible in the functions,
//     lambdas and comprehensions nested in it.
//   - Decorators, default values, annotations, return annotations, base
//     classes and a comprehension's first iterable are evaluated in the
//     enclosing scope; parameters and the rest of a comprehension belong
//     to the new scope.
//   - A walrus (:=) in a comprehension binds in the nearest enclosing scope
//     that is not a comprehension.
//   - nonlocal refers to the nearest enclosing function scope that binds
//     the name; global to the module.
//
// Not modelled: PEP 695 type parameters are evaluated in the enclosing
// scope rather than an annotation scope, and class-private name mangling
// is not applied. Code with syntax errors is analysed as far as its tree
// goes; PyScopes never fails. root may be nil (an empty module).
func PyScopes(root *Node, src []byte) *Scopes {
	s := &Scopes{src: src, byNode: map[*Node]*Scope{}, refAt: map[*Node]int{}, symRefs: map[*Symbol][]int{}}
	w := &pyWalker{s: s, globals: map[string]bool{}}
	s.module = w.open(ScopeModule, root, nil)
	if root != nil {
		for _, c := range root.Children {
			w.visit(c, s.module)
		}
	}
	// A name declared global anywhere lives in the module.
	for _, name := range slices.Sorted(maps.Keys(w.globals)) {
		w.symbol(s.module, name)
	}
	slices.SortStableFunc(s.refs, func(a, b Ref) int { return a.Node.Start - b.Node.Start })
	for i := range s.refs {
		r := &s.refs[i]
		r.Symbol = s.resolve(r.Scope, r.Node.Text(src), w.globals)
		s.refAt[r.Node] = i
		if r.Symbol != nil {
			s.symRefs[r.Symbol] = append(s.symRefs[r.Symbol], i)
		}
	}
	for _, sc := range s.all {
		for _, sym := range sc.symbols {
			slices.SortStableFunc(sym.Binds, func(a, b *Node) int { return a.Start - b.Start })
		}
	}
	return s
}

// resolve returns the variable that name, occurring in sc, refers to.
func (s *Scopes) resolve(sc *Scope, name string, globals map[string]bool) *Symbol {
	if sc.Kind == ScopeModule {
		return s.global(name, globals)
	}
	if sym := sc.symbols[name]; sym != nil {
		switch {
		case sym.Global:
			return s.global(name, globals)
		case sym.Nonlocal:
			return s.lookup(sc.Parent, name, true, globals)
		case len(sym.Binds) > 0:
			return sym
		}
	}
	return s.lookup(sc.Parent, name, false, globals)
}

// lookup finds the binding of a free name from scope p outwards, skipping
// class scopes. For a nonlocal name only function scopes count.
func (s *Scopes) lookup(p *Scope, name string, nonlocal bool, globals map[string]bool) *Symbol {
	for ; p != nil; p = p.Parent {
		sym := p.symbols[name]
		switch {
		case p.Kind == ScopeClass:
			continue
		case p.Kind == ScopeModule:
			if nonlocal {
				return nil
			}
			return s.global(name, globals)
		case sym == nil || sym.Nonlocal:
			continue
		case sym.Global:
			if nonlocal {
				return nil
			}
			return s.global(name, globals)
		case len(sym.Binds) > 0:
			return sym
		}
	}
	return nil
}

// global returns the module's symbol for name if the module binds it or
// some scope declares it global, else nil (a builtin or an undefined
// name).
func (s *Scopes) global(name string, globals map[string]bool) *Symbol {
	sym := s.module.symbols[name]
	if sym == nil || (len(sym.Binds) == 0 && !globals[name]) {
		return nil
	}
	return sym
}

// Module returns the module scope.
func (s *Scopes) Module() *Scope { return s.module }

// All returns every scope, the module first, in source order of the nodes
// that open them.
func (s *Scopes) All() []*Scope { return slices.Clone(s.all) }

// Refs returns every occurrence of a name, in source order.
func (s *Scopes) Refs() []Ref { return slices.Clone(s.refs) }

// RefsTo returns the occurrences that refer to sym, in source order.
func (s *Scopes) RefsTo(sym *Symbol) []Ref {
	var out []Ref
	for _, i := range s.symRefs[sym] {
		out = append(out, s.refs[i])
	}
	return out
}

// RefAt returns the occurrence that is the identifier n, if n is one.
func (s *Scopes) RefAt(n *Node) (Ref, bool) {
	i, ok := s.refAt[n]
	if !ok {
		return Ref{}, false
	}
	return s.refs[i], true
}

// ScopeOf returns the scope that node n opens, or nil if it opens none.
func (s *Scopes) ScopeOf(n *Node) *Scope { return s.byNode[n] }

// Name returns the name of an occurrence.
func (s *Scopes) Name(r Ref) string { return r.Node.Text(s.src) }

// Locals returns the occurrences of the local variables of functions, in
// source order: those that refer to a symbol of a function or lambda
// scope, or of a comprehension whose nearest enclosing scope that is not a
// comprehension is a function or lambda, and that keep (if not nil) does
// not mark as a name to keep. These are what a renamer of local variables
// may rename, each symbol to one new name. keep is called once per
// occurrence.
func (s *Scopes) Locals(keep func(*Symbol) bool) []Ref {
	var out []Ref
	for _, r := range s.refs {
		if r.Symbol != nil && r.Symbol.Scope.local() && (keep == nil || !keep(r.Symbol)) {
			out = append(out, r)
		}
	}
	return out
}

// local reports whether the variables of sc are locals of a function.
func (sc *Scope) local() bool {
	for sc.Kind == ScopeComprehension {
		sc = sc.Parent
	}
	return sc.Kind == ScopeFunction || sc.Kind == ScopeLambda
}

// Symbol returns the scope's entry for name, or nil when the name does
// not occur in the scope's code.
func (sc *Scope) Symbol(name string) *Symbol { return sc.symbols[name] }

// Symbols returns the scope's entries sorted by name.
func (sc *Scope) Symbols() []*Symbol {
	out := make([]*Symbol, 0, len(sc.symbols))
	for _, sym := range sc.symbols {
		out = append(out, sym)
	}
	slices.SortFunc(out, func(a, b *Symbol) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Within reports whether sc is outer or nested in it.
func (sc *Scope) Within(outer *Scope) bool {
	for ; sc != nil; sc = sc.Parent {
		if sc == outer {
			return true
		}
	}
	return false
}

// pyWalker builds a Scopes.
type pyWalker struct {
	s       *Scopes
	globals map[string]bool // names declared global in some scope
}

func (w *pyWalker) open(k ScopeKind, n *Node, parent *Scope) *Scope {
	sc := &Scope{Kind: k, Node: n, Parent: parent, symbols: map[string]*Symbol{}}
	if parent != nil {
		parent.Children = append(parent.Children, sc)
	}
	w.s.all = append(w.s.all, sc)
	if n != nil {
		w.s.byNode[n] = sc
	}
	return sc
}

func (w *pyWalker) symbol(sc *Scope, name string) *Symbol {
	sym := sc.symbols[name]
	if sym == nil {
		sym = &Symbol{Name: name, Scope: sc}
		sc.symbols[name] = sym
	}
	return sym
}

func (w *pyWalker) use(n *Node, sc *Scope) {
	w.symbol(sc, n.Text(w.s.src))
	w.s.refs = append(w.s.refs, Ref{Node: n, Scope: sc})
}

func (w *pyWalker) bind(n *Node, sc *Scope) *Symbol {
	sym := w.symbol(sc, n.Text(w.s.src))
	sym.Binds = append(sym.Binds, n)
	w.s.refs = append(w.s.refs, Ref{Node: n, Scope: sc, Binds: true})
	return sym
}

// visit walks a statement or expression evaluated in sc.
func (w *pyWalker) visit(n *Node, sc *Scope) {
	if n == nil {
		return
	}
	switch n.Type {
	case "identifier":
		w.use(n, sc)
	case "attribute":
		w.visit(n.Child("object"), sc)
	case "keyword_argument":
		w.visit(n.Child("value"), sc)
	case "function_definition", "lambda":
		w.function(n, sc)
	case "class_definition":
		w.class(n, sc)
	case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
		w.comprehension(n, sc)
	case "global_statement", "nonlocal_statement":
		w.declare(n, sc)
	case "import_statement", "import_from_statement", "future_import_statement":
		w.imports(n, sc)
	case "assignment", "augmented_assignment", "for_statement":
		w.bindField(n, sc, "left")
	case "as_pattern": // with … as x, except E as x
		w.bindField(n, sc, "alias")
	case "named_expression":
		w.namedExpression(n, sc)
	case "delete_statement":
		for _, c := range n.Children {
			w.target(c, sc)
		}
	case "case_clause": // of a match statement: its capture patterns bind
		w.split(n, sc, func(c *Node) bool { return c.Type == "case_pattern" }, w.pattern)
	case "type_alias_statement":
		w.typeAlias(n, sc)
	case "call":
		if fn := n.Child("function"); fn != nil && fn.Type == "identifier" && dynamicCalls[fn.Text(w.s.src)] {
			sc.Dynamic = true
		}
		w.children(n, sc)
	default:
		w.children(n, sc)
	}
}

// declare handles a global or nonlocal statement in sc: its names are
// declared, not bound or used.
func (w *pyWalker) declare(n *Node, sc *Scope) {
	for _, c := range n.Children {
		if c.Type != "identifier" {
			continue
		}
		name := c.Text(w.s.src)
		sym := w.symbol(sc, name)
		if n.Type == "global_statement" {
			sym.Global = true
			w.globals[name] = true
		} else {
			sym.Nonlocal = true
		}
		w.s.refs = append(w.s.refs, Ref{Node: c, Scope: sc, Declares: true})
	}
}

// namedExpression handles x := v in sc: x binds in the nearest scope that
// is not a comprehension.
func (w *pyWalker) namedExpression(n *Node, sc *Scope) {
	t := sc
	for t.Kind == ScopeComprehension && t.Parent != nil {
		t = t.Parent
	}
	if nm := n.Child("name"); nm != nil && nm.Type == "identifier" {
		w.bind(nm, t)
	}
	w.visit(n.Child("value"), sc)
}

// typeAlias handles type X = …: X binds (the value is evaluated lazily).
func (w *pyWalker) typeAlias(n *Node, sc *Scope) {
	for i, c := range n.Children {
		if t := c.NamedChildren(); i == 1 && c.Type == "type" && len(t) == 1 && t[0].Type == "identifier" {
			w.bind(t[0], sc)
			continue
		}
		w.visit(c, sc)
	}
}

func (w *pyWalker) children(n *Node, sc *Scope) {
	for _, c := range n.Children {
		w.visit(c, sc)
	}
}

// bindField binds the targets in n's children that fill field and visits
// the others.
func (w *pyWalker) bindField(n *Node, sc *Scope, field string) {
	w.split(n, sc, func(c *Node) bool { return c.Field == field }, w.target)
}

// split walks the children of n that pick selects with walk, and visits
// the others.
func (w *pyWalker) split(n *Node, sc *Scope, pick func(*Node) bool, walk func(*Node, *Scope)) {
	for _, c := range n.Children {
		if pick(c) {
			walk(c, sc)
		} else {
			w.visit(c, sc)
		}
	}
}

// target walks an assignment target: names bind in sc, the rest
// (subscripts, the objects of attributes) are uses.
func (w *pyWalker) target(n *Node, sc *Scope) {
	switch n.Type {
	case "identifier":
		w.bind(n, sc)
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "parenthesized_expression",
		"expression_list", "list_splat_pattern", "list_splat", "as_pattern_target":
		for _, c := range n.Children {
			w.target(c, sc)
		}
	default:
		w.visit(n, sc)
	}
}

// function handles a def or a lambda defined in sc: its name binds in sc;
// parameters' defaults and annotations, the return annotation and type
// parameters are evaluated in sc; parameters and the body belong to the
// new scope.
func (w *pyWalker) function(n *Node, sc *Scope) {
	kind := ScopeFunction
	if n.Type == "lambda" {
		kind = ScopeLambda
	}
	if nm := n.Child("name"); nm != nil && nm.Type == "identifier" {
		w.bind(nm, sc).Defined = true
	}
	fs := w.open(kind, n, sc)
	for _, c := range n.Children {
		switch c.Field {
		case "parameters":
			w.params(c, sc, fs)
		case "return_type", "type_parameters":
			w.visit(c, sc)
		case "body":
			w.visit(c, fs)
		}
	}
}

// params binds the parameters in ps in fs; defaults and annotations are
// evaluated in sc.
func (w *pyWalker) params(ps *Node, sc, fs *Scope) {
	param := func(id *Node) {
		if id != nil && id.Type == "identifier" {
			w.bind(id, fs).Param = true
		}
	}
	for _, p := range ps.Children {
		switch p.Type {
		case "identifier":
			param(p)
		case "list_splat_pattern", "dictionary_splat_pattern", "tuple_pattern":
			w.params(p, sc, fs)
		case "default_parameter", "typed_default_parameter", "typed_parameter":
			for _, c := range p.Children {
				switch {
				case c.Field == "name" || (c.Type == "identifier" && p.Type == "typed_parameter"):
					if c.Type == "tuple_pattern" {
						w.params(c, sc, fs)
					} else {
						param(c)
					}
				case c.Type == "list_splat_pattern" || c.Type == "dictionary_splat_pattern":
					w.params(c, sc, fs)
				case c.Named:
					w.visit(c, sc)
				}
			}
		case "keyword_separator", "positional_separator":
		default:
			if p.Named {
				w.visit(p, sc)
			}
		}
	}
}

// class handles a class definition in sc: its name binds in sc, its bases,
// keywords and type parameters are evaluated in sc, its body in the new
// class scope.
func (w *pyWalker) class(n *Node, sc *Scope) {
	if nm := n.Child("name"); nm != nil && nm.Type == "identifier" {
		w.bind(nm, sc).Defined = true
	}
	cs := w.open(ScopeClass, n, sc)
	for _, c := range n.Children {
		switch c.Field {
		case "name":
		case "body":
			w.visit(c, cs)
		default:
			w.visit(c, sc)
		}
	}
}

// comprehension handles a comprehension in sc: its first iterable is
// evaluated in sc, everything else in its own scope.
func (w *pyWalker) comprehension(n *Node, sc *Scope) {
	cs := w.open(ScopeComprehension, n, sc)
	first := true
	for _, c := range n.Children {
		if c.Type != "for_in_clause" {
			w.visit(c, cs)
			continue
		}
		for _, d := range c.Children {
			switch d.Field {
			case "left":
				w.target(d, cs)
			case "right":
				if first {
					w.visit(d, sc)
				} else {
					w.visit(d, cs)
				}
			default:
				if d.Named {
					w.visit(d, cs)
				}
			}
		}
		first = false
	}
}

// imports binds the names an import statement binds (see [PyImport.Bind]).
// A star import makes sc dynamic.
func (w *pyWalker) imports(n *Node, sc *Scope) {
	for _, im := range PyImports(n, w.s.src) {
		if im.Wildcard {
			sc.Dynamic = true
		}
		if im.BindNode != nil {
			w.bind(im.BindNode, sc).Imported = true
		}
	}
}

// pattern walks a match pattern: capture names bind in sc; value patterns
// and class names are uses.
func (w *pyWalker) pattern(n *Node, sc *Scope) {
	switch n.Type {
	case "case_pattern":
		if id := capture(n); id != nil {
			w.bind(id, sc)
			return
		}
	case "dotted_name": // a value pattern (Color.RED) or a class name
		if len(n.Children) > 0 && n.Children[0].Type == "identifier" {
			w.use(n.Children[0], sc)
		}
		return
	case "keyword_pattern": // Point(x=p): x is an attribute name
		for i, c := range n.Children {
			switch {
			case i == 0 && c.Type == "identifier":
			case c.Type == "dotted_name" && len(c.Children) == 1 && c.Children[0].Type == "identifier":
				w.bind(c.Children[0], sc)
			default:
				w.pattern(c, sc)
			}
		}
		return
	case "splat_pattern", "as_pattern": // *rest, **kw, P as name
		for _, c := range n.Children {
			if c.Type == "identifier" {
				w.bind(c, sc)
			} else {
				w.pattern(c, sc)
			}
		}
		return
	case "identifier", "attribute", "call", "binary_expression", "unary_operator":
		w.visit(n, sc)
		return
	}
	for _, c := range n.Children {
		w.pattern(c, sc)
	}
}

// capture returns the name of a capture pattern (a case_pattern that is
// one bare name), or nil.
func capture(n *Node) *Node {
	named := n.NamedChildren()
	if len(named) != 1 || named[0].Type != "dotted_name" {
		return nil
	}
	d := named[0]
	if len(d.Children) != 1 || d.Children[0].Type != "identifier" {
		return nil
	}
	return d.Children[0]
}
