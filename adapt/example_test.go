package adapt_test

import (
	"context"
	"fmt"
	"log"
	"testing/fstest"

	"github.com/adaptbench/adaptbench/adapt"
)

// A task in the directory format, inline: the snippet computes a mean, the
// target wants it renamed and safe on empty input.
var exampleFS = fstest.MapFS{
	"tasks/py-mean/task.json": {Data: []byte(`{
  "language": "python",
  "target": {"path": "stats.py", "function": "safe_mean"},
  "requirement": {"steps": [
    {"id": "0", "type": "Method_Signature.Rename_Func", "description": "Rename avg to safe_mean."},
    {"id": "1", "type": "Logic.Ins_Cond", "description": "Return 0.0 for an empty list."}
  ]},
  "tests": [
    {"name": "test_stats.T.test_mean", "file": "test_stats.py", "steps": ["0"]},
    {"name": "test_stats.T.test_empty", "file": "test_stats.py", "steps": ["1"]}
  ]
}`)},
	"tasks/py-mean/code.py":        {Data: []byte("def avg(xs):\n    return sum(xs) / len(xs)\n")},
	"tasks/py-mean/reference.py":   {Data: []byte("def safe_mean(xs):\n    if not xs:\n        return 0.0\n    return sum(xs) / len(xs)\n")},
	"tasks/py-mean/files/stats.py": {Data: []byte("def safe_mean(xs):\n    if not xs:\n        return 0.0\n    return sum(xs) / len(xs)\n")},
	"tasks/py-mean/files/test_stats.py": {Data: []byte(`import unittest
from stats import safe_mean

class T(unittest.TestCase):
    def test_mean(self):
        self.assertEqual(safe_mean([1, 2, 3]), 2)

    def test_empty(self):
        self.assertEqual(safe_mean([]), 0.0)
`)},
}

func ExampleEvaluate() {
	tasks, err := adapt.LoadDir(exampleFS, "tasks")
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range []adapt.Model{adapt.Reference, adapt.Identity} {
		rep, err := adapt.Evaluate(context.Background(), tasks, m, nil)
		if err != nil {
			log.Fatal(err)
		}
		p1, _ := rep.Score(1)
		fmt.Printf("%s: pass@1 %.2f, outcomes %v\n", m.Name(), p1, rep.Outcomes)
	}
	// Output:
	// reference: pass@1 1.00, outcomes map[passed:1]
	// identity: pass@1 0.00, outcomes map[wrong-name:1]
}

func ExampleExtract() {
	tasks, _ := adapt.LoadDir(exampleFS, "tasks")
	completion := "Here is the adapted function:\n\n```python\nimport math\n\ndef helper():\n    pass\n\ndef safe_mean(xs):\n    return math.fsum(xs) / len(xs) if xs else 0.0\n```\n"
	a, err := adapt.Extract(&tasks[0], completion)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(a.Code)
	fmt.Println(a.Imports)
	// Output:
	// def safe_mean(xs):
	//     return math.fsum(xs) / len(xs) if xs else 0.0
	// [import math]
}
