package measure

import (
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// From Python's ast to tree-sitter: tree-sitter's tree is concrete, and
// each metric rule of the package documentation is stated on Python's
// ast, mapped explicitly:
//
//   - if_statement is an If; each elif_clause is an If nested in the
//     previous test's orelse (one more level for R10, none for C3).
//   - decorated_definition wraps a function_definition or
//     class_definition; its decorator children are decorator_list.
//     function_definition with an async child is AsyncFunctionDef, and
//     for_statement with an async child is AsyncFor.
//   - A comprehension's if_clause children are its ifs (C2, R6); its
//     for_in_clause children its generators (R7).
//   - not_operator is UnaryOp(Not); unary_operator the other UnaryOps;
//     binary_operator a BinOp; comparison_operator a Compare with one op per
//     operators child ("not in" and "is not" are single children).
//   - boolean_operator is binary in tree-sitter: ((a and b) and c) is one
//     BoolOp in Python, so a left operand with the same operator continues
//     its parent's chain; a parenthesised operand stays separate, as in
//     Python.
//   - assignment is Assign, or AnnAssign when it has a type; a = b = 1 is
//     nested assignments in tree-sitter and one Assign in Python.
//     augmented_assignment is AugAssign.
//   - list and list_pattern are List (any context), except list patterns in
//     match cases (MatchSequence); a negative number in a pattern is an
//     anonymous "-" in tree-sitter and a UnaryOp in Python; complex_pattern
//     (1+2j) a BinOp.
//   - parenthesized_expression does not exist in Python's ast and is looked
//     through wherever a rule tests a node's kind.
//   - string and concatenated_string are one Constant or JoinedStr: only
//     their interpolations hold nodes (R2 counts one line per literal, R14
//     counts an f-string as 0).

// counter holds the running counts of one [file.measure] walk. Each field
// names the metric it feeds; the rules are in the package documentation,
// the ast node each tree-sitter node stands for above.
type counter struct {
	src []byte

	predicates  int // C2
	nesting     int // C3: Σ (depth − 1)
	complex2    int // C4, weight 2: lambdas, .Thread calls, decorators
	complex1    int // C4, weight 1: comprehensions, generators, list literals
	recursive   []string
	curFunc     string // C4: the artifact's current_function ("" for None)
	lines       lineSet
	variables   map[string]struct{} // R3
	arrays      int                 // R4
	operators   int                 // R5
	conditions  int                 // R6
	loops       int                 // R7
	assignments int                 // R8
	maxLoop     int                 // R9
	maxIf       int                 // R10
	casts       int                 // R12
	maxIfConds  int                 // R14

	imports *importTable // C5, C6
	funcs   map[string]struct{}
	calls   []callee // C5, C6, C7, classified after the walk
}

// depth is the nesting context of a node.
type depth struct {
	nest   int  // C3: enclosing if/for/while, elif not counted
	loop   int  // R9: enclosing for/while
	ifs    int  // R10: enclosing if, each elif one more
	inCase bool // inside a match-case pattern: its lists are not List nodes
}

// measure computes every metric of f.
func (f *file) measure(thirdParty []string) Metrics {
	c := &counter{
		src:       f.src,
		variables: map[string]struct{}{},
		imports:   newImportTable(),
		funcs:     map[string]struct{}{},
	}
	c.lines.init(f.root.EndLine)
	c.block(f.root, depth{})

	var m Metrics
	m.Complexity[0] = float64(cyclomatic(f.root, f.src))
	m.Complexity[1] = float64(c.predicates)
	m.Complexity[2] = float64(c.nesting)
	m.Complexity[3] = float64(2*(c.complex2+len(c.recursive)) + c.complex1)
	third, inter, intra := c.classifyCalls(thirdParty)
	m.Complexity[4] = float64(third)
	m.Complexity[5] = float64(inter)
	m.Complexity[6] = float64(intra)

	toks := tokenStats(f.src)
	m.Readability[0] = float64(toks.count)
	m.Readability[1] = float64(c.lines.count())
	m.Readability[2] = float64(len(c.variables))
	m.Readability[3] = float64(c.arrays)
	m.Readability[4] = float64(c.operators)
	m.Readability[5] = float64(c.conditions)
	m.Readability[6] = float64(c.loops)
	m.Readability[7] = float64(c.assignments)
	m.Readability[8] = float64(c.maxLoop)
	m.Readability[9] = float64(c.maxIf)
	m.Readability[10] = float64(toks.maxLine)
	m.Readability[11] = float64(c.casts)
	m.Readability[12] = toks.entropy
	m.MaxIfConditions = float64(c.maxIfConds)
	return m
}

// block visits the children of a module, block or clause.
func (c *counter) block(n *syntax.Node, d depth) {
	for _, ch := range n.Children {
		c.node(ch, d)
	}
}

// node visits n and its subtree.
func (c *counter) node(n *syntax.Node, d depth) {
	if !n.Named {
		return
	}
	c.line(n)
	if c.structure(n, d) {
		return
	}
	c.binding(n)
	d = c.expression(n, d)
	if d.inCase {
		// In patterns, tree-sitter spells a negative number as an
		// anonymous "-" before it; Python's ast has a UnaryOp.
		for _, ch := range n.Children {
			if !ch.Named && ch.Type == "-" {
				c.operators++
			}
		}
	}
	switch n.Type {
	case "string", "concatenated_string":
		// One Constant or JoinedStr: only the expressions of its
		// interpolations are nodes of their own.
		c.stringParts(n, d)
		return
	}
	c.block(n, d)
}

// structure visits the nodes that have a visitor of their own (and
// comments, which count nothing) and reports whether n was one.
func (c *counter) structure(n *syntax.Node, d depth) bool {
	switch n.Type {
	case "comment", "line_continuation":
	case "if_statement":
		c.ifStatement(n, d, false)
	case "for_statement", "while_statement":
		c.loop(n, d)
	case "decorated_definition":
		def := n.Child("definition")
		// The artifact visits FunctionDef and ClassDef but not
		// AsyncFunctionDef, so an async function's decorators do not count.
		if def != nil && !def.Has("async") {
			for _, ch := range n.Children {
				if ch.Type == "decorator" {
					c.complex2++
				}
			}
		}
		c.block(n, d)
	case "function_definition":
		c.function(n, d)
	case "assignment":
		c.assignment(n, d)
	default:
		return false
	}
	return true
}

// binding counts what a statement that binds names (other than a plain
// assignment) or imports adds; its children are visited after.
func (c *counter) binding(n *syntax.Node) {
	switch n.Type {
	case "augmented_assignment":
		c.assignments++
		c.operators++
		if l := n.Child("left"); l != nil && l.Type == "identifier" {
			c.variables[l.Text(c.src)] = struct{}{}
		}
	case "named_expression":
		if nm := n.Child("name"); nm != nil {
			c.variables[nm.Text(c.src)] = struct{}{}
		}
	case "with_item":
		if v := n.Child("value"); v != nil && v.Type == "as_pattern" {
			if t := v.Child("alias"); t != nil {
				c.storeTarget(t)
			}
		}
	case "import_statement", "import_from_statement", "future_import_statement":
		c.imports.add(n, c.src)
	}
}

// expression counts what an expression or pattern node adds (its children
// are visited after) and returns the depth to visit them at.
func (c *counter) expression(n *syntax.Node, d depth) depth {
	switch n.Type {
	case "binary_operator", "unary_operator", "not_operator":
		c.operators++
	case "boolean_operator":
		// Python folds `a and b and c`, which tree-sitter builds as
		// ((a and b) and c), into one BoolOp: a left operand with the
		// same operator continues this node's chain. A parenthesised
		// operand stays a BoolOp of its own, as in Python.
		c.operators++
		if l := n.Child("left"); l != nil && l.Type == "boolean_operator" && boolOp(l, c.src) == boolOp(n, c.src) {
			c.operators--
		}
	case "comparison_operator":
		for _, ch := range n.Children {
			if ch.Field == "operators" {
				c.operators++
			}
		}
	case "conditional_expression":
		c.conditions++
	case "lambda":
		c.complex2++
		if b := n.Child("body"); b != nil {
			if u := unparen(b); u.Type == "comparison_operator" || u.Type == "boolean_operator" {
				c.predicates++ // a Compare or BoolOp body always contains an operator
			}
		}
	case "list", "list_pattern":
		if !d.inCase {
			c.arrays++
			c.complex1++
		}
	case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
		c.comprehension(n)
	case "call":
		c.call(n)
	case "case_pattern":
		d.inCase = true
	case "complex_pattern":
		c.operators++ // the BinOp of a complex literal such as 1+2j
	}
	return d
}

// line records the line of n when n starts a Python ast node (a statement,
// expression, argument, keyword, alias, except handler or pattern).
func (c *counter) line(n *syntax.Node) {
	switch n.Type {
	case "module", "block", "comment", "line_continuation", "else_clause", "finally_clause",
		"argument_list", "parameters", "lambda_parameters", "keyword_separator",
		"positional_separator", "import_prefix", "type_conversion", "format_specifier",
		"parenthesized_expression": // Python has no node at a bracket; its parent starts there if anything does
		return
	case "identifier":
		if n.Field == "attribute" { // Attribute.attr is a string, not a node
			return
		}
	}
	c.lines.add(n.Line)
}

// stringParts visits the interpolations of a string literal.
func (c *counter) stringParts(n *syntax.Node, d depth) {
	for _, ch := range n.Children {
		switch ch.Type {
		case "string":
			c.stringParts(ch, d)
		case "interpolation":
			for _, e := range ch.Children {
				if e.Field == "expression" {
					c.node(e, d)
				} else if e.Type == "format_specifier" {
					c.stringParts(e, d)
				}
			}
		}
	}
}

// boolOp returns the operator ("and" or "or") of a boolean_operator.
func boolOp(n *syntax.Node, src []byte) string {
	if o := n.Child("operator"); o != nil {
		return o.Text(src)
	}
	return ""
}

// ifStatement visits an if statement and its elif and else clauses.
// elifLike reports the artifact's is_elif quirk for C3: an if that is the
// first statement of an else block of an if counts as an elif there.
func (c *counter) ifStatement(n *syntax.Node, d depth, elifLike bool) {
	inner := d
	if !elifLike {
		c.nesting += d.nest
		inner.nest++
	}
	inner.ifs++
	c.maxIf = max(c.maxIf, inner.ifs)
	c.conditions++
	c.ifTest(n.Child("condition"))
	ifs := inner.ifs
	for _, ch := range n.Children {
		switch ch.Type {
		case "elif_clause":
			c.line(ch)
			ifs++
			c.maxIf = max(c.maxIf, ifs)
			c.conditions++
			c.ifTest(ch.Child("condition"))
			cd := inner
			cd.ifs = ifs
			c.block(ch, cd)
		case "else_clause":
			cd := inner
			cd.ifs = ifs
			c.elseBlock(ch, cd)
		default:
			c.node(ch, inner)
		}
	}
}

// elseBlock visits the else clause of an if, treating a leading if as the
// artifact's is_elif does.
func (c *counter) elseBlock(e *syntax.Node, d depth) {
	for _, ch := range e.Children {
		if ch.Type != "block" {
			c.node(ch, d)
			continue
		}
		first := true
		for _, s := range ch.Children {
			if !s.Named || s.Type == "comment" {
				continue
			}
			if first && s.Type == "if_statement" {
				c.line(s)
				c.ifStatement(s, d, true)
			} else {
				c.node(s, d)
			}
			first = false
		}
	}
}

// ifTest counts the predicate of an if or elif (C2, R14).
func (c *counter) ifTest(test *syntax.Node) {
	if test == nil {
		return
	}
	if hasOperator(test) {
		c.predicates++
	}
	c.maxIfConds = max(c.maxIfConds, atomicConditions(test, c.src))
}

// loop visits a for or while statement. async for is not a For node of
// Python's ast, so none of the loop metrics counts it.
func (c *counter) loop(n *syntax.Node, d depth) {
	inner := d
	if !n.Has("async") {
		c.nesting += d.nest
		inner.nest++
		inner.loop++
		c.maxLoop = max(c.maxLoop, inner.loop)
		c.loops++
	}
	if n.Type == "while_statement" {
		if cond := n.Child("condition"); cond != nil && hasOperator(cond) {
			c.predicates++
		}
	} else if l := n.Child("left"); l != nil {
		c.storeTarget(l)
	}
	c.block(n, inner)
}

// function visits a function definition. The artifact's visitors see
// FunctionDef but not AsyncFunctionDef: an async function is neither a
// C7 target nor a C4 recursion scope.
func (c *counter) function(n *syntax.Node, d depth) {
	async := n.Has("async")
	if !async {
		if nm := n.Child("name"); nm != nil {
			name := nm.Text(c.src)
			c.funcs[name] = struct{}{}
			c.curFunc = name
		}
	}
	c.block(n, d)
	if !async {
		c.curFunc = "" // the artifact resets current_function to None, not to the outer function
	}
}

// comprehension counts a list, set or dict comprehension or a generator
// expression.
func (c *counter) comprehension(n *syntax.Node) {
	if n.Type == "list_comprehension" {
		c.arrays++
	}
	c.complex1++
	for _, ch := range n.Children {
		switch ch.Type {
		case "for_in_clause":
			c.loops++
			if l := ch.Child("left"); l != nil {
				c.storeTarget(l)
			}
		case "if_clause":
			c.conditions++
			for _, e := range ch.Children {
				if e.Named && e.Type != "comment" && hasOperator(e) {
					c.predicates++
				}
			}
		}
	}
}

// assignment visits an assignment statement: one Assign (or AnnAssign,
// with a type) whatever the number of targets. tree-sitter nests the
// chain a = b = value as assignments in the right-hand side.
func (c *counter) assignment(n *syntax.Node, d depth) {
	c.assignments++
	for a := n; ; {
		var next *syntax.Node
		for _, ch := range a.Children {
			switch {
			case ch.Field == "left":
				c.storeTarget(ch)
				c.node(ch, d)
			case ch.Field == "right" && ch.Type == "assignment":
				c.line(ch)
				next = ch
			default:
				c.node(ch, d)
			}
		}
		if next == nil {
			return
		}
		a = next
	}
}

// storeTarget records the names a target expression binds (Name nodes in
// Store context): plain names, possibly inside tuples, lists, parentheses
// and starred targets; attributes and subscripts bind no name.
func (c *counter) storeTarget(t *syntax.Node) {
	switch t.Type {
	case "identifier":
		c.variables[t.Text(c.src)] = struct{}{}
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list",
		"parenthesized_expression", "list_splat_pattern", "list_splat", "as_pattern_target":
		for _, ch := range t.Children {
			if ch.Named {
				c.storeTarget(ch)
			}
		}
	}
}

// call counts a call expression for C2 (any/all/range arguments), C4
// (.Thread, recursion), R12 (nested casts) and records it for C5-C7.
func (c *counter) call(n *syntax.Node) {
	fn := n.Child("function")
	if fn == nil {
		return
	}
	fn = unparen(fn)
	args := positionalArgs(n)
	switch fn.Type {
	case "identifier":
		name := fn.Text(c.src)
		switch name {
		case "any", "all", "range":
			for _, a := range args {
				if hasOperator(a) {
					c.predicates++
				}
			}
		case "int", "float", "str", "bool", "complex", "bytes", "list", "tuple", "set", "dict":
			for _, a := range args {
				if unparen(a).Type == "call" {
					c.casts++
					break
				}
			}
		}
		if c.curFunc != "" && name == c.curFunc && !contains(c.recursive, name) {
			c.recursive = append(c.recursive, name)
		}
		c.calls = append(c.calls, callee{name: name})
	case "attribute":
		attr := ""
		if a := fn.Child("attribute"); a != nil {
			attr = a.Text(c.src)
		}
		if attr == "Thread" {
			c.complex2++
		}
		root := rootName(fn, c.src)
		if root == "self" {
			root = attr
		}
		if root != "" {
			c.calls = append(c.calls, callee{name: root, attr: true})
		}
	}
}

// positionalArgs returns the positional arguments of a call (starred ones
// included, keyword and ** arguments not).
func positionalArgs(call *syntax.Node) []*syntax.Node {
	a := call.Child("arguments")
	if a == nil {
		return nil
	}
	if a.Type == "generator_expression" {
		return []*syntax.Node{a}
	}
	var out []*syntax.Node
	for _, ch := range a.Children {
		if !ch.Named {
			continue
		}
		switch ch.Type {
		case "keyword_argument", "dictionary_splat", "comment":
			continue
		}
		out = append(out, ch)
	}
	return out
}

// rootName returns the name at the root of an attribute chain (a for
// a.b.c), or "" when the root is not a name (a call, a subscript, …).
func rootName(n *syntax.Node, src []byte) string {
	for {
		n = unparen(n)
		switch n.Type {
		case "identifier":
			return n.Text(src)
		case "attribute":
			n = n.Child("object")
			if n == nil {
				return ""
			}
		default:
			return ""
		}
	}
}

// unparen strips parentheses, which Python's ast does not keep.
func unparen(n *syntax.Node) *syntax.Node {
	for n.Type == "parenthesized_expression" {
		var inner *syntax.Node
		for _, ch := range n.Children {
			if ch.Named && ch.Type != "comment" {
				inner = ch
				break
			}
		}
		if inner == nil {
			return n
		}
		n = inner
	}
	return n
}

// hasOperator reports whether the expression contains a BinOp, UnaryOp,
// BoolOp or Compare anywhere (the artifact's ast.walk check for C2).
func hasOperator(n *syntax.Node) bool {
	switch n.Type {
	case "binary_operator", "unary_operator", "not_operator", "boolean_operator", "comparison_operator":
		return true
	}
	for _, ch := range n.Children {
		if ch.Named && hasOperator(ch) {
			return true
		}
	}
	return false
}

// atomicConditions is the artifact's count_conditions for R14: a BoolOp
// sums its operands, `not x` counts as x, a Compare, Name, Call or
// Constant counts 1, anything else 0.
func atomicConditions(n *syntax.Node, src []byte) int {
	n = unparen(n)
	switch n.Type {
	case "boolean_operator":
		s := 0
		for _, ch := range n.Children {
			if ch.Field == "left" || ch.Field == "right" {
				s += atomicConditions(ch, src)
			}
		}
		return s
	case "not_operator":
		if a := n.Child("argument"); a != nil {
			return atomicConditions(a, src)
		}
		return 0
	case "comparison_operator", "identifier", "call",
		"integer", "float", "true", "false", "none", "ellipsis":
		return 1
	case "string":
		if isFString(n, src) {
			return 0 // a JoinedStr
		}
		return 1
	case "concatenated_string":
		for _, ch := range n.Children {
			if ch.Type == "string" && isFString(ch, src) {
				return 0
			}
		}
		return 1
	}
	return 0
}

// isFString reports whether a string literal has an f prefix.
func isFString(n *syntax.Node, src []byte) bool {
	for _, ch := range n.Children {
		if ch.Type == "string_start" {
			for _, b := range src[ch.Start:ch.End] {
				if b == 'f' || b == 'F' {
					return true
				}
			}
			return false
		}
	}
	return false
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// lineSet is a set of 1-based line numbers.
type lineSet struct{ seen []bool }

func (s *lineSet) init(lines int) { s.seen = make([]bool, lines+2) }

func (s *lineSet) add(l int) {
	if l >= len(s.seen) {
		s.seen = append(s.seen, make([]bool, l-len(s.seen)+1)...)
	}
	s.seen[l] = true
}

func (s *lineSet) count() int {
	n := 0
	for _, b := range s.seen {
		if b {
			n++
		}
	}
	return n
}
