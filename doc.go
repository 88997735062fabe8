// Package adaptbench is the root of the adaptbench SDK, a Go SDK for
// code-adaptation benchmarks for large language models. It holds no code;
// the packages compose in one direction:
//
//	loader (adapt/bench/*, adapt.LoadFile, versioned.Load…)
//	   → []adapt.Task
//	   → generators derive new tasks with provenance (mutate, ctxbug, evolve)
//	   → adapt.Evaluate: prompt → adapt.Model → extracted answer → exec (sandbox, test drivers)
//	   → adapt.Report (pass@k with the tasks it averages, unscored samples named) and metrics
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
// throwaway module that imports this checkout.
package adaptbench
