package versioned_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/versioned"
)

func TestRate(t *testing.T) {
	cases := []struct {
		passed, n int
		want      string
		reason    string
	}{
		{164, 328, "50.0±2.8", "p=0.5, N=328: the paper's ±2.8"},
		{28, 328, "8.5±1.5", "p≈0.085: the paper's ±1.5"},
		{160, 328, "48.8±2.8", "Claude 3.7 Sonnet greedy hidden, Table 1"},
		{0, 5, "0.0±0.0", "no successes"},
		{0, 0, "–", "no tasks"},
	}
	for _, c := range cases {
		if got := versioned.NewRate(c.passed, c.n).String(); got != c.want {
			t.Errorf("NewRate(%d, %d) = %s, want %s (%s)", c.passed, c.n, got, c.want, c.reason)
		}
	}
	r := versioned.NewRate(3, 4)
	if r.CI95.Lo <= 0.3 || r.CI95.Hi >= 0.96 || r.CI95.Lo >= 0.75 || r.CI95.Hi <= 0.75 {
		t.Errorf("Wilson interval of 3/4: %+v", r.CI95)
	}
}

func results() *versioned.Scores {
	lab := func(lib, cat, py, rel string) map[string]string {
		year, _, _ := strings.Cut(rel, "-")
		return map[string]string{"library": lib, "category": cat, "python": py, "year": year}
	}
	return &versioned.Scores{Protocol: "greedy", Model: "m", Tasks: []versioned.TaskResult{
		{Task: "1", Valid: true, Hidden: true, Visible: true, APIHit: true, APIScored: true, Labels: lab("numpy", "argument", "3.10", "2021-06")},
		{Task: "2", Valid: true, Hidden: false, Visible: true, APIHit: false, APIScored: true, Labels: lab("numpy", "semantics", "3.10", "2023-01")},
		{Task: "3", Valid: true, Hidden: false, Visible: false, APIHit: false, APIScored: false, Labels: lab("torch", "argument", "3.7", "2021-03")},
		{Task: "4", Valid: false, Invalid: "reference failed", Labels: lab("torch", "argument", "3.7", "2021-03")},
	}}
}

func TestResultsBreakdown(t *testing.T) {
	r := results()
	if got := []string{r.Hidden().String(), r.Visible().String(), r.APIHitRate().String()}; !cmp.Equal(got, []string{"33.3±27.2", "66.7±27.2", "50.0±35.4"}) {
		t.Errorf("rates %v", got)
	}
	var b strings.Builder
	if err := r.WriteBreakdownsOf(&b, versioned.ByLibrary, versioned.ByYear); err != nil {
		t.Fatal(err)
	}
	want := `| library | N | Hidden | Hidden N | Visible | API |
|---|---|---|---|---|---|
| numpy | 2 | 50.0±35.4 | 2 | 100.0±0.0 | 50.0±35.4 |
| torch | 1 | 0.0±0.0 | 1 | 0.0±0.0 | – |

| year | N | Hidden | Hidden N | Visible | API |
|---|---|---|---|---|---|
| 2021 | 2 | 50.0±35.4 | 2 | 50.0±35.4 | 100.0±0.0 |
| 2023 | 1 | 0.0±0.0 | 1 | 100.0±0.0 | 0.0±0.0 |
`
	assert.Equal(t, want, b.String(), "breakdowns")
	b.Reset()
	if err := (versioned.Table{{Model: "m", Greedy: r, SelfDebug: r}}).WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	wantTable := `| Model | Greedy Hidden | Greedy Visible | Greedy API | SD Hidden | SD Visible | SD API | CoT Hidden | CoT API |
|---|---|---|---|---|---|---|---|---|
| m | 33.3±27.2 (N=3); all 25.0 (1/4) | 66.7±27.2 (N=3); all 50.0 (2/4) | 50.0±35.4 (N=2) | 33.3±27.2 (N=3); all 25.0 (1/4) | 66.7±27.2 (N=3); all 50.0 (2/4) | 50.0±35.4 (N=2) | – | – |

Verdicts: pass rule every-test: each test passed, a skipped test does not.
`
	assert.Equal(t, wantTable, b.String(), "table")
	if g := r.Breakdown(versioned.ByRuntime); len(g) != 2 || g[0].Value != "python 3.10" || g[1].Value != "python 3.7" {
		t.Errorf("by runtime: %+v", g)
	}
}

func TestErrorClasses(t *testing.T) {
	r := &versioned.Scores{Tasks: []versioned.TaskResult{
		{Task: "1", Valid: true, Outcome: report.OutcomeFailed, Trace: "Traceback (most recent call last):\n  File \"x.py\", line 1\nAssertionError"},
		{Task: "2", Valid: true, Outcome: report.OutcomeFailed, Trace: "Traceback (most recent call last):\n  File \"x.py\", line 1\ntorch.TypeError: bad"},
		{Task: "3", Valid: true, Outcome: report.OutcomeFailed, Trace: "Traceback (most recent call last):\n  File \"x.py\", line 3\nAssertionError: no"},
		{Task: "4", Valid: true, Outcome: report.OutcomeCompileError, Trace: "./solution.go:3:1: undefined: slices.Max"},
		{Task: "5", Valid: true, Visible: true, Outcome: report.OutcomePassed},
		{Task: "6", Valid: false, Outcome: report.OutcomeFailed, Trace: "Traceback (most recent call last):\nKeyError"},
	}}
	want := []versioned.ErrorClass{{"AssertionError", 2}, {"TypeError", 1}, {"compile-error", 1}}
	assert.Equal(t, want, r.ErrorClasses(), "error classes")
}
