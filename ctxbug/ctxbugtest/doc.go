// Package ctxbugtest holds offline stand-ins for the models of a CtxBugGen
// run: [Implanter], a deterministic generator that fills each masked hole
// with a plausible wrong version of the solution's code, and [Copier], a
// tested model that overlooks every bug. With them ctxbug's whole flow
// (perturb, generate, identify, evaluate) runs without network, in tests
// and in examples, and the same seed gives the same tasks byte for byte.
// It is a public kit, as adapt.Reference is: code built on ctxbug can run
// the flow offline in its own tests, as examples/ctxbug does by default.
package ctxbugtest
