// Package evolve is GeneBench's search ("Narrowing the Complexity Gap in
// the Evaluation of Large Language Models", Chen, Liu and Jabbarvand): it
// evolves each program of an existing Python benchmark into a more complex
// one that is still readable and still passes the benchmark's own tests,
// so that the benchmark's tests, inputs and outputs can be reused
// unchanged, and turns the evolved programs into adapt.Tasks.
//
// The operators are in evolve/transform (22 semantics-preserving ones and
// 5 bug mutators), the metrics and the relative measures RC and RR in
// evolve/measure, and the non-dominated sort in evolve/nsga2. This package
// is the search, the equivalence check and the task builders.
//
// # Subjects and equivalence
//
// A [Subject] is a program (transform.Program: a main file, the modules
// operators create, the names never to rename) with a [TestSuite]: the
// workspace files and test names of the benchmark's tests. [FromTask]
// makes one from any Python unittest or pytest adapt.Task, such as
// HumanEval's (adapt/bench/humaneval: check(entry_point) wrapped in a
// unittest), ClassEval's or AdaptEval's; it protects the target function
// and every top-level name a test file mentions. [FromTasks] makes one
// subject of tasks sharing a target file, such as a ClassEval class with
// the tests of all its methods.
//
// A [Tester] runs a suite on a program in the sandbox (sandbox.Sandbox or,
// faster, sandbox.ForkServer) and gives a [TestRun] with a typed [Verdict];
// it caches verdicts by suite and program hash, so that no program is
// tested twice against the same suite ([TesterStats] counts runs and
// hits). [DefaultTester] uses a fork server that preloads the modules the
// API operators inject ([PreloadList]: numpy, scipy.stats, dateutil,
// cryptography, ...), so that an offspring importing scipy costs a fork,
// not an import.
//
//	s, _ := evolve.FromTask(&tasks[0])
//	res, err := evolve.Evolve(ctx, s, &evolve.Options{Evaluations: 200, Seed: 1})
//	fmt.Println(res.Original().RC, res.Evolved().RC, res.Operators(res.Best))
//
// # The search
//
// [Evolve] follows the paper's Algorithm 1 (its documentation lists the
// steps, and [Options] each choice where the paper is silent or the
// artifact differs). Every accepted [Individual] keeps its [Step]
// (parent, operator, site, seed); [Evolution.Lineage] lists the steps from
// the original and [Replay] re-applies them, giving the same program byte
// for byte. The same subject, options and evaluation budget give the same
// Evolution whatever Options.Parallelism. [Generate] runs many subjects
// and returns a [Result]: the tasks of the evolved subjects, the
// offspring funnel (a report.Funnel) and the runs; [Result.WriteTable]
// prints the paper's Table 4, [Result.Summary] summarises it and
// [Result.WriteJSONL] writes the evolved benchmark in the artifact's form.
//
// # Tasks
//
// Evolved programs become adapt.Tasks, each with provenance (generator
// "evolve", the parent task, the lineage's operators, the seed, and the
// [Detail] under schema [DetailSchema]: every step of the lineage, and a
// repair task's bug; [DetailOf] decodes it) and, beside the subject
// task's, the grouping labels of [LabelKeys] (genebench: the task kind;
// version: original or evolved; bug: a repair task's bug mutator):
//
//   - [OutputPrediction]: CRUXEval-style, for HumanEval-shaped subjects:
//     the program and a call taken from the tests; the answer is
//     a literal, checked against what the program returns.
//   - [Repair]: the same bug (transform.Bugs) injected at a statement the
//     original and the evolved program share (transform.BugSites and
//     InjectBug, over the GumTree matcher of internal/syntax), failing the
//     tests in both; the model gets the buggy program and the tests.
//   - [Adaptation], beyond the paper: an adaptation task whose target file
//     is the evolved program (which still passes the task's tests), so the
//     reused code must fit a more complex context.
//
// Each builder returns the original's task next to the evolved one where
// the paper compares the two.
//
// The search's figures on HumanEval are in BENCHMARKS.md. Table text, JSON Lines extras beyond the artifact's four fields, and the
// random stream behind a seed are not part of the API.
package evolve
