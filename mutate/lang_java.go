package mutate

import "github.com/adaptbench/adaptbench/internal/syntax"

type java struct{}

var javaKeywords = words("abstract", "assert", "boolean", "break", "byte", "case", "catch", "char",
	"class", "const", "continue", "default", "do", "double", "else", "enum", "extends", "final",
	"finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int",
	"interface", "long", "native", "new", "package", "private", "protected", "public", "return",
	"short", "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws",
	"transient", "try", "void", "volatile", "while", "true", "false", "null", "var", "record",
	"yield", "sealed", "permits")

func (java) blockKind(parent, block *syntax.Node) string {
	if block.Type == "constructor_body" && parent.Type == "constructor_declaration" {
		return "method_body"
	}
	if block.Type == "switch_block_statement_group" {
		return "case_body"
	}
	if block.Type != "block" {
		return ""
	}
	switch parent.Type {
	case "method_declaration":
		return "method_body"
	case "lambda_expression":
		return "lambda_body"
	case "for_statement", "enhanced_for_statement", "while_statement", "do_statement":
		return "loop_body"
	case "if_statement":
		return "branch"
	case "try_statement", "try_with_resources_statement":
		return "try_block"
	case "catch_clause":
		return "catch_block"
	case "finally_clause":
		return "finally_block"
	case "synchronized_statement":
		return "synchronized"
	}
	return ""
}

func (java) isFunc(kind string) bool {
	return kind == "method_declaration" || kind == "constructor_declaration" || kind == "lambda_expression"
}

func (java) isStatement(kind string) bool {
	return kind != "line_comment" && kind != "block_comment" && kind != "comment" && kind != "switch_label"
}

func (java) reserved(w string) bool { return javaKeywords[w] }

func (java) declared(n *syntax.Node) []*syntax.Node {
	switch n.Type {
	case "variable_declarator", "formal_parameter", "catch_formal_parameter", "enhanced_for_statement":
		if nm := n.Child("name"); nm != nil && nm.Type == "identifier" {
			return []*syntax.Node{nm}
		}
	}
	return nil
}

func (java) literal(kind string) string {
	switch kind {
	case "decimal_integer_literal":
		return "int"
	case "decimal_floating_point_literal":
		return "float"
	case "string_literal":
		return "string"
	case "true", "false":
		return "bool"
	}
	return ""
}

var javaNumeric = []string{"int", "long", "short", "byte", "float", "double"}

func (java) numericType(n *syntax.Node, src []byte) []string {
	if n.Type != "integral_type" && n.Type != "floating_point_type" {
		return nil
	}
	t := n.Text(src)
	for _, s := range javaNumeric {
		if s == t {
			return others(javaNumeric, t)
		}
	}
	return nil
}

// javaAPI maps a method name to a non-equivalent alternative with the same
// arity and argument types on the usual receivers (String, Math, List).
var javaAPI = map[string]string{
	"equals": "equalsIgnoreCase", "equalsIgnoreCase": "equals",
	"startsWith": "endsWith", "endsWith": "startsWith",
	"indexOf": "lastIndexOf", "lastIndexOf": "indexOf",
	"toLowerCase": "toUpperCase", "toUpperCase": "toLowerCase",
	"max": "min", "min": "max", "floor": "ceil", "ceil": "floor",
	"addFirst": "addLast", "addLast": "addFirst",
	"removeFirst": "removeLast", "removeLast": "removeFirst",
}

func (java) apiCall(n *syntax.Node, src []byte) (*syntax.Node, string) {
	if n.Type != "method_invocation" {
		return nil, ""
	}
	nm := n.Child("name")
	if nm == nil {
		return nil, ""
	}
	if s, ok := javaAPI[nm.Text(src)]; ok {
		return nm, s
	}
	return nil, ""
}

func (java) receiverRef(n, fn *syntax.Node, src []byte) (int, int, bool) {
	var obj, name *syntax.Node
	switch n.Type {
	case "field_access":
		obj, name = n.Child("object"), n.Child("field")
	case "method_invocation":
		obj, name = n.Child("object"), n.Child("name")
	default:
		return 0, 0, false
	}
	if obj == nil || name == nil || obj.Type != "this" {
		return 0, 0, false
	}
	return obj.Start, name.Start, true
}

func (java) errorHandler(n *syntax.Node, _ []byte) bool {
	if n.Type != "try_statement" {
		return false
	}
	for _, c := range n.Children {
		if c.Type == "finally_clause" {
			return false
		}
	}
	return n.Child("body") != nil
}
