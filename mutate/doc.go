// Package mutate injects adaptation mutations into code fragments: it runs
// the operators of the mutation-injection framework (Table I of "Evaluating
// LLMs on Java Code Snippet Adaptation Using a Mutation-Injection
// Framework") in reverse, turning an adapted fragment F into an unadapted
// F′ and recording how to get F back, and validates the mutants against a
// project's tests to make instruction-free adaptation tasks.
//
// Go and Java are supported; the build systems are mutate/gomod and mutate/maven.
//
// # Fragments and operators
//
// [Fragments] lists the candidate fragments of a file: contiguous runs of
// 3 to 20 statements that make up a block and use at least two distinct
// non-keyword identifiers; [Generate] checks the paper's third condition,
// coverage by a test, with per-test coverage from a [Project].
//
// An [Operator] is plain data: a name, a doc string, a [Tier], languages
// and two functions. Sites lists where it applies in a fragment; Run turns
// one [Site] into byte-range [Edit]s of the original file, drawing any
// choice from a caller-supplied *rand.Rand, so the same seed gives the
// same mutant. [Operators] lists the implemented operators, found by
// their Name ([ModifyLogic] and [RemoveGuard] are also variables;
// Generate checks a list of one's own before use):
//
//	identifier  renamevar, updateconst, dropreceiver (identifier resolution)
//	statement   removeguard (guard insertion), changetype, unwraptry (try/catch edit; in Go, if err != nil)
//	structural  changeflow (control flow), substituteapi, modifylogic (logic customization)
//
// Operators run in the paper's reverse direction: F has the guard, the
// try/catch or the adapted name, and F′ lacks it. Sites are syntactic; a
// Project with a TypeErrors method (mutate/gomod) has each site's edits
// type-checked, so that an operator under [RequireCompile] proposes only
// choices that type-check. RemoveGuard and UnwrapTry leave `_ = err` where
// they deleted the only reader of a Go variable.
//
// # Applying and reverting
//
// [Apply] applies edits, rejecting out-of-range and overlapping ones.
// [Mutate] runs one operator at one site, applies its edits and re-parses
// the result (incrementally): a mutant with syntax errors gets
// [FateSyntax] in its [Mutant.Fate] (a verdict, not an error). Each mutant
// carries a [Record]: operator, tier, affected node kind and path, and per
// change the original and mutated text with their ranges in F and F′.
// [Revert] replays the records backwards and gives F byte for byte.
// compose applies several operators to one source at once (the paper's
// complexity levels L2 to L4), with one Record each.
//
//	frags, _ := mutate.Fragments(mutate.Go, src)
//	for _, site := range mutate.ModifyLogic.Sites(&frags[0]) {
//		m, _ := mutate.Mutate(mutate.ModifyLogic, site, rand.New(rand.NewPCG(1, 2)))
//		if m.Fate == mutate.FateOK {
//			orig, _ := mutate.Revert(m.Src, []mutate.Record{m.Record})
//			_ = orig // == src
//		}
//	}
//
// # Projects and build systems
//
// A [Project] is a code base behind its build system: it lists sources and
// tests, gives per-test coverage ([Lines]), and checks a mutant (build
// with one file replaced, run the given tests: a [TestRun]). A build
// system may do more, each a method Generate looks for (the build systems
// of this module have them; build.go documents their contracts): Prepare
// (decide on many mutants at once before the checks: gomod's mutant
// schemata, maven's one-JVM compiles), CheckBatch (check many mutants at
// once, each a [CheckRequest]: maven's shared JVMs), CoverageAll (every
// test's coverage in one run) and TypeErrors. The caller picks the build system by opening
// the project with it; mutate never picks one:
//
//	proj, err := gomod.Open(dir, sb, nil) // or maven.Open(ctx, dir, sb, nil)
//
// A build system of one's own implements Project from outside, as gomod
// and maven do; [CheckCandidates] runs the pipeline's checks on it alone.
//
// Options.Repo and Options.Commit pin a project read from a git
// repository (package source) in every task's provenance.
//
// # The validity pipeline
//
// [Generate] runs the paper's pipeline on a Project with [Options]:
//
//  1. Baseline: every test runs Options.Runs (3) times; tests that pass
//     every time are stable, the others are left out.
//  2. Coverage: a fragment's relevant tests are the stable tests that ran
//     one of its lines; a fragment without one is dropped. Fragments must
//     lie in a named function whose name (or, for a Java overload,
//     signature) is unique in its file: the answer unit.
//  3. Sampling: Options.Fragments fragments are drawn with the seed; per
//     fragment, Options.SitesPerOp L1 mutants per operator, and per level
//     L2 to L4 Options.PerLevel combinations of at least two distinct
//     operators, the least used first, each pick's edits disjoint from the
//     others'.
//  4. Checks, each discard with a typed [Reason]: no edit; overlapping
//     picks; parse; compile; no relevant test fails; harness failure; a
//     flaky failure (failing tests are run again, Runs-1 times); and, for
//     a combination, a constituent that does not parse or compile on its
//     own (Candidate.Parts). The compile step follows the operator's
//     [Policy]: [AllowUnresolved] keeps a mutant whose only compile errors
//     are unresolved names on the lines it changed. A combination's
//     effective level ([Candidate.Effective]) is how many of its
//     constituents are detected alone; Options.RequireEffective discards one below its level.
//  5. Tasks: each valid mutant becomes one adapt.Task per [ContextLevel]
//     (C1: no context, C2: the method, C3: the file); not at C1 when F′
//     no longer shows the name to restore (a renamed variable's, a dropped receiver's).
//
// Result.Funnel counts per operator combination the mutants that reached each
// stage ([StageSite] to [StageEffective]); [Result.FunnelSummary] has a row per
// L1 operator and per level; [Result.Gates] the pilot gates ([Gates.Err]: which fail).
//
//	sb, _ := sandbox.New(nil)
//	proj, _ := gomod.Open(dir, sb, nil)
//	defer proj.Close()
//	res, _ := mutate.Generate(ctx, proj, &mutate.Options{Seed: 1, Levels: []mutate.ComplexityLevel{mutate.L1, mutate.L2}})
//	res.FunnelSummary().WriteTable(os.Stdout)
//	fmt.Print(res.Gates())
//	rep, _ := adapt.Evaluate(ctx, res.Tasks, model, &adapt.Options{Template: mutate.Prompt, Answer: mutate.Answer, Runner: sb})
//
// examples/mutate is this as a program.
//
// # Tasks
//
// A task's answer unit is the fragment's enclosing function: Code is the
// function with F′ in place, Reference the function with F; Context holds
// nothing, the method or the file with F′ between marker comments. Its
// Provenance.Detail (schema [DetailSchema], decoded by [DetailOf]) is the
// task's [Detail]: F′'s range in Code ([Snippet]), F's in Reference, the
// Records, the tests that caught the mutant and its effective level. The
// labels ([LabelKeys]) are grouping keys for adapt.Options.Breakdown.
// [Prompt] is the instruction-free template; a model answers with the
// adapted snippet, and [Answer], as adapt.Options.Answer, splices it into
// the function adapt.Evaluate tests. A task's workspace is the project as
// one shared adapt.Base.
//
// # Inspection
//
// [Inspect] decides for each injected mutation whether an output reversed
// it: [Reversed], [Unchanged], [Altered] or [NodeMissing].
// [Inspection.Classify] puts the test verdict beside it: restored, failed,
// or [ClassAlternative] (tests pass with some node not restored).
//
// # Stability
//
// Site order, choices and therefore the mutant for a given seed may change
// between versions as operators improve; the funnel's table is for people,
// not programs, and so is [Gates.String]. A [Detail]'s format is fixed by
// its [DetailSchema]. The task labels, the prompt's wording (named by
// [PromptVersion]) and the Reason, Verdict and Class text forms are stable
// within a PromptVersion. Figures measured on this package are in
// BENCHMARKS.md.
package mutate
