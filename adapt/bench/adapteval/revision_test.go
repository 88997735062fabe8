package adapteval_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
	"github.com/adaptbench/adaptbench/internal/testenv"
	"github.com/adaptbench/adaptbench/source"
)

const snippet = "AdaptEval/benchmark/101/dataset_items/51234567_0_clean.py"

// fixtureRepo commits testdata/repo under AdaptEval/ (v1), then the same
// with the snippet of task 101 changed (v2, on main).
func fixtureRepo(t *testing.T) (r *testenv.Repo, v1, v2 string) {
	t.Helper()
	r = testenv.InitRepo(t, true)
	files := testenv.Files(t, os.DirFS("testdata/repo"), "AdaptEval")
	v1 = r.Commit(files, "AdaptEval as published")
	r.Tag("v1", v1, true)
	files[snippet].Data = append(append([]byte(nil), files[snippet].Data...), "# a later edit\n"...)
	v2 = r.Commit(files, "a later edit")
	return r, v1, v2
}

func writeTasks(t *testing.T, tasks []adapt.Task) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&b, tasks))
	return b.Bytes()
}

func TestLoadRevision(t *testing.T) {
	r, v1, v2 := fixtureRepo(t)
	ctx := context.Background()
	tasks, rep, err := adapteval.LoadRevision(ctx, r.Dir, "v1", "AdaptEval")
	require.NoError(t, err)
	want, wantRep := fixture(t)
	for i := range rep.Issues {
		rep.Issues[i].Detail = strings.ReplaceAll(rep.Issues[i].Detail, "AdaptEval/", "")
	}
	assert.Equal(t, wantRep, rep, "the same load report as from the directory (its paths in AdaptEval/)")
	require.Len(t, tasks, len(want))
	for i := range tasks {
		p := tasks[i].Provenance
		assert.Equal(t, adapt.Provenance{Generator: adapteval.Generator, Source: "AdaptEval/" + want[i].Provenance.Source, Repo: r.Dir, Commit: v1}, *p,
			"the repository, the commit's full hash, and the path in the repository")
		require.NoError(t, tasks[i].Validate())
		want[i].Provenance = p
	}
	assert.Equal(t, want, tasks, "tasks at v1 differ from the directory's, beyond their provenance")

	again, _, err := adapteval.LoadRevision(ctx, r.Dir, v1[:12], "AdaptEval")
	require.NoError(t, err)
	assert.Equal(t, string(writeTasks(t, tasks)), string(writeTasks(t, again)), "the same revision (by tag, then by abbreviated hash) gives byte-identical tasks")

	later, _, err := adapteval.LoadRevision(ctx, r.Dir, "main", "AdaptEval")
	require.NoError(t, err)
	assert.Equal(t, v2, later[0].Provenance.Commit)
	assert.True(t, strings.HasSuffix(later[0].Code, "# a later edit\n"), "main has the edit")
	assert.False(t, strings.Contains(tasks[0].Code, "a later edit"), "v1 does not")
	for i := 1; i < len(later); i++ {
		p := *later[i].Provenance
		p.Commit = v1
		later[i].Provenance = &p
	}
	assert.Equal(t, tasks[1:], later[1:], "the other tasks are as at v1, but for the commit")
}

func TestLoadRevisionErrors(t *testing.T) {
	r, _, _ := fixtureRepo(t)
	_, _, err := adapteval.LoadRevision(context.Background(), r.Dir, "v3", "AdaptEval")
	require.Error(t, err)
	assert.True(t, errors.Is(err, source.ErrRevision), "%v wraps source.ErrRevision", err)
	assert.Contains(t, err.Error(), r.Dir)
	assert.Contains(t, err.Error(), `"v3"`)

	_, _, err = adapteval.LoadRevision(context.Background(), r.Dir, "v1", "elsewhere")
	require.Error(t, err)
	assert.Contains(t, err.Error(), r.Dir+"@", "names the repository and commit")
	assert.Contains(t, err.Error(), "elsewhere/metadata.json")
}
