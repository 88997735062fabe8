package ctxbug_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/classeval"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/ctxbug"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

func TestMain(m *testing.M) { exectest.Main(m) }

// fixtureBases loads testdata/bits.json, a three-method class written for
// these tests in ClassEval's format.
func fixtureBases(t *testing.T) []*ctxbug.Base {
	t.Helper()
	classes, err := classeval.ReadFile("testdata/bits.json")
	if err != nil {
		t.Fatal(err)
	}
	bases, err := ctxbug.FromClassEval(classes, "testdata/bits.json")
	if err != nil {
		t.Fatal(err)
	}
	return bases
}

// scripted answers each sample of a request with the answer at that
// index of the script for the request's task (a job ID); a "!" answer is
// a model error.
type scripted struct {
	name    string
	answers map[string][]string
	prompts map[string]string
}

func (s *scripted) Name() string { return s.name }

func (s *scripted) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	if s.prompts != nil {
		s.prompts[req.Task.ID] = req.Messages[len(req.Messages)-1].Content
	}
	var out []report.Completion
	for _, i := range req.Samples {
		a := ""
		if as := s.answers[req.Task.ID]; i < len(as) {
			a = as[i]
		}
		if a == "!" {
			out = append(out, report.Completion{Err: "rate limited"})
			continue
		}
		out = append(out, report.Completion{Text: a})
	}
	return out, nil
}

func fenced(code string) string { return "Here you go:\n```python\n" + code + "```\n" }

// TestIdentify runs the whole identification on the operator template of
// Bits.add with a scripted generator whose eight samples are: a context
// bug ("+" for "|": plausible, and it fails add(2, 2) == 2), the correct
// fill, the correct fill plus a breaking edit elsewhere, the bug plus an
// edit elsewhere, an empty answer, the bug again in another layout, a
// model error and a method that does not parse. Only the first survives;
// every other is dropped at its stage and counted.
func TestIdentify(t *testing.T) {
	bases := fixtureBases(t)
	jobs, err := ctxbug.Jobs(bases[:1], []*ctxbug.Rule{ctxbug.OperatorRule})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 1 {
		t.Fatalf("%d jobs, want 1", len(jobs))
	}
	j := jobs[0]
	if want := "@staticmethod\ndef add(var_0, var_1):\n    Bits.check([var_0, var_1])\n    return var_0 <INFILL> var_1\n"; j.Obfuscated.Code != want {
		t.Fatalf("obfuscated template:\n%s\nwant\n%s", j.Obfuscated.Code, want)
	}
	const head = "@staticmethod\ndef add(var_0, var_1):\n"
	model := &scripted{name: "scripted", prompts: map[string]string{}, answers: map[string][]string{j.ID: {
		fenced(head + "    Bits.check([var_0, var_1])\n    return var_0 + var_1\n"),
		fenced(head + "    Bits.check([var_0, var_1])\n    return var_0 | var_1\n"),
		fenced(head + "    Bits.check([var_0, var_1])\n    var_0 = var_0 * 2\n    return var_0 | var_1\n"),
		fenced(head + "    return var_0 + var_1\n"),
		"",
		fenced(head + "    # validate\n    Bits.check( [var_0,\n                 var_1] )\n    return var_0+var_1\n"),
		"!",
		fenced("def add(var_0, var_1)\n    return var_0 +\n"),
	}}}
	cands, err := ctxbug.Draw(context.Background(), model, jobs, &ctxbug.Options{Samples: 8})
	if err != nil {
		t.Fatal(err)
	}
	prompt := model.prompts[j.ID]
	for _, want := range []string{"return var_0 <INFILL> var_1", "Add the status var_1 to var_0.", ":param var_1: the status to add"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("infill prompt lacks %q:\n%s", want, prompt)
		}
	}
	if strings.Contains(prompt, "has(") || strings.Contains(prompt, "not allowed") {
		t.Errorf("infill prompt shows context or a library line:\n%s", prompt)
	}
	id, err := ctxbug.Identify(context.Background(), cands, &ctxbug.Options{Runner: exectest.ForkServer(t)})
	if err != nil {
		t.Fatal(err)
	}
	var got []ctxbug.Reason
	for _, c := range ctxbug.Candidates(id) {
		reason, detail := ctxbug.Why(c)
		got = append(got, reason)
		t.Logf("sample %d: %s: %s", c.Sample, reason, detail)
	}
	want := []ctxbug.Reason{ctxbug.ReasonKept, ctxbug.ReasonTests, ctxbug.ReasonDiff, ctxbug.ReasonLocality, ctxbug.ReasonEmpty, ctxbug.ReasonDuplicate, ctxbug.ReasonModel, ctxbug.ReasonDeobfuscate}
	require.Equal(t, want, got, "stages")
	if len(id.Instances) != 1 {
		t.Fatalf("%d instances, want 1", len(id.Instances))
	}
	in := id.Instances[0]
	wantBugs := []ctxbug.Bug{{Hole: 0, Node: "|", Solution: ctxbug.Span{Start: 86, End: 87}, Text: "|", Variant: ctxbug.Span{Start: 86, End: 87}, VariantText: "+"}}
	assert.Equal(t, wantBugs, in.Bugs, "bugs")
	if want := "@staticmethod\ndef add(states, stat):\n    Bits.check([states, stat])\n    return states + stat\n"; in.Variant != want {
		t.Errorf("variant:\n%s\nwant\n%s", in.Variant, want)
	}
	if want := "@staticmethod\ndef add(states, stat):\n    Bits.check([states, stat])\n    return states <INFILL> stat\n"; in.WithoutBugs() != want {
		t.Errorf("w/o CtxBugs:\n%s\nwant\n%s", in.WithoutBugs(), want)
	}
	assert.Equal(t, []string{"test_solution.BitsTestAdd.test_add_same"}, in.Failing, "failing tests")
	f := id.Funnel
	require.Equal(t, []string{"scripted/operator"}, f.Groups(), "funnel groups")
	left := map[ctxbug.Reason]int{}
	for _, s := range ctxbug.Reasons[:len(ctxbug.Reasons)-1] {
		left[s] = f.Count("scripted/operator", s.String())
	}
	wantLeft := map[ctxbug.Reason]int{
		ctxbug.ReasonModel: 7, ctxbug.ReasonReference: 7, ctxbug.ReasonDeobfuscate: 6, ctxbug.ReasonHarness: 6, ctxbug.ReasonTests: 5,
		ctxbug.ReasonDiff: 4, ctxbug.ReasonLocality: 3, ctxbug.ReasonEmpty: 2, ctxbug.ReasonDuplicate: 1,
	}
	assert.Equal(t, wantLeft, left, "funnel, left after each stage")
	if g, k := f.Count("scripted/operator", ctxbug.StageGenerated), f.Count("scripted/operator", ctxbug.ReasonKept.String()); g != 8 || k != 1 {
		t.Errorf("funnel: %d generated, %d kept; want 8 and 1", g, k)
	}
}

// TestIdentifyBrokenReference drops every candidate of a base whose own
// solution fails its tests: there the tests cannot tell a bug.
func TestIdentifyBrokenReference(t *testing.T) {
	b := *fixtureBases(t)[0]
	b.Task.Files = append([]adapt.File(nil), b.Task.Files...)
	b.Task.Files[0].Content = strings.Replace(b.Task.Files[0].Content, "Bits.add(2, 4), 6", "Bits.add(2, 4), 7", 1)
	jobs, err := ctxbug.Jobs([]*ctxbug.Base{&b}, []*ctxbug.Rule{ctxbug.OperatorRule})
	if err != nil {
		t.Fatal(err)
	}
	model := &scripted{name: "scripted", answers: map[string][]string{jobs[0].ID: {
		fenced("def add(var_0, var_1):\n    Bits.check([var_0, var_1])\n    return var_0 + var_1\n"), "!",
	}}}
	cands, err := ctxbug.Draw(context.Background(), model, jobs, &ctxbug.Options{Samples: 2})
	if err != nil {
		t.Fatal(err)
	}
	id, err := ctxbug.Identify(context.Background(), cands, &ctxbug.Options{Runner: exectest.ForkServer(t)})
	if err != nil {
		t.Fatal(err)
	}
	if reason, detail := ctxbug.Why(ctxbug.Candidates(id)[0]); reason != ctxbug.ReasonReference || detail != "the solution fails test_solution.BitsTestAdd.test_add" {
		t.Errorf("bug on a broken base: %s: %s", reason, detail)
	}
	if reason, _ := ctxbug.Why(ctxbug.Candidates(id)[1]); reason != ctxbug.ReasonModel {
		t.Errorf("model error on a broken base: %s", reason)
	}
}

// TestIdentifyEmptyParams checks the parameter rule on a method without
// parameters: the hole is empty, inside the parentheses; a fill that adds
// a parameter is a bug there, and the w/o-CtxBug code puts <INFILL> back
// between the parentheses.
func TestIdentifyEmptyParams(t *testing.T) {
	b := *fixtureBases(t)[0]
	b.Method = []byte("@staticmethod\ndef add():\n    return 6\n")
	b.Task.Reference = string(b.Method)
	b.Task.Files = append([]adapt.File(nil), b.Task.Files...)
	b.Task.Files[0].Content = "from solution import *\nimport unittest\n\nclass BitsTestAdd(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(Bits.add(), 6)\n"
	b.Task.Target.Content = strings.Replace(b.Task.Target.Content, "def add(states, stat):\n        Bits.check([states, stat])\n        return states | stat", "def add():\n        return 6", 1)
	b.Task.Tests = []adapt.Test{{Name: "test_solution.BitsTestAdd.test_add", File: b.Task.Files[0].Path}}
	jobs, err := ctxbug.Jobs([]*ctxbug.Base{&b}, []*ctxbug.Rule{ctxbug.ParamsRule})
	if err != nil {
		t.Fatal(err)
	}
	ins := identifyOne(t, jobs, fenced("@staticmethod\ndef add(n):\n    return 6\n"))
	want := []ctxbug.Bug{{Hole: 0, Node: "parameters", Solution: ctxbug.Span{Start: 22, End: 22}, Variant: ctxbug.Span{Start: 22, End: 23}, VariantText: "n"}}
	assert.Equal(t, want, ins[0].Bugs, "bugs")
	if got := ins[0].WithoutBugs(); got != "@staticmethod\ndef add(<INFILL>):\n    return 6\n" {
		t.Errorf("w/o CtxBugs: %q", got)
	}
}
