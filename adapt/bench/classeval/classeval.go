package classeval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// Class is one record of ClassEval_data.json: a class-level task.
type Class struct {
	// TaskID is "ClassEval_0" … "ClassEval_99".
	TaskID string `json:"task_id"`
	// Name is the class name.
	Name string `json:"class_name"`
	// Skeleton is the class with signatures and docstrings but no bodies,
	// preceded by its imports.
	Skeleton string `json:"skeleton"`
	// Solution is the full reference solution, imports included.
	Solution string `json:"solution_code"`
	// Test is the class's unittest module, without an import of the class.
	Test string `json:"test"`
	// Imports are the solution's import statements, one per entry.
	Imports []string `json:"import_statement"`
	// Description is the class docstring, indented as in the class body.
	Description string `json:"class_description"`
	// TestClasses names the unittest.TestCase classes of Test.
	TestClasses []string `json:"test_classes"`
	// Constructor is the class header with its __init__.
	Constructor string `json:"class_constructor"`
	// Fields are the instance attributes __init__ sets ("self.x").
	Fields []string `json:"fields"`
	// Methods are the class's methods other than __init__, in order.
	Methods []Method `json:"methods_info"`
}

// Method is one method of a class, with the tests that target it.
type Method struct {
	// Name is the method name.
	Name string `json:"method_name"`
	// Description is the method's signature and docstring.
	Description string `json:"method_description"`
	// TestClass names the TestCase class of the class's Test that tests
	// this method.
	TestClass string `json:"test_class"`
	// TestCode is the source of TestClass.
	TestCode string `json:"test_code"`
	// Solution is the reference method; its first line is not indented,
	// the others keep the class-body indentation.
	Solution string `json:"solution_code"`
	// Dependencies says what of its context the method uses.
	Dependencies Dependencies `json:"dependencies"`
}

// Dependencies are what a method uses from its context, as ClassEval
// annotates them.
type Dependencies struct {
	// Standalone reports whether the method uses no field and no sibling
	// method.
	Standalone bool `json:"Standalone"`
	// Libs are the libraries (modules or imported names) it uses.
	Libs []string `json:"lib_dependencies"`
	// Fields are the attributes it uses ("self.x").
	Fields []string `json:"field_dependencies"`
	// Methods are the sibling methods it calls.
	Methods []string `json:"method_dependencies"`
}

// stdlib lists the top-level modules (and names imported from them) that
// ClassEval's lib_dependencies mention and that Python's standard library
// provides.
var stdlib = map[string]bool{
	"datetime": true, "random": true, "re": true, "math": true, "json": true,
	"string": true, "sqlite3": true, "Counter": true, "logging": true,
	"itertools": true, "List": true, "csv": true, "Decimal": true, "deque": true,
	"socket": true, "os": true, "time": true, "urllib.parse": true, "zipfile": true,
	"typing": true, "collections": true, "decimal": true, "urllib": true,
	"hashlib": true, "base64": true, "heapq": true, "functools": true,
}

// thirdParty returns the library dependencies that are not in Python's
// standard library (openpyxl, PyPDF2, gensim, …), in order.
func (d Dependencies) thirdParty() []string {
	var out []string
	for _, l := range d.Libs {
		if !stdlib[l] {
			out = append(out, l)
		}
	}
	return out
}

// thirdParty returns the third-party libraries any method of c uses, each
// once, in order of first use.
func (c *Class) thirdParty() []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range c.Methods {
		for _, l := range m.Dependencies.thirdParty() {
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	return out
}

// method returns the method named name, or nil.
func (c *Class) method(name string) *Method {
	for i := range c.Methods {
		if c.Methods[i].Name == name {
			return &c.Methods[i]
		}
	}
	return nil
}

// read reads the published ClassEval JSON (one array of class records);
// name is used in errors. A record that does not have the fields the
// tasks need is an error naming the record.
func read(r io.Reader, name string) ([]Class, error) {
	var classes []Class
	if err := json.NewDecoder(r).Decode(&classes); err != nil {
		return nil, &adapt.ParseError{Path: name, Err: fmt.Errorf("classeval: %w", err)}
	}
	for i := range classes {
		if err := check(&classes[i]); err != nil {
			return nil, &adapt.ParseError{Path: name, Err: fmt.Errorf("classeval: record %d (%s): %w", i, classes[i].TaskID, err)}
		}
	}
	return classes, nil
}

// ReadFile reads ClassEval_data.json.
func ReadFile(path string) ([]Class, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("classeval: %w", err)
	}
	defer f.Close()
	return read(f, path)
}

func check(c *Class) error {
	switch {
	case c.TaskID == "":
		return errors.New("no task_id")
	case c.Name == "":
		return errors.New("no class_name")
	case c.Solution == "":
		return errors.New("no solution_code")
	case c.Test == "":
		return errors.New("no test")
	case len(c.Methods) == 0:
		return errors.New("no methods_info")
	}
	for j, m := range c.Methods {
		if m.Name == "" || m.Solution == "" || m.TestClass == "" {
			return fmt.Errorf("method %d (%q): needs method_name, solution_code and test_class", j, m.Name)
		}
	}
	return nil
}

// Module names of every task's workspace.
const (
	// solutionModule holds the class, as the target file solutionModule+".py".
	solutionModule = "solution"
	// testModule holds the class's tests, as testModule+".py".
	testModule = "test_solution"
)

// testModuleSource returns the test module for c: the class's test code
// after an import of everything in the solution module (the published
// tests assume the class and its imports are in scope).
func testModuleSource(c *Class) string {
	return "from " + solutionModule + " import *\n" + c.Test
}

// testNames returns the unittest test ids of m's tests, as the unittest
// driver reports them: "test_solution.<TestClass>.<test method>".
//
// One published record (ClassEval_69.merge_pdfs) names a fixture class
// without tests as its test class; when m.TestClass has no tests, the
// class's own naming convention "<Class>Test<Method in CamelCase>" is
// tried instead.
func testNames(c *Class, m *Method) ([]string, error) {
	t, err := syntax.Parse(syntax.Python, []byte(c.Test))
	if err != nil {
		return nil, err
	}
	funcs := t.Functions()
	names := func(class string) []string {
		var out []string
		for _, f := range funcs {
			if f.Container == class && f.Depth == 1 && strings.HasPrefix(f.Name, "test") {
				out = append(out, testModule+"."+class+"."+f.Name)
			}
		}
		return out
	}
	out := names(m.TestClass)
	if len(out) == 0 {
		out = names(c.Name + "Test" + camel(m.Name))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no tests in class %s", m.TestClass)
	}
	return out, nil
}

// camel turns snake_case into CamelCase.
func camel(s string) string {
	var b strings.Builder
	for _, p := range strings.Split(s, "_") {
		if p != "" {
			b.WriteString(strings.ToUpper(p[:1]) + p[1:])
		}
	}
	return b.String()
}

// Tasks turns every method of every class into a task; source names the
// dataset in the tasks' provenance.
//
// A method's task is a Python unittest task with ID "<task_id>.<method>".
// Its target is solution.py holding the class's full solution, with
// function "<Class>.<method>"; its one other file is test_solution.py
// (the class's tests after "from solution import *"); its tests are the test methods of the
// method's test class. The code to adapt is the method's signature and
// docstring, the requirement its docstring, the context the class
// skeleton, and the reference the method as it stands in the solution.
// Labels carry the class ("class"), whether the method is standalone and
// the third-party libraries it uses ("libs", comma-separated).
func Tasks(classes []Class, source string) ([]adapt.Task, error) {
	var out []adapt.Task
	for i := range classes {
		c := &classes[i]
		for j := range c.Methods {
			t, err := task(c, &c.Methods[j], source)
			if err != nil {
				return nil, fmt.Errorf("classeval: %s.%s: %w", c.TaskID, c.Methods[j].Name, err)
			}
			out = append(out, t)
		}
	}
	return out, nil
}

func task(c *Class, m *Method, source string) (adapt.Task, error) {
	fn := c.Name + "." + m.Name
	ref, err := syntax.Extract(syntax.Python, []byte(c.Solution), fn)
	if err != nil {
		return adapt.Task{}, err
	}
	names, err := testNames(c, m)
	if err != nil {
		return adapt.Task{}, err
	}
	tests := make([]adapt.Test, len(names))
	for i, n := range names {
		tests[i] = adapt.Test{Name: n, File: testModule + ".py"}
	}
	standalone := "false"
	if m.Dependencies.Standalone {
		standalone = "true"
	}
	t := adapt.Task{
		ID:          c.TaskID + "." + m.Name,
		Language:    adapt.Python,
		Code:        string(syntax.Dedent([]byte("    " + m.Description))),
		Target:      adapt.Target{Path: solutionModule + ".py", Function: fn, Content: c.Solution},
		Files:       []adapt.File{{Path: testModule + ".py", Content: testModuleSource(c)}},
		Context:     []adapt.Snippet{{Name: c.Name, Code: c.Skeleton}},
		Requirement: adapt.Requirement{Task: docstring(m.Description)},
		Reference:   string(ref),
		Framework:   adapt.FrameworkUnittest,
		Tests:       tests,
		Labels: map[string]string{
			"benchmark":  "classeval",
			"class":      c.Name,
			"standalone": standalone,
			"libs":       strings.Join(m.Dependencies.thirdParty(), ","),
		},
		Provenance: &adapt.Provenance{Generator: "classeval", Source: source},
	}
	if err := t.Validate(); err != nil {
		return adapt.Task{}, err
	}
	return t, nil
}

// docstring returns the text of the first triple-quoted string in desc,
// dedented, or desc when there is none.
func docstring(desc string) string {
	for _, q := range []string{`"""`, `'''`} {
		i := strings.Index(desc, q)
		if i < 0 {
			continue
		}
		rest := desc[i+3:]
		j := strings.Index(rest, q)
		if j < 0 {
			continue
		}
		return strings.TrimSpace(string(syntax.Dedent([]byte(rest[:j]))))
	}
	return strings.TrimSpace(desc)
}
