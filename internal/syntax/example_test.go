package syntax_test

import (
	"errors"
	"fmt"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

func ExampleReplace() {
	target := []byte(`class Stack:
    def __init__(self):
        self.items = []

    @property
    def top(self):
        return None  # TODO

    def size(self):
        return len(self.items)
`)
	// The model's method, written at column 0 and without the decorator:
	// the original @property is kept and the body is re-indented.
	answer := []byte("def top(self):\n    return self.items[-1] if self.items else None\n")

	out, err := syntax.Replace(syntax.Python, target, "Stack.top", answer)
	var se *syntax.SpliceError
	if errors.As(err, &se) {
		fmt.Println("spliced code does not parse:", se.Errors)
	} else if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// class Stack:
	//     def __init__(self):
	//         self.items = []
	//
	//     @property
	//     def top(self):
	//         return self.items[-1] if self.items else None
	//
	//     def size(self):
	//         return len(self.items)
}

func ExampleExtract() {
	answer := []byte(`import java.util.*;

class Solution {
    /** Sums the array. */
    @Override
    public int solve(int[] a) {
        int s = 0;
        for (int x : a) s += x;
        return s;
    }
}
`)
	fn, err := syntax.Extract(syntax.Java, answer, "Solution.solve")
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Print(string(fn))
	imports, _ := syntax.Imports(syntax.Java, answer)
	fmt.Printf("imports: %q\n", imports)
	// Output:
	// @Override
	// public int solve(int[] a) {
	//     int s = 0;
	//     for (int x : a) s += x;
	//     return s;
	// }
	// imports: ["import java.util.*;"]
}

func ExampleTree_Errors() {
	tree, err := syntax.Parse(syntax.Go, []byte("package p\n\nfunc f() {\n\tx := (1\n}\n"))
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	for _, e := range tree.Errors() {
		fmt.Println(e)
	}
	// Output:
	// line 4, column 9: missing ")"
}

func ExampleApplyEdits() {
	src := []byte("return a + b")
	out, m, err := syntax.ApplyEdits(src, []syntax.TextEdit{
		{Start: 11, End: 12, Text: "total"},
		{Start: 7, End: 8, Text: "first"},
	})
	fmt.Println(string(out), err)
	fmt.Println(m.Range(0), m.Old(9, false), m.Old(9, true)) // 9 is inside "first"
	_, _, err = syntax.ApplyEdits(src, []syntax.TextEdit{{Start: 0, End: 8}, {Start: 7, End: 9}})
	fmt.Println(err)
	// Output:
	// return first + total <nil>
	// {15 20} 7 8
	// syntax: edit [7,9) overlaps [0,8)
}

func ExamplePyScopes() {
	src := []byte(`x = 0
def f(a):
    global x
    x = a
    class C:
        a = 1
        def m(self):
            return a
    return [a for a in range(a)]
`)
	root, _ := syntax.ParseNodes(syntax.Python, src)
	s := syntax.PyScopes(root, src)
	for _, r := range s.Refs() {
		if r.Node.Text(src) != "a" && r.Node.Text(src) != "x" {
			continue
		}
		to := "builtin or undefined"
		if r.Symbol != nil {
			to = fmt.Sprintf("%s of the %s at line %d", r.Symbol.Name, r.Symbol.Scope.Kind, r.Symbol.Scope.Node.Line)
		}
		fmt.Printf("line %d %s (binds %t): %s\n", r.Node.Line, r.Node.Text(src), r.Binds, to)
	}
	// Output:
	// line 1 x (binds true): x of the module at line 1
	// line 2 a (binds true): a of the function at line 2
	// line 3 x (binds false): x of the module at line 1
	// line 4 x (binds true): x of the module at line 1
	// line 4 a (binds false): a of the function at line 2
	// line 6 a (binds true): a of the class at line 5
	// line 8 a (binds false): a of the function at line 2
	// line 9 a (binds false): a of the comprehension at line 9
	// line 9 a (binds true): a of the comprehension at line 9
	// line 9 a (binds false): a of the function at line 2
}
