package versioned

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/internal/textkit"
)

// Protocol is a way of asking a model for solutions (paper §3.1): a first
// prompt, then possibly self-debug rounds for the tasks whose visible
// tests fail, each showing the model its last solution and the visible
// tests' trace (Fig. 18). The verdict is always on the hidden tests. The
// paper's three are Greedy, CoT and SelfDebug.
type Protocol struct {
	// Name identifies the protocol in scores and tables.
	Name string
	// Doc says what it does.
	Doc string
	// first makes the template of the first prompt.
	first func(promptOptions) *adapt.Template
	// repairs is the number of self-debug rounds; 0 means none.
	repairs int
}

// The paper's protocols.
var (
	// Greedy asks once, with the zero-shot prompt.
	Greedy = &Protocol{Name: "greedy", Doc: "zero-shot prompt, one answer", first: greedyTemplate}
	// CoT asks once, with the zero-shot chain-of-thought prompt.
	CoT = &Protocol{Name: "cot", Doc: "zero-shot chain-of-thought prompt, one answer", first: cotTemplate}
	// SelfDebug asks with the zero-shot prompt and, when the visible tests
	// fail, once more with the error trace.
	SelfDebug = &Protocol{Name: "self-debug", Doc: "zero-shot prompt, then one repair round with the visible tests' trace", first: greedyTemplate, repairs: 1}
)

// Protocols lists the built-in protocols.
var Protocols = []*Protocol{Greedy, CoT, SelfDebug}

// EvalOptions configures Evaluate. A nil *EvalOptions means the defaults.
type EvalOptions struct {
	// Protocol is how the model is asked; nil means Greedy.
	Protocol *Protocol
	// Evaluate is passed to adapt.Evaluate (the runner, the environments,
	// limits, concurrency, progress, journal). Evaluate sets Samples to 1, K to
	// nil, and Template and Repair to the protocol's. A zero Sampling
	// means the paper's: temperature 0, top_p 0.95.
	Evaluate adapt.Options
	// NoVersion prompts with the library's name only, not its version
	// (the paper's ablation).
	NoVersion bool
	// PassRule, when set, replaces the tasks' adapt.Task.PassRule:
	// adapt.PassEveryTest counts a skipped hidden test as not passed, where
	// GitChameleon's tasks follow upstream (adapt.PassExitStatus: a file
	// whose tests all skip passes, as pytest exits 0). Scores.PassRule
	// says which rule the verdicts are under.
	PassRule *string
}

// TaskResult is what a protocol gave on one task.
type TaskResult struct {
	Task   string            `json:"task"`
	Labels map[string]string `json:"labels,omitempty"`
	// Valid is false when the task's reference failed its tests (an
	// environment or data problem); Invalid says why. Invalid tasks are
	// left out of every rate.
	Valid   bool   `json:"valid"`
	Invalid string `json:"invalid,omitempty"`
	// Unscored, when set, says why the task could not be scored (its
	// reference could not be checked, or its final answer is a model or
	// infrastructure error after retries): it is left out of every rate,
	// as adapt's scoring rules say.
	Unscored string `json:"unscored,omitempty"`
	// Outcome, Visible and Hidden are the final verdicts: the outcome of
	// the last run, and whether the visible and the hidden tests passed.
	Outcome report.Outcome `json:"outcome"`
	Visible bool           `json:"visible"`
	Hidden  bool           `json:"hidden"`
	// NoHidden is set when the task has no hidden tests (a GitChameleon
	// problem whose hidden test file was not present): Hidden is then
	// false and the task is left out of the hidden rate, counted apart.
	NoHidden bool `json:"no_hidden,omitempty"`
	// FirstVisible and FirstHidden are the verdicts of the first answer.
	FirstVisible bool `json:"first_visible"`
	FirstHidden  bool `json:"first_hidden"`
	// Repairs is the number of self-debug rounds the task went through.
	Repairs int `json:"repairs"`
	// Code is the final solution; Trace the visible tests' trace of it
	// when they failed.
	Code  string `json:"code"`
	Trace string `json:"trace,omitempty"`
	// APIHit reports whether Code calls every API of the task's api_calls
	// label (a task that lists none is a hit, as upstream counts it);
	// APIScored is false when Code does not parse (apiHitSkip, upstream's
	// rule).
	APIHit    bool `json:"api_hit"`
	APIScored bool `json:"api_scored"`
}

// Scores are GitChameleon's numbers for one protocol on a set of tasks:
// the per-task verdicts, from which the rates, the breakdowns and the
// error classes are computed.
type Scores struct {
	Protocol string `json:"protocol"`
	// PassRule is the rule the verdicts are under (adapt.Task.PassRule:
	// "exit-status", upstream's, or "" for adapt's every-test rule);
	// "mixed" when the tasks' rules differ.
	PassRule string       `json:"pass_rule"`
	Model    string       `json:"model"`
	Tasks    []TaskResult `json:"tasks"`
	// Usage is the tokens of every round.
	Usage report.Usage `json:"usage"`
	// Report is the report.Report the scores were computed from.
	Report *report.Report `json:"-"`
}

// Evaluate evaluates model on tasks with opts.Protocol and returns
// GitChameleon's scores, the report.Report in Scores.Report. It is one
// adapt.Evaluate (with the gold check) with the protocol's settings, then
// Score: the first prompt is the protocol's, and its repair rounds are
// adapt's Repair, asked for the tasks whose visible tests fail, with a
// prompt that shows the last attempt and the visible tests' trace. Tasks
// name their visible tests in their Detail (VisibleTests); the hidden
// tests are the others (none when the Detail lists no visible tests: then
// every test is visible). Cancelling ctx stops the run; with a journal it resumes
// where it stopped, in the middle of the repair rounds too.
func Evaluate(ctx context.Context, tasks []adapt.Task, model adapt.Model, opts *EvalOptions) (*Scores, error) {
	var o EvalOptions
	if opts != nil {
		o = *opts
	}
	p := o.Protocol
	if p == nil {
		p = Greedy
	}
	if p.first == nil {
		return nil, errors.New("versioned: Evaluate needs a protocol with a first template")
	}
	eo := o.Evaluate
	eo.Samples, eo.K = 1, nil
	if eo.Sampling.Temperature == 0 && eo.Sampling.TopP == 0 && eo.Sampling.MaxTokens == 0 && eo.Sampling.Seed == nil {
		eo.Sampling.TopP = 0.95
	}
	if o.PassRule != nil {
		tasks = slices.Clone(tasks)
		for i := range tasks {
			tasks[i].PassRule = *o.PassRule
		}
	}
	if eo.Answer == nil {
		eo.Answer = firstPythonBlock
	}
	eo.Template = p.first(promptOptions{NoVersion: o.NoVersion})
	eo.Repair = nil
	if p.repairs > 0 {
		eo.Repair = &adapt.Repair{
			Name:   "gitchameleon-self-debug",
			Rounds: p.repairs,
			Retry: func(t *adapt.Task, last report.SampleResult) bool {
				return !testsPassed(last, visibleTests(t))
			},
			Render: func(t *adapt.Task, last report.SampleResult) ([]adapt.Message, error) {
				return repairMessages(t, attempt{Code: attemptCode(last), Trace: topLevelTrace(last, visibleTests(t))})
			},
		}
	}
	rep, err := adapt.Evaluate(ctx, tasks, model, &eo)
	if err != nil {
		return nil, err
	}
	s, err := score(rep, tasks, modCacheOf(ctx, eo.Environments))
	if err != nil {
		return nil, err
	}
	s.Protocol = p.Name
	return s, nil
}

// Score computes GitChameleon's scores from a report of an evaluation of
// tasks (one adapt.Evaluate returned, or read back with report.ReadReport,
// or merged from shards), the tasks as they were evaluated (with
// EvalOptions.PassRule applied). The protocol is the one whose template
// and repair the report names, "" for none of them.
//
// A Go task's API hit is resolved against the go command's module cache;
// an answer whose modules are not there is not scored for it (Evaluate
// uses the cache its environments were built from).
func Score(rep *report.Report, tasks []adapt.Task) (*Scores, error) {
	return score(rep, tasks, nil)
}

// modCacheOf returns the module cache a Go task's environment was built
// from, as its provider gives it to the build (RunEnv.BuildEnv's
// GOMODCACHE), or "" (the go command's own).
func modCacheOf(ctx context.Context, envs adapt.EnvProvider) func(*adapt.Task) string {
	return func(t *adapt.Task) string {
		if envs == nil || t.Env == nil || t.Language != adapt.Go {
			return ""
		}
		// The provider's environments are built already (the run used
		// them); a provider that fails now leaves the go command's cache.
		run, err := envs.Provide(ctx, *t.Env)
		if err != nil {
			return ""
		}
		for _, kv := range run.BuildEnv {
			if v, ok := strings.CutPrefix(kv, "GOMODCACHE="); ok {
				return v
			}
		}
		return ""
	}
}

func score(rep *report.Report, tasks []adapt.Task, modcache func(*adapt.Task) string) (*Scores, error) {
	if rep == nil {
		return nil, errors.New("versioned: Score needs a report")
	}
	byID := make(map[string]*adapt.Task, len(tasks))
	for i := range tasks {
		byID[tasks[i].ID] = &tasks[i]
	}
	res := &Scores{Protocol: protocolOf(rep.Run), Model: rep.Run.Model, Usage: rep.Usage, PassRule: passRuleOf(tasks), Report: rep}
	invalid, unscored := map[string]string{}, map[string]string{}
	for _, it := range rep.Invalid {
		invalid[it.TaskID] = invalidReason(it)
	}
	for _, u := range rep.Unscored {
		unscored[u.TaskID] = u.Reason
	}
	for _, tr := range rep.PerTask {
		t := byID[tr.TaskID]
		if t == nil {
			return nil, fmt.Errorf("versioned: the report's task %s is not among the tasks", tr.TaskID)
		}
		r := TaskResult{Task: tr.TaskID, Labels: t.Labels, Valid: tr.Valid, Invalid: invalid[tr.TaskID], Unscored: unscored[tr.TaskID], NoHidden: len(hiddenTests(t)) == 0}
		if tr.Valid && len(tr.Samples) > 0 {
			s := tr.Samples[0]
			first := s
			if len(s.Rounds) > 0 {
				first = s.Rounds[0]
			}
			r.judge(t, first)
			r.FirstVisible, r.FirstHidden = r.Visible, r.Hidden
			r.judge(t, s)
			r.Repairs = len(s.Rounds)
			mc := ""
			if modcache != nil {
				mc = modcache(t)
			}
			r.APIHit, r.APIScored = answerAPIHit(t, r.Code, mc)
		}
		res.Tasks = append(res.Tasks, r)
	}
	return res, nil
}

// protocolOf names the built-in protocol whose first template and repair
// rounds a run had, or "".
func protocolOf(run report.RunInfo) string {
	for _, p := range Protocols {
		name := p.first(promptOptions{}).Name
		if (run.Template == name || run.Template == p.first(promptOptions{NoVersion: true}).Name) && (run.Repair != "") == (p.repairs > 0) {
			return p.Name
		}
	}
	return ""
}

// passRuleOf is the pass rule of the tasks, "mixed" when they differ.
func passRuleOf(tasks []adapt.Task) string {
	if len(tasks) == 0 {
		return ""
	}
	rule := tasks[0].PassRule
	for i := range tasks {
		if tasks[i].PassRule != rule {
			return "mixed"
		}
	}
	return rule
}

// invalidReason is adapt's reason for an invalid task, with the first
// line of the exception that made its reference fail (which module did
// not import) when adapt gives only its class.
func invalidReason(it report.InvalidTask) string {
	reason := it.Reason
	if it.Result == nil {
		return reason
	}
	for _, to := range it.Result.Tests {
		if to.Status == exec.TestPassed {
			continue
		}
		if line := textkit.ExceptionLine(to.Message); line != "" && !strings.Contains(reason, line) {
			return reason + ": " + line
		}
	}
	return reason
}

// attemptCode is the code of an attempt: what was tested, or the
// completion's text when no code could be taken from it.
func attemptCode(s report.SampleResult) string {
	if s.Code == "" && s.Completion != nil {
		return s.Completion.Text
	}
	return s.Code
}

// judge sets the verdicts of r from one sample's result and the
// completion it came from.
func (r *TaskResult) judge(t *adapt.Task, s report.SampleResult) {
	visible := visibleTests(t)
	hidden := hiddenTests(t)
	r.Outcome = s.Outcome
	r.Unscored = ""
	if !s.Scored() {
		r.Unscored = fmt.Sprintf("%s after %d attempts: %s", s.Outcome, s.Attempts, firstLine(s.Detail))
	}
	r.Visible = testsPassed(s, visible)
	r.Hidden = len(hidden) > 0 && testsPassed(s, hidden)
	r.Code = attemptCode(s)
	r.Trace = ""
	if !r.Visible {
		r.Trace = topLevelTrace(s, visible)
	}
}

// hiddenTests returns the names of the task's hidden tests: the tests
// visibleTests does not list. None means the task has no hidden verdict
// (a GitChameleon problem whose hidden test file is not present): the
// visible tests never stand in for the hidden ones.
func hiddenTests(t *adapt.Task) []string {
	vis := map[string]bool{}
	for _, n := range visibleTests(t) {
		vis[n] = true
	}
	var hidden []string
	for _, tc := range t.Tests {
		if !vis[tc.Name] {
			hidden = append(hidden, tc.Name)
		}
	}
	return hidden
}

// testsPassed reports whether the run finished (passed or failed, not a
// compile error, timeout or crash) and every named test passed.
func testsPassed(s report.SampleResult, names []string) bool {
	if s.Outcome != report.OutcomePassed && s.Outcome != report.OutcomeFailed {
		return false
	}
	for _, n := range names {
		if !s.Passed(n) {
			return false
		}
	}
	return len(names) > 0
}

// topLevelTrace is the trace a self-debug prompt shows for a failed run
// of the visible tests: the compiler's or the extraction's message, or,
// for each visible test that did not pass, its last traceback (Python)
// or its message.
func topLevelTrace(s report.SampleResult, visible []string) string {
	switch s.Outcome {
	case report.OutcomeCompileError, report.OutcomeNoCode, report.OutcomeWrongName, report.OutcomeModelError:
		return strings.TrimSpace(s.Detail)
	case report.OutcomePassed, report.OutcomeFailed:
	default:
		return strings.TrimSpace(s.Outcome.String() + ": " + s.Detail)
	}
	var b strings.Builder
	for _, n := range visible {
		for _, to := range s.Tests {
			if to.Name != n || to.Status == exec.TestPassed {
				continue
			}
			msg := to.Message
			if i := strings.LastIndex(msg, "Traceback (most recent call last):"); i >= 0 {
				msg = msg[i:]
			}
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			if len(visible) > 1 {
				b.WriteString(n + ":\n")
			}
			b.WriteString(strings.TrimSpace(msg))
		}
	}
	return b.String()
}

// String describes the results in one line, for logs.
func (r *Scores) String() string {
	h, v := r.Hidden(), r.Visible()
	s := fmt.Sprintf("%s/%s: hidden %d/%d, visible %d/%d (%s)", r.Model, r.Protocol, h.Passed, h.N, v.Passed, v.N, passRuleName(r.PassRule))
	unscored, invalid, noHidden := 0, 0, 0
	for i := range r.Tasks {
		switch t := &r.Tasks[i]; {
		case t.Unscored != "":
			unscored++
		case !t.Valid:
			invalid++
		}
		if r.Tasks[i].NoHidden {
			noHidden++
		}
	}
	if invalid > 0 {
		s += fmt.Sprintf(", %d invalid (reference failed, left out)", invalid)
	}
	if noHidden > 0 {
		s += fmt.Sprintf(", %d without hidden tests (no hidden verdict, not in the hidden rate)", noHidden)
	}
	if unscored > 0 {
		s += fmt.Sprintf(", %d unscored (model or infrastructure errors, left out)", unscored)
	}
	return s
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
