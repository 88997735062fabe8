package measure

import (
	"bytes"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// file is a parsed Python source file.
type file struct {
	src  []byte
	root *syntax.Node
}

// parse parses src as Python and rejects it if tree-sitter reports an
// ERROR or MISSING node, naming the first one's line and column.
func parse(src []byte) (*file, error) {
	root, err := syntax.ParseNodes(syntax.Python, src)
	if err != nil {
		return nil, err
	}
	if root.Err {
		bad := firstError(root)
		line, col := bad.Line, bad.Start-lineStart(src, bad.Start)+1
		what := "unexpected " + truncate(bad.Text(src))
		if bad.Start == bad.End {
			what = "missing " + bad.Type
		}
		return nil, errSyntax(line, col, what)
	}
	return &file{src: src, root: root}, nil
}

// firstError returns the outermost-first, leftmost node that is itself an
// ERROR or MISSING node (a node with Err set and no child with Err set).
func firstError(n *syntax.Node) *syntax.Node {
	for {
		var next *syntax.Node
		for _, c := range n.Children {
			if c.Err {
				next = c
				break
			}
		}
		if next == nil || n.Type == "ERROR" {
			return n
		}
		n = next
	}
}

func lineStart(src []byte, i int) int {
	return bytes.LastIndexByte(src[:i], '\n') + 1
}

func truncate(s string) string {
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 {
		s = s[:i] + "…"
	}
	if len(s) > 24 {
		s = s[:24] + "…"
	}
	return `"` + s + `"`
}
