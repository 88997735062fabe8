package transform

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// transformLoopToRecursion is S11.
var transformLoopToRecursion = &Transform{
	ID: "S11", Name: "TransformLoopToRecursion", Family: Structural,
	Doc: `Replaces "for v in range(args): body" by a local recursive function
"def loop_<L>_<C>(r, k)" that returns when k >= len(r), else sets v = r[k], runs the body and
calls itself with k + 1, declared "nonlocal" (or "global" at module level) for v and every name
the body binds; the loop becomes "loop_<L>_<C>(range(args), 0)". Building the range object first
keeps range's argument checks (a zero step, a float) and its arithmetic. GeneBench passes (i,
stop, step) instead and turns a zero step into an empty loop. Sites: loops over the builtin range
with a plain loop variable other than _, no else clause, a body on lines of its own with no break
or continue of this loop, no return, yield or await, and no def, lambda or class; in a function,
every name the body binds must also be bound outside the loop (so "nonlocal" finds it), except
names nothing outside the loop uses: the loop variable, and temporaries that each iteration
assigns (by a plain assignment or for statement of the body) before reading them; those stay
local to the helper.
Conditional: each iteration is one more Python frame, so loops of more than about
sys.getrecursionlimit() - depth iterations raise RecursionError.`,
	Sites: func(p *Program) []Site {
		return sitesOf(p, func(f *file) []*syntax.Node {
			s := analyse(f)
			return f.find(func(n *syntax.Node) bool { _, ok := recursionPlan(s, n); return ok })
		}, nil)
	},
	Apply: func(p *Program, site Site, rng *rand.Rand) (*Program, error) {
		return apply(p, site, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
			s := analyse(f)
			plan, ok := recursionPlan(s, n)
			if !ok {
				return nil, fmt.Errorf("transform: S11: %s is not a site", site.Key)
			}
			col := n.Start - lineStart(f.src, n.Start)
			helper := f.fresh("loop_" + strconv.Itoa(n.Line) + "_" + strconv.Itoa(col))
			r := f.fresh("loop_range", helper)
			k := f.fresh("loop_index", helper, r)
			ind, unit := f.indentOf(n.Start), f.unit()
			v := f.text(n.Child("left"))
			var b strings.Builder
			b.WriteString("def " + helper + "(" + r + ", " + k + "):\n")
			if len(plan.names) > 0 {
				b.WriteString(ind + unit + plan.decl + " " + strings.Join(plan.names, ", ") + "\n")
			}
			b.WriteString(ind + unit + "if " + k + " >= len(" + r + "):\n")
			b.WriteString(ind + unit + unit + "return\n")
			b.WriteString(ind + unit + v + " = " + r + "[" + k + "]\n")
			body := n.Child("body")
			stmts := body.NamedChildren()
			from := f.indentOf(stmts[0].Start)
			b.WriteString(f.rebase(stmts[0].Start, body.End, from, ind+unit))
			b.WriteString("\n" + ind + unit + helper + "(" + r + ", " + k + " + 1)\n")
			args := n.Child("right").Child("arguments")
			b.WriteString(ind + helper + "(range" + f.text(args) + ", 0)")
			return []syntax.TextEdit{edit(n.Start, n.End, b.String())}, nil
		})
	},
}

// loopPlan is what S11 needs to know about a loop.
type loopPlan struct {
	decl  string   // "nonlocal" or "global"
	names []string // names to declare, sorted
}

// recursionPlan checks an S11 site and returns the declarations its helper
// needs.
func recursionPlan(s *scopes, n *syntax.Node) (loopPlan, bool) {
	if !isRangeLoop(s, n) {
		return loopPlan{}, false
	}
	sc := s.enclosing(n)
	plan := loopPlan{decl: "nonlocal"}
	switch {
	case sc.Kind == syntax.ScopeModule:
		plan.decl = "global"
	case sc.Kind != syntax.ScopeFunction:
		return loopPlan{}, false
	}
	names, ok := loopNames(s, n, sc)
	if !ok {
		return loopPlan{}, false
	}
	for _, nm := range names {
		if symbol(sc, nm).Global && plan.decl == "nonlocal" {
			return loopPlan{}, false
		}
	}
	slices.Sort(names)
	plan.names = names
	return plan, true
}

// isRangeLoop reports whether n is a loop S11 can turn into a recursive
// helper: a wrappable for over the builtin range (one to three plain
// arguments, len not rebound anywhere) into a plain variable, without an
// else clause, whose body is on its own lines and neither returns,
// yields, awaits, defines functions or classes, declares names nor
// breaks or continues the loop.
func isRangeLoop(s *scopes, n *syntax.Node) bool {
	f := s.f
	if n.Type != "for_statement" || !f.wrappable(n) || n.Child("alternative") != nil {
		return false
	}
	left, right, body := n.Child("left"), n.Child("right"), n.Child("body")
	if left == nil || right == nil || body == nil || left.Type != "identifier" || f.text(left) == "_" ||
		right.Type != "call" || !f.blockOnOwnLines(body) {
		return false
	}
	fn, args := right.Child("function"), right.Child("arguments")
	if fn == nil || fn.Type != "identifier" || f.text(fn) != "range" || args == nil || args.Type != "argument_list" {
		return false
	}
	if o, ok := s.RefAt(fn); !ok || s.resolve(o) != nil {
		return false
	}
	for _, sc := range s.all {
		if len(symbol(sc, "len").Binds) > 0 {
			return false
		}
	}
	as := args.NamedChildren()
	if len(as) < 1 || len(as) > 3 {
		return false
	}
	for _, a := range as {
		if a.Type == "keyword_argument" || a.Type == "list_splat" || a.Type == "dictionary_splat" || a.Type == "comment" {
			return false
		}
	}
	return !contains(body, "return_statement", "yield", "await", "function_definition", "lambda", "class_definition",
		"global_statement", "nonlocal_statement") && !jumpsOut(body)
}

// loopNames returns the names of scope sc that loop n's helper must
// declare global or nonlocal: at module level every name the body binds
// and the loop variable; in a function the names bound both in the body
// and outside the loop, and the loop variable when code outside reads it.
// A name the body binds that is read outside the loop but bound only in
// it (other than a temporary the body assigns first) rules the loop out.
func loopNames(s *scopes, n *syntax.Node, sc *syntax.Scope) ([]string, bool) {
	body := n.Child("body")
	v := s.f.text(n.Child("left"))
	var names []string
	for _, o := range s.refs {
		if o.Binds && o.Node.Start >= body.Start && o.Node.End <= body.End && s.resolve(o) == sc {
			if nm := s.name(o.Node); !slices.Contains(names, nm) {
				names = append(names, nm)
			}
		}
	}
	outside := func(name string, bindOnly bool) bool {
		for _, o := range s.refs {
			if s.name(o.Node) == name && (o.Node.Start < n.Start || o.Node.End > n.End) && (o.Binds || !bindOnly) && s.resolve(o) == sc {
				return true
			}
		}
		return false
	}
	if sc.Kind == syntax.ScopeModule {
		if !slices.Contains(names, v) {
			names = append(names, v)
		}
		return names, true
	}
	var declared []string
	for _, nm := range names {
		switch {
		case outside(nm, true):
			declared = append(declared, nm)
		case !outside(nm, false) && assignedFirst(s, body, nm):
			// A temporary of the iteration: local to the helper.
		default:
			return nil, false
		}
	}
	names = declared
	if outside(v, false) {
		if !outside(v, true) {
			return nil, false
		}
		if !slices.Contains(names, v) {
			names = append(names, v)
		}
	}
	return names, true
}

// jumpsOut reports whether a loop body has a break or continue that
// belongs to the loop (not to a loop nested in it).
func jumpsOut(body *syntax.Node) bool {
	found := false
	var walk func(n *syntax.Node)
	walk = func(n *syntax.Node) {
		for _, c := range n.Children {
			switch c.Type {
			case "break_statement", "continue_statement":
				found = true
			case "for_statement", "while_statement":
				// break and continue in the nested loop's body are its own;
				// its else clause belongs to us.
				if alt := c.Child("alternative"); alt != nil {
					walk(alt)
				}
				continue
			}
			walk(c)
		}
	}
	walk(body)
	return found
}

// rebase returns the lines of src[lineStart(start):end] with the
// indentation from replaced by to, leaving multi-line string literals
// untouched; a line indented less than from (a comment) gets to.
func (f *file) rebase(start, end int, from, to string) string {
	start = lineStart(f.src, start)
	var b strings.Builder
	for at := start; at < end; {
		nl := bytes.IndexByte(f.src[at:end], '\n')
		stop := end
		if nl >= 0 {
			stop = at + nl + 1
		}
		line := f.src[at:stop]
		switch {
		case f.inString(at):
			b.Write(line)
		case isBlankBytes(bytes.TrimRight(line, "\n")):
			if bytes.HasSuffix(line, []byte{'\n'}) {
				b.WriteByte('\n')
			}
		case bytes.HasPrefix(line, []byte(from)):
			b.WriteString(to)
			b.Write(line[len(from):])
		default:
			b.WriteString(to)
			b.Write(bytes.TrimLeft(line, " \t"))
		}
		at = stop
	}
	return b.String()
}

// assignedFirst reports whether every iteration of a loop body binds name
// before anything reads it: its first occurrence in the body is in the
// target of an assignment or for statement that is a statement of the
// body itself (not nested in an if), and the value or iterable of that
// statement does not mention it.
func assignedFirst(s *scopes, body *syntax.Node, name string) bool {
	f := s.f
	var first *syntax.Node
	for _, id := range body.Identifiers() {
		if f.text(id) == name {
			first = id
			break
		}
	}
	if first == nil {
		return false
	}
	for _, st := range body.NamedChildren() {
		if first.Start < st.Start || first.End > st.End {
			continue
		}
		var target, value *syntax.Node
		if a := assignmentOf(st); a != nil && a.Type == "assignment" {
			target, value = a.Child("left"), a.Child("right")
		} else if st.Type == "for_statement" {
			target, value = st.Child("left"), st.Child("right")
		}
		if target == nil || value == nil || first.Start < target.Start || first.End > target.End {
			return false
		}
		for _, id := range value.Identifiers() {
			if f.text(id) == name {
				return false
			}
		}
		return true
	}
	return false
}
