package versioned_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/versioned"
)

var update = flag.Bool("update", false, "rewrite the golden prompt files in testdata/prompts")

// medianProblem is a GitChameleon record whose visible test tells
// statistics.median from statistics.median_low.
const medianProblem = `{"example_id":"1","python_version":"3.11","library":"statistics","version":"3.11","problem":"Return the median of the values, the mean of the two middle ones for an even count.","starting_code":"import statistics\ndef mid(values):\n","solution":"    return statistics.median(values)","test":"assert mid([3, 1, 2]) == 2\nassert mid([1, 2, 3, 4]) == 2.5\n","type_of_change":"output behaviour","name_of_class_or_func":"mid","additional_dependencies":"numpy==1.24.2","functional":1,"webdev":0,"solution_api_call":true,"api_calls":["statistics.median"],"release_date":"2022-10","docs":[]}`

// medianHidden is the hidden test file of medianProblem: more cases than
// the visible test.
const medianHidden = `import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sample_1 import mid


def test_odd():
    assert mid([5, 1, 3]) == 3


def test_even():
    assert mid([1, 3]) == 2
`

func medianTask(t *testing.T) adapt.Task {
	t.Helper()
	ps, err := versioned.Read(strings.NewReader(medianProblem), "median.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ps[0].HiddenTest = medianHidden
	task, err := ps[0].Task("median.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return task
}

// scripted answers wrong to a first prompt, and right to a self-debug
// prompt whose trace holds want. It records the prompts it was sent.
type scripted struct {
	wrong, right, want string

	mu      sync.Mutex
	prompts [][]adapt.Message
}

func (m *scripted) Name() string { return "scripted" }

func (m *scripted) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	m.mu.Lock()
	m.prompts = append(m.prompts, req.Messages)
	m.mu.Unlock()
	user := req.Messages[len(req.Messages)-1].Content
	answer := m.wrong
	if _, trace, ok := strings.Cut(user, "<Trace>"); ok && strings.Contains(trace, m.want) {
		answer = m.right
	}
	return []report.Completion{{Text: "Here it is:\n```" + req.Task.Language + "\n" + answer + "```\n", FinishReason: "stop"}}, nil
}

const (
	wrongMedian = "import statistics\ndef mid(values):\n    return statistics.median_low(values)\n"
	rightMedian = "import statistics\ndef mid(values):\n    return statistics.median(values)\n"
)

func TestSelfDebugRepairs(t *testing.T) {
	sb := exectest.ForkServer(t)
	task := medianTask(t)
	ctx := context.Background()
	opts := &versioned.EvalOptions{Evaluate: adapt.Options{Runner: sb}}

	g := checkGreedyMisses(t, task, opts)
	s := checkSelfDebugRepairs(t, task, opts)
	if got, want := s.Hidden().String(), "100.0±0.0"; got != want {
		t.Errorf("self-debug hidden rate %s, want %s", got, want)
	}
	if got, want := g.Hidden().String(), "0.0±0.0"; got != want {
		t.Errorf("greedy hidden rate %s, want %s", got, want)
	}
	checkSelfDebugResumes(t, task, sb, s)
	checkScoreFromReport(t, task, g)
	checkScoreFromReport(t, task, s)

	// A model error is unscored, not a failure: left out of the rates.
	broken := adapt.ModelFunc("broken", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
		return nil, errors.New("503")
	})
	two := medianTask(t)
	two.ID = "median-2"
	_, err := versioned.Evaluate(ctx, []adapt.Task{task, two}, broken, &versioned.EvalOptions{Protocol: versioned.Greedy, Evaluate: adapt.Options{Runner: sb, Attempts: 1}})
	if !errors.Is(err, adapt.ErrNothingScored) {
		t.Errorf("every request failed: %v, want ErrNothingScored", err)
	}

	// A model that is right at once is not asked again.
	once := &scripted{wrong: rightMedian, right: rightMedian, want: "AssertionError"}
	s, err = versioned.Evaluate(ctx, []adapt.Task{task}, once, withProtocol(opts, versioned.SelfDebug))
	if err != nil || !s.Tasks[0].Hidden || s.Tasks[0].Repairs != 0 || len(once.prompts) != 1 {
		t.Fatalf("right at once: %v %+v, %d prompts", err, s.Tasks[0], len(once.prompts))
	}
}

// checkGreedyMisses: the greedy protocol keeps the wrong first answer,
// with its trace, and scores it as an API miss.
func checkGreedyMisses(t *testing.T, task adapt.Task, opts *versioned.EvalOptions) *versioned.Scores {
	t.Helper()
	greedy := &scripted{wrong: wrongMedian, right: rightMedian, want: "AssertionError"}
	g, err := versioned.Evaluate(context.Background(), []adapt.Task{task}, greedy, withProtocol(opts, versioned.Greedy))
	if err != nil {
		t.Fatal(err)
	}
	r := g.Tasks[0]
	if !r.Valid || r.Visible || r.Hidden || r.Repairs != 0 || r.Code != wrongMedian || len(greedy.prompts) != 1 {
		t.Fatalf("greedy: %+v after %d prompts", r, len(greedy.prompts))
	}
	if r.Outcome != report.OutcomeFailed || !strings.Contains(r.Trace, "AssertionError") || !strings.HasPrefix(r.Trace, "Traceback (most recent call last):") {
		t.Fatalf("greedy outcome %s, trace:\n%s", r.Outcome, r.Trace)
	}
	// statistics.median_low is not statistics.median: an API miss.
	if !r.APIScored || r.APIHit {
		t.Errorf("greedy API hit %v scored %v, want a scored miss", r.APIHit, r.APIScored)
	}
	return g
}

// checkSelfDebugRepairs: self-debug shows the model its wrong answer and
// the trace, and keeps the repaired one.
func checkSelfDebugRepairs(t *testing.T, task adapt.Task, opts *versioned.EvalOptions) *versioned.Scores {
	t.Helper()
	sd := &scripted{wrong: wrongMedian, right: rightMedian, want: "AssertionError"}
	s, err := versioned.Evaluate(context.Background(), []adapt.Task{task}, sd, withProtocol(opts, versioned.SelfDebug))
	if err != nil {
		t.Fatal(err)
	}
	r := s.Tasks[0]
	if !r.Visible || !r.Hidden || r.FirstVisible || r.FirstHidden || r.Repairs != 1 || r.Code != rightMedian || r.Trace != "" || !r.APIHit {
		t.Fatalf("self-debug: %+v", r)
	}
	if len(sd.prompts) != 2 {
		t.Fatalf("self-debug sent %d prompts, want 2", len(sd.prompts))
	}
	repair := sd.prompts[1][1].Content
	for _, want := range []string{"<Generated Solution>\n" + strings.TrimRight(wrongMedian, "\n") + "\n</Generated Solution>", "<Trace>\nTraceback (most recent call last):", "AssertionError\n</Trace>", "<Extra Dependencies>\nnumpy==1.24.2\n</Extra Dependencies>"} {
		if !strings.Contains(repair, want) {
			t.Errorf("the repair prompt lacks %q:\n%s", want, repair)
		}
	}
	return s
}

// checkScoreFromReport: Score on the report written and read back gives
// the scores Evaluate gave, the protocol named from the report.
func checkScoreFromReport(t *testing.T, task adapt.Task, want *versioned.Scores) {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, want.Report.WriteJSON(&b))
	rep, err := report.ReadReport(&b)
	require.NoError(t, err)
	got, err := versioned.Score(rep, []adapt.Task{task})
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(want, got, cmpopts.IgnoreFields(versioned.Scores{}, "Report")), "Score on the report read back (-want +got)")
	_, err = versioned.Score(rep, nil)
	assert.Error(t, err, "a report whose tasks are not given")
}

// checkSelfDebugResumes: with a journal, every round resumes: a second
// run asks nothing and gives the same scores as s.
func checkSelfDebugResumes(t *testing.T, task adapt.Task, sb exec.Runner, s *versioned.Scores) {
	t.Helper()
	ctx := context.Background()
	jopts := &versioned.EvalOptions{Evaluate: adapt.Options{Runner: sb, Journal: filepath.Join(t.TempDir(), "sd.jsonl")}}
	j1, err := versioned.Evaluate(ctx, []adapt.Task{task}, &scripted{wrong: wrongMedian, right: rightMedian, want: "AssertionError"}, withProtocol(jopts, versioned.SelfDebug))
	if err != nil {
		t.Fatal(err)
	}
	resumed := &scripted{wrong: wrongMedian, right: rightMedian, want: "AssertionError"}
	j2, err := versioned.Evaluate(ctx, []adapt.Task{task}, resumed, withProtocol(jopts, versioned.SelfDebug))
	if err != nil {
		t.Fatal(err)
	}
	if len(resumed.prompts) != 0 {
		t.Errorf("the resumed run sent %d prompts", len(resumed.prompts))
	}
	// The scores, not the reports they came from (run metadata).
	noReport := cmpopts.IgnoreFields(versioned.Scores{}, "Report")
	assert.Empty(t, cmp.Diff(s, j1, noReport), "journaled run differs (-want +got)")
	assert.Empty(t, cmp.Diff(j1, j2, noReport), "resumed run differs (-want +got)")
}

// TestSelfDebugGo: a model that writes x/exp's old SortFunc (a less
// func) for the version where it takes a cmp func fails greedy, and
// fixes it from the compiler's message in the self-debug round.
func TestSelfDebugGo(t *testing.T) {
	tasks, err := versioned.GoTasks()
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]adapt.Task{}
	for _, task := range tasks {
		byID[task.ID] = task
	}
	cmpTask, lessTask := byID["xexp-sortfunc-cmp"], byID["xexp-sortfunc-less"]
	mc := goModCache(t)
	// The go command's own module cache holds none of the task's modules:
	// the API hit is resolved against the environment's (before, against
	// the process's, and a module missing there scored the reference's
	// own answer as a miss).
	t.Setenv("GOMODCACHE", t.TempDir())
	sb := exectest.Sandbox(t)
	cache := &versioned.Cache{Dir: filepath.Join(cacheDir(t), "envs"), Builder: &versioned.GoModules{ModCache: mc}}
	opts := &versioned.EvalOptions{Evaluate: adapt.Options{Runner: sb, Environments: &versioned.Provider{Provisioner: cache, Strict: true}}}
	m := &scripted{wrong: lessTask.Reference, right: cmpTask.Reference, want: "does not match inferred type func(a Person, b Person) int"}
	ctx := context.Background()
	g, err := versioned.Evaluate(ctx, []adapt.Task{cmpTask}, m, withProtocol(opts, versioned.Greedy))
	if err != nil {
		t.Fatal(err)
	}
	if r := g.Tasks[0]; !r.Valid || r.Hidden || r.Outcome != report.OutcomeCompileError || !strings.Contains(r.Trace, "./solution.go:") {
		t.Fatalf("greedy: %+v", r)
	}
	s, err := versioned.Evaluate(ctx, []adapt.Task{cmpTask}, m, withProtocol(opts, versioned.SelfDebug))
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Tasks[0]; !r.Hidden || !r.Visible || r.Repairs != 1 || !r.APIHit || !r.APIScored {
		t.Fatalf("self-debug: %+v", r)
	}
	// Scored again from the report alone, with no environment to say
	// where the modules are: not scored for its API, never a miss.
	again, err := versioned.Score(s.Report, []adapt.Task{cmpTask})
	if err != nil {
		t.Fatal(err)
	}
	if r := again.Tasks[0]; r.APIHit || r.APIScored {
		t.Errorf("scored without its modules: API hit %v scored %v, want not scored", r.APIHit, r.APIScored)
	}
}

// TestPromptsGolden renders the three prompts for a GitChameleon problem
// and a Go problem and compares them with testdata/prompts (-update
// rewrites them).
func TestPromptsGolden(t *testing.T) {
	gotasks, err := versioned.GoTasks()
	if err != nil {
		t.Fatal(err)
	}
	goTask := gotasks[slices.IndexFunc(gotasks, func(t adapt.Task) bool { return t.ID == "xexp-sortfunc-cmp" })]
	pyTask := medianTask(t)
	attempt := versioned.Attempt{
		Code:  "import statistics\ndef mid(values):\n    return statistics.median_low(values)",
		Trace: "Traceback (most recent call last):\n  File \"visible_test_sample_1.py\", line 5, in <module>\nAssertionError",
	}
	render := func(tm *adapt.Template, task adapt.Task) []adapt.Message {
		msgs, err := tm.Render(&task)
		if err != nil {
			t.Fatal(err)
		}
		return msgs
	}
	repair := func(task adapt.Task, a versioned.Attempt) []adapt.Message {
		msgs, err := versioned.RepairMessages(&task, a)
		if err != nil {
			t.Fatal(err)
		}
		return msgs
	}
	cases := []struct {
		name string
		msgs []adapt.Message
	}{
		{"python-greedy", render(versioned.GreedyTemplate(versioned.PromptOptions{}), pyTask)},
		{"python-cot", render(versioned.CoTTemplate(versioned.PromptOptions{}), pyTask)},
		{"python-greedy-noversion", render(versioned.GreedyTemplate(versioned.PromptOptions{NoVersion: true}), pyTask)},
		{"python-self-debug", repair(pyTask, attempt)},
		{"go-greedy", render(versioned.GreedyTemplate(versioned.PromptOptions{}), goTask)},
		{"go-self-debug", repair(goTask, versioned.Attempt{Code: "package solution", Trace: "./solution.go:14:26: in call to slices.SortFunc"})},
	}
	for _, c := range cases {
		var b strings.Builder
		for _, m := range c.msgs {
			b.WriteString("=== " + m.Role + "\n" + m.Content + "\n")
		}
		file := filepath.Join("testdata", "prompts", c.name+".golden")
		if *update {
			if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		assert.Equal(t, string(want), b.String(), "%s prompt", c.name)
	}
}

// TestPromptStructure pins the parts of the prompts the digest quotes
// (spec/gitchameleon.md §2.4) independently of the golden files: the
// user prompt's layout with its duplicated "2.", the library as
// lib==ver, and the guidelines of each system prompt.
func TestPromptStructure(t *testing.T) {
	task := medianTask(t)
	msgs, err := versioned.GreedyTemplate(versioned.PromptOptions{}).Render(&task)
	if err != nil {
		t.Fatal(err)
	}
	wantUser := "1. Required Library:\n<library>\nstatistics==3.11\n</library>\n\n2. Python version:\n<python>\n3.11\n</python>\n\n2. Coding Problem:\n<coding_problem>\nReturn the median of the values, the mean of the two middle ones for an even count.\n</coding_problem>\n\n3. Starter Code:\n<starter_code>\nimport statistics\ndef mid(values):\n</starter_code>"
	assert.Equal(t, wantUser, msgs[1].Content, "user prompt")
	sys := msgs[0].Content
	for _, want := range []string{"You are a skilled Python programmer", "1. Use the required library in your solution.", "6. Output only the code block and nothing else.", "Here are the key elements for this task:"} {
		if !strings.Contains(sys, want) {
			t.Errorf("greedy system prompt lacks %q", want)
		}
	}
	if !strings.HasSuffix(sys, "Here are the key elements for this task:") {
		t.Error("greedy system prompt does not end with the paper's closing line")
	}
	cot, _ := versioned.CoTTemplate(versioned.PromptOptions{}).Render(&task)
	for _, want := range []string{"First, let's think step-by-step.", "6. Output nothing else after the code block.", "[Step-by-step thinking]"} {
		if !strings.Contains(cot[0].Content, want) {
			t.Errorf("CoT system prompt lacks %q", want)
		}
	}
	rep, _ := versioned.RepairMessages(&task, versioned.Attempt{Code: "x", Trace: "y"})
	if strings.Count(rep[0].Content, "\n1. ")+strings.Count(rep[0].Content, "\n8. ") != 2 || !strings.HasPrefix(rep[0].Content, "You are an expert programming assistant.") {
		t.Errorf("self-debug system prompt:\n%s", rep[0].Content)
	}
	tags := []string{"<Problem>", "<Python Version>", "<Library>", "<Version>", "<Extra Dependencies>", "<Starting Code>", "<Generated Solution>", "<Trace>"}
	last := -1
	for _, tag := range tags {
		i := strings.Index(rep[1].Content, tag)
		if i <= last {
			t.Errorf("self-debug user prompt: %s missing or out of order", tag)
		}
		last = i
	}
}

// TestProtocolPrompts: each protocol sends its own first prompt, renders
// the version or, under NoVersion, only the library, and Evaluate's results
// carry the task's labels for the breakdowns.
func TestProtocolPrompts(t *testing.T) {
	sb := exectest.ForkServer(t)
	task := medianTask(t)
	const right = "import statistics\ndef mid(values):\n    return statistics.median(values)\n"
	for _, c := range []struct {
		p         *versioned.Protocol
		noVersion bool
		want      string
	}{
		{versioned.Greedy, false, "6. Output only the code block and nothing else."},
		{versioned.CoT, false, "First, let's think step-by-step."},
		{versioned.CoT, true, "<library>\nstatistics\n</library>"},
	} {
		m := &scripted{wrong: right, right: right}
		res, err := versioned.Evaluate(context.Background(), []adapt.Task{task}, m, &versioned.EvalOptions{Protocol: c.p, Evaluate: adapt.Options{Runner: sb}, NoVersion: c.noVersion})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.prompts) != 1 || !strings.Contains(m.prompts[0][0].Content+m.prompts[0][1].Content, c.want) {
			t.Errorf("%s (no version %v): the prompt lacks %q", c.p.Name, c.noVersion, c.want)
		}
		if r := res.Tasks[0]; res.Protocol != c.p.Name || !r.Hidden || r.Labels["library"] != "statistics" || r.Labels["year"] != "2022" {
			t.Errorf("%s: %+v", c.p.Name, r)
		}
	}
}

// withProtocol is o with protocol p.
func withProtocol(o *versioned.EvalOptions, p *versioned.Protocol) *versioned.EvalOptions {
	c := *o
	c.Protocol = p
	return &c
}
