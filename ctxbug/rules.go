package ctxbug

import (
	"slices"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// R1.
var paramsRule = &Rule{
	Name:        "params",
	Doc:         "mask the method's parameter list (R1, Parameter)",
	Task:        "interface",
	granularity: granularityExpression,
	run:         params,
}

// R2.
var returnRule = &Rule{
	Name:        "return",
	Doc:         "mask all return statements at once (R2, Return Statement)",
	Task:        "interface",
	granularity: granularityExpression,
	run:         returns,
}

// R3.
var constantRule = &Rule{
	Name:        "constant",
	Doc:         "mask all constants of one type (integers, floats, strings, booleans) at once, one template per type (R3, Constant)",
	Task:        "functionality",
	granularity: granularityToken,
	run:         constants,
}

// R4.
var operatorRule = &Rule{
	Name:        "operator",
	Doc:         "mask all operators at once (R4, Operator)",
	Task:        "functionality",
	granularity: granularityToken,
	run:         operators,
}

// R5.
var operationRule = &Rule{
	Name:        "operation",
	Doc:         "mask the right-hand side of each assignment, one per template (R5, Operation)",
	Task:        "functionality",
	granularity: granularityExpression,
	run:         operations,
}

// R6.
var conditionRule = &Rule{
	Name:        "condition",
	Doc:         "mask each condition (if, elif, while, conditional expression, comprehension if), one per template (R6, Conditional)",
	Task:        "functionality",
	granularity: granularityExpression,
	run:         conditions,
}

// R7.
var callRule = &Rule{
	Name:        "call",
	Doc:         "mask each function call other than calls of the context's methods, one per template (R7, Function Call)",
	Task:        "functionality",
	granularity: granularityExpression,
	run:         calls,
}

// R8.
var boundedRule = &Rule{
	Name:        "bounded",
	Doc:         "mask all uses of bounded identifiers (attributes, methods and globals of the context) at once (R8, Bounded Identifier)",
	Task:        "identifier",
	granularity: granularityToken,
	run:         bounded,
}

// R9.
var freeRule = &Rule{
	Name:        "free",
	Doc:         "mask all uses of local variables except their first declaration at once (R9, Free Identifier)",
	Task:        "identifier",
	granularity: granularityToken,
	run:         free,
}

// R10.
var libraryRule = &Rule{
	Name:        "library",
	Doc:         "mask all attributes and calls of the context's libraries at once (R10, Library Usage)",
	Task:        "dependency",
	granularity: granularityExpression,
	run:         library,
}

func hole(n *syntax.Node, ph string) Hole {
	return Hole{Start: n.Start, End: n.End, Node: n.Type, Placeholder: ph}
}

// body walks the method's body in source order.
func body(p *pass, fn func(*syntax.Node) bool) {
	if b := p.fn.Child("body"); b != nil {
		b.Walk(fn)
	}
}

func single(hs []Hole) [][]Hole {
	if len(hs) == 0 {
		return nil
	}
	return [][]Hole{hs}
}

func each(hs []Hole) [][]Hole {
	var out [][]Hole
	for _, h := range hs {
		out = append(out, []Hole{h})
	}
	return out
}

func params(p *pass) [][]Hole {
	ps := p.fn.Child("parameters")
	if ps == nil || ps.End-ps.Start < 2 {
		return nil
	}
	// Mask inside the parentheses.
	return [][]Hole{{{Start: ps.Start + 1, End: ps.End - 1, Node: ps.Type, Placeholder: placeholderParams}}}
}

func returns(p *pass) [][]Hole {
	var hs []Hole
	body(p, func(n *syntax.Node) bool {
		switch n.Type {
		case "function_definition", "lambda", "class_definition":
			return false // another function's returns
		case "return_statement":
			hs = append(hs, hole(n, placeholderReturn))
			return false
		}
		return true
	})
	return single(hs)
}

func constants(p *pass) [][]Hole {
	kinds := map[string]string{"integer": "integer", "float": "float", "string": "string", "concatenated_string": "string", "true": "boolean", "false": "boolean"}
	groups := map[string][]Hole{}
	body(p, func(n *syntax.Node) bool {
		if n.Type == "expression_statement" && len(n.Children) == 1 && (n.Children[0].Type == "string" || n.Children[0].Type == "concatenated_string") {
			return false // a docstring or string statement, not a constant in use
		}
		if k, ok := kinds[n.Type]; ok {
			groups[k] = append(groups[k], hole(n, Infill))
			return false
		}
		return true
	})
	var out [][]Hole
	for _, k := range []string{"integer", "float", "string", "boolean"} {
		if hs := groups[k]; len(hs) > 0 {
			out = append(out, hs)
		}
	}
	return out
}

func operators(p *pass) [][]Hole {
	var hs []Hole
	body(p, func(n *syntax.Node) bool {
		switch n.Type {
		case "binary_operator", "boolean_operator", "unary_operator", "augmented_assignment":
			if op := n.Child("operator"); op != nil {
				hs = append(hs, hole(op, Infill))
			}
		case "comparison_operator":
			for _, c := range n.Children {
				if c.Field == "operators" {
					hs = append(hs, hole(c, Infill))
				}
			}
		case "not_operator":
			if len(n.Children) > 0 && n.Children[0].Type == "not" {
				hs = append(hs, hole(n.Children[0], Infill))
			}
		}
		return true
	})
	slices.SortFunc(hs, func(a, b Hole) int { return a.Start - b.Start })
	return single(hs)
}

func operations(p *pass) [][]Hole {
	var hs []Hole
	body(p, func(n *syntax.Node) bool {
		if n.Type == "assignment" || n.Type == "augmented_assignment" {
			if r := n.Child("right"); r != nil && r.Type != "assignment" {
				hs = append(hs, hole(r, Infill))
			}
		}
		return true
	})
	return each(hs)
}

func conditions(p *pass) [][]Hole {
	var hs []Hole
	body(p, func(n *syntax.Node) bool {
		switch n.Type {
		case "if_statement", "elif_clause", "while_statement":
			if c := n.Child("condition"); c != nil {
				hs = append(hs, hole(c, Infill))
			}
		case "conditional_expression":
			// a if COND else b: the named child after "if".
			for i, c := range n.Children {
				if c.Type == "if" && i+1 < len(n.Children) {
					hs = append(hs, hole(n.Children[i+1], Infill))
					break
				}
			}
		case "if_clause":
			if nc := n.NamedChildren(); len(nc) > 0 {
				hs = append(hs, hole(nc[0], Infill))
			}
		}
		return true
	})
	slices.SortStableFunc(hs, func(a, b Hole) int { return a.Start - b.Start })
	return each(hs)
}

// selfish reports whether n names the instance, the class or the context
// class: self, cls or p.Context.Class.
func selfish(p *pass, n *syntax.Node) bool {
	if n == nil || n.Type != "identifier" {
		return false
	}
	t := n.Text(p.src)
	return t == "self" || t == "cls" || (p.context.Class != "" && t == p.context.Class)
}

// contextMethodCall reports whether call n calls a method of the context.
func contextMethodCall(p *pass, n *syntax.Node) bool {
	f := n.Child("function")
	if f == nil {
		return false
	}
	switch f.Type {
	case "attribute":
		if selfish(p, f.Child("object")) {
			return true
		}
	case "identifier":
		return slices.Contains(p.context.Methods, f.Text(p.src))
	}
	return false
}

func calls(p *pass) [][]Hole {
	var hs []Hole
	body(p, func(n *syntax.Node) bool {
		if n.Type == "call" && !contextMethodCall(p, n) {
			hs = append(hs, hole(n, Infill))
		}
		return true
	})
	return each(hs)
}

func bounded(p *pass) [][]Hole {
	var hs []Hole
	body(p, func(n *syntax.Node) bool {
		switch n.Type {
		case "attribute":
			if selfish(p, n.Child("object")) {
				hs = append(hs, hole(n, Infill))
				return false
			}
		case "identifier":
			if n.Field != "attribute" && slices.Contains(p.context.Globals, n.Text(p.src)) {
				hs = append(hs, hole(n, Infill))
			}
		}
		return true
	})
	return single(hs)
}

func free(p *pass) [][]Hole {
	b := p.fn.Child("body")
	if b == nil {
		return nil
	}
	_, refs := locals(p.root, p.fn, p.src)
	// The first binding occurrence of each variable stays.
	decl := map[*syntax.Symbol]*syntax.Node{}
	for _, r := range refs {
		if r.Binds && decl[r.Symbol] == nil {
			decl[r.Symbol] = r.Node
		}
	}
	var hs []Hole
	for _, r := range refs {
		if decl[r.Symbol] != r.Node && r.Node.Start >= b.Start {
			hs = append(hs, hole(r.Node, placeholderVar))
		}
	}
	return single(hs)
}

func library(p *pass) [][]Hole {
	if len(p.context.Libs) == 0 {
		return nil
	}
	isLib := func(n *syntax.Node) bool {
		for n != nil && n.Type == "attribute" {
			n = n.Child("object")
		}
		return n != nil && n.Type == "identifier" && slices.Contains(p.context.Libs, n.Text(p.src))
	}
	var hs []Hole
	body(p, func(n *syntax.Node) bool {
		switch n.Type {
		case "call":
			if isLib(n.Child("function")) {
				hs = append(hs, hole(n, Infill))
				return false
			}
		case "attribute", "identifier":
			if n.Field != "attribute" && isLib(n) {
				hs = append(hs, hole(n, Infill))
				return false
			}
		}
		return true
	})
	return single(hs)
}
