package adapt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/exec"
)

// baseFiles is a small Go module: the target's package, its test, and an
// old copy of the target that every task overrides.
var baseFiles = []adapt.File{
	{Path: "go.mod", Content: "module example.com/deep\n\ngo 1.22\n"},
	{Path: "root.go", Content: "package deep\n"},
	{Path: "internal/calc/calc.go", Content: "package calc\n\nfunc Double(x int) int { return 0 }\n"},
	{Path: "internal/calc/calc_test.go", Content: "package calc\n\nimport \"testing\"\n\nfunc TestDouble(t *testing.T) {\n\tif Double(21) != 42 {\n\t\tt.Fatal(Double(21))\n\t}\n}\n"},
}

// baseTasks returns two tasks on one base; the second changes the base's
// test file (its Files override the base's).
func baseTasks(t *testing.T) []adapt.Task {
	t.Helper()
	b, err := adapt.NewBase(baseFiles)
	require.NoError(t, err)
	task := func(id string) adapt.Task {
		return adapt.Task{
			ID:        id,
			Language:  adapt.Go,
			Code:      "func Double(x int) int { return x + x + 1 }\n",
			Reference: "func Double(x int) int { return 2 * x }\n",
			Target:    adapt.Target{Path: "internal/calc/calc.go", Function: "Double", Content: "package calc\n\nfunc Double(x int) int { return 2 * x }\n"},
			Base:      b,
			Tests:     []adapt.Test{{Name: "TestDouble", File: "internal/calc/calc_test.go"}},
		}
	}
	t1, t2 := task("one"), task("two")
	t2.Files = []adapt.File{{Path: "internal/calc/calc_test.go", Content: "package calc\n\nimport \"testing\"\n\nfunc TestDouble(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Fatal(Double(2))\n\t}\n}\n"}}
	return []adapt.Task{t1, t2}
}

func TestNewBase(t *testing.T) {
	b, err := adapt.NewBase(baseFiles)
	require.NoError(t, err)
	assert.Regexp(t, `^sha256:[0-9a-f]{64}$`, b.Digest())
	assert.Equal(t, 4, b.Len())
	assert.Equal(t, "go.mod", b.Files()[0].Path, "sorted by path")
	// The digest is of the content, not of the order given.
	rev := append([]adapt.File(nil), baseFiles...)
	rev[0], rev[3] = rev[3], rev[0]
	b2, err := adapt.NewBase(rev)
	require.NoError(t, err)
	assert.Equal(t, b.Digest(), b2.Digest())
	// One changed byte, or a byte moved from a path to a content, is
	// another base.
	ch := append([]adapt.File(nil), baseFiles...)
	ch[1].Content = "package Deep\n"
	b3, _ := adapt.NewBase(ch)
	assert.NotEqual(t, b.Digest(), b3.Digest())
	b4, _ := adapt.NewBase([]adapt.File{{Path: "ab", Content: "c"}})
	b5, _ := adapt.NewBase([]adapt.File{{Path: "a", Content: "bc"}})
	assert.NotEqual(t, b4.Digest(), b5.Digest())

	for _, tc := range []struct {
		name  string
		files []adapt.File
		want  string
	}{
		{"twice", []adapt.File{{Path: "a"}, {Path: "a"}}, `file "a" appears twice`},
		{"outside", []adapt.File{{Path: "../a"}}, `must be relative, clean and slash-separated`},
		{"binary", []adapt.File{{Path: "logo.png", Content: "\x89PNG\xff"}}, `file "logo.png" is not UTF-8 text`},
	} {
		_, err := adapt.NewBase(tc.files)
		assert.ErrorIs(t, err, adapt.ErrBase, tc.name)
		assert.ErrorContains(t, err, tc.want, tc.name)
	}
}

func TestWorkspaceFiles(t *testing.T) {
	tasks := baseTasks(t)
	var paths []string
	for _, f := range tasks[1].WorkspaceFiles() {
		paths = append(paths, f.Path)
		if f.Path == "internal/calc/calc_test.go" {
			assert.Contains(t, f.Content, "Double(2)", "the task's file replaces the base's")
		}
	}
	assert.Equal(t, []string{"go.mod", "internal/calc/calc_test.go", "root.go"}, paths, "the target is not among them")
}

// TestBaseRoundTrip: tasks on one base are written with the base once,
// read back equal and sharing it, and the file holds no copy of the base
// per task.
func TestBaseRoundTrip(t *testing.T) {
	tasks := baseTasks(t)
	var buf bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&buf, tasks))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 3, "one base line, two task lines")
	digest := tasks[0].Base.Digest()
	assert.True(t, strings.HasPrefix(lines[0], `{"schema":3,"kind":"base","base":"`+digest+`","files":[`), lines[0])
	for _, l := range lines[1:] {
		assert.Contains(t, l, `"base":"`+digest+`"`)
		assert.NotContains(t, l, "module example.com/deep", "a task line holds no base file")
	}
	got, err := adapt.ReadTasks(bytes.NewReader(buf.Bytes()), "tasks.jsonl")
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(tasks, got), "write then read changed the tasks (-want +got)")
	assert.Same(t, got[0].Base, got[1].Base, "tasks read together share their base")
	assert.Equal(t, tasks[0].Base.Files(), got[0].Base.Files())
	var again bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&again, got))
	assert.Equal(t, buf.String(), again.String(), "output is deterministic")

	// A base may follow its tasks (files concatenated or sorted).
	moved := strings.Join([]string{lines[1], lines[2], lines[0]}, "\n")
	got, err = adapt.ReadTasks(strings.NewReader(moved), "tasks.jsonl")
	require.NoError(t, err)
	assert.Len(t, got, 2)
}

func TestBaseReadErrors(t *testing.T) {
	tasks := baseTasks(t)
	var buf bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&buf, tasks))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	digest := tasks[0].Base.Digest()
	join := func(ls ...string) string { return strings.Join(ls, "\n") }
	edited := strings.Replace(lines[0], "package deep", "package DEEP", 1)
	checkReadErrors(t, []readErrorCase{
		{"edited", join(edited, lines[1], lines[2]), "tasks.jsonl:1: adapt: task base " + digest + ": its files hash to sha256:", "an edited base is never used"},
		{"torn", join(lines[0][:len(lines[0])/2], lines[1]), "tasks.jsonl:1: malformed JSON", "a base cut short is never used"},
		{"missing", join(lines[1], lines[2]), `tasks.jsonl:1: adapt: task base: task "one" uses base ` + digest + `, which is not in the input`, "the task and the hash are named"},
		{"old schema base", join(strings.Replace(lines[0], `"schema":3`, `"schema":2`, 1), lines[1]), `tasks.jsonl:1: a line of kind "base" in schema version 2`, "version 2 has no bases"},
		{"old schema task", join(lines[0], strings.Replace(lines[1], `"schema":3`, `"schema":2`, 1)), `tasks.jsonl:2: task "one" has a base, which schema version 2 does not have`, "version 2 has no bases"},
		{"bad digest", join(lines[0], strings.Replace(lines[1], digest, "sha256:abc", 1)), `tasks.jsonl:2: malformed task: adapt: task base: digest "sha256:abc"`, "a digest has one form"},
		{"unknown kind", `{"schema":3,"kind":"patch"}`, `a line of kind "patch"`, "kinds are known"},
	})
}

// TestBaseUnresolved: a task decoded on its own names its base but does
// not hold it; it does not validate, and the Checker says why.
func TestBaseUnresolved(t *testing.T) {
	tasks := baseTasks(t)
	b, err := json.Marshal(tasks[0])
	require.NoError(t, err)
	var task adapt.Task
	require.NoError(t, json.Unmarshal(b, &task))
	assert.ErrorContains(t, task.Validate(), "base "+tasks[0].Base.Digest()+" is not loaded")
	c := &adapt.Checker{Runner: exec.RunnerFunc(func(context.Context, exec.Job) (exec.Result, error) {
		t.Fatal("nothing runs for a task whose base is not loaded")
		return exec.Result{}, nil
	})}
	_, err = c.Test(context.Background(), &task, task.Reference)
	assert.ErrorIs(t, err, adapt.ErrBase)
	var out bytes.Buffer
	assert.ErrorIs(t, adapt.WriteTasks(&out, []adapt.Task{task}), adapt.ErrBase)
}

// TestBaseLoadDir: the directory format keeps bases under _bases/, read
// and checked once.
func TestBaseLoadDir(t *testing.T) {
	b, err := adapt.NewBase(baseFiles)
	require.NoError(t, err)
	hex := strings.TrimPrefix(b.Digest(), "sha256:")
	fsys := fstest.MapFS{}
	for _, f := range baseFiles {
		fsys["root/_bases/"+hex+"/"+f.Path] = &fstest.MapFile{Data: []byte(f.Content)}
	}
	for _, id := range []string{"one", "two"} {
		fsys["root/"+id+"/task.json"] = &fstest.MapFile{Data: []byte(`{"language":"go","target":{"path":"internal/calc/calc.go","function":"Double"},"requirement":{},"tests":[{"name":"TestDouble","file":"internal/calc/calc_test.go"}],"base":"` + b.Digest() + `"}`)}
		fsys["root/"+id+"/code.go"] = &fstest.MapFile{Data: []byte("func Double(x int) int { return x }\n")}
		fsys["root/"+id+"/reference.go"] = &fstest.MapFile{Data: []byte("func Double(x int) int { return 2 * x }\n")}
		fsys["root/"+id+"/files/internal/calc/calc.go"] = &fstest.MapFile{Data: []byte("package calc\n\nfunc Double(x int) int { return 2 * x }\n")}
	}
	tasks, err := adapt.LoadDir(fsys, "root")
	require.NoError(t, err)
	require.Len(t, tasks, 2, "_bases holds no task")
	assert.Same(t, tasks[0].Base, tasks[1].Base)
	assert.Equal(t, b.Digest(), tasks[0].Base.Digest())

	fsys["root/_bases/"+hex+"/root.go"] = &fstest.MapFile{Data: []byte("package edited\n")}
	_, err = adapt.LoadDir(fsys, "root")
	assert.ErrorContains(t, err, `root/one/task.json: task "one": adapt: task base `+b.Digest()+": its files hash to sha256:")
	delete(fsys, "root/_bases/"+hex+"/root.go")
	for p := range fsys {
		if strings.HasPrefix(p, "root/_bases/") {
			delete(fsys, p)
		}
	}
	_, err = adapt.LoadDir(fsys, "root")
	assert.ErrorContains(t, err, `root/one/task.json: task "one": adapt: task base `+b.Digest())
}

// TestBaseEvaluate: the Checker stages the base, then the task's files,
// then the target: the reference passes and the unadapted code fails on
// both tasks (the second runs its own version of the base's test).
func TestBaseEvaluate(t *testing.T) {
	for _, tr := range referenceAndIdentity(t, baseTasks(t)) {
		if tr.TaskID != "two" {
			continue
		}
		var msgs []string
		for _, to := range tr.Samples[0].Tests {
			msgs = append(msgs, to.Message)
		}
		assert.Contains(t, strings.Join(msgs, " "), "5", "the task's own test ran: Double(2) = 5")
	}
}

// FuzzReadTasksBase: whatever the input, ReadTasks does not panic, and
// every base it accepts holds files that give its digest, and reads back
// the same after writing.
func FuzzReadTasksBase(f *testing.F) {
	b, err := adapt.NewBase(baseFiles)
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := adapt.WriteTasks(&buf, []adapt.Task{{ID: "x", Language: adapt.Go, Target: adapt.Target{Path: "internal/calc/calc.go"}, Tests: []adapt.Test{{Name: "TestDouble", File: "go.mod"}}, Base: b}}); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.String())
	f.Add(`{"schema":3,"kind":"base","base":"sha256:` + strings.Repeat("0", 64) + `","files":[]}`)
	f.Fuzz(func(t *testing.T, in string) {
		tasks, err := adapt.ReadTasks(strings.NewReader(in), "fuzz.jsonl")
		if err != nil {
			return
		}
		for _, task := range tasks {
			if task.Base == nil {
				continue
			}
			again, err := adapt.NewBase(task.Base.Files())
			if err != nil || again.Digest() != task.Base.Digest() {
				t.Fatalf("accepted base %s whose files give %v %v", task.Base.Digest(), again, err)
			}
		}
		var out bytes.Buffer
		if err := adapt.WriteTasks(&out, tasks); err != nil {
			t.Fatal(err)
		}
		back, err := adapt.ReadTasks(&out, "again.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		require.Empty(t, cmp.Diff(tasks, back), "write then read (-want +got)")
	})
}

// TestBaseTargetContent: a task whose target is its base's file (a task
// made from the project the base is) leaves the content out of its line
// and reads it back from the base; one whose target changed keeps it.
func TestBaseTargetContent(t *testing.T) {
	tasks := baseTasks(t)
	same := tasks[0]
	same.ID = "same"
	same.Target.Content = baseFiles[2].Content // internal/calc/calc.go as in the base
	tasks = append(tasks, same)
	var buf bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&buf, tasks))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 4)
	assert.Contains(t, lines[1], `"target":{"path":"internal/calc/calc.go","function":"Double","content":"package calc`, "a changed target keeps its content")
	assert.Contains(t, lines[3], `"target":{"path":"internal/calc/calc.go","function":"Double"}`, "the base's file is not stored again")
	got, err := adapt.ReadTasks(bytes.NewReader(buf.Bytes()), "tasks.jsonl")
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff(tasks, got), "write then read changed the tasks (-want +got)")

	other, err := adapt.NewBase(baseFiles[:2]) // no internal/calc/calc.go
	require.NoError(t, err)
	var ob bytes.Buffer
	require.NoError(t, adapt.WriteTasks(&ob, []adapt.Task{{ID: "x", Language: adapt.Go, Target: adapt.Target{Path: "x.go"}, Tests: []adapt.Test{{Name: "TestX"}}, Base: other}}))
	baseLine, _, _ := strings.Cut(ob.String(), "\n")
	noFile := strings.Replace(lines[3], tasks[0].Base.Digest(), other.Digest(), 1)
	checkReadErrors(t, []readErrorCase{
		{"target not in base", baseLine + "\n" + noFile, `tasks.jsonl:2: adapt: task base: task "same": its target internal/calc/calc.go has no content, and base ` + other.Digest() + ` has no such file`, "the content must come from somewhere"},
		{"no base", strings.Replace(lines[3], `"base":"`+tasks[0].Base.Digest()+`",`, "", 1), `tasks.jsonl:1: task "same": its target has no content and it has no base to take it from`, "a base task line without its base"},
	})
}

// TestBasePython: a Python task's test module and its local imports may
// be in its base: the task validates (the unittest name's module is a
// workspace file), and Preload reads the base's Python files and leaves
// the base's own modules out.
func TestBasePython(t *testing.T) {
	b, err := adapt.NewBase([]adapt.File{
		{Path: "helper.py", Content: "def twice(x):\n    return 2 * x\n"},
		{Path: "test_calc.py", Content: "import unittest\nimport calc\n\nclass T(unittest.TestCase):\n    def test_it(self):\n        self.assertEqual(calc.f(2), 4)\n"},
	})
	require.NoError(t, err)
	task := adapt.Task{
		ID: "py-base", Language: adapt.Python,
		Code: "def f(x):\n    return x\n", Reference: "def f(x):\n    return helper.twice(x)\n",
		Target: adapt.Target{Path: "calc.py", Function: "f", Content: "import helper\nimport json\n\ndef f(x):\n    return helper.twice(x)\n"},
		Base:   b,
		Tests:  []adapt.Test{{Name: "test_calc.T.test_it"}},
	}
	require.NoError(t, task.Validate(), "the test module is the base's")
	assert.Equal(t, []string{"json", "unittest"}, adapt.Preload([]adapt.Task{task}), "the base's test module imports unittest; helper is the workspace's own module")
}
