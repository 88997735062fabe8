package humaneval_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/internal/testenv"
	"github.com/adaptbench/adaptbench/source"
)

const (
	problem1 = `{"task_id": "Toy/0", "prompt": "def add(a, b):\n    \"\"\"Add a and b.\"\"\"\n", "entry_point": "add", "canonical_solution": "    return a + b\n", "test": "def check(candidate):\n    assert candidate(1, 2) == 3\n"}`
	problem2 = `{"task_id": "Toy/1", "prompt": "def neg(a):\n    \"\"\"Negate a.\"\"\"\n", "entry_point": "neg", "canonical_solution": "    return -a\n", "test": "def check(candidate):\n    assert candidate(1) == -1\n"}`
)

func jsonl(lines ...string) *fstest.MapFile {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	return &fstest.MapFile{Data: b.Bytes()}
}

func encode(t *testing.T, tasks []adapt.Task) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&b, tasks))
	return b.String()
}

func TestLoadRevision(t *testing.T) {
	r := testenv.InitRepo(t, false)
	v1 := r.Commit(fstest.MapFS{"data/toy.jsonl": jsonl(problem1)}, "one problem")
	r.Tag("v1", v1, false)
	v2 := r.Commit(fstest.MapFS{"data/toy.jsonl": jsonl(problem1, problem2)}, "two problems")
	ctx := context.Background()

	tasks, err := humaneval.LoadRevision(ctx, r.Dir, "v1", "data/toy.jsonl")
	require.NoError(t, err)
	require.Len(t, tasks, 1, "v1 has one problem")
	assert.Equal(t, adapt.Provenance{Generator: "humaneval", Source: "data/toy.jsonl", Repo: r.Dir, Commit: v1}, *tasks[0].Provenance)
	want, err := humaneval.Load(fstest.MapFS{"data/toy.jsonl": jsonl(problem1)}, "data/toy.jsonl")
	require.NoError(t, err)
	want[0].Provenance = tasks[0].Provenance
	assert.Equal(t, want, tasks, "the task at v1 differs from the file's")

	again, err := humaneval.LoadRevision(ctx, r.Dir, v1, "data/toy.jsonl")
	require.NoError(t, err)
	assert.Equal(t, encode(t, tasks), encode(t, again), "the same revision, by tag and by hash: byte-identical tasks")

	later, err := humaneval.LoadRevision(ctx, r.Dir, "HEAD", "data/toy.jsonl")
	require.NoError(t, err)
	require.Len(t, later, 2, "HEAD has two")
	assert.Equal(t, v2, later[1].Provenance.Commit)

	_, err = humaneval.LoadRevision(ctx, r.Dir, "v2", "data/toy.jsonl")
	assert.True(t, errors.Is(err, source.ErrRevision), "a missing revision: %v", err)
	assert.Contains(t, err.Error(), r.Dir)
	assert.Contains(t, err.Error(), `"v2"`)
	_, err = humaneval.LoadRevision(ctx, r.Dir, "v1", "data/missing.jsonl")
	require.Error(t, err)
	assert.Contains(t, err.Error(), r.Dir+"@"+v1, "a missing file names the repository and commit")
	assert.Contains(t, err.Error(), "data/missing.jsonl")
}

// The published HumanEval.jsonl.gz committed to a repository loads as it
// does from the file, with the commit in every task's provenance.
func TestLoadRevisionPublished(t *testing.T) {
	data, err := os.ReadFile(dataFile(t))
	require.NoError(t, err)
	r := testenv.InitRepo(t, true)
	commit := r.Commit(fstest.MapFS{"data/HumanEval.jsonl.gz": {Data: data}}, "HumanEval")
	tasks, err := humaneval.LoadRevision(context.Background(), r.Dir, "main", "data/HumanEval.jsonl.gz")
	require.NoError(t, err)
	want, err := humaneval.LoadFile(dataFile(t))
	require.NoError(t, err)
	require.Len(t, tasks, len(want))
	for i := range want {
		assert.Equal(t, commit, tasks[i].Provenance.Commit)
		want[i].Provenance = tasks[i].Provenance
	}
	assert.Equal(t, want, tasks, "the tasks at the revision differ from the file's")
}
