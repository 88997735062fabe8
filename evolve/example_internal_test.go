package evolve

import (
	"fmt"
	"log"

	"github.com/adaptbench/adaptbench/evolve/transform"
)

func Example_calls() {
	calls, err := testCalls([]byte(`def check(candidate):
    assert candidate([1, 2], 3) == [4, 5]
    assert candidate([], 0) == []
    assert abs(candidate([1.5], 0) - 1.5) < 1e-6
`))
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range calls {
		fmt.Printf("f(%s) == %s\n", c.Args, c.Expected)
	}
	// Output:
	// f([1, 2], 3) == [4, 5]
	// f([], 0) == []
}

func Example_source() {
	p := &transform.Program{
		Main:    []byte("from newClass42 import newFunc0_3 as newFunc0_3\n\ndef f(a, b):\n    return newFunc0_3(a, b)\n"),
		Modules: map[string][]byte{"newClass42.py": []byte("def newFunc0_3(a, b):\n    return a + b\n")},
	}
	fmt.Print(source(p))
	// Output:
	// from newClass42 import newFunc0_3 as newFunc0_3
	//
	// def f(a, b):
	//     return newFunc0_3(a, b)
	// #The following is code in dependent file newClass42.py:
	// def newFunc0_3(a, b):
	//     return a + b
}
