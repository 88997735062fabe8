// Package syntax is the tree-sitter based source-code toolkit of adaptbench:
// it parses Python, Go and Java, lists the function definitions of a file,
// extracts a function from a model's answer and splices a function into a
// target file with the right indentation.
//
// It is the only package of the module that uses cgo (through
// github.com/smacker/go-tree-sitter). Everything it returns is plain Go data:
// [Parse] copies what it needs out of the tree-sitter tree and frees the C
// tree before returning, so a [*Tree] needs no Close and is safe for
// concurrent use. Parsers are pooled per language and every exported
// function is safe to call from many goroutines.
//
// # Positions
//
// Byte offsets index the source slice that was parsed. Lines and columns are
// 1-based; columns count bytes (not runes), like go/scanner.
//
// # Function ranges
//
// A [Func] spans [Func.Start, Func.End). Start includes Python decorators and
// Java annotations/modifiers but never the comments before a definition
// (Go and Java doc comments stay outside the range, so Replace keeps the
// original doc comment). End is the end of the last token of the definition,
// normally just before the newline that ends it.
//
// # Indentation
//
// [Dedent], [Indent] and [Reindent] are plain text operations that treat
// spaces and tabs literally. [Replace] and [Extract] use a language-aware
// variant: the continuation lines of multi-line string literals (Python
// triple-quoted strings, Go raw strings, Java text blocks) are copied
// verbatim, so the value of a literal never changes and a string whose
// continuation lines start in column 1 does not stop the rest of the code
// from being re-indented; continuation lines of multi-line comments are moved
// with the code but do not take part in computing the common indentation.
// Indentation units are never converted (a tab-indented replacement spliced
// into a space-indented file keeps its tabs after the new prefix); Python
// accepts this because every block is consistent on its own.//
// # AST matching
//
// [Match] maps the nodes of two trees (from [ParseNodes]) in the manner of
// GumTree (top-down matching of identical subtrees, bottom-up matching by
// dice similarity, recovery of leftovers), and [Mapping.Edits] and [Diff]
// give the edit script (insert, delete, update, move). ctxbug uses it to
// check that a generated variant differs from the solution only at the
// perturbed nodes, mutate to see which mutations a model reversed
// ([Mapping.Aligned]), and adapt for adaptation-level diffs.
package syntax
