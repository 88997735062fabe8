package ctxbug

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// Placeholders the rules put in place of masked code, as in the paper.
const (
	placeholderParams = "<PARAMS>" // the method's parameter list (R1)
	placeholderReturn = "<RETURN>" // a return statement (R2)
	Infill            = "<INFILL>" // any other masked element (R3–R8, R10)
	placeholderVar    = "<VAR>"    // a use of a local variable (R9)
)

// granularity is what a rule masks at once: every instance of a kind of
// token, or one expression or statement.
type granularity uint8

const (
	granularityInvalid granularity = iota
	// granularityToken rules mask every instance of a kind of token in one
	// template, so that no instance gives another away.
	granularityToken
	// granularityExpression rules mask whole expressions or statements.
	granularityExpression
)

var granularityNames = [...]string{"invalid", "token", "expression"}

func (l granularity) String() string {
	if int(l) < len(granularityNames) {
		return granularityNames[l]
	}
	return fmt.Sprintf("Granularity(%d)", l)
}

// MarshalText implements encoding.TextMarshaler.
func (l granularity) MarshalText() ([]byte, error) {
	if l == granularityInvalid || int(l) >= len(granularityNames) {
		return nil, fmt.Errorf("ctxbug: invalid granularity %d", l)
	}
	return []byte(l.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (l *granularity) UnmarshalText(b []byte) error {
	for i, n := range granularityNames[1:] {
		if string(b) == n {
			*l = granularity(i + 1)
			return nil
		}
	}
	return fmt.Errorf("ctxbug: unknown granularity %q", b)
}

// Rule is one perturbation rule: it finds the elements of a method that an
// adaptation task concerns and says which to mask in which template. The
// rules are the paper's, in [Rules]: choose among them (Options.Rules,
// [Jobs]); the exported fields describe a rule, the unexported ones run it
// over this package's parse of the method.
type Rule struct {
	// Name identifies the rule ("params", "return", …).
	Name string
	// Doc says what the rule masks.
	Doc string
	// Task is the adaptation task the rule stands for: "interface",
	// "functionality", "identifier" or "dependency".
	Task string
	// granularity is the rule's granularity.
	granularity granularity
	// run returns the masks of each template the rule makes for the
	// method in p: one slice of holes per template. It must not modify p.
	run func(p *pass) [][]Hole
}

// Hole is one masked element of a template: the solution's byte range
// [Start, End) and what replaces it.
type Hole struct {
	Start, End int
	// Node is the tree-sitter node type of the masked element
	// ("parameters", "return_statement", "integer", …).
	Node string
	// Placeholder replaces the range: Params, Return, Infill or Var.
	Placeholder string
}

// Context is what a method's target context defines, as far as the rules
// need it. Its zero value is valid: attributes of self, cls and the class
// are still bounded identifiers.
type Context struct {
	// Class is the name of the method's class; attributes of it count as
	// bounded identifiers.
	Class string
	// Methods are the sibling methods of the class; calls to them are
	// left to the bounded-identifier rule rather than the call rule.
	Methods []string
	// Globals are module-level names the context defines (other than
	// imports), bounded identifiers when used.
	Globals []string
	// Libs are the names under which libraries are imported ("json",
	// "np", "Counter"); uses of them are library usage.
	Libs []string
}

// pass is a parsed method handed to a rule.
type pass struct {
	// src is the method's source: one function definition.
	src []byte
	// context is the method's context; never nil.
	context *Context
	// fn is its function_definition node, root the tree's root.
	fn, root *syntax.Node
}

// Rules is the ten rules of CtxBugGen (R1–R10), in the paper's order.
var Rules = []*Rule{
	paramsRule, returnRule, constantRule, operatorRule, operationRule,
	conditionRule, callRule, boundedRule, freeRule, libraryRule,
}

var ruleName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// validateRules checks rules: identifier-like unique names, a Doc, a Task, a
// valid granularity and a run function.
func validateRules(rules []*Rule) error {
	seen := map[string]bool{}
	var errs []error
	for i, r := range rules {
		switch {
		case r == nil:
			errs = append(errs, fmt.Errorf("ctxbug: rule %d is nil", i))
			continue
		case !ruleName.MatchString(r.Name):
			errs = append(errs, fmt.Errorf("ctxbug: rule %d: bad name %q", i, r.Name))
		case seen[r.Name]:
			errs = append(errs, fmt.Errorf("ctxbug: rule %q listed twice", r.Name))
		}
		seen[r.Name] = true
		if r.Doc == "" {
			errs = append(errs, fmt.Errorf("ctxbug: rule %q has no Doc", r.Name))
		}
		if r.Task == "" {
			errs = append(errs, fmt.Errorf("ctxbug: rule %q has no Task", r.Name))
		}
		if r.granularity != granularityToken && r.granularity != granularityExpression {
			errs = append(errs, fmt.Errorf("ctxbug: rule %q has an invalid granularity", r.Name))
		}
		if r.run == nil {
			errs = append(errs, fmt.Errorf("ctxbug: rule %q has no Run", r.Name))
		}
	}
	return errors.Join(errs...)
}
