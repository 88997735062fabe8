package syntax_test

import (
	"bytes"
	"fmt"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

func ExampleDiff() {
	a := []byte("def area(w, h):\n    return w * h\n")
	b := []byte("def area(w, h):\n    if w < 0:\n        return 0\n    return w + h\n")
	edits, err := syntax.Diff(syntax.Python, a, b)
	if err != nil {
		panic(err)
	}
	for _, e := range edits {
		fmt.Println(e)
	}
	// Output:
	// update * "*" -> "+" at [29,30)->[60,61)
	// insert if_statement at ->[20,46)
}

// A perturbed node recorded by its byte range in the original is looked up
// in a model's answer: the identification check of CtxBugGen. The call is
// aligned with its new version; the literal 0, replaced by the unary
// expression -1, has no counterpart and is listed as changed (deleted).
func ExampleMapping_Aligned() {
	orig := []byte("def f(xs):\n    return sorted(xs)[0]\n")
	answer := []byte("def f(items):\n    # smallest\n    return sorted(items)[-1]\n")
	m, err := syntax.MatchSource(syntax.Python, orig, answer)
	if err != nil {
		panic(err)
	}
	for _, perturbed := range []string{"sorted(xs)", "0"} {
		i := bytes.Index(orig, []byte(perturbed))
		r, ok := m.Aligned(syntax.Range{Start: i, End: i + len(perturbed)})
		fmt.Printf("%q -> %q %v\n", perturbed, answer[r.Start:r.End], ok)
	}
	changedA, changedB := m.ChangedNodes()
	for _, n := range changedA {
		fmt.Printf("a: %s %q\n", n.Type, n.Text(orig))
	}
	for _, n := range changedB {
		fmt.Printf("b: %s %q\n", n.Type, n.Text(answer))
	}
	// Output:
	// "sorted(xs)" -> "sorted(items)" true
	// "0" -> "" false
	// a: identifier "xs"
	// a: identifier "xs"
	// a: integer "0"
	// b: comment "# smallest"
	// b: unary_operator "-1"
}
