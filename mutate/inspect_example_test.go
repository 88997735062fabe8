package mutate_test

import (
	"fmt"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/mutate"
)

func ExampleInspect() {
	// A task as Generate makes it: F (in Reference) had `>`, F′ (in
	// Code) has `<`; its Detail locates the fragment and the mutation.
	ref := "func Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}"
	code := strings.Replace(ref, "a > b", "a < b", 1)
	at := strings.Index(ref, ">")
	start, end := strings.Index(ref, "if"), strings.LastIndex(ref, "b")+1
	task := &adapt.Task{ID: "max", Language: adapt.Go, Code: code, Reference: ref,
		Target: adapt.Target{Path: "max.go", Function: "Max"}}
	err := mutate.SetDetail(task, &mutate.Detail{
		Snippet:   mutate.Range{Start: start, End: end},
		Reference: mutate.Range{Start: start, End: end},
		Mutations: []mutate.Record{{Operator: "modifylogic", Tier: mutate.TierStructural, NodeKind: "binary_expression",
			Changes: []mutate.Change{{Orig: mutate.Range{Start: at, End: at + 1}, Mut: mutate.Range{Start: at, End: at + 1}, Old: ">", New: "<"}}}},
	})
	if err != nil {
		fmt.Println(err)
	}

	snippet, _ := mutate.Snippet(task)
	fmt.Printf("snippet: %q\n", snippet)
	for _, answer := range []string{
		"```go\nif a > b {\n\treturn a\n}\nreturn b\n```",  // restores F
		"```go\nif b < a {\n\treturn a\n}\nreturn b\n```",  // an equivalent rewrite
		"```go\nif a < b {\n\treturn a\n}\nreturn b\n```",  // hands F′ back
		"```go\nif a == b {\n\treturn a\n}\nreturn b\n```", // something else
	} {
		// Answer splices the snippet into the task's function.
		a, _ := mutate.Answer(task, report.Completion{Text: answer})
		in, _ := mutate.Inspect(task, a.Code)
		fmt.Println(in.Operators[0], in.Verdicts[0])
	}
	// Output:
	// snippet: "if a < b {\n\t\treturn a\n\t}\n\treturn b"
	// modifylogic reversed
	// modifylogic altered
	// modifylogic unchanged
	// modifylogic altered
}
