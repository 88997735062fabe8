package adapteval_test

import (
	"errors"
	"os"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
)

// fixture loads testdata/repo, a small repository in the published layout
// written for these tests:
//
//	101.strutil.slugify          rename, a parameter with two tests, a call update, a helper call; Oracle: variable, function, imports
//	102.logging.record           a method; context file logging.py imported as ctx_logging; a repeated adaptation id; Oracle: class block
//	103.stats.moving_average     decorated target; skipped id; an adaptation without test
//	103.stats.clamp              same context file; inherited test methods; an unknown test name, an unknown type, no description
//	104.fetch.fetch_json         the context file imports a module that is not installed (invalid at evaluation); raw snippet name
//	105.gone.vanish              in metadata.json only: left out
func fixture(t testing.TB) ([]adapt.Task, *adapteval.LoadReport) {
	t.Helper()
	tasks, rep, err := adapteval.Load(os.DirFS("testdata/repo"), ".")
	require.NoError(t, err)
	require.Len(t, tasks, 5)
	return tasks, rep
}

func taskByID(t testing.TB, tasks []adapt.Task, id string) *adapt.Task {
	t.Helper()
	for i := range tasks {
		if tasks[i].ID == id {
			return &tasks[i]
		}
	}
	t.Fatalf("no task %s", id)
	return nil
}

func TestLoadFixture(t *testing.T) {
	tasks, rep := fixture(t)
	var ids []string
	for _, tk := range tasks {
		ids = append(ids, tk.ID)
		require.NoError(t, tk.Validate())
	}
	assert.Equal(t, []string{"101.strutil.slugify", "102.logging.record", "103.stats.moving_average", "103.stats.clamp", "104.fetch.fetch_json"}, ids, "metadata order")
	assert.Equal(t, adapteval.LoadReport{Repos: 5, Tasks: 6, Adaptations: 17, Loaded: 5}, adapteval.LoadReport{Repos: rep.Repos, Tasks: rep.Tasks, Adaptations: rep.Adaptations, Loaded: rep.Loaded})
	assert.Equal(t, []string{"105.gone.vanish"}, rep.Skipped())

	type issue struct {
		Task string
		Kind string
	}
	var got []issue
	for _, is := range rep.Issues {
		got = append(got, issue{is.Task, is.Kind})
	}
	want := []issue{
		{"102.logging.record", adapteval.IssueDuplicateID},
		{"103.stats.moving_average", adapteval.IssueSkippedID},
		{"103.stats.moving_average", adapteval.IssueUntested},
		{"103.stats.clamp", adapteval.IssueUnknownType},
		{"104.fetch.fetch_json", adapteval.IssueSnippetName},
		{"103.stats.clamp", adapteval.IssueDescription},
		{"105.gone.vanish", adapteval.IssueDescription},
		{"102.logging.record", adapteval.IssueCtxImport},
		{"103.stats.clamp", adapteval.IssueUnknownTest},
		{"105.gone.vanish", adapteval.IssueMissingFile},
		{"", adapteval.IssueOracleSource},
	}
	assert.Equal(t, want, got, "issues")

	slug := taskByID(t, tasks, "101.strutil.slugify")
	assert.Equal(t, adapt.Target{Path: "strutil.py", Function: "slugify", Content: slug.Target.Content}, slug.Target, "the test imports strutil")
	assert.Equal(t, "def make_slug(text):\n    text = text.lower().strip()\n    words = text.split()\n    return '-'.join(words)\n", slug.Code, "the snippet, verbatim")
	assert.Equal(t, "The adaptation task involves renaming the function, adding a maximum length, splitting on non-alphanumeric runs and folding accents.\n",
		slug.Requirement.Task, "the description, verbatim")
	assert.Equal(t, []string{"test_strutil_slugify.TestSlugify.test_max_length_parameter", "test_strutil_slugify.TestSlugify.test_truncates_without_trailing_separator"},
		slug.StepTests("1"), "an adaptation with two tests")
	var functionLevel []string
	for _, tc := range slug.Tests {
		if len(tc.Steps) == 0 {
			functionLevel = append(functionLevel, tc.Name)
		}
	}
	assert.Equal(t, []string{"test_strutil_slugify.TestSlugify.test_empty", "test_strutil_slugify.TestSlugify.test_lowercase"}, functionLevel,
		"every test no adaptation lists is function-level")
	assert.Equal(t, []adapt.Snippet{
		{Name: "SEPARATOR", Code: `SEPARATOR = "-"`},
		{Name: "normalize", Code: "def normalize(text):\n    return unicodedata.normalize(\"NFKD\", text).encode(\"ascii\", \"ignore\").decode(\"ascii\")"},
		{Name: "Imports", Code: "import re\nimport unicodedata"},
	}, slug.Context, "Oracle: in-file variable, in-file function, imports of the external packages")

	rec := taskByID(t, tasks, "102.logging.record")
	assert.Equal(t, "ctx_logging.py", rec.Target.Path, "the test imports ctx_logging")
	var steps []string
	for _, s := range rec.Requirement.Steps {
		steps = append(steps, s.ID+" "+s.Type)
	}
	assert.Equal(t, []string{"0 Logic.Conv_Type", "1 Logic.Ins_Cond", "1#2 Logic.Ins_Call", "2 Method_Signature.Ins_Param"}, steps)
	assert.Equal(t, []string{"test_logging_record.TestRecord.test_logs_event"}, rec.StepTests("1#2"))
	assert.Equal(t, []adapt.Snippet{
		{Name: "EventLog", Code: "class EventLog:\n    max_events = 100\n    def __init__(self, name):\n        self.name = name\n        self.events = []\n        self.logger = logging.getLogger(name)"},
		{Name: "Imports", Code: "import logging\nimport time"},
	}, rec.Context, "Oracle: the class header, its class-level assignments and __init__, once for the three fields")

	avg := taskByID(t, tasks, "103.stats.moving_average")
	assert.Equal(t, "@checked\ndef moving_average(values: list[float], window: int = 3) -> list[float]:\n    averages = []\n    for i in range(len(values) - window + 1):\n        averages.append(sum(values[i:i + window]) / window)\n    return averages\n",
		avg.Reference, "the reference keeps its decorator")
	assert.Empty(t, avg.StepTests("3"), "adaptation 3 has no test")

	clamp := taskByID(t, tasks, "103.stats.clamp")
	var names []string
	for _, tc := range clamp.Tests {
		names = append(names, tc.Name)
	}
	assert.Equal(t, []string{"test_stats_clamp.TestClamp.test_defaults", "test_stats_clamp.TestClamp.test_inside", "test_stats_clamp.TestClamp.test_outside", "test_stats_clamp.TestClamp.test_rename"},
		names, "inherited test methods count, sorted as unittest runs them")
	assert.Equal(t, []string{"test_stats_clamp.TestClamp.test_defaults"}, clamp.StepTests("1"), "the unknown test name is dropped")
	assert.Empty(t, clamp.Requirement.Task, "no description")
	assert.Empty(t, clamp.Context)
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name   string
		fsys   fstest.MapFS
		want   string
		reason string
	}{
		{"no metadata", fstest.MapFS{}, "metadata.json", "the one file that must be there"},
		{"not a list", fstest.MapFS{"metadata.json": {Data: []byte(`{"id": 1}`)}}, "metadata.json: adapteval: bad format: want a JSON array", "the file names itself and the expected shape"},
		{"no method name", fstest.MapFS{"metadata.json": {Data: []byte(`[{"id": 1, "repo_name": "a/b", "src_files": [{"file_name": "x.py", "linked_methods": [{}]}]}]`)}},
			"linked method without method_name", "a task needs a name"},
		{"bad description line", fstest.MapFS{
			"metadata.json":           {Data: []byte(`[]`)},
			"task_descriptions.jsonl": {Data: []byte("{\n")}},
			"task_descriptions.jsonl:1", "the line is named"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := adapteval.Load(tc.fsys, ".")
			require.Error(t, err, tc.reason)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
		})
	}
	_, _, err := adapteval.Load(fstest.MapFS{"metadata.json": {Data: []byte(`7`)}}, ".")
	var pe *adapt.ParseError
	assert.True(t, errors.As(err, &pe), "a *adapt.ParseError")
	assert.ErrorIs(t, err, adapteval.ErrFormat)
}

// TestLoadTolerates checks, on an in-memory repository, irregularities the
// fixture does not have: a test module that imports the context module by
// neither name, a method the context file does not define, a test module
// without the test class, and the GitHub file of the tarball layout as the
// Oracle source.
func TestLoadTolerates(t *testing.T) {
	meta := `[{"id": 7, "repo_name": "o/proj", "src_files": [{"file_name": "m.py", "relative_path": "pkg/m.py", "linked_methods": [
	  {"method_name": "f", "so_clone": "1_0_clean.py", "annotated_adaptations": [{"id": 0, "type": "Logic.Ins_Call", "description": "d", "associated_tests": ["test_a"],
	    "dependencies": {"in_class": {"fields": [], "methods": []}, "in_file": {"variables": [], "functions": []}, "in_repo": {"variables": [], "functions": []}, "external": []}}],
	   "dependencies": {"in_class": {"fields": [], "methods": []}, "in_file": {"variables": ["LIMIT"], "functions": []}, "in_repo": {"variables": [], "functions": ["pkg/util.py::helper"]}, "external": ["os.path"]}},
	  {"method_name": "g", "so_clone": "1_0_clean.py", "annotated_adaptations": [], "dependencies": {"in_class": {"fields": [], "methods": []}, "in_file": {"variables": [], "functions": []}, "in_repo": {"variables": [], "functions": []}, "external": []}},
	  {"method_name": "h", "so_clone": "1_0_clean.py", "annotated_adaptations": [], "dependencies": {"in_class": {"fields": [], "methods": []}, "in_file": {"variables": [], "functions": []}, "in_repo": {"variables": [], "functions": []}, "external": []}}
	]}]}]`
	d := "benchmark/7/dataset_items/"
	fsys := fstest.MapFS{
		"metadata.json":                {Data: []byte(meta)},
		d + "1_0_clean.py":             {Data: []byte("def f0():\n    pass\n")},
		d + "m.py":                     {Data: []byte("import os\n\ndef f():\n    return 1\n\ndef h():\n    return 2\n")},
		d + "test_m_f.py":              {Data: []byte("import unittest\nimport importlib\nm = importlib.import_module('ctx_m')\n\nclass TestF(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(m.f(), 1)\n")},
		d + "test_m_g.py":              {Data: []byte("import unittest\nclass TestG(unittest.TestCase):\n    def test_a(self):\n        pass\n")},
		d + "test_m_h.py":              {Data: []byte("import unittest\nfrom m import h\nclass Other(unittest.TestCase):\n    def test_a(self):\n        pass\n")},
		"benchmark/7/proj/pkg/m.py":    {Data: []byte("import os\nimport os.path\nimport sys\n\nLIMIT = 10\n\ndef f():\n    return 1\n")},
		"benchmark/7/proj/pkg/util.py": {Data: []byte("def helper(x):\n    return x\n")},
	}
	tasks, rep, err := adapteval.Load(fsys, ".")
	require.NoError(t, err)
	require.Len(t, tasks, 1)
	f := tasks[0]
	assert.Equal(t, "ctx_m.py", f.Target.Path, "named in a string only: ctx_m")
	assert.Equal(t, []adapt.Snippet{
		{Name: "LIMIT", Code: "LIMIT = 10"},
		{Name: "pkg/util.py::helper", Code: "def helper(x):\n    return x"},
		{Name: "Imports", Code: "import os"},
	}, f.Context, "built from the GitHub file and the repository's other file; import os.path is not an import of os")
	kinds := map[string]int{}
	for _, is := range rep.Issues {
		kinds[is.Kind]++
	}
	assert.Equal(t, map[string]int{
		adapteval.IssueContextImport: 1, // f: only a string names ctx_m
		adapteval.IssueNoAdaptations: 2, // g, h
		adapteval.IssueDescription:   3,
		adapteval.IssueNoTarget:      1, // g is not in m.py
		adapteval.IssueNoTestClass:   1, // h's module has no TestH
	}, kinds)
	assert.Equal(t, []string{"7.m.g", "7.m.h"}, rep.Skipped())
}
