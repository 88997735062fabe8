// Package ctxbug implements CtxBugGen (Zhang et al., "Coding in a Bubble?
// Evaluating LLMs in Resolving Context Adaptation Bugs During Code
// Adaptation", FSE'26) on ClassEval: it masks the task-specific elements
// of reference methods, has a generator model fill the holes without the
// target context, keeps the fills that are context adaptation bugs
// (CtxBugs), and turns them into adaptation tasks with the paper's
// baselines, metrics and tables.
//
// # Bases
//
// A [Base] is one ClassEval method in its class: its adapt.Task (the class
// solution as target, the method's test class as tests), the method as
// the rules see it, its requirement (signature and docstring), what the
// rules need of the class ([Context]), the libraries it uses, and the class
// with the method and its callers removed. [FromClassEval] makes the 410.
//
// [Generate] runs the generation and identification below and makes the
// benchmark's CtxBug tasks; [Evaluate] tests a model on them:
//
//	bases, _ := ctxbug.FromClassEval(classes, "ClassEval_data.json")
//	res, err := ctxbug.Generate(ctx, generator, bases, &ctxbug.Options{Runner: runner})
//	sc, err := ctxbug.Evaluate(ctx, res.Tasks, tested, &ctxbug.EvalOptions{Runner: runner})
//	ctxbug.Aggregate(sc.Results).WriteTable(os.Stdout) // Table 4's rows
//
// # Rules
//
// A [Rule] (Name, Doc, Task; it runs over tree-sitter-python) masks the
// elements of one kind, and [Rules] is the paper's ten rules in order:
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
// perturbed solution nodes with their placeholders). [Jobs] validates
// the rules, parses each method, runs them and applies the holes.
//
// The template counts on ClassEval, and why they differ from the paper's,
// are in BENCHMARKS.md.
//
// # Generation
//
// [Jobs] perturbs the bases and obfuscates each template (parameters and
// locals become var_0, var_1, …, in the requirement too, following
// Python's scoping). The infill prompt shows the requirement and the
// masked method only, never the class; dependency jobs add the paper's
// "However, you are not allowed to use the following libraries: [...]".
// [Draw] asks any adapt.Model for n variants per job (temperature 0 by
// default); the request's task ID is the job ID, so an adapt.Replay file
// keyed by job ID replays a generator.
//
// # Identification
//
// [Identify] runs the paper's hybrid identification (§2.4), in its order,
// after a gold check (a base whose own solution fails its tests is an
// environment problem, so its candidates stop at stage "reference"):
//
//  1. deobfuscate the method of the output (AST-aware);
//     an output with code but no parsable method stops here;
//  2. run the method's tests with the variant spliced into the class, in
//     the sandbox: at least one must fail;
//  3. align variant and solution with the GumTree matcher of
//     internal/syntax: a perturbed node must have no counterpart or one
//     with other tokens (the bug locations, [Bug]); and, unless
//     AllowEditsElsewhere, the variant's tokens outside the holes must be
//     the solution's, in order (comments and an added docstring aside).
//     Where that token alignment pins down what the variant has in a
//     hole's place, it decides the hole's text, since GumTree pairs equal
//     tokens across positions (two swapped variables look unchanged to
//     it, and an attribute replaced by one the method uses elsewhere
//     looks moved); GumTree decides for adjacent holes and deleted code;
//  4. clean: drop empty outputs, then duplicates (same generator, same
//     method, same tokens, from any rule).
//
// Result.Funnel (an report.Funnel) counts the candidates left after every
// stage per generator and rule (the paper's Fig. 5; Funnel.WriteTable):
// "generated", then the stages above in their order, "model" (the model
// answered), "reference", "deobfuscate", "harness", "tests", "diff",
// "locality", "empty", "duplicate", and "kept".
// Tokens are compared as tree-sitter leaves joined by one space: white
// space and layout never matter; quote style, spelling and order do (so
// "a+b" for "b+a" is a change, as in the paper's exact match).
//
// # Benchmark
//
// An [Instance] is a kept variant with its bug locations. [Tasks] turns
// instances into adapt.Tasks in one of three [Setting]s: WithCtxBugs (the variant
// is the reused code), WithoutCtxBugs (every bug location replaced by
// <INFILL>: [Instance.WithoutBugs]) and WithIsoBugs, for instances of
// [IsoJobs]: the solution with <START>/<END> around each CtxBug location,
// for a model to implant a locally visible bug, identified exactly as
// CtxBugs are. A task's labels are grouping keys only ([LabelKeys]:
// setting, generator, rule, adaptation task); its provenance has the
// generator "ctxbug", the parent base and the rule, and its [Detail]
// (schema [DetailSchema], decoded by [DetailOf]) the instance it comes
// from, the class and the bug locations (byte ranges of the reference).
//
// # Evaluation and metrics
//
// [Evaluate] prompts a tested model with the adaptation prompt (the
// requirement, the reused code, and the class without the method and its
// callers, all obfuscated at class level), at temperature 0, one sample,
// maps the answer back and runs adapt.Evaluate (gold first); [Score] turns
// its report, or one read back or merged from shards, into [Scores]: a
// [TaskResult] per task. A TaskResult holds Pass@1 (all tests pass) and
// the resolution of each bug location: the answer's counterpart of the
// solution node has the solution's tokens (by the token alignment where
// the answer keeps the code around the location token for token, by
// GumTree elsewhere: see BENCHMARKS.md for why). Locations where the
// answer kept the reused code's tokens are overlooked, and when the model
// returns log-probabilities, ATP averages the probability of the tokens
// over them (Table 7; [MeanATP]).
//
// [Aggregate] counts results per generator, tested model and setting into
// [Cell]s per adaptation task and "all" (Pass@1 over instances, RR over
// bug locations: micro-averages), [Average] is the paper's Average row
// (weighted by size, which is the sum of counts), [Row.WriteDegradation]
// the relative change of Tables 5 and 6, and [Paired] Table 6's subset;
// [Table.WriteTable] prints the rows. The tests recompute cells of Tables
// 4–6 from their counts: every cell matches but one Average RR (67.96
// where the paper prints 67.95), and the relative changes match exactly
// when computed, as the paper did, from the rounded percentages.
//
// examples/ctxbug runs the whole flow offline with a deterministic
// bug-implanting generator ([ctxbugtest.Implanter]), or with recorded or
// live models; BENCHMARKS.md has its figures on all of ClassEval.
//
// # Not here
//
// The paper's prompt texts are unpublished; the wording here is ours. The
// manual validation sample and the failure taxonomy (Tables 8, 9) are not
// implemented. Class-level obfuscation renames the class, its methods and
// the fields it assigns, not the other methods' locals.
package ctxbug
