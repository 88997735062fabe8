package mine_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/versioned"
	"github.com/adaptbench/adaptbench/versioned/mine"
)

// ExampleGenerate mines go-cmp's releases from v0.5.0 on through the
// module proxy, checks every candidate in the sandbox, prints the funnel
// and writes the valid problems, which versioned.Evaluate then runs like
// its own Go problems. (Not run as a test: it needs the module proxy and
// the sandbox.)
func ExampleGenerate() {
	ctx := context.Background()
	res, err := mine.Generate(ctx, "github.com/google/go-cmp", &mine.Options{From: "v0.5.0"})
	if err != nil {
		log.Fatal(err)
	}
	res.Funnel.WriteTable(os.Stdout)
	for _, t := range res.Tasks {
		fmt.Printf("%s: %s\n", t.ID, t.Labels["type_of_change"])
	}
	if err := adapt.WriteTasks(os.Stdout, res.Tasks); err != nil {
		log.Fatal(err)
	}
	// The problems' environments: each release's modules in a module
	// cache, as for versioned's own Go problems.
	envs := &versioned.Provider{Provisioner: &versioned.Cache{Builder: &versioned.GoModules{}}, Strict: true}
	r, err := versioned.Evaluate(ctx, res.Tasks, adapt.Reference, &versioned.EvalOptions{Protocol: versioned.SelfDebug, Evaluate: adapt.Options{Environments: envs}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r)
}
