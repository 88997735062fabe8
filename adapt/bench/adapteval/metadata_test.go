package adapteval_test

import (
	"os"
	"testing"

	"github.com/adaptbench/adaptbench/internal/testenv"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
)

// publishedData is the real AdaptEval metadata (../shared/data/adapteval),
// or the test skips.
func publishedData(t *testing.T) string { return testenv.DataPath(t, "adapteval") }

// TestLoadMetadataPublished checks the published metadata.json against the
// counts of the paper and of the digest: 154 repositories, 164 tasks, 523
// adaptations in 3 categories (128/227/168) and 38 types, and the
// irregularities the data is known to have.
func TestLoadMetadataPublished(t *testing.T) {
	dir := publishedData(t)
	recs, rep, err := adapteval.ReadMetadata(os.DirFS(dir), ".")
	require.NoError(t, err)
	assert.Equal(t, 154, rep.Repos)
	assert.Equal(t, 164, rep.Tasks)
	assert.Equal(t, 523, rep.Adaptations)
	require.Len(t, recs, 164)

	cats := map[string]int{}
	types := map[string]int{}
	perTask := map[int]int{}
	deps, assoc, multi := 0, 0, 0
	ids := map[string]bool{}
	for _, r := range recs {
		assert.NotEmpty(t, r.Description, "task %s has its description", r.ID())
		assert.False(t, ids[r.ID()], "task id %s is unique", r.ID())
		ids[r.ID()] = true
		perTask[len(r.Adaptations)]++
		deps += r.Dependencies.Len()
		steps := map[string]bool{}
		for _, a := range r.Adaptations {
			typ, ok := adapteval.TypeByLabel(a.Type)
			require.True(t, ok, "type %q is one of the 38", a.Type)
			types[typ.Label]++
			cats[typ.Category()]++
			assert.False(t, steps[a.Step], "step ids are unique in %s", r.ID())
			steps[a.Step] = true
			assoc += len(a.AssociatedTests)
			if len(a.AssociatedTests) > 1 {
				multi++
			}
		}
	}
	assert.Equal(t, map[string]int{"Method_Signature": 128, "Logic": 227, "Refactoring": 168}, cats, "adaptations per category")
	for _, c := range adapteval.Categories {
		assert.Equal(t, c.Count, cats[c.Label], "category %s", c.Abbrev)
	}
	assert.Len(t, types, 38, "38 types")
	for _, ty := range adapteval.Types {
		assert.Equal(t, ty.Count, types[ty.Label], "adaptations of type %s (Table V)", ty.Abbrev)
	}
	assert.Equal(t, 663, deps, "task-level dependencies (paper Table III)")
	assert.Equal(t, 541, assoc, "association entries")
	assert.Equal(t, 16, multi, "adaptations with more than one test")
	assert.Equal(t, map[int]int{1: 26, 2: 50, 3: 39, 4: 16, 5: 13, 6: 9, 7: 4, 8: 2, 9: 2, 11: 1, 12: 2}, perTask, "adaptations per task")

	type issue struct {
		Task string
		Kind string
	}
	var got []issue
	for _, is := range rep.Issues {
		got = append(got, issue{is.Task, is.Kind})
	}
	want := []issue{
		{"181.eval_utils.compute_similarity_transform", adapteval.IssueDuplicateID},
		{"373.tf_util.batch_norm_template", adapteval.IssueUntested},
		{"374.util.list_split", adapteval.IssueSkippedID},
		{"786.openai.num_tokens_from_messages", adapteval.IssueUntested},
		{"819.conftest.datadir", adapteval.IssueSkippedID},
		{"1231.geometry.is_clockwise", adapteval.IssueSkippedID},
	}
	assert.Equal(t, want, got, "irregularities of the published data")
}

// TestLoadWithoutFiles loads the metadata-only directory with the full
// loader: every task is left out (its files are not there) and reported,
// and nothing fails.
func TestLoadWithoutFiles(t *testing.T) {
	dir := publishedData(t)
	tasks, rep, err := adapteval.LoadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, tasks)
	assert.Equal(t, 164, rep.Count(adapteval.IssueMissingFile))
	assert.Len(t, rep.Skipped(), 164)
	assert.Equal(t, 523, rep.Adaptations)
}
