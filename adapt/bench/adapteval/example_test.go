package adapteval_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
)

func ExampleLoad() {
	tasks, rep, err := adapteval.Load(os.DirFS("testdata/repo"), ".")
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tasks {
		fmt.Printf("%s: %s, %d steps, %d tests\n", t.ID, t.Target.Path, len(t.Requirement.Steps), len(t.Tests))
	}
	fmt.Println("left out:", rep.Skipped())
	fmt.Println("repeated ids:", rep.Count(adapteval.IssueDuplicateID), "untested:", rep.Count(adapteval.IssueUntested))
	// Output:
	// 101.strutil.slugify: strutil.py, 4 steps, 7 tests
	// 102.logging.record: ctx_logging.py, 4 steps, 5 tests
	// 103.stats.moving_average: stats.py, 3 steps, 4 tests
	// 103.stats.clamp: stats.py, 3 steps, 4 tests
	// 104.fetch.fetch_json: fetch.py, 2 steps, 3 tests
	// left out: [105.gone.vanish]
	// repeated ids: 1 untested: 1
}

func ExampleSetting_Messages() {
	tasks, _, err := adapteval.Load(os.DirFS("testdata/repo"), ".")
	if err != nil {
		log.Fatal(err)
	}
	msgs, err := adapteval.TReqNoCtx.Messages(&tasks[3])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msgs[0].Content)
	// The text, a line at a time ("|" marks where each starts).
	for _, line := range strings.Split(msgs[1].Content, "\n") {
		fmt.Println("|" + line)
	}
	// Output:
	// You are a helpful assistant.
	// |I will provide you with a code snippet to reuse. You should adapt the snippet into a target code base according to the task description. Some related code context from the target code base is provided for reference.
	// |
	// |### Reused Snippet:
	// |```python
	// |def clip(x, lo, hi):
	// |    return max(lo, min(x, hi))
	// |
	// |```
	// |
	// |
	// |### Adaptation Task Description:
	// |
	// |
	// |
	// |Please write out function after adaptation in the following section:
	// |### Adapted Function:
}

func ExampleObfuscate() {
	code := "def mean(values, weights=None):\n    total = sum(values)\n    return total / len(values)\n"
	obf, back, err := adapteval.Obfuscate(adapt.Python, code)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(obf)
	fmt.Println(back)
	answer := "```python\ndef mean(var_0, var_1=None):\n    return sum(var_0) / len(var_0)\n```"
	fmt.Println(strings.Contains(adapteval.Deobfuscate(answer, back), "def mean(values, weights=None):"))
	// Output:
	// def mean(var_0, var_1=None):
	//     var_2 = sum(var_0)
	//     return var_2 / len(var_0)
	// map[var_0:values var_1:weights var_2:total]
	// true
}

func ExampleTypeByLabel() {
	t, _ := adapteval.TypeByLabel("Logic.Ins_Call")
	c, _ := adapteval.CategoryByLabel(t.Category())
	fmt.Printf("%s (%s, %s): %d of %d\n", t.Name, t.Abbrev, c.Abbrev, t.Count, c.Count)
	// Output:
	// Insert Call (Ins_Call, LC): 22 of 227
}

func ExampleReadMetadata() {
	recs, rep, err := adapteval.ReadMetadata(os.DirFS("testdata/repo"), ".")
	if err != nil {
		log.Fatal(err)
	}
	r := recs[1]
	fmt.Println(r.ID(), r.TestModule(), r.TestClass())
	for _, a := range r.Adaptations {
		fmt.Println(a.Step, a.Type, a.AssociatedTests)
	}
	fmt.Println(rep.Tasks, "tasks,", rep.Adaptations, "adaptations")
	// Output:
	// 102.logging.record test_logging_record TestRecord
	// 0 Logic.Conv_Type [test_entry_is_dict]
	// 1 Logic.Ins_Cond [test_caps_events]
	// 1#2 Logic.Ins_Call [test_logs_event]
	// 2 Method_Signature.Ins_Param [test_level_parameter]
	// 6 tasks, 17 adaptations
}

func ExampleOracle() {
	target := "import os\nimport numpy as np\nfrom typing import (List,\n    Optional)\n\nLIMIT = 3\n\nclass Cache:\n    size = 2\n\n    def __init__(self):\n        self.items = []\n\n    def get(self, k):\n        return None\n\ndef f(xs: List[int]) -> Optional[int]:\n    return np.max(xs)\n"
	var deps adapteval.Dependencies
	deps.InClass.Fields = []string{"Cache.items", "Cache.size"}
	deps.InFile.Variables = []string{"LIMIT"}
	deps.External = []string{"numpy.max", "typing.List", "typing.Optional"}
	blocks, misses, err := adapteval.Oracle(target, deps, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range blocks {
		fmt.Printf("[%s]\n%s\n", b.Name, b.Code)
	}
	fmt.Println(misses)
	// Output:
	// [Cache]
	// class Cache:
	//     size = 2
	//     def __init__(self):
	//         self.items = []
	// [LIMIT]
	// LIMIT = 3
	// [Imports]
	// import numpy as np
	// from typing import List, Optional
	// []
}

func ExampleScore() {
	tasks, _, err := adapteval.Load(os.DirFS("testdata/repo"), ".")
	if err != nil {
		log.Fatal(err)
	}
	// The paper's protocol (one sample here), and the do-nothing baseline.
	rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Identity, adapteval.Options(adapteval.AReqOracle, 1))
	if err != nil {
		log.Fatal(err)
	}
	s, err := adapteval.Score(rep, tasks)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("valid %d of %d; pass@1-t %.2f; pass@1-a %.4f\n", s.Valid, s.Tasks, s.TaskPassAtK[0].Value, s.AdaptPassAt1)
	for _, e := range s.Errors {
		fmt.Println(e.Type, e.Count)
	}
	// Output:
	// valid 4 of 5; pass@1-t 0.00; pass@1-a 0.0714
	// AssertionError 5
	// CompilationError 2
	// TypeError 1
}

// CDD measures the model's answers, not test runs: adapt.Draw samples
// every task, the invalid one too, without a sandbox. The reference model
// answers with the ground truth itself, the extreme of a leak.
func ExampleCDD() {
	tasks, _, err := adapteval.Load(os.DirFS("testdata/repo"), ".")
	if err != nil {
		log.Fatal(err)
	}
	rep, err := adapt.Draw(context.Background(), tasks, adapt.Reference, adapteval.Options(adapteval.AReqOracle, 3))
	if err != nil {
		log.Fatal(err)
	}
	cdd, err := adapteval.CDD(rep, tasks, adapteval.CDDOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cdd)
	for _, t := range cdd.PerTask {
		fmt.Println(t.Task, t.Distances, t.MaxLen, t.Flagged)
	}
	// Output:
	// CDD Leak Ratio 100.00% = 5/5 tasks flagged (α=0.05, ξ=0.01, first 100 cl100k_base tokens, against the ground truth)
	// 101.strutil.slugify [0 0 0] 66 true
	// 102.logging.record [0 0 0] 65 true
	// 103.stats.moving_average [0 0 0] 56 true
	// 103.stats.clamp [0 0 0] 26 true
	// 104.fetch.fetch_json [0 0 0] 29 true
}
