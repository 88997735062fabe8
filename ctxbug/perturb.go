package ctxbug

import (
	"errors"
	"fmt"
	"slices"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// ErrNoFunction means the code given to Perturb or Obfuscate holds no
// function definition.
var ErrNoFunction = errors.New("ctxbug: no function definition")

// Template is a masked version of a method: the input a generator model
// fills in to produce a candidate CtxBug.
type Template struct {
	// Rule names the rule that made it.
	Rule string
	// Code is the method with each hole replaced by its placeholder.
	Code string
	// Holes are the perturbed solution nodes, as byte ranges of the
	// method passed to Perturb, in source order.
	Holes []Hole
}

// Perturb runs rules on method, the source of one Python function
// definition (as syntax.Extract returns a method), and returns their
// templates, rule by rule in the order of rules. ctx may be nil. Rules
// are validated first. A method with syntax errors is an error; a rule
// returning overlapping or out-of-range holes is an error naming it.
func Perturb(method []byte, ctx *Context, rules []*Rule) ([]Template, error) {
	if err := Validate(rules); err != nil {
		return nil, err
	}
	root, err := syntax.ParseNodes(syntax.Python, method)
	if err != nil {
		return nil, fmt.Errorf("ctxbug: %w", err)
	}
	if root.Err {
		return nil, errors.New("ctxbug: method has syntax errors")
	}
	fn := firstFunc(root)
	if fn == nil {
		return nil, ErrNoFunction
	}
	if ctx == nil {
		ctx = &Context{}
	}
	p := &Pass{Src: method, fn: fn, Context: ctx}
	var out []Template
	for _, r := range rules {
		for _, hs := range r.Run(p) {
			code, err := Apply(method, hs)
			if err != nil {
				return nil, fmt.Errorf("ctxbug: rule %s: %w", r.Name, err)
			}
			out = append(out, Template{Rule: r.Name, Code: string(code), Holes: slices.Clone(hs)})
		}
	}
	return out, nil
}

// firstFunc returns the first function definition in source order.
func firstFunc(root *syntax.Node) *syntax.Node {
	var fn *syntax.Node
	root.Walk(func(n *syntax.Node) bool {
		if fn != nil {
			return false
		}
		if n.Type == "function_definition" {
			fn = n
			return false
		}
		return true
	})
	return fn
}

// Apply replaces each hole of src with its placeholder. Holes must be in
// source order, within src and not overlap.
func Apply(src []byte, holes []Hole) ([]byte, error) {
	out := make([]byte, 0, len(src))
	last := 0
	for i, h := range holes {
		if h.Start < last || h.End < h.Start || h.End > len(src) {
			return nil, fmt.Errorf("hole %d [%d,%d) out of order, out of range or overlapping", i, h.Start, h.End)
		}
		out = append(out, src[last:h.Start]...)
		out = append(out, h.Placeholder...)
		last = h.End
	}
	return append(out, src[last:]...), nil
}
