package classeval_test

import (
	"fmt"
	"testing/fstest"

	"github.com/adaptbench/adaptbench/adapt/bench/classeval"
)

const record = `[{
  "task_id": "ClassEval_11",
  "class_name": "BitStatusUtil",
  "skeleton": "class BitStatusUtil:\n    @staticmethod\n    def add(states, stat):\n        \"\"\"\n        Add a status to the current status.\n        \"\"\"\n",
  "solution_code": "class BitStatusUtil:\n    @staticmethod\n    def add(states, stat):\n        return states | stat\n",
  "test": "import unittest\n\nclass BitStatusUtilTestAdd(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(BitStatusUtil.add(2, 4), 6)\n",
  "import_statement": [],
  "test_classes": ["BitStatusUtilTestAdd"],
  "fields": [],
  "methods_info": [{
    "method_name": "add",
    "method_description": "def add(states, stat):\n        \"\"\"\n        Add a status to the current status.\n        \"\"\"",
    "test_class": "BitStatusUtilTestAdd",
    "test_code": "class BitStatusUtilTestAdd(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(BitStatusUtil.add(2, 4), 6)\n",
    "solution_code": "def add(states, stat):\n        return states | stat",
    "dependencies": {"Standalone": true, "lib_dependencies": [], "field_dependencies": [], "method_dependencies": []}
  }]
}]`

func Example() {
	fsys := fstest.MapFS{"ClassEval_data.json": {Data: []byte(record)}}
	tasks, err := classeval.Load(fsys, "ClassEval_data.json")
	if err != nil {
		panic(err)
	}
	t := tasks[0]
	fmt.Println(t.ID, t.Target.Path, t.Target.Function)
	fmt.Println(t.Tests[0].Name)
	fmt.Println(t.Requirement.Task)
	fmt.Print(t.Reference)
	// Output:
	// ClassEval_11.add solution.py BitStatusUtil.add
	// test_solution.BitStatusUtilTestAdd.test_add
	// Add a status to the current status.
	// @staticmethod
	// def add(states, stat):
	//     return states | stat
}
