package versioned_test

import (
	"context"
	"fmt"
	"os"
	"testing/fstest"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/versioned"
)

func Example() {
	const dataset = `{"example_id":"66","python_version":"3.10","library":"numpy","version":"1.21.0","problem":"Sum the array.","starting_code":"import numpy as np\ndef total(a):\n","solution":"    return np.sum(a)","test":"assert total(np.arange(4)) == 6\n","type_of_change":"name change","additional_dependencies":"","functional":"1","webdev":0}`
	tasks, _, err := versioned.Load(fstest.MapFS{"dataset.jsonl": {Data: []byte(dataset)}}, ".")
	if err != nil {
		panic(err)
	}
	t := tasks[0]
	fmt.Println(t.ID, t.Target.Path, t.Tests[0].Name)
	fmt.Println("python", t.Env.Runtime, t.Env.Packages)
	fmt.Println("category", t.Labels["category"])
	// Output:
	// 66 sample_66.py test_visible.py::test_visible
	// python 3.10 [{numpy 1.21.0}]
	// category function-name
}

// Wiring: environments built offline from a wheelhouse, cached on disk,
// plugged into adapt.Evaluate. (Not run: it needs the wheels.)
func ExampleProvider() {
	cache := &versioned.Cache{
		Dir:     "/var/tmp/adaptbench-envs",
		Builder: &versioned.Venv{Python: "/usr/bin/python3", Wheelhouse: "/srv/wheels"},
	}
	tasks, _, err := versioned.LoadDir("shared/data/gitchameleon")
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

// The published repository's layout, read from any fs.FS (here in
// memory; os.DirFS, or a git revision): dataset/dataset.jsonl with
// dataset/hidden_tests/ beside it.
func ExampleLoad() {
	const record = `{"example_id":"%s","python_version":"3.10","library":"numpy","version":"1.21.0","problem":"Sum.","starting_code":"import numpy as np\ndef total(a):\n","solution":"    return np.sum(a)","test":"assert total(np.arange(4)) == 6\n","type_of_change":"name change","additional_dependencies":"","functional":1,"webdev":0}`
	repo := fstest.MapFS{
		"dataset/dataset.jsonl":                  {Data: []byte(fmt.Sprintf(record, "1") + "\n" + fmt.Sprintf(record, "2") + "\n")},
		"dataset/hidden_tests/test_sample_1.py":  {Data: []byte("from sample_1 import total\n\ndef test_total():\n    assert total([1, 2]) == 3\n")},
		"dataset/hidden_tests/test_sample_81.py": {Data: []byte("def test_orphan():\n    pass\n")},
	}
	tasks, rep, err := versioned.Load(repo, ".")
	if err != nil {
		panic(err)
	}
	fmt.Println(rep)
	for _, t := range tasks {
		d, err := versioned.DetailOf(&t)
		if err != nil {
			panic(err)
		}
		var tests []string
		for _, tc := range t.Tests {
			tests = append(tests, tc.Name)
		}
		fmt.Println(t.ID, "visible", d.VisibleTests, "tests", tests, t.PassRule)
	}
	// Output:
	// dataset: 2 problems, 1 with a hidden test file, 1 without (no hidden verdict); hidden test files with no problem, left out: test_sample_81.py
	// 1 visible [test_visible.py::test_visible] tests [test_visible.py::test_visible test_sample.py] exit-status
	// 2 visible [test_visible.py::test_visible] tests [test_visible.py::test_visible] exit-status
}

func ExampleGoTasks() {
	tasks, err := versioned.GoTasks()
	if err != nil {
		panic(err)
	}
	for _, t := range tasks[:3] {
		d, err := versioned.DetailOf(&t)
		if err != nil {
			panic(err)
		}
		fmt.Println(t.ID, t.Labels["library"], d.Version, "vs", d.OtherVersion, t.Labels["category"])
	}
	fmt.Println(len(tasks), "problems")
	// Output:
	// gocmp-equatecomparable github.com/google/go-cmp v0.6.0 vs v0.5.9 new-feature
	// uuid-v7 github.com/google/uuid v1.6.0 vs v1.3.0 new-feature
	// xexp-binarysearch-found golang.org/x/exp v0.0.0-20221208152030-732eee02a75a vs v0.0.0-20220303212507-bbda1eaf7a17 semantics
	// 11 problems
}

// Wiring: the Go problems, their modules fetched through the Go module
// proxy, scored with the three protocols and printed as the paper's
// Table 1. (Not run: it needs the sandbox and the proxy.)
func ExampleEvaluate() {
	ctx := context.Background()
	tasks, err := versioned.GoTasks()
	if err != nil {
		panic(err)
	}
	cache := &versioned.Cache{Dir: "/var/tmp/adaptbench-envs/gomod", Builder: &versioned.GoModules{}}
	row := versioned.TableRow{Model: adapt.Reference.Name()}
	for _, p := range versioned.Protocols {
		opts := &versioned.EvalOptions{Protocol: p, Evaluate: adapt.Options{Environments: &versioned.Provider{Provisioner: cache, Strict: true}}}
		res, err := versioned.Evaluate(ctx, tasks, adapt.Reference, opts)
		if err != nil {
			panic(err)
		}
		switch p {
		case versioned.Greedy:
			row.Greedy = res
		case versioned.SelfDebug:
			row.SelfDebug = res
		case versioned.CoT:
			row.CoT = res
		}
	}
	versioned.Table{row}.WriteTable(os.Stdout)
}

// Generate keeps the GitChameleon problems whose reference passes in its
// own environment, built offline from a wheelhouse. (Not run: it needs
// the wheels.)
func ExampleGenerate() {
	tasks, _, err := versioned.LoadDir("shared/data/gitchameleon")
	if err != nil {
		panic(err)
	}
	cache := &versioned.Cache{Dir: versioned.DefaultCacheDir(), Builder: &versioned.Venv{Python: "/usr/bin/python3", Wheelhouse: "/srv/wheels"}}
	res, err := versioned.Generate(context.Background(), tasks, &versioned.Options{
		Environments: &versioned.Provider{Provisioner: cache, Strict: true},
	})
	if err != nil {
		panic(err)
	}
	res.Funnel.WriteTable(os.Stdout)
	for _, bad := range res.Invalid {
		fmt.Println(bad.TaskID, bad.Reason)
	}
}
