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
// to api.txt by TestAPI: a new export is a reviewed line.
package adaptbench
