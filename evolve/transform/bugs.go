package transform

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// bugTransform builds a bug mutator: kinds lists the kinds of site a node
// is (none for most nodes; M3 may both swap and negate one condition) and
// rewrite returns the edit for a site of a kind.
func bugTransform(id, name, doc string, kinds func(f *file, n *syntax.Node) []string,
	rewrite func(f *file, n *syntax.Node, kind string, rng *rand.Rand) syntax.TextEdit) *Transform {
	return &Transform{
		ID: id, Name: name, Family: Bug, Doc: doc,
		Sites: func(p *Program) []Site {
			f, err := parse(p.Main)
			if err != nil {
				return nil
			}
			var out []Site
			f.root.Walk(func(n *syntax.Node) bool {
				for _, k := range kinds(f, n) {
					out = append(out, Site{Start: n.Start, End: n.End, Kind: k, Key: f.key(n)})
				}
				return true
			})
			return out
		},
		Apply: func(p *Program, s Site, rng *rand.Rand) (*Program, error) {
			return apply(p, s, func(f *file, n *syntax.Node) ([]syntax.TextEdit, error) {
				if !slices.Contains(kinds(f, n), s.Kind) {
					return nil, fmt.Errorf("transform: %s: %s is not a site of kind %q", id, s.Key, s.Kind)
				}
				return []syntax.TextEdit{rewrite(f, n, s.Kind, rng)}, nil
			})
		},
	}
}

// kindIf returns []string{kind} if ok, else nil.
func kindIf(ok bool, kind string) []string {
	if ok {
		return []string{kind}
	}
	return nil
}

// other returns a random element of set other than cur.
func other(set []string, cur string, rng *rand.Rand) string {
	rest := slices.DeleteFunc(slices.Clone(set), func(s string) bool { return s == cur })
	return rest[rng.IntN(len(rest))]
}

var (
	arithOps   = []string{"+", "-", "*", "/"}
	compareOps = []string{"<", "<=", ">", ">=", "==", "!="}
)

// opToken returns the operator token of a binary operator.
func opToken(n *syntax.Node) *syntax.Node { return n.Child("operator") }

// changeArithmeticOperator is M1.
var changeArithmeticOperator = bugTransform("M1", "ChangeArithmeticOperator",
	`Replaces the operator of a binary +, -, * or / by a random other one of the four.`,
	func(f *file, n *syntax.Node) []string {
		return kindIf(n.Type == "binary_operator" && opToken(n) != nil && slices.Contains(arithOps, f.text(opToken(n))), n.Type)
	},
	func(f *file, n *syntax.Node, _ string, rng *rand.Rand) syntax.TextEdit {
		op := opToken(n)
		return edit(op.Start, op.End, other(arithOps, f.text(op), rng))
	})

// changeComparisonOperator is M2.
var changeComparisonOperator = bugTransform("M2", "ChangeComparisonOperator",
	`Replaces one operator (<, <=, >, >=, ==, !=) of a comparison by a random other one.`,
	func(f *file, n *syntax.Node) []string {
		p := f.parent[n]
		return kindIf(!n.Named && p != nil && p.Type == "comparison_operator" && slices.Contains(compareOps, f.text(n)), "comparison")
	},
	func(f *file, n *syntax.Node, _ string, rng *rand.Rand) syntax.TextEdit {
		return edit(n.Start, n.End, other(compareOps, f.text(n), rng))
	})

// changeConditionOperator is M3.
var changeConditionOperator = bugTransform("M3", "ChangeConditionOperator",
	`Swaps "and" and "or", drops a "not", or negates the condition of an if, elif or while as
"not (condition)".`,
	func(f *file, n *syntax.Node) []string {
		var ks []string
		switch {
		case n.Type == "boolean_operator" && opToken(n) != nil:
			ks = append(ks, n.Type)
		case n.Type == "not_operator" && n.Child("argument") != nil:
			ks = append(ks, n.Type)
		}
		if p := f.parent[n]; n.Field == "condition" && p != nil &&
			(p.Type == "if_statement" || p.Type == "elif_clause" || p.Type == "while_statement") {
			ks = append(ks, "condition")
		}
		return ks
	},
	func(f *file, n *syntax.Node, kind string, rng *rand.Rand) syntax.TextEdit {
		switch kind {
		case "boolean_operator":
			op := opToken(n)
			return edit(op.Start, op.End, map[string]string{"and": "or", "or": "and"}[f.text(op)])
		case "not_operator":
			return edit(n.Start, n.End, "("+f.text(n.Child("argument"))+")")
		}
		return edit(n.Start, n.End, "not ("+f.text(n)+")")
	})

// changeReturn is M4.
var changeReturn = bugTransform("M4", "ChangeReturn",
	`Changes the value of a return statement: a number c becomes "-c + 10", a name x becomes
"not x", anything else e becomes "not (e)".`,
	func(f *file, n *syntax.Node) []string {
		return kindIf(n.Type == "return_statement" && len(n.NamedChildren()) == 1, n.Type)
	},
	func(f *file, n *syntax.Node, _ string, rng *rand.Rand) syntax.TextEdit {
		v := n.NamedChildren()[0]
		switch v.Type {
		case "integer", "float":
			return edit(v.Start, v.End, "-"+f.text(v)+" + 10")
		case "identifier":
			return edit(v.Start, v.End, "not "+f.text(v))
		}
		return edit(v.Start, v.End, "not ("+f.text(v)+")")
	})

// changeType is M5.
var changeType = bugTransform("M5", "ChangeType",
	`Changes the type of a literal: a number becomes its text as a string or, at random, True or
False; a string (not a docstring, an f-string or part of an implicit concatenation) becomes a
random 4-digit string.`,
	func(f *file, n *syntax.Node) []string {
		switch n.Type {
		case "integer", "float":
			return []string{n.Type}
		case "string":
			p := f.parent[n]
			ok := p != nil && p.Type != "concatenated_string" && !contains(n, "interpolation") &&
				!(p.Type == "expression_statement" && f.isStatement(p))
			return kindIf(ok, n.Type)
		}
		return nil
	},
	func(f *file, n *syntax.Node, _ string, rng *rand.Rand) syntax.TextEdit {
		if n.Type == "string" {
			return edit(n.Start, n.End, "'"+fmt.Sprintf("%04d", rng.IntN(10000))+"'")
		}
		switch rng.IntN(3) {
		case 0:
			return edit(n.Start, n.End, "True")
		case 1:
			return edit(n.Start, n.End, "False")
		}
		return edit(n.Start, n.End, "'"+f.text(n)+"'")
	})
