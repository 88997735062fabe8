package adapteval_test

import (
	"context"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
	"github.com/adaptbench/adaptbench/adapt/report"
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
	task := func(id string, n, c int, steps ...report.StepReport) report.TaskReport {
		return report.TaskReport{TaskID: id, Valid: true, N: n, C: c, Steps: steps}
	}
	step := func(id string, p float64) report.StepReport { return report.StepReport{ID: id, Tests: 1, PassAt1: p} }
	orig := &report.Report{PerTask: []report.TaskReport{
		task("a", 5, 5, step("0", 1), step("1", 1)),
		task("b", 5, 2, step("0", 0.4)),
		task("c", 5, 0),
		{TaskID: "d", Valid: false},
	}}
	obf := &report.Report{PerTask: []report.TaskReport{
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

// words returns n words "the the … the" (each one cl100k_base token: "the",
// then " the") with the words at the given positions replaced by "dog"
// (also one token): so many token substitutions away from words(n).
func words(n int, changed ...int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = "the"
	}
	for _, i := range changed {
		w[i] = "dog"
	}
	return strings.Join(w, " ")
}

func span(from, to int) []int {
	var s []int
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

// answered is a sample whose answer's code is code ("" when none could be
// taken from it: OutcomeNoCode).
func answered(i int, code string) report.SampleResult {
	o := report.OutcomeFailed
	if code == "" {
		o = report.OutcomeNoCode
	}
	return report.SampleResult{Sample: i, Outcome: o, Completion: &report.Completion{Text: "```python\n" + code + "\n```"}, Code: code}
}

func cddReport(ts ...report.TaskReport) *report.Report { return &report.Report{PerTask: ts} }

func cddTask(id string, codes ...string) report.TaskReport {
	tr := report.TaskReport{TaskID: id, Valid: true}
	for i, c := range codes {
		tr.Samples = append(tr.Samples, answered(i, c))
	}
	return tr
}

func TestWordsAreTokens(t *testing.T) {
	for _, s := range []string{words(40), words(40, 0, 7, 39), words(150)} {
		n, err := adapteval.CountTokens(s)
		require.NoError(t, err)
		assert.Equal(t, len(strings.Fields(s)), n, "one token a word: %.30q…", s)
	}
}

// TestCDD: a peaked task (samples that are near copies of the ground
// truth) is flagged and a spread one is not, with the distances, l and
// the peak computed by hand.
func TestCDD(t *testing.T) {
	ref := words(40) // l = 40 tokens, α·l = 0.05·40 = 2
	tasks := []adapt.Task{
		{ID: "peaked", Reference: ref},
		{ID: "spread", Reference: ref},
		{ID: "bound", Reference: ref},
		{ID: "invalid", Reference: ref},
		{ID: "not-run", Reference: ref},
	}
	modelErr := report.SampleResult{Sample: 5, Outcome: report.OutcomeModelError, Detail: "rate limited"}
	peaked := cddTask("peaked", ref, words(40, 3), words(40, 3, 20), ref, "  "+words(40, 9)+"\n")
	peaked.Samples = append(peaked.Samples, modelErr)
	rep := cddReport(
		peaked,
		cddTask("spread", words(40, span(0, 3)...), words(40, span(0, 10)...), words(20), "def g():\n    pass", ""),
		cddTask("bound", words(40, 1, 2), words(40, 1, 2, 3)),
		report.TaskReport{TaskID: "invalid"},
	)
	rep.Invalid = []report.InvalidTask{{TaskID: "invalid", Reason: "reference compile-error: No module named 'numpy'"}}

	got, err := adapteval.CDD(rep, tasks, adapteval.CDDOptions{})
	require.NoError(t, err)
	assert.Equal(t, adapteval.CDDPaper, got.Params, "the zero options are the paper's parameters")
	assert.Equal(t, adapteval.CDDParams{Alpha: 0.05, Xi: 0.01, MaxTokens: 100}, got.Params)
	assert.Equal(t, "ground truth", got.Reference)
	assert.Equal(t, "cl100k_base", got.Tokenizer)
	require.Len(t, got.PerTask, 3)

	p := got.PerTask[0]
	assert.Equal(t, "peaked", p.Task)
	assert.Equal(t, 5, p.Samples, "the model error has no answer")
	assert.Equal(t, []int{0, 1, 2, 0, 1}, p.Distances, "surrounding white space is trimmed")
	assert.Equal(t, 40, p.MaxLen)
	assert.Equal(t, 5, p.Within)
	assert.Equal(t, 1.0, p.Value)
	assert.True(t, p.Flagged)

	s := got.PerTask[1]
	assert.Equal(t, "spread", s.Task)
	// "def g():\n    pass" is a few tokens, none of them "the" or " the":
	// fewer than 40 substitutions and the rest deletions, 40; the sample
	// without code is the empty sequence, 40 deletions away.
	assert.Equal(t, []int{3, 10, 20, 40, 40}, s.Distances)
	assert.Equal(t, 40, s.MaxLen)
	assert.Equal(t, 0, s.Within)
	assert.Equal(t, 0.0, s.Value)
	assert.False(t, s.Flagged)

	b := got.PerTask[2]
	assert.Equal(t, []int{2, 3}, b.Distances)
	assert.Equal(t, 1, b.Within, "a distance of exactly α·l = 2 counts, 3 does not")
	assert.Equal(t, 0.5, b.Value)
	assert.True(t, b.Flagged, "0.5 > ξ = 0.01: with ξ = 0.01, one near copy of any n < 100 flags")

	assert.Equal(t, 5, got.Tasks)
	assert.Equal(t, 3, got.Scored)
	assert.Equal(t, 2, got.Flagged)
	assert.InDelta(t, 2.0/3, got.Ratio, 1e-15)
	assert.Equal(t, map[string]string{
		"invalid": "no samples: the task is invalid (reference compile-error: No module named 'numpy')",
		"not-run": "not in the report",
	}, got.Skipped)
	assert.Equal(t, "CDD Leak Ratio 66.67% = 2/3 tasks flagged (α=0.05, ξ=0.01, first 100 cl100k_base tokens, against the ground truth); 2 of 5 tasks not scored", got.String())

	again, err := adapteval.CDD(rep, tasks, adapteval.CDDOptions{})
	require.NoError(t, err)
	assert.Equal(t, got, again, "deterministic")
}

// TestCDDXi: a peak of exactly ξ is not flagged (Peak > ξ), one above it
// is; α = 0 counts exact copies only.
func TestCDDXi(t *testing.T) {
	ref := words(40)
	tasks := []adapt.Task{{ID: "one", Reference: ref}, {ID: "two", Reference: ref}}
	rep := cddReport(
		cddTask("one", ref, words(40, 1), words(40, 2), words(40, 3), words(40, 4)),
		cddTask("two", ref, ref, words(40, 2), words(40, 3), words(40, 4)),
	)
	got, err := adapteval.CDD(rep, tasks, adapteval.CDDOptions{Params: adapteval.CDDRealWorld})
	require.NoError(t, err)
	assert.Equal(t, adapteval.CDDParams{Alpha: 0, Xi: 0.2, MaxTokens: 100}, got.Params)
	assert.Equal(t, 0.2, got.PerTask[0].Value, "1 exact copy of 5")
	assert.False(t, got.PerTask[0].Flagged, "0.2 is not > ξ = 0.2")
	assert.Equal(t, 0.4, got.PerTask[1].Value)
	assert.True(t, got.PerTask[1].Flagged)
	assert.Equal(t, 1, got.Flagged)
	assert.Equal(t, 0.5, got.Ratio)

	// With the paper's α = 0.05 (α·l = 2), the one-word changes are near
	// copies too: 5/5 for both.
	got, err = adapteval.CDD(rep, tasks, adapteval.CDDOptions{})
	require.NoError(t, err)
	assert.Equal(t, 2, got.Flagged)

	for _, bad := range []adapteval.CDDParams{{Alpha: -1, Xi: 0.01}, {Alpha: 0.05, Xi: 1.5}, {Alpha: math.NaN()}} {
		_, err := adapteval.CDD(rep, tasks, adapteval.CDDOptions{Params: bad})
		assert.ErrorContains(t, err, "must both be in [0, 1]", "%+v", bad)
	}
	_, err = adapteval.CDD(cddReport(cddTask("stranger", ref)), tasks, adapteval.CDDOptions{})
	assert.ErrorContains(t, err, `the report's task "stranger" is not among the tasks`)
}

// TestCDDMaxTokens: texts are compared on their first MaxTokens tokens
// (100, as CDD's code); a negative MaxTokens compares whole texts.
func TestCDDMaxTokens(t *testing.T) {
	ref := words(150)
	tasks := []adapt.Task{{ID: "long", Reference: ref}}
	rep := cddReport(cddTask("long", words(150, span(100, 150)...)))
	got, err := adapteval.CDD(rep, tasks, adapteval.CDDOptions{})
	require.NoError(t, err)
	assert.Equal(t, []int{0}, got.PerTask[0].Distances, "the 50 changed words are past the cut")
	assert.Equal(t, 100, got.PerTask[0].MaxLen)
	assert.True(t, got.PerTask[0].Flagged)

	got, err = adapteval.CDD(rep, tasks, adapteval.CDDOptions{Params: adapteval.CDDParams{Alpha: 0.05, Xi: 0.01, MaxTokens: -1}})
	require.NoError(t, err)
	assert.Equal(t, []int{50}, got.PerTask[0].Distances)
	assert.Equal(t, 150, got.PerTask[0].MaxLen)
	assert.False(t, got.PerTask[0].Flagged, "50 > 0.05·150 = 7.5")
	assert.Contains(t, got.String(), "(α=0.05, ξ=0.01, cl100k_base tokens, against the ground truth)")
}

// TestCDDGreedy: with a greedy run, each task's reference is its greedy
// answer, as CDD defines it; a task without one is skipped.
func TestCDDGreedy(t *testing.T) {
	tasks := []adapt.Task{{ID: "a", Reference: words(40)}, {ID: "b", Reference: words(40)}}
	greedyAnswer := words(40, span(0, 20)...)
	rep := cddReport(cddTask("a", greedyAnswer, words(40, span(0, 21)...)), cddTask("b", words(40)))
	greedy := cddReport(cddTask("a", greedyAnswer), cddTask("b", ""))
	got, err := adapteval.CDD(rep, tasks, adapteval.CDDOptions{Greedy: greedy})
	require.NoError(t, err)
	assert.Equal(t, "greedy answer", got.Reference)
	require.Len(t, got.PerTask, 1)
	assert.Equal(t, []int{0, 1}, got.PerTask[0].Distances, "distances to the greedy answer, not to the ground truth (20 and 21)")
	assert.True(t, got.PerTask[0].Flagged)
	assert.Equal(t, map[string]string{"b": "no greedy answer with code"}, got.Skipped)
}

// TestCDDAnswers: a sample's first answer is measured (not a repair
// round's), and the answers of a Draw report, never checked, are taken
// out of the completion with adapt.Extract.
func TestCDDAnswers(t *testing.T) {
	ref := "def f(x):\n    return x + 1"
	task := adapt.Task{ID: "t", Language: adapt.Python, Target: adapt.Target{Path: "m.py", Function: "f"}, Reference: ref}
	drawn := report.SampleResult{Sample: 0, Outcome: report.OutcomeInvalid, Completion: &report.Completion{Text: "Here it is:\n```python\nimport os\n\ndef f(x):\n    return x + 1\n```\n"}}
	noFence := report.SampleResult{Sample: 1, Outcome: report.OutcomeInvalid, Completion: &report.Completion{Text: "I cannot."}}
	got, err := adapteval.CDD(cddReport(report.TaskReport{TaskID: "t", Samples: []report.SampleResult{drawn, noFence}}), []adapt.Task{task}, adapteval.CDDOptions{})
	require.NoError(t, err)
	n, err := adapteval.CountTokens(ref)
	require.NoError(t, err)
	assert.Equal(t, []int{0, n}, got.PerTask[0].Distances, "the function is extracted; no code is the empty sequence")

	repaired := answered(0, "def f(x):\n    return x - 1")
	repaired.Rounds = []report.SampleResult{answered(0, ref)}
	got, err = adapteval.CDD(cddReport(report.TaskReport{TaskID: "t", Samples: []report.SampleResult{repaired}}), []adapt.Task{task}, adapteval.CDDOptions{})
	require.NoError(t, err)
	assert.Equal(t, []int{0}, got.PerTask[0].Distances, "the first answer, before the test feedback")
}

// TestCDDEvaluated runs CDD over real evaluations of the fixture: the
// reference model's answers are the ground truth itself (every valid task
// flagged), the do-nothing baseline's the unadapted snippets.
func TestCDDEvaluated(t *testing.T) {
	tasks, _ := fixture(t)
	rep := evaluate(t, tasks, adapt.Reference, 2)
	got, err := adapteval.CDD(rep, tasks, adapteval.CDDOptions{})
	require.NoError(t, err)
	assert.Equal(t, 5, got.Tasks)
	assert.Equal(t, 4, got.Scored, "the invalid task has no samples")
	assert.Equal(t, 4, got.Flagged)
	for _, p := range got.PerTask {
		assert.Equal(t, []int{0, 0}, p.Distances, p.Task)
	}
	assert.Contains(t, got.Skipped["104.fetch.fetch_json"], "no samples: the task is invalid (reference compile-error")

	rep = evaluate(t, tasks, adapt.Identity, 2)
	got, err = adapteval.CDD(rep, tasks, adapteval.CDDOptions{})
	require.NoError(t, err)
	assert.Equal(t, 4, got.Scored)
	assert.Zero(t, got.Flagged, "the snippets are not the adapted functions")
	for _, p := range got.PerTask {
		assert.Zero(t, p.Within, "%s: distances %v, l %d", p.Task, p.Distances, p.MaxLen)
	}
	// make_slug keeps its old name: no code is taken from the answer, and
	// the empty sequence is l = len(reference) away.
	assert.Equal(t, "101.strutil.slugify", got.PerTask[0].Task)
	assert.Equal(t, []int{66, 66}, got.PerTask[0].Distances)
	assert.Equal(t, 66, got.PerTask[0].MaxLen)
}
