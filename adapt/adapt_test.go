package adapt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

func newSandbox(t testing.TB) *sandbox.Sandbox { return exectest.Sandbox(t) }

// runner is Evaluate's default runner, a fork server over the sandbox,
// shared by the package's tests.
func runner(t testing.TB) exec.Runner { return exectest.ForkServer(t) }

func TestMain(m *testing.M) {
	switch os.Getenv("ADAPT_TEST_HELPER") {
	case "lock":
		lockHelper()
		return
	case "crash":
		crashHelper()
		return
	case "journal":
		journalHelper()
		return
	}
	exectest.Main(m)
}

func fixtureTasks(t testing.TB) []adapt.Task {
	t.Helper()
	tasks, err := adapt.LoadDir(os.DirFS("testdata"), "tasks")
	require.NoError(t, err)
	require.Len(t, tasks, 3)
	return tasks
}

// counting counts the test runs that reach the runner.
type counting struct {
	r exec.Runner
	n atomic.Int64
}

func (c *counting) Run(ctx context.Context, j exec.Job) (exec.Result, error) {
	res, err := c.r.Run(ctx, j)
	if res.Status != exec.StatusCanceled {
		c.n.Add(1) // a finished run
	}
	return res, err
}

func TestTasksRoundTrip(t *testing.T) {
	tasks := fixtureTasks(t)
	// tasks are in lexical order: go-clamp, py-broken-ref, py-scaled-sum
	tasks[0].Provenance = &adapt.Provenance{Generator: "test", Parent: "p", Operators: []string{"a", "b"}, Seed: 7,
		Source: "data/x.jsonl", Repo: "https://example.com/x.git", Commit: strings.Repeat("0a", 20),
		Schema: "test/v1", Detail: json.RawMessage(`{"spans":[[1,2]],"code":"if a < b && c > d {}"}`)}
	tasks[0].Env = &adapt.Environment{Runtime: "3.11", Packages: []adapt.Package{{Name: "numpy", Version: "1.24.2"}}}
	tasks[0].Context = []adapt.Snippet{{Name: "Imports", Code: "import math"}}
	var buf bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&buf, tasks))
	got, err := adapt.ReadTasks(bytes.NewReader(buf.Bytes()), "tasks.jsonl")
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(tasks, got), "write then read changed the tasks (-want +got)")
	var again bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&again, got))
	assert.Equal(t, buf.String(), again.String(), "output is deterministic")
}

func TestReadTasksErrors(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&buf, fixtureTasks(t)[2:])) // py-scaled-sum
	good := strings.TrimSpace(buf.String())
	missing := strings.Replace(good, `"file":"test_calc.py"`, `"file":"test_missing.py"`, 1)
	schema := `"schema":2,` // a task without a base is written as version 2
	require.Contains(t, good, schema)
	prov := func(p string) string {
		return strings.Replace(good, schema, schema+`"provenance":{"generator":"g","seed":0,`+p+`},`, 1)
	}
	checkReadErrors(t, []readErrorCase{
		{"malformed", good + "\n{not json\n", "tasks.jsonl:2: malformed JSON", "a broken line is named by its number"},
		{"schema", strings.Replace(good, schema, `"schema":99,`, 1), "tasks.jsonl:1: unknown schema version 99 (this version reads 2 and 3)", "a future format is refused, not misread"},
		{"schema 1", "\n" + strings.Replace(good, schema, `"schema":1,`, 1), "tasks.jsonl:2: unknown schema version 1 (this version reads 2 and 3: version 1 kept the generators' records in labels", "an old format is refused, saying why"},
		{"no schema", strings.Replace(good, schema, ``, 1), `no "schema" field`, "the version is required"},
		{"missing file", "\n" + missing, `tasks.jsonl:2: adapt: invalid task "py-scaled-sum": test "test_calc.TestScaledSum.test_sum" references missing file "test_missing.py"`, "a test naming a file the task lacks"},
		{"unknown field", strings.Replace(good, schema, schema+`"colour":"red",`, 1), `unknown field "colour"`, "typos are caught"},
		{"duplicate", good + "\n" + good, "duplicate task id", "ids are unique"},
		{"detail without schema", prov(`"detail":{"a":1}`), `provenance detail without a schema`, "a record must say its format"},
		{"schema without detail", prov(`"schema":"mutate/v1"`), `provenance schema "mutate/v1" without a detail`, "a format names a record"},
		{"schema form", prov(`"schema":"mutate","detail":{}`), `provenance schema "mutate" (want <generator>/v<N>`, "a schema names a generator and a version"},
		{"repo without commit", prov(`"repo":"/data/x.git"`), `provenance names a repository without a commit`, "a repository is pinned to a commit"},
		{"commit without repo", prov(`"commit":"` + strings.Repeat("ab", 20) + `"`), `provenance names a repository without a commit or a commit without a repository`, "a commit names its repository"},
		{"short commit", prov(`"repo":"/data/x.git","commit":"abcdef1"`), `provenance commit "abcdef1" is not a full hash`, "an abbreviated hash may become ambiguous"},
	})
}

// readErrorCase is an input ReadTasks refuses with a *ParseError whose
// text holds want.
type readErrorCase struct{ name, input, want, reason string }

func checkReadErrors(t *testing.T, cases []readErrorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := adapt.ReadTasks(strings.NewReader(tc.input), "tasks.jsonl")
			require.Error(t, err, tc.reason)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
			var pe *adapt.ParseError
			assert.True(t, errors.As(err, &pe), "a *ParseError")
		})
	}
}

// SetRevision pins every task to a repository and commit, each with its
// own provenance; a task without the fields is written as before the
// fields existed, so old task files and their journals' task-set digests
// stay valid.
func TestSetRevision(t *testing.T) {
	tasks := fixtureTasks(t)
	var before bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&before, tasks))
	require.NotContains(t, before.String(), `"repo"`)
	require.NotContains(t, before.String(), `"commit"`)

	shared := &adapt.Provenance{Generator: "g", Source: "tasks"}
	tasks[0].Provenance, tasks[1].Provenance, tasks[2].Provenance = shared, shared, nil
	commit := strings.Repeat("c0", 20)
	adapt.SetRevision(tasks[:2], "/data/repo.git", commit)
	assert.Equal(t, adapt.Provenance{Generator: "g", Source: "tasks"}, *shared, "the shared provenance is not changed")
	assert.Nil(t, tasks[2].Provenance, "tasks outside the slice are untouched")
	adapt.SetRevision(tasks[2:], "/data/repo.git", commit)
	for _, tk := range tasks {
		require.NoError(t, tk.Validate())
		assert.Equal(t, "/data/repo.git", tk.Provenance.Repo)
		assert.Equal(t, commit, tk.Provenance.Commit)
	}
	assert.NotSame(t, tasks[0].Provenance, tasks[1].Provenance)
	var buf bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&buf, tasks))
	assert.Contains(t, buf.String(), `"repo":"/data/repo.git","commit":"`+commit+`"`)
	got, err := adapt.ReadTasks(&buf, "pinned.jsonl")
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(tasks, got), "pinned tasks changed by a round trip (-want +got)")
}

func TestEvaluateReferenceAndIdentity(t *testing.T) {
	runner := runner(t)
	tasks := fixtureTasks(t)
	ref, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{Runner: runner, Samples: 2})
	require.NoError(t, err)
	assert.Equal(t, 3, ref.Tasks)
	assert.Equal(t, 2, ref.Valid, "the broken reference makes one task invalid")
	require.Len(t, ref.Invalid, 1)
	assert.Equal(t, "py-broken-ref", ref.Invalid[0].TaskID)
	assert.Contains(t, ref.Invalid[0].Reason, "reference failed")
	p1, _ := ref.Score(1)
	assert.Equal(t, 1.0, p1, "the reference passes every valid task")
	assert.Equal(t, []report.Score{{K: 1, Value: 1, Tasks: 4}, {K: 2, Value: 1, Tasks: 4}}, ref.AdaptationPassAtK)
	assert.Equal(t, 4, ref.Adaptations)

	id, err := adapt.Evaluate(context.Background(), tasks, adapt.Identity, &adapt.Options{Runner: runner})
	require.NoError(t, err)
	p1, _ = id.Score(1)
	assert.Equal(t, 0.0, p1, "the unadapted code passes nothing")
	assert.Equal(t, 2, id.Outcomes[report.OutcomeWrongName], "python and go: the snippet's function keeps its old name (total, clamp)")
	var md bytes.Buffer
	require.NoError(t, id.WriteMarkdown(&md))
	assert.Contains(t, md.String(), "| pass@1 (task, over 2 tasks) | 0.00% |")
}

// flaky is a model that errors on one task and answers garbage on another.
type flaky struct{}

func (flaky) Name() string { return "flaky" }
func (flaky) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	switch req.Task.ID {
	case "py-scaled-sum":
		return nil, errors.New("503 service unavailable")
	case "go-clamp":
		return []report.Completion{{Text: "I cannot help with that. \x00\xff"}}, nil
	}
	return adapt.Reference.Complete(ctx, req)
}

func TestEvaluateRecordsModelFailures(t *testing.T) {
	rep, err := adapt.Evaluate(context.Background(), fixtureTasks(t), flaky{}, &adapt.Options{Runner: runner(t)})
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Outcomes[report.OutcomeModelError])
	assert.Equal(t, 1, rep.Outcomes[report.OutcomeNoCode])
	for _, tr := range rep.PerTask {
		if tr.TaskID == "py-scaled-sum" {
			assert.Contains(t, tr.Samples[0].Detail, "503")
		}
	}
}

func TestShardsMergeToSingleRun(t *testing.T) {
	runner := runner(t)
	tasks := fixtureTasks(t)
	dir := t.TempDir()
	opts := adapt.Options{Runner: runner, Samples: 2}
	single := opts
	single.Journal = filepath.Join(dir, "single.jsonl")
	want, err := adapt.Evaluate(context.Background(), tasks, adapt.Identity, &single)
	require.NoError(t, err)
	var journals []string
	for i := range 3 {
		o := opts
		o.Shard = adapt.Shard{Index: i, Count: 3}
		o.Journal = filepath.Join(dir, "shard"+string(rune('0'+i))+".jsonl")
		_, err := adapt.Evaluate(context.Background(), tasks, adapt.Identity, &o)
		require.NoError(t, err)
		journals = append(journals, o.Journal)
	}
	got, err := adapt.Merge(tasks, journals, nil)
	require.NoError(t, err)
	assert.Equal(t, want, got, "merged shards differ from one run")
	var a, b bytes.Buffer
	require.NoError(t, want.WriteJSON(&a))
	require.NoError(t, got.WriteJSON(&b))
	assert.Equal(t, a.String(), b.String(), "byte for byte")
}

// cancelAfter cancels the evaluation once it has answered n requests.
type cancelAfter struct {
	adapt.Model
	n      int64
	calls  atomic.Int64
	cancel context.CancelFunc
}

func (c *cancelAfter) Complete(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
	if c.calls.Add(1) == c.n && c.cancel != nil {
		defer c.cancel()
	}
	return c.Model.Complete(ctx, req)
}

func TestResumeAfterCancel(t *testing.T) {
	tasks := fixtureTasks(t)
	dir := t.TempDir()
	base := adapt.Options{Samples: 3, ModelConcurrency: 1, Parallelism: 1}

	// An uninterrupted run.
	full := base
	full.Runner = &counting{r: runner(t)} // the runner's kind is part of the evaluation
	full.Journal = filepath.Join(dir, "full.jsonl")
	// The same wrapper as the runs below: a wrapper of Identity reads
	// (renders) the template, as Identity itself does not.
	want, err := adapt.Evaluate(context.Background(), tasks, &cancelAfter{Model: adapt.Identity}, &full)
	require.NoError(t, err)

	// A run canceled after its first model answer, then resumed.
	ctx, cancel := context.WithCancel(context.Background())
	first := &counting{r: runner(t)}
	m := &cancelAfter{Model: adapt.Identity, n: 1, cancel: cancel}
	part := base
	part.Runner = first
	part.Journal = filepath.Join(dir, "part.jsonl")
	_, err = adapt.Evaluate(ctx, tasks, m, &part)
	require.ErrorIs(t, err, context.Canceled)
	ranFirst := first.n.Load()
	require.Greater(t, ranFirst, int64(0), "some work finished before the cancel")

	second := &counting{r: runner(t)}
	m2 := &cancelAfter{Model: adapt.Identity}
	part.Runner = second
	got, err := adapt.Evaluate(context.Background(), tasks, m2, &part)
	require.NoError(t, err)
	assert.Equal(t, want, got, "resumed run differs")
	// Every check is a run of the test driver (Go tests build outside the
	// runner): 3 references + 3 samples × 2 valid tasks = 9 in all.
	total := &counting{r: runner(t)}
	full.Runner, full.Journal = total, filepath.Join(dir, "count.jsonl")
	_, err = adapt.Evaluate(context.Background(), tasks, adapt.Identity, &full)
	require.NoError(t, err)
	assert.Equal(t, total.n.Load(), ranFirst+second.n.Load(), "no finished check ran twice")
	assert.Equal(t, int64(2), m.calls.Load()+m2.calls.Load(), "one request per valid task in all: answered requests were not asked again")
}

// TestDetailCompacted checks that a provenance detail read in any layout
// is kept compact, so that writing and reading it again gives the same
// task and the same bytes.
func TestDetailCompacted(t *testing.T) {
	tasks, err := adapt.LoadDir(fstest.MapFS{
		"t/task.json": {Data: []byte(`{"language": "python", "target": {"path": "m.py"}, "requirement": {},
			"tests": [{"name": "test_m.T.test_f"}],
			"provenance": {"generator": "g", "seed": 0, "schema": "g/v1", "detail": {
				"spans": [ [1, 2] ],
				"text": "a < b"
			}}}`)},
		"t/code.py":         {Data: []byte("x = 1\n")},
		"t/reference.py":    {Data: []byte("x = 2\n")},
		"t/files/m.py":      {Data: []byte("x = 2\n")},
		"t/files/test_m.py": {Data: []byte("import unittest\n")},
	}, ".")
	require.NoError(t, err)
	assert.Equal(t, `{"spans":[[1,2]],"text":"a < b"}`, string(tasks[0].Provenance.Detail))
	var buf bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&buf, tasks))
	back, err := adapt.ReadTasks(bytes.NewReader(buf.Bytes()), "tasks.jsonl")
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(tasks, back), "write then read changed the task (-want +got)")
	spaced := strings.Replace(buf.String(), `"detail":{"spans":[[1,2]]`, `"detail": { "spans" : [ [1, 2] ]`, 1)
	require.NotEqual(t, buf.String(), spaced)
	again, err := adapt.ReadTasks(strings.NewReader(spaced), "tasks.jsonl")
	require.NoError(t, err)
	assert.Equal(t, tasks[0].Provenance.Detail, again[0].Provenance.Detail)
}

// FuzzDetailRoundTrip checks that any compact JSON detail survives
// WriteTasks and ReadTasks unchanged.
func FuzzDetailRoundTrip(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[1, 2, {"b": null}]`, `"<&>"`, `{"s":"\u2028 é \\ \""}`, `0`, `{"x":[]}`} {
		f.Add(s)
	}
	base := pyTasksForFuzz()
	f.Fuzz(func(t *testing.T, detail string) {
		var c bytes.Buffer
		if json.Compact(&c, []byte(detail)) != nil || c.String() == "null" {
			return
		}
		task := base
		task.Provenance = &adapt.Provenance{Generator: "fuzz", Schema: "fuzz/v1", Detail: json.RawMessage(c.Bytes())}
		var buf bytes.Buffer
		if err := adapt.WriteTasks(&buf, []adapt.Task{task}); err != nil {
			t.Fatal(err)
		}
		back, err := adapt.ReadTasks(bytes.NewReader(buf.Bytes()), "fuzz.jsonl")
		if err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		assert.Empty(t, cmp.Diff([]adapt.Task{task}, back), "detail %q changed (-want +got)", c.String())
	})
}

func pyTasksForFuzz() adapt.Task {
	return adapt.Task{
		ID: "f", Language: adapt.Python, Code: "x = 1\n", Reference: "x = 2\n",
		Target: adapt.Target{Path: "m.py", Content: "x = 2\n"},
		Files:  []adapt.File{{Path: "test_m.py", Content: "import unittest\n"}},
		Tests:  []adapt.Test{{Name: "test_m.T.test_f"}},
	}
}
