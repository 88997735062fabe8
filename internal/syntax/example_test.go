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
