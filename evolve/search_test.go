package evolve_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/evolve"
	"github.com/adaptbench/adaptbench/evolve/measure"
	"github.com/adaptbench/adaptbench/evolve/transform"
)

var testOps = []*transform.Transform{guardReturn, deadAssign, returnNone}

// retest runs every individual of res through a fresh tester: a program the
// search accepted must pass the original tests, checked here and not
// trusted from the search.
func retest(t *testing.T, s *evolve.Subject, res *evolve.Evolution) {
	t.Helper()
	fresh := tester(t)
	for _, ind := range res.Population {
		out, err := fresh.Test(context.Background(), s.Suite, ind.Program)
		require.NoError(t, err)
		assert.True(t, out.Passed(), "%s individual %d (%v): %v %s\n%s", s.ID, ind.ID, res.Operators(ind.ID), out.Verdict, out.Detail, evolve.Source(ind.Program))
		assert.False(t, out.Cached)
	}
}

// checkLineage checks that each individual's lineage replays to it.
func checkLineage(t *testing.T, res *evolve.Evolution, ops []*transform.Transform) {
	t.Helper()
	for _, ind := range res.Population {
		p, err := evolve.Replay(res.Original().Program, res.Lineage(ind.ID), ops)
		require.NoError(t, err)
		assert.Equal(t, ind.Hash, p.Hash(), "individual %d", ind.ID)
	}
}

func TestRunGuardsAndRejects(t *testing.T) {
	s := subjectOf(t, sumSquares)
	tr := tester(t)
	res, err := evolve.Evolve(context.Background(), s, &evolve.Options{Transforms: testOps, Evaluations: 40, Seed: 7, Tester: tr})
	require.NoError(t, err)
	assert.Equal(t, 40, res.Evaluations)
	assert.Equal(t, evolve.StopBudget, res.Stop)
	// Every ReturnNone offspring fails the tests: none is accepted.
	for _, ind := range res.Population {
		assert.NotContains(t, res.Operators(ind.ID), "S93")
	}
	assert.Positive(t, res.Rejected.Tests)
	assert.Equal(t, res.Tested, res.Rejected.Tests+len(res.Population)-1)
	assert.Equal(t, res.Evaluations, res.Rejected.Failed+res.Rejected.Duplicate+res.Rejected.Unreadable+res.Tested)
	// The guards raise complexity, so the pick is guarded and more complex.
	assert.Greater(t, res.Evolved().RC, res.Original().RC)
	assert.Contains(t, res.Operators(res.Best), "S91")
	assert.Contains(t, string(res.Evolved().Program.Main), "> 0:")
	// The front is sorted by RC and holds the pick first.
	require.NotEmpty(t, res.Front)
	assert.Equal(t, res.Best, res.Front[0])
	for i := 1; i < len(res.Front); i++ {
		assert.GreaterOrEqual(t, res.Population[res.Front[i-1]].RC, res.Population[res.Front[i]].RC)
	}
	retest(t, s, res)
	checkLineage(t, res, testOps)
	st := tr.Stats()
	assert.Equal(t, res.Tested+1, st.Runs+st.Hits, "every test call is a run or a hit")
}

// TestRunDeterministic: the same seed and budget give the same population,
// lineage and pick, serially and in parallel; another seed gives another.
func TestRunDeterministic(t *testing.T) {
	s := subjectOf(t, sumSquares)
	run := func(seed uint64, par int) *evolve.Evolution {
		res, err := evolve.Evolve(context.Background(), s, &evolve.Options{Transforms: testOps, Evaluations: 30, Seed: seed, Parallelism: par, Tester: tester(t)})
		require.NoError(t, err)
		return res
	}
	type digest struct {
		Hashes  []string
		Lineage [][]evolve.Step
		Best    int
		Front   []int
		Rej     evolve.Rejections
	}
	dig := func(r *evolve.Evolution) digest {
		d := digest{Best: r.Best, Front: r.Front, Rej: r.Rejected}
		for _, ind := range r.Population {
			d.Hashes = append(d.Hashes, ind.Hash)
			d.Lineage = append(d.Lineage, r.Lineage(ind.ID))
		}
		return d
	}
	a, b := dig(run(3, 1)), dig(run(3, 4))
	assert.Equal(t, a, b, "seed 3, parallelism 1 vs 4")
	c := dig(run(4, 2))
	assert.NotEqual(t, a.Hashes, c.Hashes, "seeds 3 and 4 gave the same population")
}

func TestRunOriginalFails(t *testing.T) {
	s := subjectOf(t, broken)
	_, err := evolve.Evolve(context.Background(), s, &evolve.Options{Transforms: testOps, Tester: tester(t)})
	require.ErrorIs(t, err, evolve.ErrOriginalFails)
	assert.ErrorContains(t, err, "Demo/1: failed")

	rep, err := evolve.Generate(context.Background(), []*evolve.Subject{s, subjectOf(t, sumSquares)}, &evolve.Options{Transforms: testOps, Evaluations: 10, Tester: tester(t)})
	require.NoError(t, err)
	require.Len(t, rep.Evolutions, 2)
	assert.ErrorIs(t, rep.Evolutions[0].Err, evolve.ErrOriginalFails)
	assert.NoError(t, rep.Evolutions[1].Err)
	sum := rep.Summary()
	assert.Equal(t, evolve.Summary{Programs: 2, Runs: 1, Evolved: 1, Skipped: 1,
		RCBefore: rep.Evolutions[1].Original().RC, RCAfter: rep.Evolutions[1].Evolved().RC,
		RRBefore: rep.Evolutions[1].Original().RR, RRAfter: rep.Evolutions[1].Evolved().RR,
		Evaluations: 10, Tested: rep.Evolutions[1].Tested}, sum)
}

// TestRunStall: with only an operator whose offspring all fail, the run
// stops after Stall generations that accepted nothing.
func TestRunStall(t *testing.T) {
	s := subjectOf(t, sumSquares)
	res, err := evolve.Evolve(context.Background(), s, &evolve.Options{Transforms: []*transform.Transform{returnNone}, Stall: 2, Tester: tester(t)})
	require.NoError(t, err)
	assert.Equal(t, evolve.StopStall, res.Stop)
	assert.Equal(t, 2, res.Generations)
	assert.Len(t, res.Population, 1)
	assert.Equal(t, 0, res.Best)
	// The second generation drew the same program: a duplicate, not
	// tested again.
	assert.Equal(t, evolve.Rejections{Tests: 1, Duplicate: 1}, res.Rejected)
}

// TestRunReadability: with R9 (max loop nesting) at 1 the original, one
// loop deep, already breaks a threshold. The paper's strict rule then
// rejects every offspring; the default rule rejects only offspring that
// make a broken metric worse (nested guards reaching R10's threshold of
// 4, say), and these operators never nest loops.
func TestRunReadability(t *testing.T) {
	s := subjectOf(t, sumSquares)
	th := measure.GeneBenchV1
	th.Readability[8] = 1
	strict, err := evolve.Evolve(context.Background(), s, &evolve.Options{Transforms: testOps, Evaluations: 12, Thresholds: &th, StrictReadability: true, Tester: tester(t)})
	require.NoError(t, err)
	assert.Len(t, strict.Population, 1)
	assert.Positive(t, strict.Rejected.Unreadable)
	assert.Equal(t, 0, strict.Tested)

	loose, err := evolve.Evolve(context.Background(), s, &evolve.Options{Transforms: testOps, Evaluations: 12, Thresholds: &th, Tester: tester(t)})
	require.NoError(t, err)
	assert.Greater(t, len(loose.Population), 1)
	for _, ind := range loose.Population {
		violated, _ := th.Readable(ind.Metrics)
		for _, i := range violated {
			assert.LessOrEqual(t, ind.Metrics.Readability[i], loose.Original().Metrics.Readability[i], "individual %d, R%d", ind.ID, i+1)
		}
	}
}

func TestRunOptionErrors(t *testing.T) {
	s := subjectOf(t, sumSquares)
	for _, tc := range []struct {
		name string
		opts evolve.Options
		want string
	}{
		{"breed", evolve.Options{Transforms: testOps, Breed: 1.5}, "Breed 1.5"},
		{"bug mutator", evolve.Options{Transforms: []*transform.Transform{flipPlus}}, "M91 is a bug mutator"},
		{"no budget", evolve.Options{Transforms: testOps, Evaluations: -1}, "no evaluation limit and no time limit"},
		{"invalid transform", evolve.Options{Transforms: []*transform.Transform{{ID: "X", Name: "Bad"}}}, "transform"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := evolve.Evolve(context.Background(), s, &tc.opts)
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

func TestRunCanceled(t *testing.T) {
	s := subjectOf(t, sumSquares)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := evolve.Evolve(ctx, s, &evolve.Options{Transforms: testOps, Tester: tester(t)})
	assert.True(t, errors.Is(err, context.Canceled), "err = %v", err)
}

func TestSource(t *testing.T) {
	p := &transform.Program{Main: []byte("from newClass7 import f as f\nprint(f())"), Modules: map[string][]byte{"newClass7.py": []byte("def f():\n    return 1\n")}}
	want := "from newClass7 import f as f\nprint(f())\n#The following is code in dependent file newClass7.py:\ndef f():\n    return 1\n"
	assert.Equal(t, want, evolve.Source(p))
	assert.True(t, strings.HasPrefix(evolve.Source(&transform.Program{Main: []byte("x = 1\n")}), "x = 1\n"))
}

// TestRunTimeBudget: a time budget with no evaluation limit stops the run
// by time.
func TestRunTimeBudget(t *testing.T) {
	s := subjectOf(t, sumSquares)
	res, err := evolve.Evolve(context.Background(), s, &evolve.Options{Transforms: testOps, Evaluations: -1, Time: time.Nanosecond, Tester: tester(t)})
	require.NoError(t, err)
	assert.Equal(t, evolve.StopTime, res.Stop)
	assert.Equal(t, 0, res.Generations)
	assert.Len(t, res.Population, 1)
}
