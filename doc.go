// Package adaptbench is the root of the adaptbench SDK, a Go SDK for
// code-adaptation benchmarks for large language models. It holds no code;
// the packages compose in one direction:
//
//	loader (adapt/bench/*, adapt.LoadFile, versioned.LoadDir: Load… gives []adapt.Task)
//	   → generators derive new tasks with typed provenance:
//	     mutate.Generate, ctxbug.Generate, evolve.Generate, versioned.Generate,
//	     impossible.Generate (variants no correct answer passes: impossible.Rate
//	     reads a model's passes on them as cheating evidence),
//	     each (ctx, …, *Options) → (*Result{Tasks, Funnel, …}, error)
//	   → adapt.Evaluate: prompt → adapt.Model → Options.Answer → adapt.Checker
//	     (the exec drivers over an exec.Runner: exec/sandbox's Sandbox or ForkServer)
//	     [→ Options.Repair rounds with the test output]
//	   → adapt/report.Report (pass@k with the tasks it averages, unscored samples named),
//	     adapt/htmlreport's page, metrics
//	   → the papers' numbers: adapteval.Score, ctxbug.Score, versioned.Score,
//	     each (report, tasks) → (*Scores, error); ctxbug.Evaluate and
//	     versioned.Evaluate run adapt.Evaluate with the paper's settings first
//
// The generators ask models and run tests only through adapt's blocks
// (adapt.Draw, adapt.Checker, adapt.Evaluate with Answer and Repair), so
// journals, resume, shards and the scoring rules hold for all of them; a
// paper's scorer reads a report, so a report merged from shards or read
// back with report.ReadReport scores the same.
//
// A first experiment, the embedded demo benchmark scored with the tasks'
// own reference solutions (runnable as examples/quickstart):
//
//	tasks, _ := demo.Tasks()
//	rep, err := adapt.Evaluate(ctx, tasks, adapt.Reference, &adapt.Options{Samples: 1})
//	if err != nil { log.Fatal(err) }
//	rep.WriteMarkdown(os.Stdout)
//
// Every exported API is usable from another module: external_test.go
// builds the README's experiment and every package's examples in a
// throwaway module that imports this checkout. The exported API is held
// to api/ by TestAPI: a new export is a reviewed line.
//
// # Package map
//
// Each package of the module, the example commands included, with its one
// job and, after the arrow, the packages of the module its code imports
// (tests aside; "dir/{a,b}" is dir/a and dir/b). TestPackageMap holds the
// map to the module.
//
//	.                           this map; the module-wide tests (API, sizes, external use)
//	adapt                       tasks, models, prompts, Evaluate, Merge ← adapt/internal/store, adapt/report, exec, exec/sandbox, internal/{syntax,textkit}, metrics
//	adapt/bench/adapteval       AdaptEval's loader, prompt settings and scoring ← adapt, adapt/report, exec, internal/{pinned,syntax}, metrics
//	adapt/bench/classeval       ClassEval's loader, methods as tasks ← adapt, internal/{pinned,syntax}
//	adapt/bench/demo            the embedded demo benchmark ← adapt
//	adapt/bench/humaneval       HumanEval-shaped loaders ← adapt, internal/{pinned,syntax,textkit}
//	adapt/htmlreport            a report as one HTML page ← adapt, adapt/report, internal/textkit, metrics
//	adapt/internal/store        the journal's lock and chain, the reference cache's files ← adapt/report
//	adapt/openai                a Model over the OpenAI chat-completions API ← adapt, adapt/report
//	adapt/progress              the terminal display of report.Progress ← adapt/report
//	adapt/report                a run's records and verdicts, their writers and readers ← exec, internal/textkit, metrics
//	ctxbug                      CtxBugGen: context adaptation bugs as tasks, scoring ← adapt, adapt/bench/classeval, adapt/report, exec, exec/sandbox, internal/{syntax,textkit,tracker}, metrics
//	ctxbug/ctxbugtest           offline stand-in models for a CtxBugGen run ← adapt, adapt/report, ctxbug, internal/syntax
//	evolve                      GeneBench's search: evolved programs as tasks ← adapt, adapt/report, evolve/{measure,nsga2,transform}, exec, exec/sandbox, internal/{syntax,tracker}
//	evolve/measure              GeneBench's complexity and readability metrics ← internal/syntax
//	evolve/nsga2                a generic, deterministic NSGA-II
//	evolve/transform            GeneBench's Python transforms and bug mutators ← internal/syntax
//	examples/adapteval          command: a model on AdaptEval, the paper's tables ← adapt, adapt/bench/adapteval, adapt/{htmlreport,openai,progress,report}, exec, exec/sandbox, internal/cmdkit
//	examples/ctxbug             command: a CtxBugGen benchmark built and evaluated ← adapt, adapt/bench/classeval, adapt/{htmlreport,openai,progress,report}, ctxbug, ctxbug/ctxbugtest, exec, exec/sandbox, internal/cmdkit
//	examples/datasets           command: fetch the published datasets, checked ← source
//	examples/evolve             command: GeneBench's search on HumanEval ← adapt, adapt/bench/humaneval, adapt/{htmlreport,progress,report}, evolve, exec/sandbox, internal/{cmdkit,testenv}
//	examples/impossible         command: impossible variants, cheating rates ← adapt, adapt/bench/{demo,humaneval}, adapt/{openai,progress}, exec/sandbox, impossible
//	examples/mutate             command: mutation-injected tasks from a project ← adapt, adapt/{htmlreport,openai,progress,report}, exec, exec/sandbox, internal/cmdkit, mutate, mutate/{gomod,maven}, source
//	examples/quickstart         command: the demo benchmark, no network ← adapt, adapt/bench/demo, adapt/{htmlreport,openai,progress,report}, exec/sandbox, internal/cmdkit
//	examples/scaleout           command: one evaluation as shards, merged ← adapt, adapt/bench/demo, adapt/{htmlreport,progress,report}, internal/cmdkit
//	examples/score              command: score answers made elsewhere ← adapt, adapt/bench/{adapteval,classeval,demo,humaneval}, adapt/{htmlreport,progress}, exec, internal/cmdkit
//	examples/versioned          command: GitChameleon's protocols and tables ← adapt, adapt/{openai,progress}, exec/sandbox, internal/cmdkit, versioned, versioned/mine
//	exec                        Runner, Job, Limits, Result; the test drivers ← exec/internal/jobkit
//	exec/exectest               a shared sandbox for tests ← exec, exec/internal/jobkit, exec/sandbox
//	exec/internal/jobkit        a job's output capture, host uids, in-sandbox reporters
//	exec/sandbox                the Linux sandbox and the Python fork server ← exec, exec/internal/jobkit
//	impossible                  impossible task variants, cheating evidence ← adapt, adapt/report, exec, exec/sandbox, internal/{syntax,tracker}, metrics
//	internal/cmdkit             what the example mains share: -out, the broken-run check ← adapt/report
//	internal/pinned             the loaders' LoadRevision body ← source
//	internal/syntax             tree-sitter parsing, splicing, edits, matching
//	internal/testenv            tests' shared setup: datasets, git repos, terminals, ordinary user, guest VM
//	internal/textkit            answers' code blocks, JSON Lines, numbers, diffs, tracebacks
//	internal/tracker            a long loop's counts as report.Progress ← adapt/report
//	metrics                     pass@k estimators, intervals, paired tests
//	mutate                      mutation injection: operators, validity pipeline, tasks ← adapt, adapt/report, exec, internal/{syntax,textkit,tracker}
//	mutate/gomod                mutate's build system for Go modules ← adapt, exec, mutate, mutate/internal/buildsys
//	mutate/internal/buildsys    what mutate's build systems share ← mutate
//	mutate/internal/mutatetest  checks mutate's tests share ← adapt, adapt/report, exec, exec/exectest, mutate, mutate/gomod
//	mutate/maven                mutate's build system for Maven projects ← adapt, exec, mutate, mutate/internal/buildsys
//	source                      a repository's tree at a pinned commit
//	versioned                   version-conditioned problems, environments, scoring ← adapt, adapt/report, exec, exec/sandbox, internal/{pinned,syntax,textkit,tracker}, metrics, versioned/internal/libapi
//	versioned/internal/libapi   library APIs: change kinds, Go API use by identity, helper commands
//	versioned/mine              version-conditioned Go problems from releases ← adapt, adapt/report, exec, exec/sandbox, internal/tracker, versioned, versioned/internal/libapi
package adaptbench
