//go:build cgo

package syntax

import (
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"
)

// A Reparser holds the parse tree of one source so that edited versions of
// it can be checked for syntax errors with an incremental parse, which
// reuses the unchanged parts of the tree instead of parsing the whole file
// again (a mutation pipeline checks thousands of one-line edits of the
// same file). It is safe for concurrent use; the tree-sitter tree it holds
// is freed when the Reparser is garbage collected.
type Reparser struct {
	g    *grammar
	src  []byte
	tree *sitter.Tree
}

// NewReparser parses src as lang. src must not be modified afterwards.
func NewReparser(lang Lang, src []byte) (*Reparser, error) {
	g, st, err := parseNew(lang, src)
	if err != nil {
		return nil, err
	}
	return &Reparser{g: g, src: src, tree: st}, nil
}

// Nodes returns a copy of the whole tree, as [ParseNodes] does.
func (r *Reparser) Nodes() *Node {
	c := sitter.NewTreeCursor(r.tree.RootNode())
	defer c.Close()
	return copyNode(c)
}

// Errors returns the syntax errors of edited, which is the Reparser's
// source with the bytes [start, oldEnd) replaced so that the replacement
// ends at newEnd in edited (every change lies inside that range). They are
// exactly what [Tree.Errors] gives for a parse of edited from scratch: an
// incremental parse decides that edited is clean, and when it is not, the
// errors come from a full parse (tree-sitter's error recovery may take
// another path when it reuses nodes).
func (r *Reparser) Errors(edited []byte, start, oldEnd, newEnd int) ([]SyntaxError, error) {
	if start < 0 || start > oldEnd || oldEnd > len(r.src) || start > newEnd || newEnd > len(edited) ||
		len(r.src)-oldEnd != len(edited)-newEnd {
		return nil, fmt.Errorf("syntax: edit [%d,%d) → [%d,%d) does not fit sources of %d and %d bytes", start, oldEnd, start, newEnd, len(r.src), len(edited))
	}
	old := r.tree.Copy() // a copy is cheap and may be edited by one goroutine
	defer old.Close()
	return r.g.editedErrors(old, r.src, edited, start, oldEnd, newEnd)
}

// editedErrors edits old, the tree of src, into a tree of edited (see
// [Reparser.Errors]) and returns edited's syntax errors as a full parse
// gives them.
func (g *grammar) editedErrors(old *sitter.Tree, src, edited []byte, start, oldEnd, newEnd int) ([]SyntaxError, error) {
	old.Edit(sitter.EditInput{
		StartIndex:  uint32(start),
		OldEndIndex: uint32(oldEnd),
		NewEndIndex: uint32(newEnd),
		StartPoint:  pointOf(src, start),
		OldEndPoint: pointOf(src, oldEnd),
		NewEndPoint: pointOf(edited, newEnd),
	})
	nt, err := g.parse(edited, old)
	if err != nil {
		return nil, err
	}
	clean := !nt.RootNode().HasError()
	nt.Close()
	if clean {
		return nil, nil
	}
	full, err := g.parse(edited, nil)
	if err != nil {
		return nil, err
	}
	defer full.Close()
	return syntaxErrors(full, edited), nil
}
