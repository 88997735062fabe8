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
// distinct non-keyword identifiers. The paper's third condition,
// coverage by at least one test, needs a build system: [Generate] checks
// it with per-test coverage from a [Project].
//
// # Operators
//
// An [Operator] is plain data: a name, a doc string, a [Tier], languages
// and two functions. Sites lists where it applies in a fragment; Run turns
// one [Site] into byte-range [Edit]s of the original file, drawing any
// choice from a caller-supplied *rand.Rand, so the same seed gives the same
// mutant. [Operators] lists the implemented operators; [Validate] checks a list
// before use:
//
//	identifier  RenameVar, UpdateConst, DropReceiver (identifier resolution)
//	statement   RemoveGuard (guard insertion), ChangeType, UnwrapTry (try/catch edit; in Go, if err != nil)
//	structural  ChangeFlow (control flow), SubstituteAPI, ModifyLogic (logic customization)
//
// Operators run in the paper's reverse direction: F has the guard, the
// try/catch or the adapted name, and F′ lacks it. An operator's sites are
// syntactic, with cheap rules against edits that can never compile (no
// "-" for a + of a string literal, no type switch case for ChangeType, no
// broken printf verb for UpdateConst). In a Go module, [Generate] also
// type-checks each site's edits (go/types against the export data, as the
// validity pipeline's compile step does): an operator under
// [RequireCompile] proposes only the choices that type-check (a + of two
// string variables, a numeric type the code around cannot take). Java
// has no such check: its compile step filters what javac rejects. Some
// mutants do not change behaviour (a consistent rename, say); the test
// step filters them.
//
// # Applying and reverting
//
// [Apply] applies edits, rejecting out-of-range and overlapping ones.
// [Mutate] runs one operator at one site, applies its edits and re-parses
// the result: a mutant with syntax errors gets [StatusSyntax] in its
// [Mutant.Status] (a verdict, not an error). The re-parse is incremental
// (the file's tree, kept by [Fragments], edited where the mutant changed
// it), and when it finds an error the errors come from a full parse, so
// they are a parse from scratch's: BenchmarkReparse measures 12 to 14
// times less time per mutant than a full parse on this package's sources. Each mutant carries a
// [Record]: operator, tier, affected node kind and path, and per change the
// original and mutated text with their ranges in F and F′. [Revert]
// replays the records backwards and gives F byte for byte. [Compose] applies
// several operators to one source at once (the paper's levels L2 to L4),
// with one Record each; picks whose edits overlap are rejected.
//
//	frags, _ := mutate.Fragments(Go, src)
//	for _, site := range mutate.ModifyLogic.Sites(&frags[0]) {
//		m, _ := mutate.Mutate(mutate.ModifyLogic, site, rand.New(rand.NewPCG(1, 2)))
//		if m.Status == mutate.StatusOK {
//			orig, _ := mutate.Revert(m.Src, []mutate.Record{m.Record})
//			_ = orig // == src
//		}
//	}
//
// # Projects and build systems
//
// A [Project] is a code base behind its build system: it lists sources
// and tests, gives per-test coverage ([Lines]), and checks a mutant
// (build with one file replaced, run the given tests: a [TestRun]).
//
//   - [GoModule] ([OpenGoModule]): a Go module whose root package, or the
//     packages GoConfig.Packages names ("cmp", or [AllPackages] for every
//     package with tests), is mutated; a module without a root package
//     (github.com/google/go-cmp) is an error listing its packages. Each
//     package is built and tested on its own, and a fragment's relevant
//     tests are those of its package: the tests adapt's Go driver runs
//     for a task whose target is there. It is copied once; every build is "go test -c" on the host
//     with GOPROXY=off (the module cache is filled beforehand) and the
//     mutant's file swapped in with -overlay, so the tree is never copied
//     per mutant, mutants build concurrently and the build cache keeps
//     the rest compiled. The test binary runs in the exec.Runner (the
//     sandbox), -test.run selecting the relevant tests; test runs are
//     serialized (a sandbox job owns its workspace). Mutants are not
//     built one by one: before the candidates are checked, each is
//     type-checked with go/types (its package and in-package tests, then
//     its external tests) against the export data "go list -export"
//     gives once per package, so that one that does not compile costs no
//     build; those that type-check are compiled together as mutant
//     schemata, one test binary per package in which every changed
//     function body becomes a switch on a variable read from
//     $ADAPTBENCH_MUTANT at start-up (an arm per mutant, the original as
//     the default; line directives keep each arm's positions those of its
//     mutant), run once per mutant with the variable set, as PIT and
//     Major do for Java. What a schema cannot hold is built alone as
//     before: a mutant that changes anything outside function bodies or
//     a body with labels (each arm would declare them again); where the
//     package or its tests read source lines or function names
//     (runtime.Caller and its kin, stack dumps, log's file flags), one
//     that changes a body's line count (the code after it would keep the
//     original's lines) or a body with closures (the arms before the
//     original would renumber F.func1); a schema
//     that does not build, a mutant go/types cannot decide on (a file
//     excluded by build constraints, a missing export), and, so that
//     [AllowUnresolved] reads gc's own messages, a mutant with type
//     errors under that policy. GoConfig.BuildEach builds every mutant
//     alone (the old path; TestGoFastPathSameVerdicts checks that both
//     give every uuid candidate the same verdict). Per-test coverage:
//     a binary built once with -cover runs each test with
//     -test.coverprofile.
//   - [Maven] ([OpenMaven]): a Maven project, built once on the host with
//     "mvn -B -o -q -s /etc/maven/settings-debian.xml -DforkCount=0
//     test-compile" against Debian's repository (the pom pins Debian's
//     plugin versions). That build is trusted and runs unsandboxed; the
//     project's code then only runs in the sandbox: a mutant's file is
//     recompiled alone into a directory put first on the class path (the
//     Java counterpart of -overlay). The mutants of a Generate are
//     compiled together, in one JVM in the sandbox that runs the system
//     Java compiler once per mutant with the command line its own javac
//     would get (the same class files and messages, one JVM start instead
//     of one per mutant: validation of testdata/maven's 44 candidates
//     went from 116 s to 33 s, the compiles from 71 s to 2.3 s;
//     MavenConfig.CompileEach runs a javac per mutant as before). The
//     checks of a validation step share JVMs (exec.JUnit.TestRounds):
//     each mutant's class files in a class loader of its own ahead of the
//     project's, after a control round of the original that must pass
//     every test the checks name; a mutant that loops or exits its JVM,
//     or that the JVMs did not decide, is checked in a JVM of its own, so
//     every check gives the TestRun a JVM per check gives
//     (TestMavenSharedJVMsSameAsJVMEach; MavenConfig.TestEach is that
//     path). Result.Batches counts the checks made alone after all, and
//     says why a batch failed as a whole. testdata/maven's validation: 31 first runs in one JVM (0.8 s
//     of CPU against about 0.35 s for each JVM of its own); Generate in
//     TestMavenProject 34.3 s → 14.6 s. The
//     tests run through exec.JUnit, named by their JUnit Platform unique
//     IDs (pkg.Class#method, pkg.Class#method[3] for an invocation of a
//     parameterized or repeated test or a dynamic test; see exec.JUnit),
//     so that every test the baseline lists can be selected alone.
//     Per-test coverage ([Maven.CoverageAll], a [BatchCoverage]) runs
//     every test in one JVM with Debian's JaCoCo agent (libjacoco-java
//     0.8.6, hence --release 11): exec.JUnit's reporter takes and resets
//     the agent's data after each test and container (exec.JaCoCo), and
//     JaCoCo's analyzer reads it on the host (jacoco_lines.java). A
//     test's lines are those run during it and in its containers
//     (@BeforeAll, argument providers), as a JVM running it alone would
//     run them; a class's static initializer, which one JVM runs only for
//     the first test that uses the class, is credited to every test that
//     ran code of the class. One test per JVM ([Maven.Coverage]) gives
//     the same lines on testdata/maven and testdata/semver
//     (TestMavenCoverageOneJVM; without the initializer rule 49 of
//     testdata/semver's 60 tests lose Chars' static table lines). What
//     one JVM cannot give back: a test that only reads a static field of
//     a class, running none of its code, misses the class's initializer
//     lines, and the methods an initializer calls are credited only to
//     the first test that used the class; since fragments lie in named
//     methods, such a fragment's relevant tests are that first test
//     alone. Test dependencies other than JUnit are not resolved.
//
// A project read from a git repository at a commit (package source:
// source.Open, then Snapshot.Materialize into the directory to open) is
// pinned: Options.Repo and Options.Commit record the repository and the
// commit hash in every task's provenance, so a report says which code its
// tasks came from; the same revision gives byte-identical tasks
// (TestGenerateAtRevision). examples/mutate takes -repo and -rev.
//
// # The validity pipeline
//
// [Generate] runs the paper's pipeline on a Project with a [Options]:
//
//  1. Baseline: every test runs Options.Runs (3) times; tests that pass
//     every time are stable, tests whose result changes are flaky and
//     left out.
//  2. Coverage: each stable test runs alone with coverage (all in one
//     run when the Project is a [BatchCoverage]). A fragment's
//     relevant tests are the stable tests that ran one of its lines; a
//     fragment without one is dropped. Fragments must lie in a named
//     function whose name is unique in its file (the answer unit), or,
//     for a Java overload, whose signature is: the task then names it
//     "Class.method(String,int)", which adapt's extraction and splicing
//     find (testdata/overload, TestMavenOverloads).
//  3. Sampling: Options.Fragments fragments are drawn with the seed; per
//     fragment, Options.SitesPerOp L1 mutants per operator, and per level
//     L2 to L4 Options.PerLevel combinations (families are operators):
//     L2 of two distinct operators, L3 and L4 of at least two, the least
//     used first so that operators stay balanced, each pick's edits
//     disjoint from the others' (a rename edits every use of its
//     variable). Only sites that type-check are drawn (see Operators); a
//     site that does not is replaced by the next of the same permutation,
//     and a candidate's seed is its draw's number, so the other mutants
//     of a seed stay what they were.
//  4. Checks, each discard with a typed [Reason]: no edit; overlapping
//     picks; parse (tree-sitter ERROR or MISSING nodes); compile; no
//     relevant test fails; harness failure; and, for a combination, a
//     constituent that does not parse or compile on its own (checked
//     alone, or its L1 mutant's verdict reused: Candidate.Parts), so that
//     no combination hides an invalid change behind another. The compile step follows the
//     operator's [Policy]: [AllowUnresolved] (the default for RenameVar
//     and DropReceiver, and for combinations holding one) keeps a mutant
//     whose only compile errors are unresolved names on the lines it
//     changed (Go "undefined: x", javac "cannot find symbol"): the
//     compiler detects it; [RequireCompile] discards it.
//     In a Go module a mutant that compiles must also pass the vet
//     checks go test runs before the tests (printf, bool, …): one that
//     does not is a compile error, as go test would fail it.
//     A combination's effective level ([Candidate.Effective]) is how many
//     of its constituents are detected alone: an L2 one of whose changes
//     no test catches is as hard to find as L1. Options.RequireEffective
//     discards a combination below its level ([ReasonEffective]).
//  5. Tasks: each valid mutant becomes one adapt.Task per context level.
//
// A Go test binary ends at a panic, and the selected tests after the
// panicking one never start: those are run again in a process of their
// own, so that Candidate.Failing names the tests that fail. Go examples
// with an output comment are tests, as go test runs them.
//
// Result.Funnel (an adapt.Funnel) counts per operator combination how many
// mutants reached each stage (site, applied, parsed, compiled, unresolved,
// detected, and effective: detected with every constituent detected
// alone); [Result.Gates] gives the pilot gates over the L1 mutants.
//
//	sb, _ := sandbox.New(nil)
//	proj, _ := mutate.OpenGoModule(dir, sb, nil) // or mutate.OpenMaven(ctx, dir, sb, nil)
//	defer proj.Close()
//	res, _ := mutate.Generate(ctx, proj, &mutate.Options{Seed: 1, Levels: []mutate.Level{mutate.L1, mutate.L2}})
//	res.FunnelSummary().WriteTable(os.Stdout)
//	fmt.Print(res.Gates())
//	rep, _ := adapt.Evaluate(ctx, res.Tasks, model, &adapt.Options{Template: mutate.Prompt, Answer: mutate.Answer, Runner: sb})
//
// examples/mutate is this as a program, with the inspection per operator.
//
// # Tasks
//
// adapt splices answers by function name, so a task's answer unit is the
// fragment's enclosing function: Code is the function with F′ in place,
// Reference the function with F. Context holds nothing (C1), the method
// (C2) or the file (C3) with F′ in place between marker comments, each on
// a line of its own with F′'s indentation; Tests
// are the relevant tests; Provenance has the operators and the seed, and
// its Detail (schema [DetailSchema], decoded by [DetailOf]) the task's
// [Detail]: F′'s byte range in Code ([Snippet] returns it), F's in
// Reference, the Records (ranges relative to Code and Reference), the
// tests that caught the mutant and its effective level. A Go module's
// tasks name the modules its go.mod requires in their environment
// (adapt.Task.Env), which a machine without them in its module cache
// can be given.
// The labels are grouping keys only, [LabelKeys] (level, context,
// operators, fragment kind, policy, detected by, effective level): break a report down by
// them with adapt.Options{Breakdown: mutate.LabelKeys}. [Prompt] is the instruction-free template: the
// snippet, its context and "adapt it", no edit list. A model answers with
// the adapted snippet; [Answer], as adapt.Options.Answer, gives
// adapt.Evaluate the function ([SpliceAnswer] puts the snippet in place
// of F′). A task's workspace is the project as one shared adapt.Base
// (every task of a Generate call holds the same one) with the target over
// it; adapt.WriteTasks and adapt.SaveFile write the base once, not once
// per task, and a task's target (the project's file) not at all:
// uuid, 210 tasks (L1–L4, 25 fragments): 0.85 MB instead of 18.4 MB;
// go-cmp's cmp package, 117 tasks (10 fragments): 2.45 MB instead of
// 62.5 MB.
//
// # Inspection
//
// [Inspect] decides for each injected mutation whether an output reversed
// it: the smallest node of F spanning the change is aligned to the output
// with internal/syntax's GumTree-style Match, and its tokens compared with
// F's and F′'s (white space between tokens ignored, a literal's text kept
// exactly): [Reversed], [Unchanged], [Altered] or [NodeMissing].
// [Inspection.Classify] puts the test verdict beside it: restored, failed,
// or [ClassAlternative], tests passing with some node not restored (an
// alternative valid adaptation, for manual review).
//
// # Funnel
//
// The funnel is an adapt.Funnel, the type every generator counts with,
// grouped by operator combination. [CountMutant] counts sites, applied
// edits and parsed mutants ([StageSite], [StageApplied], [StageParsed]);
// the pipeline adds [StageCompiled], [StageUnresolved] and
// [StageDetected]. An L1–L4 run meets a hundred combinations:
// [Result.FunnelSummary] gathers them into a row per L1 operator and one
// per level ([SummaryGroup]), and adapt.Funnel.WriteCSV writes every
// combination (examples/mutate prints the one and writes the other).
//
// # Measured
//
// On the 2-core machines this was built on, with a load average of 12 to
// 17 from other work (times are several-fold what a quiet machine takes;
// the counts are deterministic for a seed):
//
//   - github.com/google/uuid@v1.6.0, fetched through the module proxy
//     (TestGoModuleReal: seed 1, 8 of 50 covered fragments, L1 and L2):
//     40 tests, 39 stable (one fails in the sandbox every time), 55 fragments of which 50 covered. L1: 30
//     mutants parsed, 23 compiled (76.7%; paper's gate 70%), 2 more kept
//     unresolved, tests caught 47.8% of the compiled ones (gate 60%: missed;
//     uuid's tests do not check most constants, guards and types), 13
//     valid L1 tasks (modifylogic 7, updateconst 3, renamevar 2,
//     unwraptry 1), 48 tasks in all at C1-C3. (Before L2 drew two distinct
//     operators, the same seed drew other sites: 25 compiled, 12 valid.)
//     One ModifyLogic mutant of getTime ("now <= lasttime" made
//     "now < lasttime") fails a test only when two calls fall in one
//     100 ns tick: under load a run counted it (14 valid L1, 54 tasks,
//     and adapt.Identity then passed its two tasks; the 25-fragment run
//     below gave 37 valid L1 once, 38 another time). A mutant's failing
//     tests are now run again, Options.Runs-1 more times, and only tests
//     that fail every time count; a mutant whose failures all come and go
//     is dropped as flaky_failure (TestConfirmFailures). With 25 fragments and L1-L4 (examples/mutate -fragments 25 -levels
//     4): 79 L1 mutants parsed, 73.4% compiled, 44.8% of those caught, 38
//     valid L1 tasks over six operators, 210 tasks; 115 mutants validated
//     in 73 s (each constituent of a combination is checked alone too;
//     before, 77.2%, 49.2%, 40 and 195).
//   - github.com/google/go-cmp@v0.7.0, package cmp (examples/mutate
//     -packages cmp -fragments 10 -levels 4; the module has no root
//     package): 11 tests (TestDiff, TestOptionPanic and nine examples
//     with an output comment), all stable, 184 fragments of which 180
//     covered; L1: 42 mutants parsed, 31 compiled (73.8%), 8 kept
//     unresolved, tests caught 58.1% of the compiled ones, 26 valid L1
//     tasks over five operators, 150 tasks; 67 mutants validated in 11
//     minutes at a load average near 10 (the examples make each run
//     slower). Before sites were type-checked, keep-alives decided with
//     go/types and combinations drawn by their edits: 44 parsed, 29
//     compiled (65.9%), 51.7% caught, 24 valid, 117 tasks, 2 of 34
//     combinations discarded as overlapping (none now). The funnel's
//     operator combinations print as 11 rows (FunnelSummary); uuid's 45
//     (25 fragments, L1-L4) as 10. TestGoModuleSubpackage evaluates two of
//     its tasks through adapt.Evaluate: the reference passes, F′ fails.
//   - github.com/dustin/go-humanize@v1.0.1 and github.com/spf13/cast@v1.7.1
//     (the same flags, no -packages): compile share 67.6% → 78.8% and
//     78.6% → 85.4%, caught share 78.3% → 69.2% and 57.6% → 62.9%;
//     combinations discarded as overlapping 1 → 0 and 8 → 0. Of the
//     L2-L4 valid combinations, those whose every change a test or the
//     compiler catches alone (the effective stage): go-cmp 4 of 24,
//     humanize 11 of 17, cast 10 of 25.
//   - testdata/maven (TestMavenProject: a small Maven project written for
//     these tests, offline; seed 1, 8 of 12 fragments, L1 and L2): 11
//     tests, all stable, every fragment covered; L1: 37 parsed, 26
//     compiled (70.3%), 3 kept unresolved, tests caught 80.8% of the
//     compiled ones, 24 valid L1 tasks over seven operators (changetype
//     never compiles there: widening a Java local breaks its uses).
//   - testdata/semver (TestMavenParameterized: a semantic-version
//     parser written for these tests, JUnit 5; seed 1, 10 of 18
//     fragments, L1): 60 tests, 49 of them invocations of
//     parameterized, repeated or dynamic tests, all stable, every
//     fragment covered; 50 mutants parsed, 38 compiled, 3 kept
//     unresolved, 30 detected; 15 of the 27 detected ones are killed by
//     an invocation, which, selected alone, passes on the original and
//     fails on the mutant.
//   - Per-test coverage (TestMavenCoverageOneJVM, the same lines either
//     way): testdata/semver's 60 tests took 77.4 s with a JVM per test
//     (60 sandboxed JVM starts, and 60 host JVMs reading the data) and
//     5.0 s in one (1 and 1), 15.4x; testdata/maven's 11 tests 12.5 s
//     and 4.6 s.
//   - adapt.Evaluate on one C3 task per operator combination: the
//     reference passes every one, adapt.Identity fails every one (failed,
//     compile error or timeout), and a model that answers with F alone
//     through Answer passes every one; Inspect finds every mutation
//     Reversed in the reference and Unchanged in F′.
//   - BenchmarkGoMutants (the compile and test steps on the 13 L1
//     mutants of 4 uuid fragments, one at a time, on the old path and
//     the new in the same run; go test -run '^$' -bench GoMutants
//     -benchtime 1x ./mutate), three runs on a 2-core machine at load
//     average 12 to 17: old path 0.29 to 0.39 valid mutants/s (95 to 97%
//     of the wall time in go test -c, a build per mutant and per repeated
//     run), new path 2.8 to 4.5 valid mutants/s, 9.9x, 11.6x and 10.4x
//     (about 60% building the one schema binary, 16% in the sandboxed
//     tests, 24% in this package: type checking and the runs' set-up).
//     Later, on a quiet machine (three runs): old path 0.91 to 1.14
//     valid mutants/s, new path 9.2 to 13.2, 10.0x to 12.2x; the old path
//     with the test binaries linked without DWARF, as every build is now
//     (exec.GoBuildFlags), 0.93 to 1.05, 9.9x to 12.5x (the "oldw" path:
//     a uuid test binary is small, and the per-mutant compile is most of
//     the old path's build). A schema binary is then bound read-only into
//     its jobs (from a directory outside /tmp, the user's cache) instead
//     of linked into the module copy that the sandbox copies for every
//     job (about 10 ms a run, the new path's own share 0.29 → 0.24):
//     three runs, new path 8.4 to 11.4 valid mutants/s, 10.7x to 13.8x
//     the old path, 9.9x to 10.7x the "oldw" path.
//   - BenchmarkJavaMutants (testdata/maven, L1 and L2 of 4 fragments;
//     old: a javac and a test JVM per check, CompileEach and TestEach),
//     three runs: old 0.29 to 0.32 valid mutants/s, new 2.7 to 3.7,
//     9.3x, 10.6x and 11.9x (2.5x when only the compiles were shared).
//     Every mutant gets the same verdict on every path (checked in the
//     benchmark). On the whole pipeline (TestGoFastPathSameVerdicts: 3
//     fragments, L1 and L2, Runs 2; two runs) validation took 31.7 and
//     17.9 s on the old path and 2.0 and 1.7 s on the new, with the
//     same verdicts for every candidate and the same funnel.
//
// Go rejects unused locals and imports, so RemoveGuard and UnwrapTry,
// deleting a Go check that was the only reader of a local variable (err),
// leave `_ = err` in its place; without it about a quarter of their
// mutants did not compile. Which variables those are is decided with
// go/types on the file, before and after the deletion: variables, not
// names (a builtin is none, an assignment is no use, a reused err is
// another variable), and a deletion that would leave an import unused is
// no edit.
// # Stability
//
// Site order, choices and therefore the mutant for a given seed may change
// between versions as operators improve; the funnel's table is for people,
// not programs, and so is [Gates.String]. A [Detail]'s format is
// fixed by its [DetailSchema]. The task labels, the prompt's wording
// (named by [PromptVersion]) and the Reason, Verdict and Class text forms
// are stable within a PromptVersion.
package mutate
