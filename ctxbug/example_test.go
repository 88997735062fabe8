package ctxbug_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/classeval"
	"github.com/adaptbench/adaptbench/ctxbug"
)

// Example masks ClassEval's BitStatusUtil.add with every rule, then
// obfuscates one template for a generator model and maps a completion
// back.
func Example() {
	method := []byte("def add(states, stat):\n    BitStatusUtil.check([states, stat])\n    return states | stat\n")
	ctx := &ctxbug.Context{Class: "BitStatusUtil", Methods: []string{"check"}}
	ts, err := ctxbug.Perturb(method, ctx, ctxbug.Rules)
	if err != nil {
		panic(err)
	}
	for _, t := range ts {
		fmt.Printf("%s: %q\n", t.Rule, t.Code)
	}
	o, err := ctxbug.ObfuscateTemplate(method, ts[2], "Add stat to states.")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n%q\n", o.Code, o.Requirement)
	filled := []byte("def add(var_0, var_1):\n    BitStatusUtil.check([var_0, var_1])\n    return var_0 + var_1\n")
	back, _ := ctxbug.Deobfuscate(filled, o.Names)
	fmt.Printf("%q\n", back)
	// Output:
	// params: "def add(<PARAMS>):\n    BitStatusUtil.check([states, stat])\n    return states | stat\n"
	// return: "def add(states, stat):\n    BitStatusUtil.check([states, stat])\n    <RETURN>\n"
	// operator: "def add(states, stat):\n    BitStatusUtil.check([states, stat])\n    return states <INFILL> stat\n"
	// bounded: "def add(states, stat):\n    <INFILL>([states, stat])\n    return states | stat\n"
	// free: "def add(states, stat):\n    BitStatusUtil.check([<VAR>, <VAR>])\n    return <VAR> | <VAR>\n"
	// "def add(var_0, var_1):\n    BitStatusUtil.check([var_0, var_1])\n    return var_0 <INFILL> var_1\n"
	// "Add var_1 to var_0."
	// "def add(states, stat):\n    BitStatusUtil.check([states, stat])\n    return states + stat\n"
}

func ExampleApply() {
	src := []byte("return a + b")
	out, _ := ctxbug.Apply(src, []ctxbug.Hole{{Start: 9, End: 10, Placeholder: ctxbug.Infill}})
	fmt.Println(string(out))
	// Output:
	// return a <INFILL> b
}

// ExampleInfillPrompt shows what a generator sees for the dependency rule
// (R10): the obfuscated requirement and masked method, no class, and the
// libraries it may not use.
func ExampleInfillPrompt() {
	method := "def save(self, path):\n    with open(path, 'w') as f:\n        json.dump(self.cookies, f)\n"
	b := &ctxbug.Base{
		Task:        adapt.Task{ID: "CookiesUtil.save"},
		Method:      []byte(method),
		Requirement: "def save(self, path):\n    \"\"\"Save the cookies to the file at path.\"\"\"",
		Context:     ctxbug.Context{Class: "CookiesUtil", Libs: []string{"json"}},
		Libs:        []string{"json"},
	}
	jobs, err := ctxbug.Jobs([]*ctxbug.Base{b}, []*ctxbug.Rule{ctxbug.LibraryRule})
	if err != nil {
		panic(err)
	}
	fmt.Println(jobs[0].ID)
	fmt.Println(ctxbug.InfillPrompt(jobs[0]))
	// Output:
	// CookiesUtil.save/library/0
	// Complete the following Python method. Some of its code is masked by placeholders: <PARAMS> stands for the parameter list, <RETURN> for a return statement, <VAR> for a variable, <INFILL> for any other code. Replace every placeholder so that the method meets its requirement, and change nothing else.
	//
	// ### Requirement:
	// def save(self, var_0):
	//     """Save the cookies to the file at var_0."""
	//
	// ### Masked Method:
	// ```python
	// def save(self, var_0):
	//     with open(var_0, 'w') as var_1:
	//         <INFILL>
	// ```
	//
	// However, you are not allowed to use the following libraries: [json]
	//
	// Write out the complete method, with every placeholder replaced, in one Python code block.
}

// ExampleDegradation computes a "Rel %" cell of Table 5 (GPT-4o,
// Functionality, Pass@1) from its counts.
func ExampleDegradation() {
	without := ctxbug.Cell{Instances: 379, Passed: 201, Bugs: 497, Resolved: 232}
	with := ctxbug.Cell{Instances: 379, Passed: 128, Bugs: 497, Resolved: 109}
	p1, rr := ctxbug.Degradation(without, with)
	fmt.Printf("w/o %.2f%%, w/ %.2f%%: %.2f%% lower Pass@1, %.2f%% lower RR\n", 100*without.PassAt1(), 100*with.PassAt1(), p1, rr)
	// Output:
	// w/o 53.03%, w/ 33.77%: 36.32% lower Pass@1, 53.02% lower RR
}

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
