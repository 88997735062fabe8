package transform

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// contains reports whether the subtree n has a node of one of the types.
func contains(n *syntax.Node, types ...string) bool {
	found := false
	n.Walk(func(c *syntax.Node) bool {
		if slices.Contains(types, c.Type) {
			found = true
		}
		return !found
	})
	return found
}

// freeNames returns the distinct names used in the expression n that
// resolve to a local of an enclosing function or class scope (globals and
// builtins resolve the same from a module-level function). ok is false when n binds a name in the enclosing
// scope (a walrus) or uses a private name that class name mangling would
// change if the expression moved out of its class.
func (s *scopes) freeNames(n *syntax.Node) (names []string, ok bool) {
	for _, o := range s.refs {
		if o.Node.Start < n.Start || o.Node.End > n.End {
			continue
		}
		name := s.name(o.Node)
		if strings.HasPrefix(name, "__") && !strings.HasSuffix(name, "__") {
			return nil, false
		}
		r := s.resolve(o)
		if inside(r, n.Start, n.End) {
			continue
		}
		if o.Binds {
			return nil, false
		}
		if r == nil || r == s.Module() {
			continue // a module-level function sees the same global or builtin
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names, true
}

// byFirstUse orders names by their first occurrence in n.
func (f *file) byFirstUse(n *syntax.Node, names []string) []string {
	pos := map[string]int{}
	for _, id := range n.Identifiers() {
		if _, ok := pos[f.text(id)]; !ok {
			pos[f.text(id)] = id.Start
		}
	}
	out := slices.Clone(names)
	slices.SortStableFunc(out, func(a, b string) int { return pos[a] - pos[b] })
	return out
}

// hasPrivateAttr reports whether n uses an attribute __x (mangled in a
// class body).
func (f *file) hasPrivateAttr(n *syntax.Node) bool {
	bad := false
	n.Walk(func(c *syntax.Node) bool {
		if c.Type == "identifier" {
			t := f.text(c)
			if strings.HasPrefix(t, "__") && !strings.HasSuffix(t, "__") {
				bad = true
			}
		}
		return !bad
	})
	return bad
}

// assignmentOf returns the assignment or augmented assignment of an
// expression statement, or nil.
func assignmentOf(stmt *syntax.Node) *syntax.Node {
	if stmt.Type != "expression_statement" || len(stmt.NamedChildren()) != 1 {
		return nil
	}
	a := stmt.NamedChildren()[0]
	if a.Type == "assignment" || a.Type == "augmented_assignment" {
		return a
	}
	return nil
}

// addThread is S4.
var addThread = &Transform{
	ID: "S4", Name: "AddThread", Family: Structural,
	Doc: `Runs the call of "t = f(args)", f a function defined (once) by a def in the program, in a new
thread: a queue, a nested "def f_thread<k>(queue_arg)" that puts (True, f(args)) or (False,
exception) on it, a threading.Thread that is started and joined, and "t = result_f<k>"; the
exception is raised again in the caller (GeneBench's version leaves the caller blocked on the
empty queue until the harness times out). Adds "import threading" and "import queue". Sites:
such assignments on lines of their own in a function body or at module level, when the names
threading and queue are free or bound only by those imports and the call has no await, yield or
walrus. Conditional: the call runs in another thread (thread-locals, the recursion limit and the
C stack size of threads differ; a recursive f starts one thread per level).`,
	Sites: func(p *Program) []Site {
		return sitesOf(p, func(f *file) []*syntax.Node {
			s := analyse(f)
			if !s.importUsable("threading") || !s.importUsable("queue") {
				return nil
			}
			return f.find(func(n *syntax.Node) bool { return threadCall(s, n) != nil })
		}, nil)
	},
	Apply: func(p *Program, site Site, rng *rand.Rand) (*Program, error) {
		return apply(p, site, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
			s := analyse(f)
			call := threadCall(s, n)
			if call == nil {
				return nil, fmt.Errorf("transform: S4: %s is not a thread site", site.Key)
			}
			a := assignmentOf(n)
			fn := f.text(call.Child("function"))
			k := 0
			for f.idents["queue_"+fn+strconv.Itoa(k)] || f.idents[fn+"_thread"+strconv.Itoa(k)] {
				k++
			}
			ks := strconv.Itoa(k)
			q, th, res, ok := "queue_"+fn+ks, "thread_"+fn+ks, "result_"+fn+ks, "ok_"+fn+ks
			worker := fn + "_thread" + ks
			arg := f.fresh("queue_arg", q, th, res, ok, worker)
			exc := f.fresh("exc", arg, q, th, res, ok, worker)
			unit := f.unit()
			lines := []string{
				q + " = queue.Queue()",
				"def " + worker + "(" + arg + "):",
				unit + "try:",
				unit + unit + arg + ".put((True, " + f.text(call) + "))",
				unit + "except BaseException as " + exc + ":",
				unit + unit + arg + ".put((False, " + exc + "))",
				th + " = threading.Thread(target=" + worker + ", args=(" + q + ",))",
				th + ".start()",
				th + ".join()",
				ok + ", " + res + " = " + q + ".get()",
				"if not " + ok + ":",
				unit + "raise " + res,
				f.text(a.Child("left")) + " = " + res,
			}
			ind := f.indentOf(n.Start)
			for i := range lines {
				if i > 0 {
					lines[i] = ind + lines[i]
				}
			}
			es := []syntax.TextEdit{edit(n.Start, n.End, strings.Join(lines, "\n"))}
			var imports []string
			for _, m := range []string{"queue", "threading"} {
				if !f.idents[m] {
					imports = append(imports, "import "+m)
				}
			}
			return append(f.insertImports(imports...), es...), nil
		})
	},
}

// threadCall returns the call of an S4 site, or nil.
func threadCall(s *scopes, n *syntax.Node) *syntax.Node {
	f := s.f
	if !f.isStatement(n) || !f.ownLines(n) {
		return nil
	}
	a := assignmentOf(n)
	if a == nil || a.Type != "assignment" || a.Child("type") != nil {
		return nil
	}
	l, r := a.Child("left"), a.Child("right")
	if l == nil || r == nil || l.Type != "identifier" || r.Type != "call" {
		return nil
	}
	fn := r.Child("function")
	if fn == nil || fn.Type != "identifier" || contains(r, "await", "yield", "named_expression") {
		return nil
	}
	sc := s.enclosing(n)
	if !isFunc(sc) && sc.Kind != syntax.ScopeModule {
		return nil
	}
	o, ok := s.RefAt(fn)
	if !ok {
		return nil
	}
	def := s.resolve(o)
	if def == nil || !symbol(def, f.text(fn)).Defined || len(symbol(def, f.text(fn)).Binds) != 1 {
		return nil
	}
	if isFunc(sc) && (sc.Node.Type != "function_definition" || sc.Node.Has("async")) {
		return nil
	}
	return r
}

// importUsable reports whether "import name" can be added: the name is
// not used, or it is bound only by a top-level import of that module.
func (s *scopes) importUsable(name string) bool {
	if !s.f.idents[name] {
		return true
	}
	for _, sc := range s.all {
		if sym := symbol(sc, name); len(sym.Binds) > 0 && (sc != s.Module() || !sym.Imported || len(sym.Binds) != 1) {
			return false
		}
	}
	b := symbol(s.Module(), name).Binds
	if len(b) != 1 {
		return false
	}
	stmt := s.f.parent[b[0]]
	if stmt.Type == "dotted_name" {
		stmt = s.f.parent[stmt]
	}
	return stmt.Type == "import_statement" && strings.TrimSpace(s.f.text(stmt)) == "import "+name
}

// newFuncRE matches the functions S6 creates.
var newFuncRE = regexp.MustCompile(`^newFunc[0-9]+_[0-9]+$`)

// createFunction is S6.
var createFunction = &Transform{
	ID: "S6", Name: "CreateFunction", Family: Structural,
	Doc: `Moves the binary operation on the right of an assignment or augmented assignment,
or returned by a return statement, into a new module-level function "def newFunc<k>_<L>(<free names>): return (<expression>)",
placed before the top-level statement holding the site, and calls it with the free names of the
expression that are locals of the enclosing functions or class (globals and builtins resolve
the same from the new function). GeneBench also hoists literals and
subscripts out of the expression, which changes evaluation order; this version hoists nothing.
Sites: such statements on lines of their own whose expression has no walrus, yield, await,
super() or private (__x) name. Conditional: every free name is read before the expression runs,
so a name the expression would not reach (after "and", "or" or in a conditional expression) is
looked up eagerly and may raise NameError or UnboundLocalError where the original did not.`,
	Sites: func(p *Program) []Site {
		return sitesOf(p, func(f *file) []*syntax.Node {
			s := analyse(f)
			return f.find(func(n *syntax.Node) bool { return createSite(s, n) != nil })
		}, nil)
	},
	Apply: func(p *Program, site Site, rng *rand.Rand) (*Program, error) {
		return apply(p, site, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
			s := analyse(f)
			rhs := createSite(s, n)
			if rhs == nil {
				return nil, fmt.Errorf("transform: S6: %s is not a site", site.Key)
			}
			names, _ := s.freeNames(rhs)
			names = f.byFirstUse(rhs, names)
			k := 0
			for f.idents["newFunc"+strconv.Itoa(k)+"_"+strconv.Itoa(n.Line)] {
				k++
			}
			name := "newFunc" + strconv.Itoa(k) + "_" + strconv.Itoa(n.Line)
			args := strings.Join(names, ", ")
			def := "def " + name + "(" + args + "):\n" + f.unit() + "return (" + f.text(rhs) + ")\n\n\n"
			top := f.topLevel(n)
			at := lineStart(f.src, top.Start)
			return []syntax.TextEdit{edit(at, at, def), edit(rhs.Start, rhs.End, name+"("+args+")")}, nil
		})
	},
}

// createSite returns the expression an S6 site moves, or nil.
func createSite(s *scopes, n *syntax.Node) *syntax.Node {
	f := s.f
	if !f.isStatement(n) || !f.ownLines(n) || f.topLevel(n) == nil || !f.ownLines(f.topLevel(n)) {
		return nil
	}
	var rhs *syntax.Node
	if a := assignmentOf(n); a != nil {
		rhs = a.Child("right")
	} else if n.Type == "return_statement" && len(n.NamedChildren()) == 1 {
		rhs = n.NamedChildren()[0]
	}
	if rhs == nil || rhs.Type != "binary_operator" || contains(rhs, "await", "yield", "named_expression") || f.hasPrivateAttr(rhs) {
		return nil
	}
	supers := false
	rhs.Walk(func(c *syntax.Node) bool {
		if c.Type == "identifier" && f.text(c) == "super" {
			supers = true
		}
		return true
	})
	if supers {
		return nil
	}
	if _, ok := s.freeNames(rhs); !ok {
		return nil
	}
	return rhs
}

// createModuleDependencies is S7.
var createModuleDependencies = &Transform{
	ID: "S7", Name: "CreateModuleDependencies", Family: Structural,
	Doc: `Moves a module-level function made by S6 (named newFunc<k>_<L>, reading only its
parameters, builtins and names bound once by a top-level import) into a new module newClass<N>.py (N drawn from [2, 100000], unused), together with a
copy of the program's top-level imports, and imports it back with "from newClass<N> import
newFunc<k>_<L>" where the function was. Conditional: the new module must be importable (shipped
beside the program, on sys.path, and not shadowed by another module of that name).`,
	Sites: func(p *Program) []Site {
		return sitesOf(p, func(f *file) []*syntax.Node {
			s := analyse(f)
			return f.find(func(n *syntax.Node) bool { return movable(s, n) })
		}, nil)
	},
	Apply: func(p *Program, site Site, rng *rand.Rand) (*Program, error) {
		f, err := parse(p.Main)
		if err != nil {
			return nil, err
		}
		n, err := f.lookup(site)
		if err != nil {
			return nil, err
		}
		if !movable(analyse(f), n) {
			return nil, fmt.Errorf("transform: S7: %s is not a site", site.Key)
		}
		var mod string
		for {
			mod = "newClass" + strconv.Itoa(2+rng.IntN(99999))
			if _, taken := p.Modules[mod+".py"]; !taken && !f.idents[mod] {
				break
			}
		}
		var imports []string
		for _, c := range f.root.NamedChildren() {
			if c.Type == "import_statement" || c.Type == "import_from_statement" || c.Type == "future_import_statement" {
				imports = append(imports, f.text(c))
			}
		}
		body := f.text(n) // a top-level def: nothing to re-indent
		modSrc := body + "\n"
		if len(imports) > 0 {
			modSrc = strings.Join(imports, "\n") + "\n\n\n" + modSrc
		}
		name := f.text(n.Child("name"))
		out, err := applyEdits(f.src, []syntax.TextEdit{edit(n.Start, n.End, "from "+mod+" import "+name)})
		if err != nil {
			return nil, err
		}
		q := p.with(out)
		if q.Modules == nil {
			q.Modules = map[string][]byte{}
		}
		q.Modules[mod+".py"] = []byte(modSrc)
		return q, nil
	},
}

// movable reports whether n is a module-level S6 function that reads
// nothing but its parameters.
func movable(s *scopes, n *syntax.Node) bool {
	f := s.f
	if n.Type != "function_definition" || f.parent[n] != f.root || !f.ownLines(n) {
		return false
	}
	nm := n.Child("name")
	if nm == nil || !newFuncRE.MatchString(f.text(nm)) || len(symbol(s.Module(), f.text(nm)).Binds) != 1 {
		return false
	}
	fs := s.ScopeOf(n)
	for _, o := range s.refs {
		if o.Node.Start < n.Start || o.Node.End > n.End || o.Node == nm {
			continue
		}
		r := s.resolve(o)
		if sym := symbol(s.Module(), s.name(o.Node)); r == s.Module() && sym.Imported && len(sym.Binds) == 1 {
			continue // the imports go with it
		}
		if r != nil && !inside(r, n.Start, n.End) {
			return false
		}
		if r == nil && !builtins[s.name(o.Node)] {
			return false
		}
	}
	return fs != nil
}

// introduceDecorator is S8.
var introduceDecorator = &Transform{
	ID: "S8", Name: "IntroduceDecorator", Family: Structural,
	Doc: `Adds "def my_decorator(func)" (a wrapper "dec_result(*args, **kwargs)" that calls func
and returns its result) after the module's docstring and imports, and decorates a function with
"@my_decorator", placed last, next to the def, so that staticmethod, classmethod and property
wrap the decorated function rather than the other way round. Applies only while the name
my_decorator is unused, so at most once per program. Sites: every def on a line of its own.
Conditional: introspection sees dec_result (__name__, __doc__, the signature), and the call
stack is one frame deeper.`,
	Sites: func(p *Program) []Site {
		return sitesOf(p, func(f *file) []*syntax.Node {
			if f.idents["my_decorator"] {
				return nil
			}
			return f.find(func(n *syntax.Node) bool {
				return n.Type == "function_definition" && f.ownLines(n)
			})
		}, nil)
	},
	Apply: func(p *Program, site Site, rng *rand.Rand) (*Program, error) {
		return apply(p, site, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
			if f.idents["my_decorator"] {
				return nil, fmt.Errorf("transform: S8: my_decorator exists")
			}
			u := f.unit()
			def := "def my_decorator(func):\n" + u + "def dec_result(*args, **kwargs):\n" + u + u +
				"res = func(*args, **kwargs)\n" + u + u + "return res\n" + u + "return dec_result\n"
			// After the last import of the module's head, or before its
			// first statement.
			at, afterImport := f.importPos(), false
			for _, c := range f.root.NamedChildren() {
				if c.Start < at || c.Type == "comment" {
					continue
				}
				if c.Type != "import_statement" && c.Type != "import_from_statement" {
					break
				}
				at, afterImport = len(f.src), true
				if nl := bytes.IndexByte(f.src[c.End:], '\n'); nl >= 0 {
					at = c.End + nl + 1
				}
			}
			switch {
			case afterImport:
				def = "\n\n" + def
			case at < len(f.src):
				def += "\n\n"
			}
			if at == len(f.src) && at > 0 && f.src[at-1] != '\n' {
				def = "\n" + def
			}
			ind := f.indentOf(n.Start)
			return []syntax.TextEdit{edit(at, at, def), edit(n.Start, n.Start, "@my_decorator\n"+ind)}, nil
		})
	},
}
