package mutate

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// batchProject kills every mutant. Its first batch fails as a whole after
// deciding its first check; later batches decide every check.
type batchProject struct {
	Project
	mu      sync.Mutex
	batches int
	alone   int // calls of Check
}

func (p *batchProject) Lang() Lang { return Go }

func (p *batchProject) Check(ctx context.Context, path string, src []byte, tests []string) (*TestRun, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.alone++
	return &TestRun{Failed: slices.Clone(tests)}, nil
}

func (p *batchProject) CheckBatch(ctx context.Context, reqs []CheckRequest) ([]*TestRun, error) {
	p.batches++
	outs := make([]*TestRun, len(reqs))
	for i, q := range reqs {
		if p.batches > 1 || i == 0 {
			outs[i] = &TestRun{Failed: slices.Clone(q.Tests)}
		}
	}
	if p.batches == 1 {
		return outs, errors.New("the control round failed")
	}
	return outs, nil
}

// TestCheckBatchedReports checks that a batch that fails as a whole is
// reported in BatchStats, that the checks it did decide stand, and that
// those it did not are made alone, with the same verdicts.
func TestCheckBatchedReports(t *testing.T) {
	p := &batchProject{}
	var cands []*Candidate
	for range 3 {
		cands = append(cands, &Candidate{File: "a.go", Src: []byte("package a\n"), Tests: []string{"TestA"}})
	}
	var stats BatchStats
	o := &Options{Runs: 2}
	k := &candidateCheck{p: p, o: o, isTask: (*Candidate).Valid, stats: &stats}
	if _, _, err := k.run(context.Background(), cands); err != nil {
		t.Fatal(err)
	}
	want := BatchStats{Checks: 6, Alone: 2, Errors: []string{"the control round failed"}}
	assert.Equal(t, want, stats, "stats")
	if p.alone != 2 || p.batches != 2 {
		t.Errorf("%d checks alone in %d batches, want 2 in 2", p.alone, p.batches)
	}
	for i, c := range cands {
		if !c.Valid() || !slices.Equal(c.Failing, []string{"TestA"}) {
			t.Errorf("candidate %d: %s %q, failing %v; want valid, killed by TestA", i, c.Reason, c.Detail, c.Failing)
		}
	}
}
