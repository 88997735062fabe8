// Package mutate injects adaptation mutations into code fragments: it runs
// the operators of the mutation-injection framework (Table I of "Evaluating
// LLMs on Java Code Snippet Adaptation Using a Mutation-Injection
// Framework") in reverse, turning an adapted fragment F into an unadapted
// F′ and recording how to get F back.
//
// Go and Java are supported, parsed with tree-sitter through
// internal/syntax. What the package knows about a language sits behind a
// small unexported interface (lang_go.go, lang_java.go); a third language
// is one more file.
//
// # Fragments
//
// [Fragments] lists the candidate fragments of a file: contiguous runs of
// MinStmts to MaxStmts statements that make up a block (function, method,
// constructor and lambda bodies, loop bodies, branches, switch cases, try,
// catch and finally blocks, synchronized blocks) and use at least two
// distinct
// non-keyword identifiers. The paper's third condition, coverage by at
// least one test, needs a build system; callers filter the fragments with
// coverage data (the seam is Fragment.Line..EndLine).
//
// # Operators
//
// An [Operator] is plain data: a name, a doc string, a [Tier], languages
// and two functions. Sites lists where it applies in a fragment; Run turns
// one [Site] into byte-range [Edit]s of the original file, drawing any
// choice from a caller-supplied *rand.Rand, so the same seed gives the same
// mutant. [Suite] lists the implemented operators; [Validate] checks a list
// before use:
//
//	identifier  RenameVar, UpdateConst, DropReceiver (identifier resolution)
//	statement   RemoveGuard (guard insertion), ChangeType, UnwrapTry (try/catch edit; in Go, if err != nil)
//	structural  ChangeFlow (control flow), SubstituteAPI, ModifyLogic (logic customization)
//
// Operators run in the paper's reverse direction: F has the guard, the
// try/catch or the adapted name, and F′ lacks it. Without type information
// some mutants do not compile or do not change behaviour (a consistent
// rename, say); the compile and test steps of the validity pipeline filter
// them.
//
// # Applying and reverting
//
// [Apply] applies edits, rejecting out-of-range and overlapping ones.
// [Mutate] runs one operator at one site, applies its edits and re-parses
// the result: a mutant with syntax errors gets [StatusSyntax] in its
// [Mutant.Status] (a verdict, not an error). Each mutant carries a
// [Record]: operator, tier, affected node kind and path, and per change the
// original and mutated text with their ranges in F and F′. [Revert]
// replays the records backwards and gives F byte for byte. [Compose] applies
// several operators to one source at once (the paper's levels L2 to L4),
// with one Record each; picks whose edits overlap are rejected.
//
//	frags, _ := mutate.Fragments(syntax.Go, src)
//	for _, site := range mutate.ModifyLogic.Sites(&frags[0]) {
//		m, _ := mutate.Mutate(mutate.ModifyLogic, site, rand.New(rand.NewPCG(1, 2)))
//		if m.Status == mutate.StatusOK {
//			orig, _ := mutate.Revert(m.Src, []mutate.Record{m.Record})
//			_ = orig // == src
//		}
//	}
//
// # Funnel
//
// A [Funnel] counts per operator how many mutants reached each [Stage].
// This package counts sites, applied edits and parsed mutants; the compile
// and test steps add their own stages.
//
// # Stability
//
// Site order, choices and therefore the mutant for a given seed may change
// between versions as operators improve; the text of [Funnel.String] is for
// people, not programs.
package mutate
