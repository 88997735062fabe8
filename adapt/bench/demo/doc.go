// Package demo is a small adaptation benchmark written for adaptbench and
// embedded in the module, so that a first evaluation needs no download and
// no network: Python (unittest) and Go (go test) tasks in the style of
// AdaptEval, each a snippet to adapt into a target file, with
// adaptation-level steps and a two-tier test suite.
//
// The tasks' sources are directories under testdata/tasks (see
// adapt.LoadDir); demo.jsonl, generated from them by `go generate`, is what
// is embedded.
package demo

//go:generate go run gen.go
