package mutate_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/mutate"
)

// TestFunnelSummary: an L1–L4 funnel of a hundred operator combinations
// sums to a row per L1 operator, in tier order, and one per level above.
func TestFunnelSummary(t *testing.T) {
	res := &mutate.Result{}
	f := &res.Funnel
	f.Declare(mutate.StageSite, mutate.StageApplied, mutate.StageParsed, mutate.StageCompiled, mutate.StageUnresolved, mutate.StageDetected)
	ops := mutate.Operators
	add := func(names ...string) {
		g := strings.Join(names, "+")
		f.Add(g, mutate.StageSite, 2)
		f.Add(g, mutate.StageCompiled, 1)
	}
	// Combinations interleaved as a run meets them, last operator first.
	for i := len(ops) - 1; i >= 0; i-- {
		add(ops[i].Name)
		for j := range ops {
			if j != i {
				add(ops[i].Name, ops[j].Name)
			}
		}
		add(ops[i].Name, ops[(i+1)%len(ops)].Name, ops[(i+2)%len(ops)].Name)
		add(ops[i].Name, ops[(i+1)%len(ops)].Name, ops[i].Name, ops[(i+3)%len(ops)].Name)
		add(ops[i].Name, ops[(i+1)%len(ops)].Name, ops[i].Name, ops[(i+3)%len(ops)].Name, ops[(i+4)%len(ops)].Name)
	}
	if n := len(f.Groups()); n < 100 {
		t.Fatalf("%d groups, want a hundred or more", n)
	}
	sum := res.FunnelSummary()
	var want []string
	for _, op := range ops {
		want = append(want, "L1 "+op.Name)
	}
	want = append(want, "L2", "L3", "L4")
	if got := sum.Groups(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("groups %v\nwant %v", got, want)
	}
	for _, s := range f.Stages() {
		if sum.Total(s) != f.Total(s) {
			t.Errorf("stage %s: summary total %d, funnel total %d", s, sum.Total(s), f.Total(s))
		}
	}
	if got, want := sum.Count("L2", mutate.StageSite), 2*len(ops)*(len(ops)-1); got != want {
		t.Errorf("L2 sites %d, want %d", got, want)
	}
	if got, want := sum.Count("L4", mutate.StageSite), 2*2*len(ops); got != want {
		t.Errorf("L4 sites %d, want %d (four operators and five)", got, want)
	}
	for g, want := range map[string]string{"renamevar": "L1 renamevar", "a+b": "L2", "a+b+a": "L3", "a+b+c+d+e": "L4"} {
		if got := mutate.SummaryGroup(g); got != want {
			t.Errorf("SummaryGroup(%q) = %q, want %q", g, got, want)
		}
	}
	var b strings.Builder
	if err := sum.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	if rows := strings.Count(b.String(), "\n"); rows != 2+len(want)+1 {
		t.Errorf("table of %d lines, want a header, %d groups and a total:\n%s", rows, len(want), b.String())
	}
}

// TestCountMutant: the mutants of one operator count as sites, applied
// and parsed (what Example counted before CountMutant left the API).
func TestCountMutant(t *testing.T) {
	src := []byte("package p\n\nfunc Clamp(v, lo, hi int) int {\n\tif v < lo {\n\t\treturn lo\n\t}\n\tif v > hi {\n\t\treturn hi\n\t}\n\treturn v\n}\n")
	frags, err := mutate.Fragments(mutate.Go, src)
	require.NoError(t, err)
	var funnel report.Funnel
	rng := rand.New(rand.NewPCG(1, 1))
	for _, site := range mutate.ModifyLogic.Sites(&frags[0]) {
		m, err := mutate.Mutate(mutate.ModifyLogic, site, rng)
		require.NoError(t, err)
		mutate.CountMutant(&funnel, m)
	}
	var b strings.Builder
	require.NoError(t, funnel.WriteTable(&b))
	want := "| group | site | applied | parsed |\n|---|---:|---:|---:|\n| modifylogic | 2 | 2 | 2 |\n"
	assert.Equal(t, want, b.String(), "funnel table")
}

// TestGatesErr: Gates.Err names each failing gate with its share and
// threshold; a gate that could not be measured fails too.
func TestGatesErr(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    mutate.Gates
		want string // "" for no error
	}{
		{"both pass", mutate.Gates{Parsed: 10, Compiled: 7, CompileShare: 0.7, DetectShare: 0.6}, ""},
		{"uuid", mutate.Gates{Parsed: 77, Compiled: 58, CompileShare: 58.0 / 77, DetectShare: 0.586}, "mutate: pilot gates failed: caught by tests 58.6% < 60%"},
		{"both fail", mutate.Gates{Parsed: 10, Compiled: 6, CompileShare: 0.6, DetectShare: 0.5}, "mutate: pilot gates failed: compiled 60.0% < 70%; caught by tests 50.0% < 60%"},
		{"nothing parsed", mutate.Gates{}, "no L1 mutant parsed, so no gate was measured"},
		{"nothing compiled", mutate.Gates{Parsed: 3}, "compiled 0.0% < 70%; no L1 mutant compiled, so caught-by-tests was not measured"},
	} {
		err := tc.g.Err()
		if tc.want == "" {
			assert.NoError(t, err, tc.name)
			continue
		}
		assert.ErrorContains(t, err, tc.want, tc.name)
	}
}
