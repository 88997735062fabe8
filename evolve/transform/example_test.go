package transform_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/adaptbench/adaptbench/evolve/transform"
)

// Random applies one operator at a seeded random site.
func ExampleRandom() {
	p := &transform.Program{
		Main:      []byte("def count(xs):\n    n = 0\n    for x in xs:\n        n += 1\n    return n\n"),
		Protected: []string{"count"},
	}
	addNestedFor := transform.All[0] // S1
	q, site, err := transform.Random(p, addNestedFor, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	fmt.Println(site.Kind, site.Key)
	fmt.Print(string(q.Main))
	// Output:
	// for_statement 0:function_definition/4:block/1:for_statement
	// def count(xs):
	//     n = 0
	//     LoopChecker13 = 618
	//     LoopChecker23 = 617
	//     for LoopIndexOut in range(LoopChecker13 // LoopChecker23):
	//         for x in xs:
	//             n += 1
	//     return n
}

// Validate checks a list of operators before a search uses it.
func ExampleValidate() {
	fmt.Println(len(transform.All), len(transform.Bugs), transform.Validate(transform.All))
	for _, t := range transform.All[:3] {
		fmt.Println(t.ID, t.Name, t.Family)
	}
	// Output:
	// 22 5 <nil>
	// S1 AddNestedFor structural
	// S2 AddNestedIf structural
	// S3 AddNestedWhile structural
}

// InjectBug gives an original program and its evolved version the same
// bug, at a statement they share.
func ExampleInjectBug() {
	orig := &transform.Program{Main: []byte("def area(w, h):\n    a = w * h\n    return a\n"), Protected: []string{"area"}}
	evolved, _, err := transform.Random(orig, transform.All[4], rand.New(rand.NewPCG(1, 2))) // S5, AddTryExcept
	if err != nil {
		panic(err)
	}
	bug := transform.Bugs[0] // M1, ChangeArithmeticOperator
	sites, err := transform.BugSites(bug, orig, evolved)
	if err != nil {
		panic(err)
	}
	bo, be, err := transform.InjectBug(bug, orig, evolved, sites[0], rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		panic(err)
	}
	fmt.Print(string(bo.Main), "---\n", string(be.Main))
	// Output:
	// def area(w, h):
	//     a = w + h
	//     return a
	// ---
	// def area(w, h):
	//     try:
	//         a = w + h
	//         return a
	//     except:
	//         raise
}
