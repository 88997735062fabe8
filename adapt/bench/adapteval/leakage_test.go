package adapteval_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

func TestObfuscate(t *testing.T) {
	tests := []struct {
		name, code, want string
		back             map[string]string
		reason           string
	}{
		{
			name:   "params and locals",
			code:   "def addLevel(levelName, levelNum, methodName=None):\n    \"\"\"Adds levelName.\"\"\"\n    if not methodName:\n        methodName = levelName.lower()\n    def logForLevel(self, message, *args, **kwargs):\n        self._log(levelNum, message, args, **kwargs)\n    setattr(logging, levelName, levelNum)\n    return logForLevel\n",
			want:   "def addLevel(var_0, var_1, var_2=None):\n    \"\"\"Adds levelName.\"\"\"\n    if not var_2:\n        var_2 = var_0.lower()\n    def logForLevel(self, var_3, *var_4, **var_5):\n        self._log(var_1, var_3, var_4, **var_5)\n    setattr(logging, var_0, var_1)\n    return logForLevel\n",
			back:   map[string]string{"var_0": "levelName", "var_1": "levelNum", "var_2": "methodName", "var_3": "message", "var_4": "args", "var_5": "kwargs"},
			reason: "function names, self, globals, attributes and the docstring stay; closures follow their variable",
		},
		{
			name:   "scopes",
			code:   "X = 1\ndef f(a, b=X):\n    global G\n    G = a\n    total = 0\n    def inner():\n        nonlocal total\n        total += b\n    sq = [x for x in range(a)]\n    return g(key=total), obj.a, sq\n",
			want:   "X = 1\ndef f(var_0, var_1=X):\n    global G\n    G = var_0\n    var_2 = 0\n    def inner():\n        nonlocal var_2\n        var_2 += var_1\n    var_3 = [var_4 for var_4 in range(var_0)]\n    return g(key=var_2), obj.a, var_3\n",
			back:   map[string]string{"var_0": "a", "var_1": "b", "var_2": "total", "var_3": "sq", "var_4": "x"},
			reason: "defaults are in the enclosing scope, global names and keyword names stay, nonlocal follows",
		},
		{
			name:   "taken numbers",
			code:   "var_0 = 2\ndef f(a):\n    var_1 = a\n    return var_1 * var_0\n",
			want:   "var_0 = 2\ndef f(var_2):\n    var_3 = var_2\n    return var_3 * var_0\n",
			back:   map[string]string{"var_2": "a", "var_3": "var_1"},
			reason: "numbers the code uses are skipped; a local named var_1 is renamed like any other",
		},
		{
			name:   "walrus and match",
			code:   "def f(p, xs):\n    ys = [y := x for x in xs]\n    match p:\n        case [z]:\n            return z\n    return y, ys\n",
			want:   "def f(var_0, var_1):\n    var_2 = [var_3 := var_4 for var_4 in var_1]\n    match var_0:\n        case [var_5]:\n            return var_5\n    return var_3, var_2\n",
			back:   map[string]string{"var_0": "p", "var_1": "xs", "var_2": "ys", "var_3": "y", "var_4": "x", "var_5": "z"},
			reason: "a walrus in a comprehension binds in the function (it was renamed only inside the comprehension); match captures bind",
		},
		{
			name:   "module level",
			code:   "import os\nfor name in os.listdir('.'):\n    print(name)\n",
			want:   "import os\nfor name in os.listdir('.'):\n    print(name)\n",
			back:   map[string]string{},
			reason: "loose code (an Encap snippet) has no function locals",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, back, err := adapteval.Obfuscate(adapt.Python, tc.code)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, tc.reason)
			assert.Equal(t, tc.back, back)
			assert.Equal(t, tc.code, adapteval.Deobfuscate(got, back), "the map restores the code")
		})
	}
	_, _, err := adapteval.Obfuscate(adapt.Go, "func f() {}")
	assert.ErrorIs(t, err, adapteval.ErrUnsupported)
	_, _, err = adapteval.Obfuscate(adapt.Python, "def f(:\n")
	assert.ErrorIs(t, err, adapteval.ErrSyntax)
}

// TestObfuscatePreservesBehaviour runs original and obfuscated code in the
// sandbox and compares what they print.
func TestObfuscatePreservesBehaviour(t *testing.T) {
	sb := exectest.Sandbox(t)
	tasks, _ := fixture(t)
	type program struct{ code, driver string }
	progs := []program{
		{"def f(a, b=2, *rest, key=None, **kw):\n    total = a + b\n    for i, (j, k) in enumerate(rest):\n        total += i * j - k\n    sq = {x: x * x for x in range(total % 7)}\n    g = lambda y, z=total: y + z\n    def inner():\n        nonlocal total\n        total += 1\n        return total\n    try:\n        data = sorted(kw)\n    except TypeError as err:\n        data = str(err)\n    return total, sq, g(1), inner(), data, key, f\"{a}-{b!r}\"\n",
			// Keyword arguments would name renamed parameters: the probe
			// maps answers back before they are called.
			"print(f(3, 4, (1, 2), (3, 4), c=1, b2=2))"},
		{"class Acc:\n    start = 10\n    def add(self, v, *more):\n        s = self.start + v\n        for m in more:\n            s += m\n        return s\n", "print(Acc().add(1, 2, 3))"},
		{tasks[0].Code, "print(make_slug('  Hello  Big World '))"},
		{tasks[2].Code, "print(moving_average([1, 2, 3, 4, 5], 2))"},
	}
	run := func(code string) string {
		res, err := sb.Run(context.Background(), exec.Job{Args: []string{"/usr/bin/python3", "-c", code}})
		require.NoError(t, err)
		require.True(t, res.Passed(), "%s\n%s", res.Detail, res.Stderr)
		return string(res.Stdout)
	}
	for _, p := range progs {
		obf, back, err := adapteval.Obfuscate(adapt.Python, p.code)
		require.NoError(t, err)
		require.NotEmpty(t, back)
		assert.Equal(t, run(p.code+"\n"+p.driver+"\n"), run(obf+"\n"+p.driver+"\n"), "obfuscated:\n%s", obf)
	}
}

// TestLeakageProbe evaluates the fixture's obfuscated variants beside the
// originals: the reference and the do-nothing baseline (whose answer, the
// obfuscated snippet, is mapped back) score the same on both, so the delta
// is zero.
func TestLeakageProbe(t *testing.T) {
	tasks, _ := fixture(t)
	variants, probe := adapteval.ObfuscatedTasks(tasks)
	require.Len(t, variants, 5)
	assert.Empty(t, probe.Skipped)
	v := variants[0]
	assert.Equal(t, "101.strutil.slugify"+adapteval.ObfuscatedSuffix, v.ID)
	assert.Equal(t, "def make_slug(var_0):\n    var_0 = var_0.lower().strip()\n    var_1 = var_0.split()\n    return '-'.join(var_1)\n", v.Code)
	assert.Equal(t, &adapt.Provenance{Generator: "adapteval-obfuscate", Parent: "101.strutil.slugify", Operators: []string{"rename-locals"}, Source: "benchmark/101/dataset_items"}, v.Provenance)
	msgs, err := adapteval.AReqOracle.Messages(&v)
	require.NoError(t, err)
	assert.Contains(t, msgs[1].Content, "def make_slug(var_0):", "the prompt shows the obfuscated snippet")

	for _, m := range []adapt.Model{adapt.Reference, adapt.Identity} {
		orig := evaluate(t, tasks, m, 1)
		obf := evaluate(t, variants, probe.Model(m), 1)
		l := adapteval.Delta(orig, obf)
		assert.Equal(t, 4, l.Pairs, m.Name())
		assert.Equal(t, 0.0, l.Delta, m.Name())
		assert.Equal(t, 0.0, l.DeltaAdapt, m.Name())
		assert.Equal(t, orig.Outcomes, obf.Outcomes, "%s: the same outcomes once mapped back", m.Name())
	}
}

func TestDelta(t *testing.T) {
	task := func(id string, n, c int, steps ...adapt.StepReport) adapt.TaskReport {
		return adapt.TaskReport{Task: id, Valid: true, N: n, C: c, Steps: steps}
	}
	step := func(id string, p float64) adapt.StepReport { return adapt.StepReport{ID: id, Tests: 1, PassAt1: p} }
	orig := &adapt.Report{PerTask: []adapt.TaskReport{
		task("a", 5, 5, step("0", 1), step("1", 1)),
		task("b", 5, 2, step("0", 0.4)),
		task("c", 5, 0),
		{Task: "d", Valid: false},
	}}
	obf := &adapt.Report{PerTask: []adapt.TaskReport{
		task("a"+adapteval.ObfuscatedSuffix, 5, 4, step("0", 0.8), step("1", 1)),
		task("b"+adapteval.ObfuscatedSuffix, 5, 1, step("0", 0.2)),
		task("d"+adapteval.ObfuscatedSuffix, 5, 5),
	}}
	l := adapteval.Delta(orig, obf)
	assert.Equal(t, 2, l.Pairs, "c has no variant, d is invalid in the original run")
	assert.InDelta(t, 0.7, l.Original, 1e-12)
	assert.InDelta(t, 0.5, l.Obfuscated, 1e-12)
	assert.InDelta(t, -0.2, l.Delta, 1e-12)
	assert.InDelta(t, -0.2/0.7, l.Relative, 1e-12)
	assert.Equal(t, 3, l.Adaptations)
	assert.InDelta(t, -0.4/3, l.DeltaAdapt, 1e-12)
	require.NotNil(t, l.CI95)
	assert.True(t, strings.HasPrefix(l.String(), "2 pairs: pass@1-t 70.00 → 50.00, Δ -20.00 (-28.57%)"), l.String())
}

// FuzzObfuscate: on any input that parses, Obfuscate gives code that
// parses, renames only to fresh var_N names, and maps back exactly.
func FuzzObfuscate(f *testing.F) {
	tasks, _ := fixture(f)
	for _, t := range tasks {
		f.Add(t.Code)
		f.Add(t.Reference)
	}
	f.Add("def f(a, *, b=lambda x: x, **k):\n    return [y for y in a if (z := y)]\n")
	f.Add("async def g(x):\n    async with x as (a, b):\n        del a\n    return b\n")
	f.Add("def f(a):\n    \"uses var_0 and var_12\"\n    return a\n")
	f.Add("def h():\n    try:\n        pass\n    except* E as e:\n        raise\n")
	f.Fuzz(func(t *testing.T, code string) {
		out, back, err := adapteval.Obfuscate(adapt.Python, code)
		if err != nil {
			return
		}
		if got := adapteval.Deobfuscate(out, back); got != code {
			t.Fatalf("round trip changed the code:\n%q\n%q\nmap %v", code, got, back)
		}
		for n := range back {
			if regexp.MustCompile(`\b` + n + `\b`).MatchString(code) {
				t.Fatalf("new name %s already occurs in the code", n)
			}
		}
		if root, err := syntax.ParseNodes(syntax.Python, []byte(out)); err != nil || root.Err {
			t.Fatalf("obfuscated code does not parse: %q", out)
		}
	})
}
