package adapteval_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
)

// TestScoreExactVersusArtifact scores a hand-made report of the slugify
// task, whose adaptation 1 has two tests: sample 0 fails one of them,
// sample 1 the other, samples 2 and 3 pass everything, sample 4 does not
// import. Exactly, 2 of 5 samples pass both tests of adaptation 1; the
// artifact subtracts only the larger number of failures of one test (2),
// and credits 3.
func TestScoreExactVersusArtifact(t *testing.T) {
	tasks, _ := fixture(t)
	slug := tasks[0]
	const (
		maxLen   = "test_strutil_slugify.TestSlugify.test_max_length_parameter"
		truncate = "test_strutil_slugify.TestSlugify.test_truncates_without_trailing_separator"
		lower    = "test_strutil_slugify.TestSlugify.test_lowercase"
	)
	sample := func(i int, failing map[string]string) report.SampleResult {
		s := report.SampleResult{Sample: i, Outcome: report.OutcomePassed}
		for _, tc := range slug.Tests {
			to := report.TestOutcome{Name: tc.Name, Status: exec.TestPassed}
			if et, ok := failing[tc.Name]; ok {
				to.Status, to.ErrorType = exec.TestFailed, et
				s.Outcome = report.OutcomeFailed
			}
			s.Tests = append(s.Tests, to)
		}
		return s
	}
	samples := []report.SampleResult{
		sample(0, map[string]string{maxLen: "AssertionError"}),
		sample(1, map[string]string{truncate: "AssertionError", lower: "NameError"}),
		sample(2, nil),
		sample(3, nil),
		{Sample: 4, Outcome: report.OutcomeCompileError},
		{Sample: 5, Outcome: report.OutcomeInfraError}, // left out of every count
	}
	rep := &report.Report{
		Run:   report.RunInfo{Model: "m", Template: "adapteval-areq-oracle", Samples: 5, K: []int{1, 5}},
		Tasks: 2, Valid: 1,
		PassAtK: []report.Score{{K: 1, Value: 0.4}, {K: 5, Value: 1}},
		PerTask: []report.TaskReport{
			{TaskID: slug.ID, Valid: true, N: 5, C: 2, Samples: samples},
			{TaskID: tasks[1].ID, Valid: false},
		},
		Invalid: []report.InvalidTask{{TaskID: tasks[1].ID, Reason: "reference failed"}},
	}
	s, err := adapteval.Score(rep, tasks)
	require.NoError(t, err)
	// Steps: 0 rename (test_rename_function: all but sample 4 pass: 4/5),
	// 1 parameter (exact 2/5, artifact 3/5), 2 and 3 (4/5 each).
	want := []adapteval.Row{
		{Category: "Method_Signature", Type: "Method_Signature.Rename_Func", Abbrev: "Rnm_Func", Count: 1, Solved: 0.8, ArtifactSolved: 0.8, PassAt1: 0.8},
		{Category: "Method_Signature", Type: "Method_Signature.Ins_Param", Abbrev: "Ins_Param", Count: 1, Solved: 0.4, ArtifactSolved: 0.6, PassAt1: 0.4},
		{Category: "Method_Signature", Abbrev: "MS", Count: 2, Solved: 1.2, ArtifactSolved: 1.4, PassAt1: 0.6},
		{Category: "Logic", Type: "Logic.Ins_Call", Abbrev: "Ins_Call", Count: 1, Solved: 0.8, ArtifactSolved: 0.8, PassAt1: 0.8},
		{Category: "Logic", Type: "Logic.Upd_Call", Abbrev: "Upd_Call", Count: 1, Solved: 0.8, ArtifactSolved: 0.8, PassAt1: 0.8},
		{Category: "Logic", Abbrev: "LC", Count: 2, Solved: 1.6, ArtifactSolved: 1.6, PassAt1: 0.8},
		{Abbrev: "All", Count: 4, Solved: 2.8, ArtifactSolved: 3.0, PassAt1: 0.7},
	}
	assert.Empty(t, cmp.Diff(want, s.Rows, cmpFloat), "Table V rows (-want +got)")
	assert.InDelta(t, 0.7, s.AdaptPassAt1, 1e-12)
	assert.InDelta(t, 0.75, s.ArtifactAdaptPassAt1, 1e-12)
	assert.Equal(t, []adapteval.ErrorCount{
		{Type: "AssertionError", Count: 2, Share: 0.5},
		{Type: adapteval.CompilationError, Count: 1, Share: 0.25},
		{Type: "NameError", Count: 1, Share: 0.25},
	}, s.Errors, "one per failing test of a sample that ran, one per sample that did not import")
	assert.Equal(t, map[report.Outcome]int{report.OutcomePassed: 2, report.OutcomeFailed: 2, report.OutcomeCompileError: 1, report.OutcomeInfraError: 1}, s.Outcomes)
	assert.Equal(t, 1, s.Valid)

	var md bytes.Buffer
	require.NoError(t, s.WriteTables(&md))
	for _, line := range []string{
		"| pass@1-t | 40.00 |",
		"| MS | Ins_Param (1) | 0.4 | 0.6 | 40.00% |",
		"| **MS** | **All** (2) | 1.2 | 1.4 | 60.00% |",
		"| **All** | **All** (4) | 2.8 | 3.0 | 70.00% |",
		"pass@1-a: 70.00% exact, 75.00% by the artifact's rule",
		"| CompilationError | 1 | 25.00% |",
		"| 102.logging.record | reference failed |",
	} {
		assert.Contains(t, md.String(), line)
	}
	var js bytes.Buffer
	require.NoError(t, s.WriteJSON(&js))
	assert.Contains(t, js.String(), `"artifact_adapt_pass_at_1": 0.75`)

	_, err = adapteval.Score(rep, tasks[1:])
	assert.ErrorContains(t, err, `"101.strutil.slugify" is not among the tasks`)
}

var cmpFloat = cmp.Comparer(func(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 })

func TestTaxonomy(t *testing.T) {
	assert.Len(t, adapteval.Types, 38)
	total := map[string]int{}
	for _, ty := range adapteval.Types {
		total[ty.Category()] += ty.Count
	}
	for _, c := range adapteval.Categories {
		assert.Equal(t, c.Count, total[c.Label], c.Name)
	}
	ty, ok := adapteval.TypeByLabel("Refactoring.Ins_Ret_None")
	assert.True(t, ok)
	assert.Equal(t, "Ins_Ref_Non", ty.Abbrev, "the paper's other spelling")
	_, ok = adapteval.CategoryByLabel("LC")
	assert.True(t, ok)
}

// TestTablesNameTypesAsTheReport: Table V names each type as the data and
// the report do, with the paper's abbreviation beside it where it differs,
// so that the table and the report read side by side.
func TestTablesNameTypesAsTheReport(t *testing.T) {
	s := &adapteval.Scores{Rows: []adapteval.Row{
		{Category: "Refactoring", Type: "Refactoring.Rename_Var", Abbrev: "Renam_EVar", Count: 2, Solved: 1, PassAt1: 0.5},
		{Category: "Refactoring", Type: "Refactoring.Ins_Ann", Abbrev: "Ins_Ann", Count: 1, Solved: 1, PassAt1: 1},
	}}
	var b bytes.Buffer
	require.NoError(t, s.WriteTables(&b))
	assert.Contains(t, b.String(), "| RE | Rename_Var (paper: Renam_EVar) (2) | 1.0 |")
	assert.Contains(t, b.String(), "| RE | Ins_Ann (1) | 1.0 |")
}
