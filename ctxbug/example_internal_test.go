package ctxbug

import (
	"fmt"

	"github.com/adaptbench/adaptbench/adapt"
)

func Example() {
	method := []byte("def add(states, stat):\n    BitStatusUtil.check([states, stat])\n    return states | stat\n")
	ctx := &Context{Class: "BitStatusUtil", Methods: []string{"check"}}
	ts, err := perturb(method, ctx, Rules)
	if err != nil {
		panic(err)
	}
	for _, t := range ts {
		fmt.Printf("%s: %q\n", t.Rule, t.Code)
	}
	o, err := obfuscateTemplate(method, ts[2], "Add stat to states.")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n%q\n", o.Code, o.Requirement)
	filled := []byte("def add(var_0, var_1):\n    BitStatusUtil.check([var_0, var_1])\n    return var_0 + var_1\n")
	back, _ := deobfuscateCode(filled, o.Names)
	fmt.Printf("%q\n", back)
	// Output:
	// params: "def add(<PARAMS>):\n    BitStatusUtil.check([states, stat])\n    return states | stat\n"
	// return: "def add(states, stat):\n    BitStatusUtil.check([states, stat])\n    <RETURN>\n"
	// operator: "def add(states, stat):\n    BitStatusUtil.check([states, stat])\n    return states <INFILL> stat\n"
	// bounded: "def add(states, stat):\n    <INFILL>([states, stat])\n    return states | stat\n"
	// free: "def add(states, stat):\n    BitStatusUtil.check([<VAR>, <VAR>])\n    return <VAR> | <VAR>\n"
	// "def add(var_0, var_1):\n    BitStatusUtil.check([var_0, var_1])\n    return var_0 <INFILL> var_1\n"
	// "Add var_1 to var_0."
	// "def add(states, stat):\n    BitStatusUtil.check([states, stat])\n    return states + stat\n"
}

func Example_apply() {
	src := []byte("return a + b")
	out, _ := applyHoles(src, []Hole{{Start: 9, End: 10, Placeholder: Infill}})
	fmt.Println(string(out))
	// Output:
	// return a <INFILL> b
}

func Example_infillPrompt() {
	method := "def save(self, path):\n    with open(path, 'w') as f:\n        json.dump(self.cookies, f)\n"
	b := &Base{
		Task:        adapt.Task{ID: "CookiesUtil.save"},
		Method:      []byte(method),
		Requirement: "def save(self, path):\n    \"\"\"Save the cookies to the file at path.\"\"\"",
		Context:     Context{Class: "CookiesUtil", Libs: []string{"json"}},
		Libs:        []string{"json"},
	}
	jobs, err := Jobs([]*Base{b}, []*Rule{libraryRule})
	if err != nil {
		panic(err)
	}
	fmt.Println(jobs[0].ID)
	fmt.Println(infillPrompt(jobs[0]))
	// Output:
	// CookiesUtil.save/library/0
	// Complete the following Python method. Some of its code is masked by placeholders: <PARAMS> stands for the parameter list, <RETURN> for a return statement, <VAR> for a variable, <INFILL> for any other code. Replace every placeholder so that the method meets its requirement, and change nothing else.
	//
	// ### Requirement:
	// def save(self, var_0):
	//     """Save the cookies to the file at var_0."""
	//
	// ### Masked Method:
	// ```python
	// def save(self, var_0):
	//     with open(var_0, 'w') as var_1:
	//         <INFILL>
	// ```
	//
	// However, you are not allowed to use the following libraries: [json]
	//
	// Write out the complete method, with every placeholder replaced, in one Python code block.
}

func Example_degradation() {
	without := Cell{Instances: 379, Passed: 201, Bugs: 497, Resolved: 232}
	with := Cell{Instances: 379, Passed: 128, Bugs: 497, Resolved: 109}
	p1, rr := degradation(without, with)
	fmt.Printf("w/o %.2f%%, w/ %.2f%%: %.2f%% lower Pass@1, %.2f%% lower RR\n", 100*without.PassAt1(), 100*with.PassAt1(), p1, rr)
	// Output:
	// w/o 53.03%, w/ 33.77%: 36.32% lower Pass@1, 53.02% lower RR
}
