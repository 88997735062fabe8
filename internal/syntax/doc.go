// Package syntax is the tree-sitter based source-code toolkit of adaptbench:
// it parses Python, Go and Java, lists the function definitions of a file,
// extracts a function from a model's answer, splices a function into a
// target file with the right indentation, applies byte-range edits,
// reads Python import statements, analyses Python scopes and matches
// syntax trees.
//
// It is the only package of the module that uses cgo (through
// github.com/smacker/go-tree-sitter). Everything it returns is plain Go data:
// [Parse] copies what it needs out of the tree-sitter tree and frees the C
// tree before returning, so a [*Tree] needs no Close and is safe for
// concurrent use. Parsers are pooled per language and every exported
// function is safe to call from many goroutines.
//
// # Use
//
// Parse a file, list its functions, and splice a model's version of one
// of them in place of the original; the result is checked for syntax
// errors before it is returned:
//
//	tree, err := syntax.Parse(syntax.Python, src)
//	for _, fn := range tree.Functions() {
//		fmt.Println(fn.QualifiedName(), fn.Line) // "Circle.area" 12
//	}
//	out, err := syntax.Replace(syntax.Python, src, "Circle.area", answer)
//	edits, err := syntax.Diff(syntax.Python, src, out) // what changed, as tree edits
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
// accepts this because every block is consistent on its own.
//
// # Text edits
//
// [ApplyEdits] is the one applier of byte-range edits ([TextEdit]: replace
// [Start, End) with Text) that the generators use: edits in any order,
// rejected with an [*EditError] when out of range or overlapping, applied
// by offset with insertions at one offset in the order given. Its
// [EditMap] says where each edit's text landed ([EditMap.Range]) and maps
// offsets of the result back to the source ([EditMap.Old]).
//
// # Re-parsing edited sources
//
// A [Reparser] keeps the tree of one source and checks edited versions of
// it with an incremental parse, which reuses the unchanged parts of the
// tree. Tree-sitter's error recovery may take another path when it reuses
// nodes, so only a clean result is taken from the incremental parse; a
// source with errors is parsed again from scratch and its errors are that
// parse's. [Replace] checks its result the same way.
//
// # Python scopes
//
// [PyScopes] analyses a Python module as CPython's symbol table does
// (module, function, lambda, class and comprehension scopes; global and
// nonlocal; class bodies invisible to nested scopes; a comprehension's
// first iterable and a function's defaults evaluated outside; walrus
// targets binding outside comprehensions) and resolves every occurrence of
// a name ([Ref]) to the variable ([Symbol]) it refers to. [Scopes.Locals]
// lists the occurrences of functions' local variables, the ones a renamer
// may rename; a caller's keep function marks the names that must keep
// their name. ctxbug and adapteval obfuscate with it, evolve's transforms
// rename and move code with it. A test checks it against Python's
// symtable module.
//
// # Python imports
//
// [PyImports] is the one reader of Python import statements: it lists
// every imported name of a tree ([PyImport]: the statement, the module as
// written with its relative level, the imported name, the alias, the name
// bound in the scope, and whether it is a wildcard, a __future__ import
// or nested in a def or class), in source order. Callers apply their own
// policy to these values: [PyScopes] binds the names, evolve/measure
// keeps the GeneBench artifact's quirks, versioned resolves aliases for
// the API hit rate, adapteval and classeval pick the imports they need.
// [Tree.Imports] and [Imports] give the text of top-level import
// statements instead, for copying import lines.
//
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
