package measure

import "github.com/adaptbench/adaptbench/internal/syntax"

// C1 is computed on a statement-level control-flow graph:
//
//   - One unit per module and per function body (def or async def;
//     lambdas are expressions). Each unit has an entry and an exit node;
//     class bodies run inline in the unit that defines the class.
//   - One node per simple statement and per compound-statement header: the
//     test of each if and elif, the header of each for and while (taken
//     once per iteration), each try, except/except*, with and match header,
//     each case. A def or class statement is one node of its unit.
//   - Edges: fall-through to the next statement; from a test to its
//     branch bodies and, without an else, past the statement; from a loop
//     header into the body, back from the end of the body (and from
//     continue) to the header, and out of the loop to its else clause or
//     the next statement; from break past the loop; from return and raise
//     to the unit's exit; from a try header to the try body and to each
//     handler (the artifact's PyCFG convention), with else after the body
//     and finally after everything; from a match header to each case and,
//     unless the last case is `case _`, past the statement.
//   - Not modelled: short-circuit and/or, conditional expressions,
//     comprehensions, exceptions raised by arbitrary statements, calls.
//
// C1 = E − N + 2P with P the number of units, each unit being one
// connected component. For structured code this is the number of units
// plus the number of decisions (if/elif tests, loops, handlers, cases
// beyond the first, match fall-through), McCabe's count summed over the
// module and its functions.
type cfg struct {
	src   []byte
	nodes int
	edges int
	units int
	loops []*loopCtx
	exit  int // exit node of the current unit
}

type loopCtx struct {
	breaks []int // break statements, which leave the loop
}

// cyclomatic returns E − N + 2P for the module rooted at root.
func cyclomatic(root *syntax.Node, src []byte) int {
	g := &cfg{src: src}
	g.unit(root)
	return g.edges - g.nodes + 2*g.units
}

func (g *cfg) node() int { g.nodes++; return g.nodes }

// link adds an edge from each of preds to one node. Only the counts of
// nodes and edges matter for C1, so the graph is counted as it is built
// rather than stored.
func (g *cfg) link(preds []int, _ int) { g.edges += len(preds) }

// unit builds the graph of a module or a function body.
func (g *cfg) unit(body *syntax.Node) {
	savedExit, savedLoops := g.exit, g.loops
	g.units++
	entry := g.node()
	g.exit = g.node()
	g.loops = nil
	out := g.stmts(body, []int{entry})
	g.link(out, g.exit)
	g.exit, g.loops = savedExit, savedLoops
}

// stmts threads control through the statements that are the named
// children of n (a module, block or clause), returning the nodes that
// fall through past the last one.
func (g *cfg) stmts(n *syntax.Node, preds []int) []int {
	if n == nil {
		return preds
	}
	for _, s := range n.Children {
		if !s.Named || s.Type == "comment" || s.Type == "line_continuation" {
			continue
		}
		preds = g.stmt(s, preds)
	}
	return preds
}

// simple adds one node reached from preds.
func (g *cfg) simple(preds []int) int {
	n := g.node()
	g.link(preds, n)
	return n
}

// stmt adds statement s reached from preds and returns its fall-through
// nodes.
func (g *cfg) stmt(s *syntax.Node, preds []int) []int {
	switch s.Type {
	case "if_statement":
		return g.ifStmt(s, preds)
	case "for_statement", "while_statement":
		return g.loop(s, preds)
	case "try_statement":
		return g.try(s, preds)
	case "with_statement":
		return g.stmts(s.Child("body"), []int{g.simple(preds)})
	case "match_statement":
		return g.match(s, preds)
	case "decorated_definition":
		if def := s.Child("definition"); def != nil {
			return g.stmt(def, preds)
		}
		return []int{g.simple(preds)}
	case "function_definition":
		n := g.simple(preds)
		g.unit(s.Child("body"))
		return []int{n}
	case "class_definition":
		return g.stmts(s.Child("body"), []int{g.simple(preds)})
	case "return_statement", "raise_statement":
		n := g.simple(preds)
		g.link([]int{n}, g.exit)
		return nil
	case "break_statement":
		n := g.simple(preds)
		if k := len(g.loops); k > 0 {
			g.loops[k-1].breaks = append(g.loops[k-1].breaks, n)
		}
		return nil
	case "continue_statement":
		n := g.simple(preds)
		if len(g.loops) > 0 {
			g.link([]int{n}, 0) // back to the loop header
		}
		return nil
	}
	return []int{g.simple(preds)}
}

func (g *cfg) ifStmt(s *syntax.Node, preds []int) []int {
	test := g.simple(preds)
	out := g.stmts(s.Child("consequence"), []int{test})
	hasElse := false
	for _, ch := range s.Children {
		switch ch.Type {
		case "elif_clause":
			t := g.simple([]int{test})
			test = t
			out = append(out, g.stmts(ch.Child("consequence"), []int{t})...)
		case "else_clause":
			hasElse = true
			out = append(out, g.stmts(ch.Child("body"), []int{test})...)
		}
	}
	if !hasElse {
		out = append(out, test)
	}
	return out
}

func (g *cfg) loop(s *syntax.Node, preds []int) []int {
	h := g.simple(preds)
	l := &loopCtx{}
	g.loops = append(g.loops, l)
	body := g.stmts(s.Child("body"), []int{h})
	g.link(body, h)
	g.loops = g.loops[:len(g.loops)-1]
	out := l.breaks
	if e := s.Child("alternative"); e != nil {
		return append(out, g.stmts(e.Child("body"), []int{h})...)
	}
	return append(out, h)
}

func (g *cfg) try(s *syntax.Node, preds []int) []int {
	t := g.simple(preds)
	out := g.stmts(s.Child("body"), []int{t})
	var handlers []int
	var fin *syntax.Node
	for _, ch := range s.Children {
		switch ch.Type {
		case "except_clause", "except_group_clause":
			h := g.simple([]int{t})
			handlers = append(handlers, g.stmtsOf(ch, []int{h})...)
		case "else_clause":
			out = g.stmts(ch.Child("body"), out)
		case "finally_clause":
			fin = ch
		}
	}
	out = append(out, handlers...)
	if fin != nil {
		out = g.stmtsOf(fin, out)
	}
	return out
}

// stmtsOf threads control through the block child of a clause whose
// block is not in a named field (except and finally clauses).
func (g *cfg) stmtsOf(clause *syntax.Node, preds []int) []int {
	for _, ch := range clause.Children {
		if ch.Type == "block" {
			return g.stmts(ch, preds)
		}
	}
	return preds
}

func (g *cfg) match(s *syntax.Node, preds []int) []int {
	m := g.simple(preds)
	var out []int
	wildcard := false
	body := s.Child("body")
	if body == nil {
		return []int{m}
	}
	for _, c := range body.Children {
		if c.Type != "case_clause" {
			continue
		}
		k := g.simple([]int{m})
		out = append(out, g.stmts(c.Child("consequence"), []int{k})...)
		wildcard = isWildcard(c, g.src)
	}
	if !wildcard {
		out = append(out, m)
	}
	return out
}

// isWildcard reports whether a case clause is `case _:` without a guard.
func isWildcard(c *syntax.Node, src []byte) bool {
	if c.Child("guard") != nil {
		return false
	}
	for _, ch := range c.Children {
		if ch.Type == "case_pattern" {
			return ch.Text(src) == "_"
		}
	}
	return false
}
