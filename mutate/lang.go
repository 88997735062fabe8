package mutate

import (
	"fmt"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// language holds what the fragment extractor and the operators need to know
// about one tree-sitter grammar. Supporting a third language means adding a
// file with one more implementation and listing it in languages.
type language interface {
	// blockKind returns the fragment kind ("method_body", "loop_body", …)
	// of block when it is a fragment-bearing block of parent, or "".
	blockKind(parent, block *syntax.Node) string
	// isFunc reports whether kind is a function, method or constructor
	// declaration (the scope for declared names).
	isFunc(kind string) bool
	// isStatement reports whether a named child of a block is a statement
	// (not a comment).
	isStatement(kind string) bool
	// reserved reports whether word is a keyword of the language.
	reserved(word string) bool
	// declared returns the identifier nodes that n declares (parameters,
	// locals, loop variables), or nil.
	declared(n *syntax.Node) []*syntax.Node
	// literal classifies a literal node: "int", "float", "string", "bool"
	// or "".
	literal(kind string) string
	// numericType reports whether n is a numeric type name that the type
	// change operator may replace, and returns its alternatives.
	numericType(n *syntax.Node, src []byte) []string
	// apiCall returns the node naming the called API in a call n (the
	// method or function name) and its substitute, or nil.
	apiCall(n *syntax.Node, src []byte) (*syntax.Node, string)
	// errorHandler reports whether n is an internal error handler that the
	// try/catch edit may remove: a try statement in Java, an
	// `if err != nil { … }` check in Go.
	errorHandler(n *syntax.Node, src []byte) bool
	// receiverRef returns the byte range of an explicit receiver prefix
	// ("this." or "r.") in n, given the enclosing function fn.
	receiverRef(n, fn *syntax.Node, src []byte) (start, end int, ok bool)
}

var languages = map[Lang]language{
	Go:   golang{},
	Java: java{},
}

func languageOf(l Lang) (language, error) {
	lg, ok := languages[l]
	if !ok {
		return nil, fmt.Errorf("mutate: unsupported language %q", l)
	}
	return lg, nil
}

func words(s ...string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, w := range s {
		m[w] = true
	}
	return m
}

func others(set []string, cur string) []string {
	var out []string
	for _, s := range set {
		if s != cur {
			out = append(out, s)
		}
	}
	return out
}

// Lang names a language mutate works on, by the same lower-case name as
// adapt.Task.Language.
type Lang string

// The languages mutate supports.
const (
	Go   Lang = "go"
	Java Lang = "java"
)

// A syntaxError is one syntax error tree-sitter found in a mutant: an ERROR
// or MISSING node.
type syntaxError struct {
	Line   int    // 1-based line of the node's start
	Column int    // 1-based byte column of the node's start
	Offset int    // byte offset of the node's start
	End    int    // byte offset just past the node (== Offset for a missing one)
	Msg    string // `unexpected "…"` or `missing ")"`
}

// Error formats the error as `line 3, column 5: missing ")"`.
func (e syntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

func syntaxErrors(errs []syntax.SyntaxError) []syntaxError {
	out := make([]syntaxError, len(errs))
	for i, e := range errs {
		out[i] = syntaxError{Line: e.Line, Column: e.Column, Offset: e.Offset, End: e.End, Msg: e.Msg}
	}
	return out
}
