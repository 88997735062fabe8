package evolve

import (
	"errors"
	"fmt"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// testCall is one input of a program's entry point and the output the
// benchmark's tests expect for it, both as Python literals.
type testCall struct {
	Args     string // the argument list without parentheses: "[1, 2], 3"
	Expected string // the expected value: "True"
}

// errNoCall is wrapped when a subject's tests hold no call usable for
// output prediction.
var errNoCall = errors.New("evolve: no literal call in the tests")

// testCalls finds, in a test source, the HumanEval-style assertions
// "assert candidate(ARGS) == EXPECTED" inside a function check(candidate),
// whose arguments and expected value are all Python literals (numbers,
// strings, True, False, None, and lists, tuples, sets and dicts of them);
// in source order.
func testCalls(test []byte) ([]testCall, error) {
	root, err := syntax.ParseNodes(syntax.Python, test)
	if err != nil {
		return nil, err
	}
	var calls []testCall
	root.Walk(func(n *syntax.Node) bool {
		if n.Type != "function_definition" {
			return true
		}
		name, params := n.Child("name"), n.Child("parameters")
		if name == nil || name.Text(test) != "check" || params == nil {
			return false
		}
		ps := params.NamedChildren()
		if len(ps) != 1 || ps[0].Type != "identifier" {
			return false
		}
		cand := ps[0].Text(test)
		n.Walk(func(a *syntax.Node) bool {
			if a.Type != "assert_statement" {
				return true
			}
			if c, ok := literalCall(a, test, cand); ok {
				calls = append(calls, c)
			}
			return false
		})
		return false
	})
	return calls, nil
}

// literalCall matches "assert cand(ARGS) == EXPECTED[, msg]".
func literalCall(a *syntax.Node, src []byte, cand string) (testCall, bool) {
	kids := a.NamedChildren()
	if len(kids) == 0 || kids[0].Type != "comparison_operator" {
		return testCall{}, false
	}
	cmp := kids[0]
	var ops []*syntax.Node
	var operands []*syntax.Node
	for _, c := range cmp.Children {
		if c.Named {
			operands = append(operands, c)
		} else {
			ops = append(ops, c)
		}
	}
	if len(ops) != 1 || ops[0].Type != "==" || len(operands) != 2 {
		return testCall{}, false
	}
	call, want := operands[0], operands[1]
	if call.Type != "call" {
		return testCall{}, false
	}
	fn, args := call.Child("function"), call.Child("arguments")
	if fn == nil || fn.Type != "identifier" || fn.Text(src) != cand || args == nil || args.Type != "argument_list" {
		return testCall{}, false
	}
	for _, arg := range args.NamedChildren() {
		if !isLiteral(arg) {
			return testCall{}, false
		}
	}
	if !isLiteral(want) {
		return testCall{}, false
	}
	inner := args.Text(src)
	inner = strings.TrimSpace(inner[1 : len(inner)-1])
	return testCall{Args: inner, Expected: want.Text(src)}, true
}

// isLiteral reports whether n is a Python literal ast.literal_eval
// accepts, without f-string interpolation.
func isLiteral(n *syntax.Node) bool {
	ok := true
	n.Walk(func(c *syntax.Node) bool {
		if !c.Named || !ok {
			return false
		}
		switch c.Type {
		case "integer", "float", "true", "false", "none", "string", "string_start", "string_content", "string_end",
			"escape_sequence", "concatenated_string", "list", "tuple", "set", "dictionary", "pair", "parenthesized_expression":
			return true
		case "unary_operator":
			arg := c.Child("argument")
			ok = arg != nil && (arg.Type == "integer" || arg.Type == "float")
			return false
		}
		ok = false
		return false
	})
	return ok
}

// predictionTest is the test of an output-prediction task: it reads the
// answer from prediction.py (an assignment "output = <literal>", an
// "assert f(...) == <literal>" or a bare literal, the last one counting),
// requires a literal, and compares it with the program's actual output.
const predictionTest = `import ast
import unittest

import solution


def _answer():
    with open('prediction.py') as f:
        tree = ast.parse(f.read())
    for node in reversed(tree.body):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == 'output' for t in node.targets):
            return ast.literal_eval(node.value)
        if isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare) and len(node.test.comparators) == 1:
            return ast.literal_eval(node.test.comparators[0])
        if isinstance(node, ast.Expr):
            return ast.literal_eval(node.value)
    raise AssertionError('prediction.py gives no literal output')


class TestPrediction(unittest.TestCase):
    def test_output(self):
        self.assertEqual(_answer(), solution.%s(%s))
`

// predictionTestName is the one test of an output-prediction task.
const predictionTestName = "test_prediction.TestPrediction.test_output"

// OutputPrediction makes CRUXEval-style output-prediction tasks of a
// HumanEval-shaped subject (a check(candidate) test with literal calls):
// one for the original program and one for the evolved one (the run's
// pick), on the same call, the first literal call of the tests. The model
// sees the program (Task.Code, modules inlined as by source) and the
// call (Requirement.Task) and answers with "output = <literal>" in a
// fenced block; the task's test checks that the answer is a literal equal
// to what the program returns. The reference is the tests' expected
// value. When the run accepted no offspring there is only the original's
// task.
func OutputPrediction(s *Subject, res *Evolution) ([]adapt.Task, error) {
	entry, calls, err := subjectCalls(s)
	if err != nil {
		return nil, err
	}
	call := calls[0]
	var tasks []adapt.Task
	for _, id := range pairIDs(res) {
		p := res.Population[id].Program
		files := []adapt.File{{Path: "solution.py", Content: string(p.Main)}}
		files = append(files, moduleFiles(p, "solution.py")...)
		files = append(files, adapt.File{Path: "test_prediction.py", Content: fmt.Sprintf(predictionTest, entry, call.Args)})
		ref := "output = " + call.Expected + "\n"
		t := adapt.Task{
			ID:          fmt.Sprintf("%s/output/%s", s.ID, versionName(id)),
			Language:    adapt.Python,
			Code:        source(p),
			Target:      adapt.Target{Path: "prediction.py", Content: ref},
			Files:       files,
			Requirement: adapt.Requirement{Task: fmt.Sprintf("Complete the assertion with the literal value the program returns: assert %s(%s) == ??", entry, call.Args)},
			Reference:   ref,
			Framework:   adapt.FrameworkUnittest,
			Tests:       []adapt.Test{{Name: predictionTestName, File: "test_prediction.py"}},
			Labels:      labels(s, id, "output-prediction"),
		}
		if err := setProvenance(&t, s, res, id, nil); err != nil {
			return nil, err
		}
		if err := t.Validate(); err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	return tasks, nil
}

// subjectCalls returns the subject's entry point and the literal calls of
// its test files.
func subjectCalls(s *Subject) (string, []testCall, error) {
	if s.Task == nil || s.Task.Target.Function == "" || strings.Contains(s.Task.Target.Function, ".") {
		return "", nil, fmt.Errorf("%w: %s: output prediction needs a task whose target is a top-level function", errNoCall, s.ID)
	}
	var calls []testCall
	for _, f := range s.Suite.Files {
		cs, err := testCalls([]byte(f.Content))
		if err != nil {
			return "", nil, fmt.Errorf("evolve: %s: %s: %w", s.ID, f.Path, err)
		}
		calls = append(calls, cs...)
	}
	if len(calls) == 0 {
		return "", nil, fmt.Errorf("%w: %s", errNoCall, s.ID)
	}
	return s.Task.Target.Function, calls, nil
}

// pairIDs returns the IDs of the original and the pick, or only the
// original's when the run accepted no offspring.
func pairIDs(res *Evolution) []int {
	if res.Best == 0 {
		return []int{0}
	}
	return []int{0, res.Best}
}
