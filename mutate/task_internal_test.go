package mutate

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
)

// taskProject is the one Project method newTask calls: a Go project, or
// a Java one when java is set.
type taskProject struct {
	Project
	java bool
}

func (p taskProject) Task(path string, t *adapt.Task) error {
	if p.java {
		t.Language, t.Framework = adapt.Java, adapt.FrameworkJUnit
		return nil
	}
	t.Language, t.Framework = adapt.Go, adapt.FrameworkGo
	t.Files = []adapt.File{{Path: "go.mod", Content: "module p\n"}}
	return nil
}

// clampTasks makes the tasks of one ModifyLogic mutant of Clamp at every
// context level, as the pipeline does for a valid candidate.
func clampTasks(t *testing.T) []adapt.Task {
	t.Helper()
	src := []byte("package p\n\nfunc Clamp(v, lo, hi int) int {\n\tif v < lo {\n\t\treturn lo\n\t}\n\tif v > hi {\n\t\treturn hi\n\t}\n\treturn v\n}\n")
	frags, err := Fragments(Go, src)
	if err != nil {
		t.Fatal(err)
	}
	f := &frags[0]
	m, err := Mutate(ModifyLogic, ModifyLogic.Sites(f)[0], rand.New(rand.NewPCG(1, 1)))
	if err != nil || m.Fate != FateOK {
		t.Fatalf("mutate: %v %v", m.Fate, err)
	}
	c := &Candidate{File: "clamp.go", Frag: f, Level: L1, Ops: []string{"modifylogic"}, Seed: 1,
		Records: []Record{m.Record}, Src: m.Src, Tests: []string{"TestClamp"}, Policy: RequireCompile}
	var tasks []adapt.Task
	for _, cl := range []ContextLevel{C1, C2, C3} {
		g, err := newTask(taskProject{}, c, cl, "clamp")
		if err != nil {
			t.Fatal(err)
		}
		tasks = append(tasks, g)
	}
	return tasks
}

// TestTaskLabelsAndDetail checks that a task's labels are grouping keys
// only (LabelKeys, no per-task value) and that its Detail survives
// adapt's task format and locates F′, F and the mutation.
func TestTaskLabelsAndDetail(t *testing.T) {
	tasks := clampTasks(t)
	for _, task := range tasks {
		for k, v := range task.Labels {
			if !slices.Contains(LabelKeys, k) {
				t.Errorf("%s: label %s=%q is not one of LabelKeys %v: per-task data belongs in the Detail", task.ID, k, v, LabelKeys)
			}
			if v == "" || strings.ContainsAny(v, "{[,") {
				t.Errorf("%s: label %s=%q is not a grouping value", task.ID, k, v)
			}
		}
		if task.Provenance.Schema != DetailSchema {
			t.Errorf("%s: schema %q, want %q", task.ID, task.Provenance.Schema, DetailSchema)
		}
	}
	var buf bytes.Buffer
	if err := adapt.WriteTasks(&buf, tasks); err != nil {
		t.Fatal(err)
	}
	back, err := adapt.ReadTasks(&buf, "tasks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	require.Equal(t, tasks, back, "write then read changed the tasks")
	task := &back[0]
	d, err := DetailOf(task)
	if err != nil {
		t.Fatal(err)
	}
	if snip, _ := Snippet(task); snip != task.Code[d.Snippet.Start:d.Snippet.End] || !strings.Contains(snip, "if v") {
		t.Errorf("snippet %q, detail %+v", snip, d)
	}
	if got := task.Reference[d.Reference.Start:d.Reference.End]; !strings.Contains(got, "if v < lo") {
		t.Errorf("F in the reference: %q", got)
	}
	if len(d.Mutations) != 1 || d.Mutations[0].Operator != "modifylogic" || d.Mutations[0].Tier != TierStructural {
		t.Errorf("mutations %+v", d.Mutations)
	}
	in, err := Inspect(task, task.Reference)
	if err != nil || in.Reversed() != 1 {
		t.Errorf("Inspect(reference) = %+v, %v: want the mutation reversed", in, err)
	}
}

func TestDetailOfErrors(t *testing.T) {
	good := clampTasks(t)[0]
	tests := []struct {
		name   string
		change func(*adapt.Task)
		want   string
		schema bool
		reason string
	}{
		{"no provenance", func(t *adapt.Task) { t.Provenance = nil }, "no provenance", true, "a hand-made task has no record"},
		{"other schema", func(t *adapt.Task) { t.Provenance.Schema = "ctxbug/v1" }, `"ctxbug/v1" (want "mutate/v2"`, true, "a task of another generator is not misread"},
		{"unknown field", func(t *adapt.Task) { t.Provenance.Detail = []byte(`{"snippet":{"start":0,"end":1},"offsets":[1]}`) }, `unknown field "offsets"`, false, "a record of another version is not misread"},
		{"range", func(t *adapt.Task) {
			SetDetail(t, &Detail{Snippet: Range{0, len(t.Code) + 1}})
		}, "snippet range", false, "a range outside the code"},
	}
	for _, tc := range tests {
		task := good
		p := *good.Provenance
		task.Provenance = &p
		tc.change(&task)
		_, err := DetailOf(&task)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `task "`+good.ID+`"`) {
			t.Errorf("%s: DetailOf = %v, want an error naming the task and %q (%s)", tc.name, err, tc.want, tc.reason)
		}
		if errors.Is(err, adapt.ErrDetailSchema) != tc.schema {
			t.Errorf("%s: errors.Is(err, adapt.ErrDetailSchema) = %v, want %v", tc.name, !tc.schema, tc.schema)
		}
	}
}

// TestSnippetAfterFirstGuard checks F′'s range when RemoveGuard deletes
// the fragment's first statement (from its line start, before the
// fragment): the Detail's snippet starts at F′'s first statement and ends
// at its last, and the prompt shows no stray indent.
func TestSnippetAfterFirstGuard(t *testing.T) {
	for _, tc := range []struct {
		name, src, first, last string
	}{
		{"go/blank-line", "package p\n\nfunc Pos(s string) int {\n\tif s == \"\" {\n\t\treturn -1\n\t}\n\n\tpos := len(s) + len(s)\n\tpos--\n\treturn pos\n}\n", "pos := len(s) + len(s)", "return pos"},
		{"go/last", "package p\n\nfunc Pos(s string) int {\n\tpos := len(s)\n\tpos--\n\tif pos < 0 {\n\t\treturn 0\n\t}\n}\n", "pos := len(s)", "pos--"},
		{"java/blank-line", "class A {\n    int pos(String s) {\n        if (s == null) return -1;\n\n        int pos = s.length();\n        pos--;\n        return pos;\n    }\n}\n", "int pos = s.length();", "return pos;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lang := Go
			if strings.HasPrefix(tc.name, "java") {
				lang = Java
			}
			frags, err := Fragments(lang, []byte(tc.src))
			if err != nil || len(frags) == 0 {
				t.Fatalf("fragments: %v %v", frags, err)
			}
			f := &frags[0]
			sites := RemoveGuard.Sites(f)
			if len(sites) != 1 {
				t.Fatalf("%d removeguard sites, want 1", len(sites))
			}
			m, err := Mutate(RemoveGuard, sites[0], rand.New(rand.NewPCG(1, 1)))
			if err != nil || m.Fate != FateOK {
				t.Fatalf("mutate: %v %v", m.Fate, err)
			}
			c := &Candidate{File: "a", Frag: f, Level: L1, Ops: []string{"removeguard"}, Seed: 1,
				Records: []Record{m.Record}, Src: m.Src, Tests: []string{"T"}, Policy: RequireCompile}
			task, err := newTask(taskProject{java: lang == Java}, c, C1, "x")
			if err != nil {
				t.Fatal(err)
			}
			snip, err := Snippet(&task)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(snip, tc.first) || !strings.HasSuffix(snip, tc.last) {
				t.Errorf("snippet %q, want it from %q to %q", snip, tc.first, tc.last)
			}
			msgs, err := Prompt.Render(&task)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(msgs[0].Content, "```go\n"+tc.first) && !strings.Contains(msgs[0].Content, "```java\n"+tc.first) {
				t.Errorf("prompt does not show the snippet's first line unindented:\n%s", msgs[0].Content)
			}
		})
	}
}

// TestContextMarkers checks the C2 and C3 contexts: each marker comment on
// a line of its own with the snippet's indentation, the snippet's first
// line keeping it, no line of white space only, and the context without
// the two marker lines the method (C2) or the file (C3) with F′ in place.
func TestContextMarkers(t *testing.T) {
	tasks := clampTasks(t)
	begin, end := markers("go")
	for _, task := range tasks[1:] {
		ctx := task.Context[0].Code
		snip, _ := Snippet(&task)
		want := "\t" + begin + "\n\t" + snip + "\n\t" + end + "\n"
		if !strings.Contains(ctx, want) {
			t.Errorf("%s: context\n%s\nhas no\n%s", task.ID, ctx, want)
		}
		for i, l := range strings.Split(ctx, "\n") {
			if l != "" && strings.TrimSpace(l) == "" {
				t.Errorf("%s: context line %d is white space only: %q", task.ID, i+1, l)
			}
		}
		plain := strings.Replace(strings.Replace(ctx, "\t"+begin+"\n", "", 1), "\t"+end+"\n", "", 1)
		whole := task.Code
		if task.Labels[LabelContext] == "C3" {
			whole = strings.Replace(task.Target.Content, task.Reference, task.Code, 1)
		}
		if plain != whole {
			t.Errorf("%s: context without its markers\n%s\nwant\n%s", task.ID, plain, whole)
		}
	}
}

// TestDetailOfV1 checks that a task written before the detail had the
// failing tests and the effective level (schema mutate/v1) still decodes.
func TestDetailOfV1(t *testing.T) {
	task := clampTasks(t)[0]
	d, err := DetailOf(&task)
	if err != nil {
		t.Fatal(err)
	}
	v1 := *d
	v1.Failing, v1.Effective = nil, 0
	b, _ := json.Marshal(v1)
	task.Provenance.Schema, task.Provenance.Detail = "mutate/v1", b
	got, err := DetailOf(&task)
	if err != nil || !slices.Equal(got.Mutations[0].Changes, d.Mutations[0].Changes) || got.Snippet != d.Snippet {
		t.Errorf("DetailOf(v1) = %+v, %v", got, err)
	}
}

// TestC1ShowsTheNameToRestore: a renamed variable or a dropped receiver
// whose name F′ no longer shows is made at C2 and C3 only; one F′ still
// shows is made at C1 too, and its prompt shows the name. Each C1 prompt
// shows every name its restoration needs.
func TestC1ShowsTheNameToRestore(t *testing.T) {
	src := []byte("package p\n\ntype Counter struct{ n, max int }\n\n" +
		"func (c *Counter) Add(d int) int {\n\ttotal := c.n + d\n\tif total > c.max {\n\t\ttotal = c.max\n\t}\n\tc.n = total\n\treturn total\n}\n\n" +
		"func (c *Counter) Set(v int) int {\n\tif v < 0 {\n\t\tv = 0\n\t}\n\tc.n = v\n\treturn v\n}\n")
	frags, err := Fragments(Go, src)
	require.NoError(t, err)
	var cands []*Candidate
	for k := range frags {
		f := &frags[k]
		for _, op := range []*Operator{renameVar, dropReceiver} {
			for i, site := range op.Sites(f) {
				for j := range max(1, len(site.Choices)) {
					m, err := Mutate(op, site, rand.New(rand.NewPCG(uint64(i), uint64(j))))
					require.NoError(t, err)
					if m.Fate != FateOK {
						continue
					}
					cands = append(cands, &Candidate{File: "c.go", Frag: f, Level: L1, Ops: []string{op.Name}, Seed: uint64(j),
						Records: []Record{m.Record}, Src: m.Src, Tests: []string{"TestAdd"}, Policy: AllowUnresolved, Failing: []string{"TestAdd"}})
				}
			}
		}
	}
	g := &generation{p: taskProject{}, c: Options{Contexts: []ContextLevel{C1, C2, C3}}, res: &Result{Candidates: cands}}
	require.NoError(t, g.makeTasks())
	atC1 := map[*Candidate]bool{}
	made := map[*Candidate]int{}
	for i, task := range g.res.Tasks {
		c := g.res.From[i]
		made[c]++
		if task.Labels[LabelContext] != "C1" {
			continue
		}
		atC1[c] = true
		msgs, err := Prompt.Render(&task)
		require.NoError(t, err)
		for _, ch := range c.Records[0].Changes {
			for _, w := range wordRE.FindAllString(ch.Old, -1) {
				assert.Regexp(t, `\b`+w+`\b`, msgs[0].Content, "%s: C1 prompt hides %q, the name to restore", task.ID, w)
			}
		}
	}
	hidden := map[string]int{}
	shown := map[string]int{}
	for _, c := range cands {
		if atC1[c] {
			shown[c.Ops[0]]++
			assert.Equal(t, 3, made[c])
		} else {
			hidden[c.Ops[0]]++
			assert.Equal(t, 2, made[c], "%s: a mutant held back from C1 is still made at C2 and C3", c.Key())
		}
	}
	// d renamed is gone from F′; c.n, c.max made n, max leave c. elsewhere;
	// Set's one c.n made n leaves no c.
	assert.Positive(t, hidden["renamevar"], "a renamed variable F′ no longer shows is not made at C1")
	assert.Positive(t, hidden["dropreceiver"], "a dropped receiver F′ no longer shows is not made at C1")
	assert.Positive(t, shown["dropreceiver"], "a dropped receiver F′ still shows is made at C1")
	t.Logf("held back from C1 %v, made at C1 %v", hidden, shown)
}
