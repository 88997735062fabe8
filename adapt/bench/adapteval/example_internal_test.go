package adapteval

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
)

func Example_settingMessages() {
	tasks, _, err := Load(os.DirFS("testdata/repo"), ".")
	if err != nil {
		log.Fatal(err)
	}
	msgs, err := tReqNoCtx.Messages(&tasks[3])
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

func Example_obfuscate() {
	code := "def mean(values, weights=None):\n    total = sum(values)\n    return total / len(values)\n"
	obf, back, err := obfuscate(adapt.Python, code)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(obf)
	fmt.Println(back)
	answer := "```python\ndef mean(var_0, var_1=None):\n    return sum(var_0) / len(var_0)\n```"
	fmt.Println(strings.Contains(deobfuscate(answer, back), "def mean(values, weights=None):"))
	// Output:
	// def mean(var_0, var_1=None):
	//     var_2 = sum(var_0)
	//     return var_2 / len(var_0)
	// map[var_0:values var_1:weights var_2:total]
	// true
}

func Example_typeByLabel() {
	t, _ := typeByLabel("Logic.Ins_Call")
	c, _ := categoryByLabel(t.Category())
	fmt.Printf("%s (%s, %s): %d of %d\n", t.Name, t.Abbrev, c.Abbrev, t.Count, c.Count)
	// Output:
	// Insert Call (Ins_Call, LC): 22 of 227
}

func Example_readMetadata() {
	recs, rep, err := readMetadata(os.DirFS("testdata/repo"), ".")
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

func Example_oracle() {
	target := "import os\nimport numpy as np\nfrom typing import (List,\n    Optional)\n\nLIMIT = 3\n\nclass Cache:\n    size = 2\n\n    def __init__(self):\n        self.items = []\n\n    def get(self, k):\n        return None\n\ndef f(xs: List[int]) -> Optional[int]:\n    return np.max(xs)\n"
	var deps dependencies
	deps.InClass.Fields = []string{"Cache.items", "Cache.size"}
	deps.InFile.Variables = []string{"LIMIT"}
	deps.External = []string{"numpy.max", "typing.List", "typing.Optional"}
	blocks, misses, err := oracleContext(target, deps, nil)
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
