package adapteval_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/metrics"
)

func TestMain(m *testing.M) { exectest.Main(m) }

func evaluate(t *testing.T, tasks []adapt.Task, m adapt.Model, samples int) *report.Report {
	t.Helper()
	opts := adapteval.Options(adapteval.AReqOracle, samples)
	opts.Runner = exectest.Sandbox(t)
	rep, err := adapt.Evaluate(context.Background(), tasks, m, opts)
	require.NoError(t, err)
	return rep
}

// TestReferenceSolvesFixture: the gold check on the fixture repository.
// The reference passes every valid task at both tiers, and the task whose
// context file imports a module that is not installed is invalid, with
// the missing module in the reason, not a failure.
func TestReferenceSolvesFixture(t *testing.T) {
	tasks, _ := fixture(t)
	rep := evaluate(t, tasks, adapt.Reference, 2)
	assert.Equal(t, 5, rep.Tasks)
	assert.Equal(t, 4, rep.Valid)
	require.Len(t, rep.Invalid, 1)
	inv := rep.Invalid[0]
	assert.Equal(t, "104.fetch.fetch_json", inv.TaskID)
	assert.Contains(t, inv.Reason, "ModuleNotFoundError: No module named 'nonexistent_pkg_xyz'", "the reason names the missing module")
	assert.Equal(t, report.OutcomeCompileError, inv.Result.Outcome, "an import failure")
	all1 := &metrics.Interval{Lo: 1, Point: 1, Hi: 1}
	assert.Equal(t, []report.Score{{K: 1, Value: 1, Tasks: 4, CI95: all1}, {K: 2, Value: 1, Tasks: 4, CI95: all1}}, rep.PassAtK, "task level")
	assert.Equal(t, []report.Score{{K: 1, Value: 1, Tasks: 13}, {K: 2, Value: 1, Tasks: 13}}, rep.AdaptationPassAtK, "adaptation level")

	s, err := adapteval.Score(rep, tasks)
	require.NoError(t, err)
	assert.Equal(t, 1.0, s.AdaptPassAt1)
	assert.Equal(t, 1.0, s.ArtifactAdaptPassAt1)
	assert.Equal(t, 14, s.Adaptations, "the adaptations of the 4 valid tasks")
	all := 0
	for _, task := range tasks {
		all += len(task.Requirement.Steps)
	}
	assert.Equal(t, all, s.AllAdaptations, "the adaptations of all 5 tasks, as the paper counts them")
	assert.Greater(t, s.AllAdaptations, s.Adaptations)
	assert.Equal(t, 1, s.Untested)
	assert.Empty(t, s.Errors, "no errors")
	var md bytes.Buffer
	require.NoError(t, s.WriteTables(&md))
	assert.Contains(t, md.String(), "| **All** | **All** (14) | 14.0 | 14.0 | 100.00% |")
	assert.Contains(t, md.String(), fmt.Sprintf("Table V (adaptation level): 14 adaptations of the 4 valid tasks, of %d adaptations of the 5 tasks evaluated", all),
		"both denominators")
}

// TestIdentityFailsAdaptations: the unadapted snippet fails every
// adaptation-level test of the valid tasks: the snippets that keep their
// old name are their own outcome, the others run and pass only
// function-level tests.
func TestIdentityFailsAdaptations(t *testing.T) {
	tasks, _ := fixture(t)
	rep := evaluate(t, tasks, adapt.Identity, 1)
	assert.Equal(t, map[report.Outcome]int{report.OutcomeWrongName: 2, report.OutcomeFailed: 2}, rep.Outcomes)
	byID := map[string]*adapt.Task{}
	for i := range tasks {
		byID[tasks[i].ID] = &tasks[i]
	}
	var passedFunctionLevel []string
	for _, tr := range rep.PerTask {
		if !tr.Valid {
			continue
		}
		task := byID[tr.TaskID]
		require.Len(t, tr.Samples, 1)
		sample := tr.Samples[0]
		for _, tc := range task.Tests {
			if len(tc.Steps) > 0 {
				assert.False(t, sample.Passed(tc.Name), "identity fails adaptation-level test %s", tc.Name)
			} else if sample.Passed(tc.Name) {
				passedFunctionLevel = append(passedFunctionLevel, tc.Name)
			}
		}
		for _, st := range tr.Steps {
			assert.Zero(t, st.C, "%s: no sample solves step %s", tr.TaskID, st.ID)
		}
		if sample.Outcome == report.OutcomeWrongName {
			assert.Contains(t, sample.Detail, "keeps the snippet's function name")
		}
	}
	slices.Sort(passedFunctionLevel)
	assert.Equal(t, []string{
		"test_logging_record.TestRecord.test_returns_count",
		"test_stats_moving_average.TestMovingAverage.test_keeps_decorator",
		"test_stats_moving_average.TestMovingAverage.test_window",
	}, passedFunctionLevel, "behaviour the snippet already has; the decorator of the context file is kept")

	// Error types per test: the missing parameter is a TypeError.
	for _, tr := range rep.PerTask {
		if tr.TaskID != "102.logging.record" {
			continue
		}
		got := map[string]string{}
		for _, to := range tr.Samples[0].Tests {
			got[strings.TrimPrefix(to.Name, "test_logging_record.TestRecord.")] = to.ErrorType
		}
		assert.Equal(t, map[string]string{
			"test_caps_events": "AssertionError", "test_entry_is_dict": "AssertionError", "test_level_parameter": "TypeError",
			"test_logs_event": "AssertionError", "test_returns_count": "",
		}, got)
	}

	s, err := adapteval.Score(rep, tasks)
	require.NoError(t, err)
	assert.Equal(t, []adapteval.ErrorCount{
		{Type: "AssertionError", Count: 5, Share: 5.0 / 8},
		{Type: adapteval.CompilationError, Count: 2, Share: 2.0 / 8},
		{Type: "TypeError", Count: 1, Share: 1.0 / 8},
	}, s.Errors, "Table VI: 2 wrong-name samples, 4+2 failing tests")
	assert.Equal(t, 1.0/14, s.AdaptPassAt1, "only the adaptation without a test counts as solved")
	assert.Equal(t, 0.0, s.TaskPassAtK[0].Value)
}

// TestTimeLimit: a test class that runs longer than the artifact's 5 s is a
// timeout, and Table VI counts it once.
func TestTimeLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs into a 5 s limit")
	}
	tasks, _ := fixture(t)
	slow := *taskByID(t, tasks, "101.strutil.slugify")
	slow.Reference = strings.Replace(slow.Reference, "    return slug\n", "    while True:\n        pass\n", 1)
	rep := evaluate(t, []adapt.Task{slow}, adapt.Reference, 1)
	require.Len(t, rep.Invalid, 1)
	assert.Equal(t, report.OutcomeTimeout, rep.Invalid[0].Result.Outcome)
	assert.Equal(t, exec.Limits{CPUTime: adapteval.TimeLimit, WallTime: adapteval.TimeLimit}, adapteval.Limits())
}
