package classeval_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/classeval"
	"github.com/adaptbench/adaptbench/internal/testenv"
	"github.com/adaptbench/adaptbench/source"
)

// TestLoadRevision commits the published data twice: its first two
// classes (v1), then its first three (main).
func TestLoadRevision(t *testing.T) {
	path := dataFile(t)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var records []json.RawMessage
	require.NoError(t, json.Unmarshal(data, &records))
	first, err := json.Marshal(records[:2])
	require.NoError(t, err)
	three, err := json.Marshal(records[:3])
	require.NoError(t, err)

	r := testenv.InitRepo(t, true)
	v1 := r.Commit(fstest.MapFS{"data/ClassEval_data.json": {Data: first}}, "two classes")
	r.Tag("v1", v1, true)
	v2 := r.Commit(fstest.MapFS{"data/ClassEval_data.json": {Data: three}}, "three classes")
	ctx := context.Background()

	tasks, err := classeval.LoadRevision(ctx, r.Dir, "v1", "data/ClassEval_data.json")
	require.NoError(t, err)
	classes, err := classeval.Read(bytes.NewReader(three), "three")
	require.NoError(t, err)
	require.Len(t, tasks, len(classes[0].Methods)+len(classes[1].Methods), "the methods of the first two classes")
	for i := range tasks {
		assert.Equal(t, adapt.Provenance{Generator: "classeval", Source: "data/ClassEval_data.json", Repo: r.Dir, Commit: v1}, *tasks[i].Provenance)
	}

	var a, b bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&a, tasks))
	again, err := classeval.LoadRevision(ctx, r.Dir, v1[:7], "data/ClassEval_data.json")
	require.NoError(t, err)
	require.NoError(t, adapt.WriteTasks(&b, again))
	assert.Equal(t, a.String(), b.String(), "the same revision, by tag and by hash: byte-identical tasks")

	later, err := classeval.LoadRevision(ctx, r.Dir, "main", "data/ClassEval_data.json")
	require.NoError(t, err)
	all, err := classeval.Load(fstest.MapFS{"data/ClassEval_data.json": {Data: three}}, "data/ClassEval_data.json")
	require.NoError(t, err)
	require.Len(t, later, len(all))
	require.Greater(t, len(later), len(tasks))
	for i := range all {
		assert.Equal(t, v2, later[i].Provenance.Commit)
		all[i].Provenance = later[i].Provenance
	}
	assert.Equal(t, all, later, "the tasks at the revision differ from the file's")

	_, err = classeval.LoadRevision(ctx, r.Dir, "v0", "data/ClassEval_data.json")
	assert.True(t, errors.Is(err, source.ErrRevision), "a missing revision: %v", err)
	assert.Contains(t, err.Error(), r.Dir)
	assert.Contains(t, err.Error(), `"v0"`)
}
