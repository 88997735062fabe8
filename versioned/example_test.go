package versioned_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/versioned"
)

func Example() {
	const dataset = `{"example_id":"66","python_version":"3.10","library":"numpy","version":"1.21.0","problem":"Sum the array.","starting_code":"import numpy as np\ndef total(a):\n","solution":"    return np.sum(a)","test":"assert total(np.arange(4)) == 6\n","type_of_change":"name change","additional_dependencies":"","functional":"1","webdev":0}`
	ps, err := versioned.Read(strings.NewReader(dataset), "dataset.jsonl")
	if err != nil {
		panic(err)
	}
	tasks, err := versioned.Tasks(ps, "dataset.jsonl")
	if err != nil {
		panic(err)
	}
	t := tasks[0]
	fmt.Println(t.ID, t.Target.Path, t.Tests[0].Name)
	fmt.Println("python", t.Env.Runtime, t.Env.Packages)
	fmt.Println("upstream env", "gcham_venv_"+ps[0].CompatKey(), "category", ps[0].Category())
	// Output:
	// 66 sample_66.py test_visible.TestVisible.test_visible
	// python 3.10 [{numpy 1.21.0}]
	// upstream env gcham_venv_36d58648c428 category function-name
}

// Wiring: environments built offline from a wheelhouse, cached on disk,
// plugged into adapt.Evaluate. (Not run: it needs the wheels.)
func ExampleProvider() {
	cache := &versioned.Cache{
		Dir:     "/var/tmp/adaptbench-envs",
		Builder: &versioned.Venv{Python: "/usr/bin/python3", Wheelhouse: "/srv/wheels"},
	}
	tasks, err := versioned.LoadDir("shared/data/gitchameleon")
	if err != nil {
		panic(err)
	}
	opts := &adapt.Options{Environments: &versioned.Provider{Provisioner: cache, Strict: true}}
	rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, opts)
	if err != nil {
		panic(err)
	}
	fmt.Println(rep.Valid, "of", rep.Tasks, "references pass;", cache.Builds(), "environments built")
}
