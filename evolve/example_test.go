package evolve_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/evolve"
)

// Evolve one HumanEval-shaped problem with the 22 operators and a budget
// of 30 evaluations; every accepted program passed the problem's test in
// the sandbox.
func ExampleEvolve() {
	s := exampleSubject()
	tester, closeTester, err := evolve.DefaultTester()
	if err != nil {
		log.Fatal(err)
	}
	defer closeTester()
	res, err := evolve.Evolve(context.Background(), s, &evolve.Options{Evaluations: 30, Seed: 1, Tester: tester})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("protected:", s.Program.Protected)
	fmt.Println("evaluations:", res.Evaluations, "stop:", res.Stop)
	fmt.Println("more complex:", res.Evolved().RC > res.Original().RC)
	fmt.Println("lineage replays:", replays(res))
	// Output:
	// protected: [sum_squares]
	// evaluations: 30 stop: budget
	// more complex: true
	// lineage replays: true
}

// Turn an evolved program and its original into a pair of
// output-prediction tasks on the same call.
func ExampleOutputPrediction() {
	s := exampleSubject()
	res, err := evolve.Evolve(context.Background(), s, &evolve.Options{Evaluations: 22, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	tasks, err := evolve.OutputPrediction(s, res)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tasks {
		fmt.Println(t.ID, t.Labels["version"], t.Provenance.Generator)
	}
	fmt.Println(tasks[1].Requirement.Task)
	fmt.Print(tasks[1].Reference)
	// Output:
	// Demo/0/output/original original evolve
	// Demo/0/output/evolved evolved evolve
	// Complete the assertion with the literal value the program returns: assert sum_squares([1, 2, 3]) == ??
	// output = 14
}

// exampleSubject is a HumanEval-shaped problem made into a subject.
func exampleSubject() *evolve.Subject {
	tasks, err := humaneval.Tasks([]humaneval.Problem{{
		TaskID:            "Demo/0",
		Prompt:            "def sum_squares(xs):\n    \"\"\"Return the sum of the squares of xs.\"\"\"\n",
		EntryPoint:        "sum_squares",
		CanonicalSolution: "    total = 0\n    for x in xs:\n        total += x * x\n    return total\n",
		Test:              "def check(candidate):\n    assert candidate([1, 2, 3]) == 14\n    assert candidate([]) == 0\n",
	}}, "inline")
	if err != nil {
		log.Fatal(err)
	}
	s, err := evolve.FromTask(&tasks[0])
	if err != nil {
		log.Fatal(err)
	}
	return s
}

func replays(res *evolve.Evolution) bool {
	p, err := evolve.Replay(res.Original().Program, res.Lineage(res.Best), nil)
	return err == nil && p.Hash() == res.Evolved().Hash
}

// Calls finds the literal calls of a HumanEval check function, the inputs
// of output-prediction tasks.
// Source renders a program that S7 split into modules as one text, the
// way GeneBench's prompts show it.
// Generate evolves every subject and makes the adaptation tasks of those
// it evolved. (Not run: it evolves all of HumanEval.)
func ExampleGenerate() {
	tasks, err := humaneval.LoadFile("HumanEval.jsonl.gz")
	if err != nil {
		log.Fatal(err)
	}
	var subjects []*evolve.Subject
	for i := range tasks {
		s, err := evolve.FromTask(&tasks[i])
		if err != nil {
			log.Fatal(err)
		}
		subjects = append(subjects, s)
	}
	res, err := evolve.Generate(context.Background(), subjects, &evolve.Options{Evaluations: 22, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	res.Funnel.WriteTable(os.Stdout)
	fmt.Println(len(res.Tasks), "adaptation tasks")
}
