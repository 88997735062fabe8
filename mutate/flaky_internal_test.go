package mutate

import (
	"context"
	"slices"
	"sync"
	"testing"
)

// flakyProject answers Check with a script of test runs: each call takes
// the next run's failing tests.
type flakyProject struct {
	Project
	mu     sync.Mutex
	script [][]string
	calls  [][]string // the tests each call asked for
}

func (p *flakyProject) Lang() Lang { return Go }

func (p *flakyProject) Check(ctx context.Context, path string, src []byte, tests []string) (*TestRun, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, tests)
	failed := p.script[0]
	p.script = p.script[1:]
	var run TestRun
	for _, t := range tests {
		if slices.Contains(failed, t) {
			run.Failed = append(run.Failed, t)
		} else {
			run.Passed = append(run.Passed, t)
		}
	}
	return &run, nil
}

// TestConfirmFailures checks that a mutant is valid only when its tests
// fail in every one of Options.Runs runs: tests that pass again are not
// failures, a mutant none of whose failures repeat is dropped as
// ReasonFlaky, and only the failing tests are run again.
func TestConfirmFailures(t *testing.T) {
	for _, tc := range []struct {
		name    string
		script  [][]string
		failing []string
		reason  Reason
		calls   int
	}{
		{"steady", [][]string{{"TestA", "TestB"}, {"TestA", "TestB"}, {"TestA", "TestB"}}, []string{"TestA", "TestB"}, ReasonNone, 3},
		{"one test flaky", [][]string{{"TestA", "TestB"}, {"TestA"}, {"TestA"}}, []string{"TestA"}, ReasonNone, 3},
		{"all flaky", [][]string{{"TestA"}, {}}, nil, ReasonFlaky, 2},
		{"no failure", [][]string{{}}, nil, ReasonNoFailure, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &flakyProject{script: tc.script}
			frag := &Fragment{Line: 1}
			c := &Candidate{File: "a.go", Frag: frag, Src: []byte("package a\n"), Tests: []string{"TestA", "TestB", "TestC"}}
			if _, _, err := CheckCandidates(context.Background(), p, []*Candidate{c}, &Options{Runs: 3}); err != nil {
				t.Fatal(err)
			}
			if c.Reason != tc.reason || !slices.Equal(c.Failing, tc.failing) || len(p.calls) != tc.calls {
				t.Errorf("reason %v failing %v after %d runs, want %v %v after %d", c.Reason, c.Failing, len(p.calls), tc.reason, tc.failing, tc.calls)
			}
			for i, call := range p.calls[1:] {
				if len(call) > 2 || slices.Contains(call, "TestC") {
					t.Errorf("run %d asked for %v: only the failing tests run again", i+2, call)
				}
			}
		})
	}
}
