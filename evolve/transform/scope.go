package transform

import (
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// scopeKind is the kind of a Python scope.
type scopeKind uint8

const (
	moduleScope scopeKind = iota
	funcScope             // def or lambda
	classScope
	compScope // comprehension or generator expression
)

// scope is one Python scope and what binds in it.
type scope struct {
	kind     scopeKind
	node     *syntax.Node // the def, lambda, class, comprehension or module
	parent   *scope
	bound    map[string][]*syntax.Node // binding occurrences by name
	params   map[string]bool
	imported map[string]bool
	defined  map[string]bool // bound by a def or class statement
	global   map[string]bool
	nonlocal map[string]bool
	dynamic  bool // uses locals(), vars(), eval(), exec(), globals(), a star import or match
}

// occ is one occurrence of a name: a use, a binding or a global/nonlocal
// declaration.
type occ struct {
	n    *syntax.Node
	sc   *scope
	bind bool
}

// scopes is the result of analysing a whole module the way Python's
// symbol table does (LEGB, class scopes invisible to nested functions,
// comprehension scopes whose first iterable belongs to the enclosing scope,
// walrus targets binding outside comprehensions, global and nonlocal).
type scopes struct {
	f      *file
	module *scope
	all    []*scope
	occs   []occ
}

// dynamicCalls are the builtins that read or write names by string.
var dynamicCalls = set("locals vars eval exec globals dir")

func analyse(f *file) *scopes {
	s := &scopes{f: f}
	s.module = s.newScope(moduleScope, f.root, nil)
	for _, c := range f.root.Children {
		s.visit(c, s.module)
	}
	return s
}

func (s *scopes) newScope(k scopeKind, n *syntax.Node, parent *scope) *scope {
	sc := &scope{kind: k, node: n, parent: parent, bound: map[string][]*syntax.Node{}, params: map[string]bool{},
		imported: map[string]bool{}, defined: map[string]bool{}, global: map[string]bool{}, nonlocal: map[string]bool{}}
	s.all = append(s.all, sc)
	return sc
}

func (s *scopes) name(n *syntax.Node) string { return s.f.text(n) }

func (s *scopes) use(n *syntax.Node, sc *scope) { s.occs = append(s.occs, occ{n: n, sc: sc}) }

func (s *scopes) bind(n *syntax.Node, sc *scope) {
	name := s.name(n)
	sc.bound[name] = append(sc.bound[name], n)
	s.occs = append(s.occs, occ{n: n, sc: sc, bind: true})
}

// visit walks an expression or statement evaluated in sc.
func (s *scopes) visit(n *syntax.Node, sc *scope) {
	switch n.Type {
	case "identifier":
		s.use(n, sc)
	case "attribute":
		if o := n.Child("object"); o != nil {
			s.visit(o, sc)
		}
	case "keyword_argument":
		if v := n.Child("value"); v != nil {
			s.visit(v, sc)
		}
	case "function_definition":
		s.function(n, sc)
	case "lambda":
		s.function(n, sc)
	case "class_definition":
		if nm := n.Child("name"); nm != nil {
			s.bind(nm, sc)
			sc.defined[s.name(nm)] = true
		}
		for _, c := range n.Children {
			if c.Field == "superclasses" || c.Field == "type_parameters" {
				s.visit(c, sc)
			}
		}
		cs := s.newScope(classScope, n, sc)
		if b := n.Child("body"); b != nil {
			s.visit(b, cs)
		}
	case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
		s.comprehension(n, sc)
	case "global_statement", "nonlocal_statement":
		for _, c := range n.NamedChildren() {
			if c.Type == "identifier" {
				if n.Type == "global_statement" {
					sc.global[s.name(c)] = true
				} else {
					sc.nonlocal[s.name(c)] = true
				}
				s.use(c, sc)
			}
		}
	case "import_statement", "import_from_statement":
		for _, c := range n.Children {
			if c.Type == "wildcard_import" {
				sc.dynamic = true
			}
			if c.Field != "name" {
				continue
			}
			var id *syntax.Node
			if c.Type == "aliased_import" {
				id = c.Child("alias")
			} else if len(c.Children) > 0 {
				id = c.Children[0]
			}
			if id != nil && id.Type == "identifier" {
				s.bind(id, sc)
				sc.imported[s.name(id)] = true
			}
		}
	case "future_import_statement":
	case "assignment", "augmented_assignment":
		for _, c := range n.Children {
			switch c.Field {
			case "left":
				s.target(c, sc)
			case "right", "type":
				s.visit(c, sc)
			}
		}
	case "named_expression":
		t := sc
		for t.kind == compScope {
			t = t.parent
		}
		if nm := n.Child("name"); nm != nil {
			s.bind(nm, t)
		}
		if v := n.Child("value"); v != nil {
			s.visit(v, sc)
		}
	case "for_statement":
		for _, c := range n.Children {
			if c.Field == "left" {
				s.target(c, sc)
			} else {
				s.visit(c, sc)
			}
		}
	case "as_pattern":
		for _, c := range n.Children {
			if c.Field == "alias" {
				s.target(c, sc)
			} else {
				s.visit(c, sc)
			}
		}
	case "delete_statement":
		for _, c := range n.NamedChildren() {
			s.target(c, sc)
		}
	case "match_statement":
		sc.dynamic = true
		for _, c := range n.Children {
			s.visit(c, sc)
		}
	case "call":
		if fn := n.Child("function"); fn != nil && fn.Type == "identifier" && dynamicCalls[s.name(fn)] {
			for t := sc; t != nil; t = t.parent {
				t.dynamic = true
			}
		}
		for _, c := range n.Children {
			s.visit(c, sc)
		}
	default:
		for _, c := range n.Children {
			s.visit(c, sc)
		}
	}
}

// target walks an assignment target: names in it bind in sc, the rest
// (subscripts, attribute objects) are uses.
func (s *scopes) target(n *syntax.Node, sc *scope) {
	switch n.Type {
	case "identifier":
		s.bind(n, sc)
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "parenthesized_expression",
		"as_pattern_target", "expression_list", "list_splat_pattern", "list_splat":
		for _, c := range n.NamedChildren() {
			s.target(c, sc)
		}
	default:
		s.visit(n, sc)
	}
}

// function handles a def or a lambda defined in sc.
func (s *scopes) function(n *syntax.Node, sc *scope) {
	if n.Type == "function_definition" {
		if nm := n.Child("name"); nm != nil {
			s.bind(nm, sc)
			sc.defined[s.name(nm)] = true
		}
	}
	fs := s.newScope(funcScope, n, sc)
	for _, c := range n.Children {
		switch c.Field {
		case "parameters":
			s.params(c, sc, fs)
		case "return_type", "type_parameters":
			s.visit(c, sc)
		}
	}
	if b := n.Child("body"); b != nil {
		s.visit(b, fs)
	}
}

// params binds the parameters of a function in fs; defaults and
// annotations are evaluated in the defining scope sc.
func (s *scopes) params(ps *syntax.Node, sc, fs *scope) {
	param := func(id *syntax.Node) {
		if id != nil && id.Type == "identifier" {
			s.bind(id, fs)
			fs.params[s.name(id)] = true
		}
	}
	for _, p := range ps.NamedChildren() {
		switch p.Type {
		case "identifier":
			param(p)
		case "list_splat_pattern", "dictionary_splat_pattern":
			for _, c := range p.NamedChildren() {
				param(c)
			}
		case "default_parameter", "typed_default_parameter":
			param(p.Child("name"))
			for _, c := range p.Children {
				if c.Field == "value" || c.Field == "type" {
					s.visit(c, sc)
				}
			}
		case "typed_parameter":
			for _, c := range p.NamedChildren() {
				switch c.Type {
				case "identifier":
					param(c)
				case "list_splat_pattern", "dictionary_splat_pattern":
					for _, d := range c.NamedChildren() {
						param(d)
					}
				default:
					s.visit(c, sc)
				}
			}
		}
	}
}

// comprehension handles a comprehension in sc: its first iterable is
// evaluated in sc, everything else in its own scope.
func (s *scopes) comprehension(n *syntax.Node, sc *scope) {
	cs := s.newScope(compScope, n, sc)
	first := true
	for _, c := range n.Children {
		switch c.Type {
		case "for_in_clause":
			for _, d := range c.Children {
				switch d.Field {
				case "left":
					s.target(d, cs)
				case "right":
					if first {
						s.visit(d, sc)
					} else {
						s.visit(d, cs)
					}
				}
			}
			first = false
		default:
			s.visit(c, cs)
		}
	}
}

// resolve returns the scope whose binding o refers to, or nil for a
// builtin or an undefined global.
func (s *scopes) resolve(o occ) *scope {
	name := s.name(o.n)
	sc := o.sc
	for {
		switch {
		case sc.global[name]:
			return s.module
		case sc.nonlocal[name]:
			for p := sc.parent; p != nil && p.kind != moduleScope; p = p.parent {
				if p.kind == classScope {
					continue
				}
				if p.nonlocal[name] {
					continue
				}
				if len(p.bound[name]) > 0 {
					return p
				}
			}
			return nil
		case len(sc.bound[name]) > 0:
			return sc
		}
		// Free in sc: look outwards, skipping class scopes.
		sc = sc.parent
		for sc != nil && sc.kind == classScope {
			sc = sc.parent
		}
		if sc == nil {
			return nil
		}
	}
}

// refs returns every occurrence that resolves to the binding of name in
// sc, in document order (s.occs is in walk order, which is close to but
// not exactly document order; callers sort when it matters).
func (s *scopes) refs(sc *scope, name string) []occ {
	var out []occ
	for _, o := range s.occs {
		if s.name(o.n) == name && s.resolve(o) == sc {
			out = append(out, o)
		}
	}
	return out
}

// scopeOf returns the scope whose node is n, or nil.
func (s *scopes) scopeOf(n *syntax.Node) *scope {
	for _, sc := range s.all {
		if sc.node == n {
			return sc
		}
	}
	return nil
}

// inside reports whether scope sc was created by a node inside [start, end).
func (sc *scope) inside(start, end int) bool {
	return sc != nil && sc.node.Start >= start && sc.node.End <= end && sc.kind != moduleScope
}

// enclosing returns the scope that the statement or expression n is
// evaluated in.
func (s *scopes) enclosing(n *syntax.Node) *scope {
	f := s.f
	for c, p := n, f.parent[n]; p != nil; c, p = p, f.parent[p] {
		switch p.Type {
		case "function_definition", "lambda", "class_definition":
			if c.Field == "body" {
				return s.scopeOf(p)
			}
		case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
			return s.scopeOf(p)
		}
	}
	return s.module
}

// builtins are the names of Python 3's builtins module that transforms
// must never rename or shadow.
var builtins = set(`abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr
		classmethod compile complex copyright credits delattr dict dir divmod enumerate eval exec exit filter
		float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter
		len license list locals map max memoryview min next object oct open ord pow print property quit range
		repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip __import__
		__name__ __file__ __doc__ __builtins__ __spec__ __loader__ __package__
		ArithmeticError AssertionError AttributeError BaseException BlockingIOError BrokenPipeError
		BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
		ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError Ellipsis EnvironmentError
		Exception False FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit
		IOError ImportError ImportWarning IndentationError IndexError InterruptedError IsADirectoryError
		KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError None
		NotADirectoryError NotImplemented NotImplementedError OSError OverflowError PendingDeprecationWarning
		PermissionError ProcessLookupError RecursionError ReferenceError ResourceWarning RuntimeError
		RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit
		TabError TimeoutError True TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError
		UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning ZeroDivisionError
		ExceptionGroup BaseExceptionGroup EncodingWarning`)
