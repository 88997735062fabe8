package ctxbug

import (
	"errors"
	"fmt"
	"slices"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// errNoFunction means the code given to Perturb or Obfuscate holds no
// function definition.
var errNoFunction = errors.New("ctxbug: no function definition")

// template is a masked version of a method: the input a generator model
// fills in to produce a candidate CtxBug.
type template struct {
	// Rule names the rule that made it.
	Rule string
	// Code is the method with each hole replaced by its placeholder.
	Code string
	// Holes are the perturbed solution nodes, as byte ranges of the
	// method passed to Perturb, in source order.
	Holes []Hole
}

// perturb runs rules on method, the source of one Python function
// definition (as syntax.Extract returns a method), and returns their
// templates, rule by rule in the order of rules. ctx may be nil. Rules
// are validated first. A method with syntax errors is an error; a rule
// returning overlapping or out-of-range holes is an error naming it.
func perturb(method []byte, ctx *Context, rules []*Rule) ([]template, error) {
	if err := validateRules(rules); err != nil {
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
		return nil, errNoFunction
	}
	if ctx == nil {
		ctx = &Context{}
	}
	p := &pass{src: method, fn: fn, root: root, context: ctx}
	var out []template
	for _, r := range rules {
		for _, hs := range r.run(p) {
			code, err := applyHoles(method, hs)
			if err != nil {
				return nil, fmt.Errorf("ctxbug: rule %s: %w", r.Name, err)
			}
			out = append(out, template{Rule: r.Name, Code: string(code), Holes: slices.Clone(hs)})
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

// applyHoles replaces each hole of src with its placeholder. Holes must be in
// source order, within src and not overlap; a zero-width hole inserts its
// placeholder, and zero-width holes at one offset keep their order.
func applyHoles(src []byte, holes []Hole) ([]byte, error) {
	out, _, err := apply(src, holes)
	return out, err
}

// apply is Apply that also returns the map between the offsets of src and
// of the result.
func apply(src []byte, holes []Hole) ([]byte, *syntax.EditMap, error) {
	edits := make([]syntax.TextEdit, len(holes))
	for i, h := range holes {
		if i > 0 && (h.Start < holes[i-1].Start || h.Start == holes[i-1].Start && h.End < holes[i-1].End) {
			return nil, nil, fmt.Errorf("hole %d [%d,%d) out of order", i, h.Start, h.End)
		}
		edits[i] = syntax.TextEdit{Start: h.Start, End: h.End, Text: h.Placeholder}
	}
	out, m, err := syntax.ApplyEdits(src, edits)
	var ee *syntax.EditError
	if errors.As(err, &ee) {
		return nil, nil, fmt.Errorf("hole %d [%d,%d) out of range or overlapping", ee.Index, ee.Edit.Start, ee.Edit.End)
	}
	return out, m, err
}
