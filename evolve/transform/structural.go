package transform

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// wrap returns the edit that puts the lines pre and then header before
// stmt, at stmt's indentation, and indents stmt one level under header.
func (f *file) wrap(stmt *syntax.Node, pre []string, header string, inner ...string) syntax.TextEdit {
	ind, unit := f.indentOf(stmt.Start), f.unit()
	var b strings.Builder
	for _, l := range pre {
		b.WriteString(ind + l + "\n")
	}
	b.WriteString(ind + header + "\n")
	for _, l := range inner {
		b.WriteString(ind + unit + l + "\n")
	}
	b.WriteString(f.indented(stmt.Start, stmt.End, unit))
	return edit(lineStart(f.src, stmt.Start), stmt.End, b.String())
}

// countAncestors returns how many ancestors of n have type typ.
func (f *file) countAncestors(n *syntax.Node, typ string) int {
	k := 0
	for _, a := range f.ancestors(n) {
		if a.Type == typ {
			k++
		}
	}
	return k
}

// wrappable reports whether statement n can be wrapped in a new block.
func (f *file) wrappable(n *syntax.Node) bool {
	return f.isStatement(n) && f.ownLines(n) && !n.Has("async")
}

// apply parses p, finds s and returns p with the edits of rewrite.
func apply(p *Program, s Site, rewrite func(f *file, n *syntax.Node) ([]syntax.TextEdit, error)) (*Program, error) {
	f, err := parse(p.Main)
	if err != nil {
		return nil, err
	}
	n, err := f.lookup(s)
	if err != nil {
		return nil, err
	}
	es, err := rewrite(f, n)
	if err != nil {
		return nil, err
	}
	if bytes.Contains(f.src, []byte("\r\n")) {
		// A CRLF file gets CRLF lines (Python reads both; strings in the
		// source get "\n" either way).
		for i := range es {
			es[i].Text = strings.ReplaceAll(strings.ReplaceAll(es[i].Text, "\r\n", "\n"), "\n", "\r\n")
		}
	}
	out, err := applyEdits(f.src, es)
	if err != nil {
		return nil, err
	}
	return p.with(out), nil
}

// maxNest is GeneBench's limit on nests built by S1–S3: a site inside
// maxNest-1 loops or ifs of its kind is not transformed again.
const maxNest = 4

// addNestedFor is S1.
var addNestedFor = &Transform{
	ID: "S1", Name: "AddNestedFor", Family: Structural,
	Doc: `Wraps a for statement in an outer loop that runs once: "LoopChecker1<L> = a",
"LoopChecker2<L> = a-1" and "for LoopIndexOut in range(LoopChecker1<L> // LoopChecker2<L>):",
L the loop's line and a drawn from [3, 1000] (GeneBench draws from [2, 1000], and a = 2 runs
the loop twice). Sites: for statements on lines of their own, not async, inside fewer than 3
for loops. Conditional: three new names are bound in the enclosing scope (visible to locals()
and, in a class body, as class attributes).`,
	Sites: func(p *Program) []Site {
		return sitesOf(p, func(f *file) []*syntax.Node {
			return f.find(func(n *syntax.Node) bool {
				return n.Type == "for_statement" && f.wrappable(n) && f.countAncestors(n, "for_statement") < maxNest-1
			})
		}, nil)
	},
	Apply: func(p *Program, s Site, rng *rand.Rand) (*Program, error) {
		return apply(p, s, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
			a := 3 + rng.IntN(998)
			l := strconv.Itoa(n.Line)
			c1 := f.fresh("LoopChecker1" + l)
			c2 := f.fresh("LoopChecker2"+l, c1)
			idx := f.fresh("LoopIndexOut", c1, c2)
			return []syntax.TextEdit{f.wrap(n, []string{fmt.Sprintf("%s = %d", c1, a), fmt.Sprintf("%s = %d", c2, a-1)},
				fmt.Sprintf("for %s in range(%s // %s):", idx, c1, c2))}, nil
		})
	},
}

// addNestedIf is S2.
var addNestedIf = &Transform{
	ID: "S2", Name: "AddNestedIf", Family: Structural,
	Doc: `Wraps an if statement (with its elif and else clauses) in "if ConditionChecker1<L> &
ConditionChecker2<L>:", preceded by the two assignments, a and b drawn from [2, 1000] with
a & b != 0 (GeneBench allows a & b == 0, which disables the original if). Sites: if statements on
lines of their own, not the if __name__ == "__main__" guard, inside fewer than 3 ifs.
Conditional: two new names are bound in the enclosing scope.`,
	Sites: func(p *Program) []Site {
		return sitesOf(p, func(f *file) []*syntax.Node {
			return f.find(func(n *syntax.Node) bool {
				if n.Type != "if_statement" || !f.wrappable(n) || f.countAncestors(n, "if_statement") >= maxNest-1 {
					return false
				}
				c := n.Child("condition")
				return c == nil || !strings.Contains(f.text(c), "__name__")
			})
		}, nil)
	},
	Apply: func(p *Program, s Site, rng *rand.Rand) (*Program, error) {
		return apply(p, s, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
			a := 2 + rng.IntN(999)
			b := 2 + rng.IntN(999)
			for a&b == 0 {
				b = 2 + rng.IntN(999)
			}
			l := strconv.Itoa(n.Line)
			c1 := f.fresh("ConditionChecker1" + l)
			c2 := f.fresh("ConditionChecker2"+l, c1)
			return []syntax.TextEdit{f.wrap(n, []string{fmt.Sprintf("%s = %d", c1, a), fmt.Sprintf("%s = %d", c2, b)},
				fmt.Sprintf("if %s & %s:", c1, c2))}, nil
		})
	},
}

// addNestedWhile is S3.
var addNestedWhile = &Transform{
	ID: "S3", Name: "AddNestedWhile", Family: Structural,
	Doc: `Wraps a while statement in an outer while loop that runs once:
"WhileChecker1<L> = a", "WhileChecker2<L> = a-1",
"while WhileChecker1<L> % WhileChecker2<L> == 1: WhileChecker1<L> += 1; <the while>", a drawn
from [3, 1000] (GeneBench draws from [2, 1000], and a = 2 never runs the loop). Sites: while
statements on lines of their own inside fewer than 3 while loops. Conditional: two new names are
bound in the enclosing scope.`,
	Sites: func(p *Program) []Site {
		return sitesOf(p, func(f *file) []*syntax.Node {
			return f.find(func(n *syntax.Node) bool {
				return n.Type == "while_statement" && f.wrappable(n) && f.countAncestors(n, "while_statement") < maxNest-1
			})
		}, nil)
	},
	Apply: func(p *Program, s Site, rng *rand.Rand) (*Program, error) {
		return apply(p, s, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
			a := 3 + rng.IntN(998)
			l := strconv.Itoa(n.Line)
			w1 := f.fresh("WhileChecker1" + l)
			w2 := f.fresh("WhileChecker2"+l, w1)
			return []syntax.TextEdit{f.wrap(n, []string{fmt.Sprintf("%s = %d", w1, a), fmt.Sprintf("%s = %d", w2, a-1)},
				fmt.Sprintf("while %s %% %s == 1:", w1, w2), w1+" += 1")}, nil
		})
	},
}

// addTryExcept is S5.
var addTryExcept = &Transform{
	ID: "S5", Name: "AddTryExcept", Family: Structural,
	Doc: `Wraps the body of a function (after its docstring) in "try: ... except: raise".
GeneBench writes "except: pass", which swallows every exception and makes the function return
None; re-raising keeps the behaviour. Sites: functions whose body is on lines of its own and is not
already a single try statement. Conditional: tracebacks show the extra try.`,
	Sites: func(p *Program) []Site {
		return sitesOf(p, func(f *file) []*syntax.Node {
			return f.find(func(n *syntax.Node) bool {
				if n.Type != "function_definition" {
					return false
				}
				stmts := bodyStatements(n)
				return len(stmts) > 0 && f.blockOnOwnLines(n.Child("body")) &&
					!(len(stmts) == 1 && stmts[0].Type == "try_statement")
			})
		}, nil)
	},
	Apply: func(p *Program, s Site, rng *rand.Rand) (*Program, error) {
		return apply(p, s, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
			stmts := bodyStatements(n)
			first, last := stmts[0], stmts[len(stmts)-1]
			ind, unit := f.indentOf(first.Start), f.unit()
			text := ind + "try:\n" + f.indented(first.Start, last.End, unit) + "\n" + ind + "except:\n" + ind + unit + "raise"
			return []syntax.TextEdit{edit(lineStart(f.src, first.Start), last.End, text)}, nil
		})
	},
}

// bodyStatements returns the statements of a function's body after its
// docstring, comments left out.
func bodyStatements(fn *syntax.Node) []*syntax.Node {
	b := fn.Child("body")
	if b == nil {
		return nil
	}
	var out []*syntax.Node
	for _, c := range b.NamedChildren() {
		if c.Type == "comment" || isDocstringOf(b, c) {
			continue
		}
		out = append(out, c)
	}
	return out
}
