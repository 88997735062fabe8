// Package ctxbug implements the perturbation and obfuscation steps of
// CtxBugGen (Zhang et al., FSE'26): it masks the task-specific elements of
// a reference method so that a generator model, filling the holes without
// the target context, produces candidate context adaptation bugs
// (CtxBugs).
//
// # Rules
//
// A [Rule] is a descriptor (Name, Doc, Task, Level, Run) over
// tree-sitter-python, and [Suite] is the paper's ten rules in order:
//
//	R1  params     <PARAMS>  the parameter list                       one template
//	R2  return     <RETURN>  all return statements                   one template
//	R3  constant   <INFILL>  all constants of one type               one per type (int, float, str, bool)
//	R4  operator   <INFILL>  all operators                           one template
//	R5  operation  <INFILL>  each assignment's right-hand side       one per occurrence
//	R6  condition  <INFILL>  each condition                          one per occurrence
//	R7  call       <INFILL>  each call, except of context methods    one per occurrence
//	R8  bounded    <INFILL>  all attributes of self/cls/the class
//	                         and context globals                     one template
//	R9  free       <VAR>     all uses of locals but their first
//	                         binding                                 one template
//	R10 library    <INFILL>  all uses of the context's libraries     one template
//
// Token-level rules (R3, R4, R8, R9) mask every instance at once so that
// no instance gives another away; R5–R7 mask one occurrence per template.
// Rules return data: per template, the [Hole]s (byte ranges of the
// perturbed solution nodes with their placeholders). [Perturb] validates
// the rules, parses the method, runs them and applies the holes:
//
//	ts, err := ctxbug.Perturb(method, &ctxbug.Context{Class: "BitStatusUtil", Methods: []string{"check"}}, ctxbug.Suite)
//	for _, t := range ts { use(t.Rule, t.Code, t.Holes) }
//
// Callers filter or extend Suite as a plain slice; [Validate] checks it.
//
// # Obfuscation
//
// [Obfuscate] and [ObfuscateTemplate] rename a method's parameters and
// local variables to var_0, var_1, … (and the method's own names in the
// requirement text), following Python's scoping rules: globals, builtins,
// attributes, keyword-argument names, imported names and self/cls keep
// their names, and same-named variables of different scopes
// (comprehensions, lambdas, nested functions) get different names.
// [Deobfuscate] maps a model's completion back with [Obfuscated.Names].
//
// # Not here yet
//
// The infill prompt and model call, the test-and-GumTree filter that keeps
// a completion only if it fails the target's tests at a masked node, and
// deduplication are not part of this package yet. The exact template
// order and the requirement-renaming heuristics are not stable.
package ctxbug
