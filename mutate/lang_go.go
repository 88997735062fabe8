package mutate

import (
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

type golang struct{}

var goKeywords = words("break", "case", "chan", "const", "continue", "default", "defer", "else",
	"fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map", "package",
	"range", "return", "select", "struct", "switch", "type", "var")

func (golang) blockKind(parent, block *syntax.Node) string {
	switch block.Type {
	case "expression_case", "type_case", "default_case", "communication_case":
		return "case_body"
	case "block":
	default:
		return ""
	}
	switch parent.Type {
	case "function_declaration", "method_declaration":
		return "method_body"
	case "func_literal":
		return "lambda_body"
	case "for_statement":
		return "loop_body"
	case "if_statement":
		return "branch"
	}
	return ""
}

func (golang) isFunc(kind string) bool {
	return kind == "function_declaration" || kind == "method_declaration" || kind == "func_literal"
}

func (golang) isStatement(kind string) bool { return kind != "comment" }

func (golang) reserved(w string) bool { return goKeywords[w] }

func (golang) declared(n *syntax.Node) []*syntax.Node {
	var out []*syntax.Node
	switch n.Type {
	case "parameter_declaration", "var_spec", "const_spec":
		for _, c := range n.Children {
			if c.Field == "name" && c.Type == "identifier" {
				out = append(out, c)
			}
		}
	case "short_var_declaration", "range_clause":
		if l := n.Child("left"); l != nil {
			for _, c := range l.NamedChildren() {
				if c.Type == "identifier" {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

func (golang) literal(kind string) string {
	switch kind {
	case "int_literal":
		return "int"
	case "float_literal":
		return "float"
	case "interpreted_string_literal":
		return "string"
	case "true", "false":
		return "bool"
	}
	return ""
}

var goNumeric = []string{"int", "int32", "int64", "uint", "float32", "float64"}

func (golang) numericType(n *syntax.Node, src []byte) []string {
	if n.Type != "type_identifier" {
		return nil
	}
	t := n.Text(src)
	for _, s := range goNumeric {
		if s == t {
			return others(goNumeric, t)
		}
	}
	return nil
}

// goAPI maps a package-qualified function to a non-equivalent alternative
// with the same signature.
var goAPI = map[string]string{
	"strings.HasPrefix": "HasSuffix", "strings.HasSuffix": "HasPrefix",
	"strings.Index": "LastIndex", "strings.LastIndex": "Index",
	"strings.ToLower": "ToUpper", "strings.ToUpper": "ToLower",
	"strings.TrimLeft": "TrimRight", "strings.TrimRight": "TrimLeft",
	"strings.TrimPrefix": "TrimSuffix", "strings.TrimSuffix": "TrimPrefix",
	"bytes.HasPrefix": "HasSuffix", "bytes.HasSuffix": "HasPrefix",
	"math.Floor": "Ceil", "math.Ceil": "Floor", "math.Max": "Min", "math.Min": "Max",
	"min": "max", "max": "min",
}

func (golang) apiCall(n *syntax.Node, src []byte) (*syntax.Node, string) {
	if n.Type != "call_expression" {
		return nil, ""
	}
	f := n.Child("function")
	if f == nil {
		return nil, ""
	}
	switch f.Type {
	case "identifier":
		if s, ok := goAPI[f.Text(src)]; ok {
			return f, s
		}
	case "selector_expression":
		op, fld := f.Child("operand"), f.Child("field")
		if op == nil || fld == nil || op.Type != "identifier" {
			return nil, ""
		}
		if s, ok := goAPI[op.Text(src)+"."+fld.Text(src)]; ok {
			return fld, s
		}
	}
	return nil, ""
}

func (golang) receiverRef(n, fn *syntax.Node, src []byte) (int, int, bool) {
	if n.Type != "selector_expression" || fn == nil || fn.Type != "method_declaration" {
		return 0, 0, false
	}
	op, fld := n.Child("operand"), n.Child("field")
	recv := fn.Child("receiver")
	if op == nil || fld == nil || recv == nil || op.Type != "identifier" {
		return 0, 0, false
	}
	for _, p := range recv.NamedChildren() {
		if nm := p.Child("name"); nm != nil && nm.Text(src) == op.Text(src) {
			return op.Start, fld.Start, true
		}
	}
	return 0, 0, false
}

// errorHandler matches `if err != nil { … }` (any identifier containing
// "err", no init statement, no else).
func (golang) errorHandler(n *syntax.Node, src []byte) bool {
	if n.Type != "if_statement" || n.Child("alternative") != nil || n.Child("initializer") != nil {
		return false
	}
	c := n.Child("condition")
	if c == nil || c.Type != "binary_expression" {
		return false
	}
	l, op, r := c.Child("left"), c.Child("operator"), c.Child("right")
	return l != nil && op != nil && r != nil && l.Type == "identifier" &&
		strings.Contains(strings.ToLower(l.Text(src)), "err") &&
		op.Text(src) == "!=" && r.Type == "nil"
}
