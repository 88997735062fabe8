package ctxbug_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/ctxbug"
)

func TestObfuscate(t *testing.T) {
	tests := []struct {
		name, code, want, reason string
	}{
		{
			name:   "params_and_locals",
			code:   "def add(self, states, stat):\n    total = states | stat\n    return total\n",
			want:   "def add(self, var_0, var_1):\n    var_2 = var_0 | var_1\n    return var_2\n",
			reason: "parameters and locals are renamed in order of first occurrence; self is kept",
		},
		{
			name:   "globals_builtins_attributes",
			code:   "def f(self, items):\n    return len(items) + self.items + LIMIT + json.dumps(items)\n",
			want:   "def f(self, var_0):\n    return len(var_0) + self.items + LIMIT + json.dumps(var_0)\n",
			reason: "builtins, globals, modules and attribute names are not locals",
		},
		{
			name:   "keyword_argument",
			code:   "def f(key):\n    return sorted([], key=key)\n",
			want:   "def f(var_0):\n    return sorted([], key=var_0)\n",
			reason: "a keyword argument's name is not a variable",
		},
		{
			name:   "comprehension_scope",
			code:   "def f(x):\n    y = [x for x in x]\n    return x, y\n",
			want:   "def f(var_0):\n    var_1 = [var_2 for var_2 in var_0]\n    return var_0, var_1\n",
			reason: "a comprehension binds its own x; its first iterable is the method's x",
		},
		{
			name:   "global_statement",
			code:   "def f():\n    global count\n    count = 1\n    n = count\n    return n\n",
			want:   "def f():\n    global count\n    count = 1\n    var_0 = count\n    return var_0\n",
			reason: "a name declared global is not local even where assigned",
		},
		{
			name:   "nested_function",
			code:   "def f(n):\n    def g(n=n):\n        return n + 1\n    return g(n=n)\n",
			want:   "def f(var_0):\n    def var_1(n=var_0):\n        return n + 1\n    return var_1(n=var_0)\n",
			reason: "a nested function's parameters keep their names; its default is evaluated outside",
		},
		{
			name:   "lambda_and_except",
			code:   "def f(a):\n    try:\n        g = lambda a: a * 2\n    except ValueError as e:\n        return e\n    return g(a)\n",
			want:   "def f(var_0):\n    try:\n        var_1 = lambda var_2: var_2 * 2\n    except ValueError as var_3:\n        return var_3\n    return var_1(var_0)\n",
			reason: "a lambda's parameter is a variable of its own scope; except-as binds",
		},
		{
			name:   "clash",
			code:   "def f(var_0):\n    return var_0\n",
			want:   "def f(var_1):\n    return var_1\n",
			reason: "new names never clash with names in the code",
		},
		{
			name:   "template",
			code:   "def f(<PARAMS>):\n    x = <INFILL>\n    <RETURN>\n",
			want:   "def f(<PARAMS>):\n    var_0 = <INFILL>\n    <RETURN>\n",
			reason: "placeholders survive",
		},
		{
			name:   "fstring",
			code:   "def f(name):\n    return f\"hi {name}\"\n",
			want:   "def f(var_0):\n    return f\"hi {var_0}\"\n",
			reason: "f-string interpolations are code",
		},
		{
			name:   "class_body",
			code:   "def f(self, xs):\n    class K:\n        a = 1\n        def g(s):\n            return a\n    return K.a, K().g()\n",
			want:   "def f(self, var_0):\n    class var_1:\n        a = 1\n        def g(s):\n            return a\n    return var_1.a, var_1().g()\n",
			reason: "names bound in a class body are attributes, not locals, and the methods do not see them",
		},
		{
			name:   "match_and_walrus",
			code:   "def f(p, xs):\n    match p:\n        case [x, *rest]:\n            return x, rest\n    ys = [y := v for v in xs]\n    return y, ys\n",
			want:   "def f(var_0, var_1):\n    match var_0:\n        case [var_2, *var_3]:\n            return var_2, var_3\n    var_4 = [var_5 := var_6 for var_6 in var_1]\n    return var_5, var_4\n",
			reason: "match captures bind; a walrus in a comprehension binds the method's variable",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := ctxbug.Obfuscate([]byte(tt.code), "")
			if err != nil {
				t.Fatal(err)
			}
			assert.Equal(t, tt.want, o.Code, "%s", tt.reason)
			back, err := ctxbug.Deobfuscate([]byte(o.Code), o.Names)
			if err != nil {
				t.Fatal(err)
			}
			assert.Equal(t, tt.code, string(back), "round trip")
		})
	}
}

func TestObfuscateRequirement(t *testing.T) {
	req := "Add stat to states.\n:param states: current status, int.\n:param s: a status."
	o, err := ctxbug.Obfuscate([]byte("def add(states, s):\n    return states | s\n"), req)
	if err != nil {
		t.Fatal(err)
	}
	want := "Add stat to var_0.\n:param var_0: current status, int.\n:param var_1: a status."
	assert.Equal(t, want, o.Requirement, "requirement")
	assert.Equal(t, map[string]string{"var_0": "states", "var_1": "s"}, o.Names, "names")
}

func TestDeobfuscate(t *testing.T) {
	names := map[string]string{"var_0": "states", "var_1": "stat"}
	got, err := ctxbug.Deobfuscate([]byte("def add(var_0, var_1):\n    # var_0 stays in comments\n    return var_0 + var_1 + len('var_1')\n"), names)
	if err != nil {
		t.Fatal(err)
	}
	want := "def add(states, stat):\n    # var_0 stays in comments\n    return states + stat + len('var_1')\n"
	assert.Equal(t, want, string(got))
}

func TestObfuscateTemplate(t *testing.T) {
	method := []byte("def update(self, quantity):\n    if self.stock >= quantity:\n        self.stock -= quantity\n    return -quantity\n")
	ts, err := ctxbug.Perturb(method, nil, []*ctxbug.Rule{ctxbug.OperatorRule, ctxbug.FreeRule})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"def update(self, var_0):\n    if self.stock <INFILL> var_0:\n        self.stock <INFILL> var_0\n    return <INFILL>var_0\n",
		"def update(self, var_0):\n    if self.stock >= <VAR>:\n        self.stock -= <VAR>\n    return -<VAR>\n",
	}
	if len(ts) != len(want) {
		t.Fatalf("got %d templates, want %d", len(ts), len(want))
	}
	for i, tp := range ts {
		o, err := ctxbug.ObfuscateTemplate(method, tp, ":param quantity: how many")
		if err != nil {
			t.Fatal(err)
		}
		assert.Equal(t, want[i], o.Code, "%s: masked operators do not parse, yet the template is renamed", tp.Rule)
		if o.Requirement != ":param var_0: how many" {
			t.Errorf("requirement %q", o.Requirement)
		}
		back, err := ctxbug.Deobfuscate([]byte(o.Code), o.Names)
		if err != nil {
			t.Fatal(err)
		}
		assert.Equal(t, tp.Code, string(back), "%s: round trip", tp.Rule)
	}
}
