package ctxbug_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/ctxbug"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

// identifyOne generates from jobs with a scripted model giving one answer
// per job and returns the instances kept.
func identifyOne(t *testing.T, jobs []*ctxbug.Job, answers ...string) []*ctxbug.Instance {
	t.Helper()
	m := &scripted{name: "G", answers: map[string][]string{}}
	for i, j := range jobs {
		m.answers[j.ID] = []string{answers[i]}
	}
	cands, err := ctxbug.Draw(context.Background(), m, jobs, nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := ctxbug.Identify(context.Background(), cands, &ctxbug.Options{Runner: exectest.ForkServer(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ctxbug.Candidates(id) {
		if reason, detail := ctxbug.Why(c); reason != ctxbug.ReasonKept {
			t.Fatalf("%s: %s: %s", c.Job.ID, reason, detail)
		}
	}
	return id.Instances
}

// tester is a scripted tested model: it takes the reused method out of
// the prompt and fills an <INFILL> with "|", fixes an IsoBug's "-" to
// "|", and copies anything else (the CtxBug) unchanged. Its tokens are
// the answer's words, each with probability 0.5 but " +" with 0.9.
type tester struct {
	mu      sync.Mutex
	prompts []string
}

func (*tester) Name() string { return "T" }

var reusedRE = regexp.MustCompile("(?s)### Reused Method:\n```python\n(.*?)```")
var tokenRE = regexp.MustCompile(`\s*\S+|\s+`)

func (m *tester) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	p := req.Messages[1].Content
	m.mu.Lock()
	m.prompts = append(m.prompts, p)
	m.mu.Unlock()
	code := reusedRE.FindStringSubmatch(p)[1]
	code = strings.NewReplacer("<INFILL>", "|", " - ", " | ").Replace(code)
	text := "```python\n" + code + "```"
	var toks []report.TokenLogprob
	for _, w := range tokenRE.FindAllString(text, -1) {
		lp := math.Log(0.5)
		if w == " +" {
			lp = math.Log(0.9)
		}
		toks = append(toks, report.TokenLogprob{Token: w, Logprob: lp})
	}
	return []report.Completion{{Text: text, Logprobs: toks}}, nil
}

// TestBenchmarkAndEvaluate builds the three benchmark variants of one
// CtxBug of Bits.add ("+" for "|"), with an IsoBug ("-") implanted at its
// location, and evaluates a scripted model on them: it copies the
// CtxBug (failing, unresolved, overlooked with probability 0.9), and
// resolves the <INFILL> and the IsoBug.
func TestBenchmarkAndEvaluate(t *testing.T) {
	tasks, ctxIns := benchmarkTasks(t)
	checkTaskDetails(t, tasks, ctxIns[0].ID)
	m := &tester{}
	sc, err := ctxbug.Evaluate(context.Background(), tasks, m, &ctxbug.EvalOptions{Runner: exectest.ForkServer(t), Logprobs: true})
	if err != nil {
		t.Fatal(err)
	}
	res := sc.Results
	// The report written and read back scores the same.
	var js bytes.Buffer
	if err := sc.Report.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	readBack, err := report.ReadReport(&js)
	if err != nil {
		t.Fatal(err)
	}
	rescored, err := ctxbug.Score(readBack, tasks)
	if err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, res, rescored.Results, "the report read back scores differently")
	wantPrompt := "Please adapt the provided method `add` to the class context of `var_2`. The adapted method should perform the function in the following description: ```Add the status var_1 to var_0.\n:param var_0: the current status, int\n:param var_1: the status to add, int\n:return: the new status, int```\n\n" +
		"### Reused Method:\n```python\n@staticmethod\ndef add(var_0, var_1):\n    var_2.var_4([var_0, var_1])\n    return var_0 + var_1\n```\n\n" +
		"### Class Context:\n```python\nclass var_2:\n\n    @staticmethod\n    def var_3(states, stat):\n        var_2.var_4([states, stat])\n        return (states & stat) == stat\n\n    @staticmethod\n    def var_4(args):\n        for arg in args:\n            if arg < 0:\n                raise ValueError(\"negative\")\n```\n\n" +
		"Please write out the adapted method `add` in one Python code block."
	checkAdaptPrompt(t, m.prompts, wantPrompt)
	checkResults(t, res)
	// With a journal, a second evaluation asks the model nothing and
	// gives the same results (ATP included: the journal keeps the
	// log-probabilities).
	journal := filepath.Join(t.TempDir(), "eval.jsonl")
	first, err := ctxbug.Evaluate(context.Background(), tasks, &tester{}, &ctxbug.EvalOptions{Runner: exectest.ForkServer(t), Logprobs: true, Journal: journal})
	if err != nil {
		t.Fatal(err)
	}
	again := &tester{}
	second, err := ctxbug.Evaluate(context.Background(), tasks, again, &ctxbug.EvalOptions{Runner: exectest.ForkServer(t), Logprobs: true, Journal: journal})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.prompts) != 0 {
		t.Errorf("the resumed evaluation asked the model %d times", len(again.prompts))
	}
	assert.Equal(t, res, first.Results, "journaled evaluation differs")
	assert.Equal(t, first.Results, second.Results, "resumed evaluation differs")
	rows := ctxbug.Aggregate(res)
	if len(rows) != 3 || rows[0].Cells["functionality"] != (ctxbug.Cell{Instances: 1, Bugs: 1}) || rows[1].Cells[ctxbug.All] != (ctxbug.Cell{Instances: 1, Passed: 1, Bugs: 1, Resolved: 1}) {
		t.Errorf("rows %+v", rows)
	}
}

// benchmarkTasks identifies a CtxBug and its IsoBug in the fixture's
// first method and returns the three settings' tasks (checked, and
// written and read back) and the CtxBug instances.
func benchmarkTasks(t *testing.T) ([]adapt.Task, []*ctxbug.Instance) {
	t.Helper()
	bases := fixtureBases(t)
	byID := ctxbug.BaseMap(bases)
	jobs, err := ctxbug.Jobs(bases[:1], []*ctxbug.Rule{ctxbug.OperatorRule})
	if err != nil {
		t.Fatal(err)
	}
	head := "@staticmethod\ndef add(var_0, var_1):\n    Bits.check([var_0, var_1])\n"
	ctxIns := identifyOne(t, jobs, fenced(head+"    return var_0 + var_1\n"))

	isoJobs, err := ctxbug.IsoJobs(byID, ctxIns)
	if err != nil {
		t.Fatal(err)
	}
	if want := "@staticmethod\ndef add(var_0, var_1):\n    Bits.check([var_0, var_1])\n    return var_0 <START>|<END> var_1\n"; isoJobs[0].Obfuscated.Code != want {
		t.Errorf("IsoBug job:\n%s\nwant\n%s", isoJobs[0].Obfuscated.Code, want)
	}
	if p := ctxbug.InfillPrompt(isoJobs[0]); !strings.Contains(p, "Implant a bug inside each marked span") {
		t.Errorf("IsoBug prompt:\n%s", p)
	}
	isoIns := identifyOne(t, isoJobs, fenced(head+"    return var_0 <START>-<END> var_1\n"))
	if got := isoIns[0].Bugs[0].VariantText; got != "-" || isoIns[0].Parent != ctxIns[0].ID {
		t.Errorf("IsoBug instance: bug %q, parent %q", got, isoIns[0].Parent)
	}

	var tasks []adapt.Task
	for _, s := range []ctxbug.Setting{ctxbug.WithCtxBugs, ctxbug.WithoutCtxBugs} {
		ts, err := ctxbug.Tasks(byID, ctxIns, s)
		if err != nil {
			t.Fatal(err)
		}
		tasks = append(tasks, ts...)
	}
	ts, err := ctxbug.Tasks(byID, isoIns, ctxbug.WithIsoBugs)
	if err != nil {
		t.Fatal(err)
	}
	tasks = append(tasks, ts...)
	if _, err := ctxbug.Tasks(byID, isoIns, ctxbug.WithCtxBugs); err == nil {
		t.Error("an IsoBug instance made a CtxBug task")
	}
	codes := []string{tasks[0].Code, tasks[1].Code, tasks[2].Code}
	wantCodes := []string{
		"@staticmethod\ndef add(states, stat):\n    Bits.check([states, stat])\n    return states + stat\n",
		"@staticmethod\ndef add(states, stat):\n    Bits.check([states, stat])\n    return states <INFILL> stat\n",
		"@staticmethod\ndef add(states, stat):\n    Bits.check([states, stat])\n    return states - stat\n",
	}
	assert.Equal(t, wantCodes, codes, "reused code per setting")
	var buf bytes.Buffer
	if err := adapt.WriteTasks(&buf, tasks); err != nil {
		t.Fatal(err)
	}
	back, err := adapt.ReadTasks(&buf, "tasks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, tasks, back, "tasks written and read back")

	return tasks, ctxIns
}

// checkTaskDetails checks every task's detail, provenance and labels.
func checkTaskDetails(t *testing.T, tasks []adapt.Task, instance string) {
	t.Helper()
	for _, tk := range tasks {
		d, err := ctxbug.DetailOf(&tk)
		if err != nil {
			t.Fatal(err)
		}
		want := &ctxbug.Detail{Instance: instance, Class: "Bits", Bugs: []ctxbug.Span{{Start: 86, End: 87}}}
		assert.Equal(t, want, d, "%s: detail", tk.ID)
		assert.Equal(t, "Fixture_0.add", tk.Provenance.Parent, "%s: parent", tk.ID)
		for k, v := range tk.Labels {
			if !slices.Contains(ctxbug.LabelKeys, k) {
				t.Errorf("%s: label %s=%q is not one of LabelKeys %v: per-task data belongs in the Detail", tk.ID, k, v, ctxbug.LabelKeys)
			}
		}
	}
}

// checkAdaptPrompt checks that the model was asked want.
func checkAdaptPrompt(t *testing.T, prompts []string, want string) {
	t.Helper()
	var prompt string
	for _, p := range prompts {
		if strings.Contains(p, "return var_0 + var_1") {
			prompt = p
		}
	}
	assert.Equal(t, want, prompt, "adaptation prompt")
}

// checkResults checks the three settings' results of the tester model.
func checkResults(t *testing.T, res []ctxbug.TaskResult) {
	t.Helper()
	type summary struct {
		Setting                       ctxbug.Setting
		Valid, Passed                 bool
		Bugs, Resolved, Overlooked, N int
		ATP                           float64
	}
	var got []summary
	for _, r := range res {
		got = append(got, summary{r.Setting, r.Valid, r.Passed, r.Bugs, r.Resolved, r.Overlooked, r.ATPTokens, math.Round(r.ATP*1000) / 1000})
	}
	want := []summary{
		{ctxbug.WithCtxBugs, true, false, 1, 0, 1, 1, 0.9},
		{ctxbug.WithoutCtxBugs, true, true, 1, 1, 0, 0, 0},
		{ctxbug.WithIsoBugs, true, true, 1, 1, 0, 0, 0},
	}
	assert.Equal(t, want, got, "results")
	if want := "@staticmethod\ndef add(states, stat):\n    Bits.check([states, stat])\n    return states + stat\n"; res[0].Output != want {
		t.Errorf("answer mapped back:\n%s\nwant\n%s", res[0].Output, want)
	}
}

// TestGenerateJournal: generation journals its model answers (errors
// included, with their attempts) and a rerun asks the model nothing.
func TestGenerateJournal(t *testing.T) {
	bases := fixtureBases(t)
	jobs, err := ctxbug.Jobs(bases[:1], []*ctxbug.Rule{ctxbug.OperatorRule})
	if err != nil {
		t.Fatal(err)
	}
	m := &scripted{name: "G", answers: map[string][]string{}}
	for _, j := range jobs {
		m.answers[j.ID] = []string{"```python\nx = 1\n```", "!"}
	}
	journal := filepath.Join(t.TempDir(), "gen.jsonl")
	opts := &ctxbug.Options{Samples: 2, Journal: journal, KeepErrors: true}
	first, err := ctxbug.Draw(context.Background(), m, jobs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 2*len(jobs) || first[1].Completion.Err != "rate limited" || first[0].Completion.Text == "" {
		t.Fatalf("candidates: %+v", first)
	}
	calls := 0
	counting := adapt.ModelFunc("G", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
		calls++
		return m.Complete(ctx, req)
	})
	second, err := ctxbug.Draw(context.Background(), counting, jobs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 0 {
		t.Errorf("the resumed generation asked the model %d times", calls)
	}
	assert.Equal(t, first, second, "resumed generation differs")
	// Without KeepErrors the errored sample is asked for again.
	opts.KeepErrors = false
	if _, err := ctxbug.Draw(context.Background(), counting, jobs, opts); err != nil {
		t.Fatal(err)
	}
	if calls != len(jobs) {
		t.Errorf("asked %d times, want once per job for the errored sample", calls)
	}
	// Another model's journal is refused.
	other := adapt.ModelFunc("H", m.Complete)
	if _, err := ctxbug.Draw(context.Background(), other, jobs, opts); !errors.Is(err, adapt.ErrJournalMismatch) {
		t.Errorf("another model's journal: %v", err)
	}
}
