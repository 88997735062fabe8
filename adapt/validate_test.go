package adapt_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/adapt"
)

// validPython is a complete unittest task that Validate accepts; each case
// of TestValidateAtLoad breaks one thing of it.
func validPython() adapt.Task {
	return adapt.Task{
		ID:       "v/1",
		Language: adapt.Python,
		Target: adapt.Target{
			Path:     "pkg/calc.py",
			Function: "Calc.add",
			Content:  "class Calc:\n    def add(self, a, b):\n        return a + b\n",
		},
		Reference: "def add(self, a, b):\n    return a + b\n",
		Files: []adapt.File{
			{Path: "pkg/__init__.py"},
			{Path: "tests/test_calc.py", Content: "import unittest\n"},
		},
		Tests: []adapt.Test{{Name: "tests.test_calc.TestCalc.test_add"}},
	}
}

// TestValidateAtLoad checks that mistakes which used to load and only show
// at run time, as an invalid task, are errors at load: a Go subtest name,
// a Python test whose module or file is not among the task's files, a
// target function the target file does not define. ReadTasks names the
// file, the line and the task.
func TestValidateAtLoad(t *testing.T) {
	goTask := func() adapt.Task {
		return adapt.Task{
			ID: "g/1", Language: adapt.Go,
			Target: adapt.Target{Path: "calc.go", Function: "Add",
				Content: "package calc\n\nfunc Add(a, b int) int { return a + b }\n"},
			Files: []adapt.File{{Path: "calc_test.go", Content: "package calc\n"}},
			Tests: []adapt.Test{{Name: "TestAdd"}},
		}
	}
	cases := []struct {
		name  string
		task  func() adapt.Task
		error string // "" means valid
	}{
		{"python valid", validPython, ""},
		{"go valid", goTask, ""},
		{"go subtest", func() adapt.Task {
			tk := goTask()
			tk.Tests[0].Name = "TestAdd/negative"
			return tk
		}, `test "TestAdd/negative": a Go subtest cannot be selected alone; name its top-level test "TestAdd"`},
		{"unittest module missing", func() adapt.Task {
			tk := validPython()
			tk.Tests[0].Name = "tests.test_missing.TestCalc.test_add"
			return tk
		}, `no file of the task is its module`},
		{"unittest module is a package", func() adapt.Task {
			tk := validPython()
			tk.Tests[0].Name = "pkg.TestCalc.test_add"
			return tk
		}, ""},
		{"unittest not dotted", func() adapt.Task {
			tk := validPython()
			tk.Tests[0].Name = "test_add"
			return tk
		}, `want a unittest id "module.Class.method"`},
		{"pytest valid", func() adapt.Task {
			tk := validPython()
			tk.Framework = adapt.FrameworkPytest
			tk.Tests[0].Name = "tests/test_calc.py::test_add"
			return tk
		}, ""},
		{"pytest file missing", func() adapt.Task {
			tk := validPython()
			tk.Framework = adapt.FrameworkPytest
			tk.Tests[0].Name = "tests/test_other.py::test_add"
			return tk
		}, `its file "tests/test_other.py" is not one of the task's files`},
		{"pytest not a node id", func() adapt.Task {
			tk := validPython()
			tk.Framework = adapt.FrameworkPytest
			tk.Tests[0].Name = "test_add"
			return tk
		}, `want a pytest node id`},
		{"target function missing", func() adapt.Task {
			tk := validPython()
			tk.Target.Function = "Calc.sub"
			return tk
		}, `target pkg/calc.py: does not define the function "Calc.sub" that answers replace`},
		{"target method of another class", func() adapt.Task {
			tk := validPython()
			tk.Target.Function = "Other.add"
			return tk
		}, `does not define the function "Other.add"`},
		{"go target missing", func() adapt.Task {
			tk := goTask()
			tk.Target.Function = "Sub"
			return tk
		}, `target calc.go: does not define the function "Sub"`},
		{"whole-file target", func() adapt.Task {
			tk := validPython()
			tk.Target.Function = ""
			return tk
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tk := c.task()
			err := tk.Validate()
			if c.error == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil || !errors.Is(err, adapt.ErrInvalidTask) || !strings.Contains(err.Error(), c.error) {
				t.Fatalf("Validate = %v, want ErrInvalidTask with %q", err, c.error)
			}
			// At load: the file, the line and the task.
			ok := validPython()
			ok.ID = "v/0"
			var buf bytes.Buffer
			if err := adapt.WriteTasks(&buf, []adapt.Task{ok, tk}); err != nil {
				t.Fatal(err)
			}
			_, err = adapt.ReadTasks(&buf, "tasks.jsonl")
			if err == nil || !strings.Contains(err.Error(), "tasks.jsonl:2") || !strings.Contains(err.Error(), `"`+tk.ID+`"`) || !strings.Contains(err.Error(), c.error) {
				t.Fatalf("ReadTasks = %v, want tasks.jsonl:2, the task id and %q", err, c.error)
			}
		})
	}
}
