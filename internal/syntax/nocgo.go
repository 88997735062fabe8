//go:build !cgo

package syntax

// This package parses code with tree-sitter's C library (through
// github.com/smacker/go-tree-sitter), so adaptbench needs cgo and a C
// compiler: build with CGO_ENABLED=1 and gcc (or clang) installed
// (Debian/Ubuntu: apt-get install gcc). The exec and metrics packages
// alone build without cgo.
//
// The identifier below is undefined on purpose: it makes a build with
// CGO_ENABLED=0 stop with one error that names what is needed, instead of
// a screen of errors from inside go-tree-sitter.
var _ = adaptbench_requires_cgo_and_a_C_compiler__set_CGO_ENABLED_1_and_install_gcc
