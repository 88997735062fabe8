package ctxbug_test

import (
	"context"
	"log"
	"os"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/classeval"
	"github.com/adaptbench/adaptbench/ctxbug"
)

// Example masks ClassEval's BitStatusUtil.add with every rule, then
// obfuscates one template for a generator model and maps a completion
// back.
// ExampleInfillPrompt shows what a generator sees for the dependency rule
// (R10): the obfuscated requirement and masked method, no class, and the
// libraries it may not use.
// ExampleDegradation computes a "Rel %" cell of Table 5 (GPT-4o,
// Functionality, Pass@1) from its counts.
// Generate runs CtxBugGen on ClassEval with a generator model and writes
// the benchmark's tasks. (Not run: it needs ClassEval and a sandbox.)
func ExampleGenerate() {
	classes, err := classeval.ReadFile("ClassEval_data.json")
	if err != nil {
		log.Fatal(err)
	}
	bases, err := ctxbug.FromClassEval(classes, "ClassEval_data.json")
	if err != nil {
		log.Fatal(err)
	}
	var generator adapt.Model = adapt.Identity // an openai.Client, in a real run
	res, err := ctxbug.Generate(context.Background(), generator, bases, &ctxbug.Options{Journal: "infill.jsonl"})
	if err != nil {
		log.Fatal(err)
	}
	res.Funnel.WriteTable(os.Stdout)
	if err := adapt.SaveFile("ctxbug_tasks.jsonl", res.Tasks); err != nil {
		log.Fatal(err)
	}
}
