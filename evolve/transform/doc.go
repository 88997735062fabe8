// Package transform implements GeneBench's 22 semantics-preserving program
// transformations for Python (structural S1–S12, API injection A1–A8,
// renaming N1–N2) and its five semantics-altering bug mutators (M1–M5), as
// byte-range edits of the source with re-indentation over tree-sitter
// (internal/syntax).
package transform
