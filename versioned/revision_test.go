package versioned_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/testenv"
	"github.com/adaptbench/adaptbench/source"
	"github.com/adaptbench/adaptbench/versioned"
)

// TestLoadRevision reads GitChameleon's layout (dataset/ with
// dataset.jsonl and hidden_tests/) from a git repository at a revision:
// every task records the repository and the commit, the same revision
// gives byte-identical tasks, an older commit gives the older data, and a
// revision the repository lacks is an error naming both.
func TestLoadRevision(t *testing.T) {
	dir := dataDir(t)
	data, err := os.ReadFile(dir + "/dataset.jsonl")
	require.NoError(t, err)
	lines := bytes.SplitAfter(data, []byte("\n"))
	hidden, err := os.ReadFile(dir + "/hidden_tests/test_sample_1.py")
	require.NoError(t, err)

	repo := testenv.InitRepo(t, true)
	old := repo.Commit(fstest.MapFS{"dataset/dataset.jsonl": {Data: bytes.Join(lines[:2], nil)}}, "two problems")
	repo.Tag("v1", old, true)
	head := repo.Commit(fstest.MapFS{
		"dataset/dataset.jsonl":                 {Data: bytes.Join(lines[:3], nil)},
		"dataset/hidden_tests/test_sample_1.py": {Data: hidden},
	}, "three problems, one hidden test")

	ctx := context.Background()
	tasks, rep, err := versioned.LoadRevision(ctx, repo.Dir, "main", ".")
	require.NoError(t, err)
	require.Len(t, tasks, 3)
	require.Equal(t, 1, rep.Hidden)
	for _, task := range tasks {
		p := task.Provenance
		require.Equal(t, repo.Dir, p.Repo, task.ID)
		require.Equal(t, head, p.Commit, task.ID)
		require.Equal(t, "dataset/dataset.jsonl", p.Source, task.ID)
	}
	again, _, err := versioned.LoadRevision(ctx, repo.Dir, head[:12], "dataset")
	require.NoError(t, err)
	var a, b bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&a, tasks))
	require.NoError(t, adapt.WriteTasks(&b, again))
	require.Equal(t, a.String(), b.String(), "the same revision, by branch and by hash, gives the same tasks")

	older, rep, err := versioned.LoadRevision(ctx, repo.Dir, "v1", ".")
	require.NoError(t, err)
	require.Len(t, older, 2)
	require.Equal(t, 0, rep.Hidden)
	require.Equal(t, old, older[0].Provenance.Commit)

	_, _, err = versioned.LoadRevision(ctx, repo.Dir, "v9", ".")
	require.True(t, errors.Is(err, source.ErrRevision), "%v", err)
	require.True(t, strings.Contains(err.Error(), "v9") && strings.Contains(err.Error(), repo.Dir), "%v", err)
}
