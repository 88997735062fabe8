package mutate_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"os"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/gomod"
)

func Example() {
	src := []byte(`package p

func Clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
`)
	frags, err := mutate.Fragments(mutate.Go, src)
	if err != nil {
		panic(err)
	}
	f := &frags[0]
	fmt.Println(f.Kind, f.Stmts, f.Identifiers)

	rng := rand.New(rand.NewPCG(1, 1))
	for _, site := range mutate.ModifyLogic.Sites(f) {
		m, err := mutate.Mutate(mutate.ModifyLogic, site, rng)
		if err != nil {
			panic(err)
		}
		c := m.Record.Changes[0]
		back, _ := mutate.Revert(m.Src, []mutate.Record{m.Record})
		fmt.Printf("%s %s: %q -> %q at %v, reverts: %t\n",
			m.Fate, m.Record.NodeKind, c.Old, c.New, c.Mut, bytes.Equal(back, src))
	}
	// Output:
	// method_body 3 [hi lo v]
	// ok binary_expression: "<" -> "<=" at {49 51}, reverts: true
	// ok binary_expression: ">" -> ">=" at {77 79}, reverts: true
}

func ExampleApply() {
	src := []byte("x := a + b")
	out, err := mutate.Apply(src, []mutate.Edit{{Start: 7, End: 8, New: []byte("-")}, {Start: 0, End: 1, New: []byte("y")}})
	fmt.Println(string(out), err)
	_, err = mutate.Apply(src, []mutate.Edit{{Start: 0, End: 5}, {Start: 3, End: 6}})
	fmt.Println(err)
	// Output:
	// y := a - b <nil>
	// mutate: invalid edits: [3,6) overlaps [0,5)
}

func ExampleOperator_removeGuard() {
	src := []byte(`class A {
    int get(int[] xs, int i) {
        if (i >= xs.length) {
            return -1;
        }
        int v = xs[i];
        return v * 2;
    }
}
`)
	frags, _ := mutate.Fragments(mutate.Java, src)
	for _, site := range mutate.RemoveGuard.Sites(&frags[0]) {
		m, _ := mutate.Mutate(mutate.RemoveGuard, site, nil)
		fmt.Print(string(m.Src))
	}
	// Output:
	// class A {
	//     int get(int[] xs, int i) {
	//         int v = xs[i];
	//         return v * 2;
	//     }
	// }
}

// Generate runs the pipeline on a Go module and evaluates a model on its
// tasks. (Not run: it builds and tests the module.)
func ExampleGenerate() {
	ctx := context.Background()
	runner, done, err := sandbox.Default(nil)
	if err != nil {
		log.Fatal(err)
	}
	defer done()
	proj, err := gomod.Open("/path/to/module", runner, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer proj.Close()
	res, err := mutate.Generate(ctx, proj, &mutate.Options{Seed: 1, Levels: []mutate.ComplexityLevel{mutate.L1, mutate.L2}})
	if err != nil {
		log.Fatal(err)
	}
	res.Funnel.WriteTable(os.Stdout)
	rep, err := adapt.Evaluate(ctx, res.Tasks, adapt.Identity, &adapt.Options{
		Template: mutate.Prompt, Answer: mutate.Answer, Runner: runner, Breakdown: mutate.LabelKeys,
	})
	if err != nil {
		log.Fatal(err)
	}
	rep.WriteMarkdown(os.Stdout)
}
