package ctxbug_test

import (
	"fmt"

	"github.com/adaptbench/adaptbench/ctxbug"
)

// Example masks ClassEval's BitStatusUtil.add with every rule, then
// obfuscates one template for a generator model and maps a completion
// back.
func Example() {
	method := []byte("def add(states, stat):\n    BitStatusUtil.check([states, stat])\n    return states | stat\n")
	ctx := &ctxbug.Context{Class: "BitStatusUtil", Methods: []string{"check"}}
	ts, err := ctxbug.Perturb(method, ctx, ctxbug.Suite)
	if err != nil {
		panic(err)
	}
	for _, t := range ts {
		fmt.Printf("%s: %q\n", t.Rule, t.Code)
	}
	o, err := ctxbug.ObfuscateTemplate(method, ts[2], "Add stat to states.")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n%q\n", o.Code, o.Requirement)
	filled := []byte("def add(var_0, var_1):\n    BitStatusUtil.check([var_0, var_1])\n    return var_0 + var_1\n")
	back, _ := ctxbug.Deobfuscate(filled, o.Names)
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

func ExampleApply() {
	src := []byte("return a + b")
	out, _ := ctxbug.Apply(src, []ctxbug.Hole{{Start: 9, End: 10, Placeholder: ctxbug.Infill}})
	fmt.Println(string(out))
	// Output:
	// return a <INFILL> b
}
