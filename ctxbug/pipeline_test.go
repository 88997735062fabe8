package ctxbug_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/ctxbug"
	"github.com/adaptbench/adaptbench/ctxbug/ctxbugtest"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

// TestGenerateIsTheSteps checks that Generate is the composition of its
// steps: the same tasks, instances and funnel as Jobs, Draw, Identify
// and Tasks called one by one, with the offline implanter as the model.
func TestGenerateIsTheSteps(t *testing.T) {
	bases := fixtureBases(t)
	rules := []*ctxbug.Rule{ctxbug.OperatorRule, ctxbug.ConstantRule, ctxbug.ReturnRule}
	jobs, err := ctxbug.Jobs(bases, rules)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	runner := exectest.ForkServer(t)
	var progress []report.Progress
	res, err := ctxbug.Generate(ctx, ctxbugtest.NewImplanter(7, jobs...), bases, &ctxbug.Options{Rules: rules, Runner: runner,
		Progress: func(p report.Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}

	cands, err := ctxbug.Draw(ctx, ctxbugtest.NewImplanter(7, jobs...), jobs, nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := ctxbug.Identify(ctx, cands, &ctxbug.Options{Runner: runner})
	if err != nil {
		t.Fatal(err)
	}
	var want []adapt.Task
	for _, s := range []ctxbug.Setting{ctxbug.WithCtxBugs, ctxbug.WithoutCtxBugs} {
		ts, err := ctxbug.Tasks(ctxbug.BaseMap(bases), id.Instances, s)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, ts...)
	}
	if len(want) == 0 {
		t.Fatal("the implanter made no instance: the test checks nothing")
	}
	assert.Equal(t, want, res.Tasks, "tasks (-steps +Generate)")
	assert.Equal(t, id.Funnel.Groups(), res.Funnel.Groups(), "funnel groups (-steps +Generate)")
	for _, g := range id.Funnel.Groups() {
		for _, s := range id.Funnel.Stages() {
			if a, b := id.Funnel.Count(g, s), res.Funnel.Count(g, s); a != b {
				t.Errorf("funnel %s/%s: %d by steps, %d by Generate", g, s, a, b)
			}
		}
	}
	if len(res.Instances) != len(id.Instances) || len(ctxbug.Candidates(res)) != len(cands) {
		t.Errorf("%d instances and %d candidates, want %d and %d", len(res.Instances), len(ctxbug.Candidates(res)), len(id.Instances), len(cands))
	}
	phases := map[string]bool{}
	for _, p := range progress {
		phases[p.Phase] = true
	}
	if !phases["samples"] || !phases["identify"] {
		t.Errorf("progress phases %v, want samples and identify", phases)
	}
	t.Logf("%d jobs, %d candidates, %d instances, %d tasks", len(jobs), len(cands), len(id.Instances), len(res.Tasks))
}
