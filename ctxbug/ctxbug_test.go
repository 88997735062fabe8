package ctxbug_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/internal/testenv"

	"github.com/adaptbench/adaptbench/adapt/bench/classeval"
	"github.com/adaptbench/adaptbench/ctxbug"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

func TestValidate(t *testing.T) {
	if err := ctxbug.Validate(ctxbug.Rules); err != nil {
		t.Fatalf("Rules: %v", err)
	}
	if len(ctxbug.Rules) != 10 {
		t.Errorf("Rules has %d rules, want 10", len(ctxbug.Rules))
	}
	bad := []*ctxbug.Rule{{Name: "Bad Name"}, ctxbug.ParamsRule, ctxbug.ParamsRule, nil}
	err := ctxbug.Validate(bad)
	for _, want := range []string{`bad name "Bad Name"`, `"Bad Name" has no Doc`, `"Bad Name" has no Run`, `"params" listed twice`, "rule 3 is nil"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate(bad) = %v, want it to mention %q", err, want)
		}
	}
	if _, err := ctxbug.Perturb([]byte("def f(): pass\n"), nil, bad); err == nil {
		t.Error("Perturb ran invalid rules")
	}
}

func TestPerturbErrors(t *testing.T) {
	tests := []struct{ name, src, want, reason string }{
		{"syntax", "def f(:\n", "syntax errors", "a method must parse"},
		{"no_function", "x = 1\n", "no function definition", "a method must be a definition"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ctxbug.Perturb([]byte(tt.src), nil, ctxbug.Rules)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: got %v, want %q", tt.reason, err, tt.want)
			}
		})
	}
}

// TestGranularity checks the template counts the digest prescribes:
// token-level rules and R1, R2, R10 one template (R3 one per constant
// type), R5–R7 one per occurrence.
func TestGranularity(t *testing.T) {
	src := []byte("def f(self, a):\n    x = a + 1\n    y = x * 2 - len(a)\n    if x > y:\n        return 'big'\n    return 'small'\n")
	ts, err := ctxbug.Perturb(src, &ctxbug.Context{}, ctxbug.Rules)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, tp := range ts {
		got[tp.Rule]++
	}
	want := map[string]int{"params": 1, "return": 1, "constant": 2, "operator": 1, "operation": 2, "condition": 1, "call": 1, "free": 1}
	assert.Equal(t, want, got, "templates per rule")
}

func dataFile(t testing.TB) string { return testenv.DataPath(t, "classeval/ClassEval_data.json") }

// TestClassEval perturbs all 410 ClassEval reference methods: every one
// parses, gets templates, and every template obfuscates and round-trips.
func TestClassEval(t *testing.T) {
	classes, err := classeval.ReadFile(dataFile(t))
	if err != nil {
		t.Fatal(err)
	}
	total, perRule := 0, map[string]int{}
	for _, c := range classes {
		var methods []string
		for _, m := range c.Methods {
			methods = append(methods, m.Name)
		}
		for _, m := range c.Methods {
			ref, err := syntax.Extract(syntax.Python, []byte(c.Solution), c.Name+"."+m.Name)
			if err != nil {
				t.Fatalf("%s.%s: %v", c.TaskID, m.Name, err)
			}
			ctx := &ctxbug.Context{Class: c.Name, Methods: methods, Libs: m.Dependencies.Libs}
			ts, err := ctxbug.Perturb(ref, ctx, ctxbug.Rules)
			if err != nil {
				t.Fatalf("%s.%s: %v", c.TaskID, m.Name, err)
			}
			if len(ts) == 0 {
				t.Errorf("%s.%s: no templates", c.TaskID, m.Name)
			}
			for _, tp := range ts {
				perRule[tp.Rule]++
				o, err := ctxbug.ObfuscateTemplate(ref, tp, m.Description)
				if err != nil {
					t.Fatalf("%s.%s %s: %v", c.TaskID, m.Name, tp.Rule, err)
				}
				back, err := ctxbug.Deobfuscate([]byte(o.Code), o.Names)
				if err != nil || string(back) != tp.Code {
					t.Errorf("%s.%s %s: obfuscation does not round-trip: %v\n%s\n---\n%s", c.TaskID, m.Name, tp.Rule, err, tp.Code, back)
				}
			}
			total += len(ts)
		}
	}
	t.Logf("%d templates from 410 methods; per rule %v", total, perRule)
}

// TestJobsClassEval makes the jobs of all 410 ClassEval methods: the
// template counts per rule are this implementation's answer to the
// paper's 3,527 (see doc.go for why they differ).
func TestJobsClassEval(t *testing.T) {
	classes, err := classeval.ReadFile(dataFile(t))
	if err != nil {
		t.Fatal(err)
	}
	bases, err := ctxbug.FromClassEval(classes, "ClassEval_data.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(bases) != 410 {
		t.Fatalf("%d bases, want 410", len(bases))
	}
	jobs, err := ctxbug.Jobs(bases, ctxbug.Rules)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	forbidden := 0
	for _, j := range jobs {
		got[j.Rule]++
		if len(ctxbug.JobForbidden(j)) > 0 {
			forbidden++
		}
	}
	want := map[string]int{"params": 410, "return": 341, "constant": 494, "operator": 265, "operation": 879, "condition": 444, "call": 925, "bounded": 310, "free": 373, "library": 103}
	assert.Equal(t, want, got, "jobs per rule")
	if len(jobs) != 4544 || forbidden != 103 {
		t.Errorf("%d jobs (%d with a library ban), want 4544 (103)", len(jobs), forbidden)
	}
}
