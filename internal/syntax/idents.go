//go:build cgo

package syntax

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// Node is one node of a concrete syntax tree, copied out of tree-sitter
// into plain Go data, so that a caller can walk a whole tree (to list the
// identifiers of a scope, say) without cgo and without freeing anything.
// Anonymous nodes (keywords, punctuation) are included, with Named false.
type Node struct {
	// Type is the grammar's node type, such as "identifier",
	// "function_definition" or "async".
	Type string
	// Field is the name of the field the node fills in its parent ("name",
	// "parameters", "body"), or "".
	Field string
	// Named reports whether the node is a named node of the grammar.
	Named bool
	// Err reports whether the node is, or contains, an ERROR or MISSING
	// node.
	Err bool
	// Start and End are the node's byte range [Start, End) in the source.
	Start, End int
	// Line and EndLine are the 1-based lines of Start and End.
	Line, EndLine int
	// Children are the node's children in source order.
	Children []*Node
}

// ParseNodes parses src as lang and returns a copy of the whole tree,
// rooted at the grammar's root node ("module" for Python). Like [Parse], it
// returns a tree even for code with syntax errors (see [Node.Err]); the
// error is only for an unsupported language or an input tree-sitter cannot
// handle.
func ParseNodes(lang Lang, src []byte) (*Node, error) {
	_, st, err := parseNew(lang, src)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	c := sitter.NewTreeCursor(st.RootNode())
	defer c.Close()
	return copyNode(c), nil
}

func copyNode(c *sitter.TreeCursor) *Node {
	n := c.CurrentNode()
	out := &Node{
		Type:    n.Type(),
		Field:   c.CurrentFieldName(),
		Named:   n.IsNamed(),
		Err:     n.HasError() || n.IsMissing(),
		Start:   int(n.StartByte()),
		End:     int(n.EndByte()),
		Line:    int(n.StartPoint().Row) + 1,
		EndLine: int(n.EndPoint().Row) + 1,
	}
	if c.GoToFirstChild() {
		for {
			out.Children = append(out.Children, copyNode(c))
			if !c.GoToNextSibling() {
				break
			}
		}
		c.GoToParent()
	}
	return out
}

// Text returns the node's source text in src, the source it was parsed
// from.
func (n *Node) Text(src []byte) string { return string(src[n.Start:n.End]) }

// Child returns the first child that fills field, or nil.
func (n *Node) Child(field string) *Node {
	for _, c := range n.Children {
		if c.Field == field {
			return c
		}
	}
	return nil
}

// NamedChildren returns the named children, in order.
func (n *Node) NamedChildren() []*Node {
	var out []*Node
	for _, c := range n.Children {
		if c.Named {
			out = append(out, c)
		}
	}
	return out
}

// Has reports whether n has a child of the given type (an anonymous
// keyword such as "async" included).
func (n *Node) Has(typ string) bool {
	for _, c := range n.Children {
		if c.Type == typ {
			return true
		}
	}
	return false
}

// Walk calls fn for n and its descendants in source order (pre-order); when
// fn returns false the node's children are skipped.
func (n *Node) Walk(fn func(*Node) bool) {
	if !fn(n) {
		return
	}
	for _, c := range n.Children {
		c.Walk(fn)
	}
}

// Identifiers returns the identifier nodes under n, in source order.
func (n *Node) Identifiers() []*Node {
	var out []*Node
	n.Walk(func(c *Node) bool {
		if c.Type == "identifier" {
			out = append(out, c)
		}
		return true
	})
	return out
}
