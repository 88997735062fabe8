package versioned_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/versioned"
)

func TestFlag(t *testing.T) {
	tests := []struct {
		name, in string
		want     versioned.Flag
		wantErr  bool
		reason   string
	}{
		{"int/1", `1`, true, false, "241 records write functional as 1"},
		{"string/1", `"1"`, true, false, "62 records write it as \"1\""},
		{"int/0", `0`, false, false, "11 records"},
		{"string/0", `"0"`, false, false, "14 records"},
		{"bool", `true`, true, false, "a JSON boolean is the obvious spelling"},
		{"bad", `"yes"`, false, true, "anything else is a data error"},
		{"two", `2`, false, true, "not a flag"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var f versioned.Flag
			err := json.Unmarshal([]byte(tc.in), &f)
			if (err != nil) != tc.wantErr || f != tc.want {
				t.Errorf("%s: got %v, %v; want %v, error %v (%s)", tc.in, f, err, tc.want, tc.wantErr, tc.reason)
			}
		})
	}
}

func TestSolutionAliases(t *testing.T) {
	in := `{"example_id":"1","answer":"a"}
{"example_id":"2","solution":"s","output":"o"}
{"example_id":3,"output":"o"}
`
	got, err := versioned.ReadSolutions(strings.NewReader(in), "s.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := []versioned.Solution{{"1", "a"}, {"2", "s"}, {"3", "o"}}
	assert.Equal(t, want, got, "value")
	_, err = versioned.ReadSolutions(strings.NewReader(`{"example_id":"1"}`), "s.jsonl")
	var pe *adapt.ParseError
	if !errors.As(err, &pe) || pe.Line != 1 {
		t.Errorf("no answer: got %v, want a ParseError on line 1", err)
	}
}

const record = `{"python_version":"3.7","library":"librosa","version":"0.8.0","problem":"p","starting_code":"import librosa\ndef f():\n","example_id":"7","test":"assert f() == \"\u00e9\"\n","solution":"    return 1","type_of_change":"name change","name_of_class_or_func":"f","additional_dependencies":"numpy==1.16.0 -","extra_dependencies":"joblib==0.12 soundfile","functional":"1","webdev":0,"solution_api_call":true,"api_calls":[],"release_date":"2020-07","docs":["u"],"new_key":{"x":1}}`

func TestProblem(t *testing.T) {
	ps, err := versioned.Read(strings.NewReader(record+"\n\n"), "d.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p := ps[0]
	if !p.Functional || p.WebDev || string(p.Raw["new_key"]) != `{"x":1}` {
		t.Errorf("flags or unknown key lost: %+v", p)
	}
	wantEnv := adapt.Environment{Runtime: "3.7", Packages: []adapt.Package{
		{Name: "librosa", Version: "0.8.0"}, {Name: "numpy", Version: "1.16.0"},
		{Name: "joblib", Version: "0.12"}, {Name: "soundfile"},
	}}
	assert.Equal(t, wantEnv, p.Environment(), "environment")
	// sha256("3.7-librosa-0.8.0-numpy==1.16.0 -")[:12], as Python's
	// hashlib computes it.
	if got, want := p.CompatKey(), "6269fffcad0a"; got != want {
		t.Errorf("CompatKey = %s, want %s", got, want)
	}
	task, err := p.Task("d.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if task.Target.Path != "sample_7.py" || task.Reference != "import librosa\ndef f():\n    return 1" || task.Labels["library"] != "librosa" {
		t.Errorf("task: %+v", task)
	}
	wantLabels := map[string]string{"benchmark": "gitchameleon", "library": "librosa", "python": "3.7", "type_of_change": "name change",
		"category": versioned.Categorize("name change").String(), "style": "functional", "webdev": "false", "year": "2020"}
	assert.Equal(t, wantLabels, task.Labels, "labels")
	checkLabelKeys(t, []adapt.Task{task})
	d, err := versioned.DetailOf(&task)
	if err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, &versioned.Detail{Version: "0.8.0", Release: "2020-07", Runtime: "3.7", VisibleTests: []string{versioned.VisibleTestName}}, d, "detail")
	if !strings.Contains(task.Files[0].Content, `VISIBLE_TEST = "assert f() == \"é\"\n"`) {
		t.Errorf("visible test not embedded as a Python literal:\n%s", task.Files[0].Content)
	}

	for _, bad := range []string{`{"example_id":"1"}`, `{"example_id":"1","library":"x","version":"1","starting_code":"s","functional":"x"}`, `[`} {
		_, err := versioned.Read(strings.NewReader("\n"+bad), "d.jsonl")
		var pe *adapt.ParseError
		if !errors.As(err, &pe) || pe.Line != 2 || pe.Path != "d.jsonl" {
			t.Errorf("%s: got %v, want a ParseError at d.jsonl:2", bad, err)
		}
	}
}

func TestSpecKey(t *testing.T) {
	a := versioned.EnvSpec{Python: "3.10", Packages: []adapt.Package{{Name: "numpy", Version: "1.21.0"}}}
	b := versioned.EnvSpec{Python: "3.10", Packages: []adapt.Package{{Name: "numpy", Version: "1.25.0"}}}
	if a.Key() == b.Key() || a.Key() != versioned.SpecOf(adapt.Environment{Runtime: "3.10", Packages: a.Packages}).Key() {
		t.Errorf("keys: %s %s", a.Key(), b.Key())
	}
}

func FuzzRead(f *testing.F) {
	f.Add(record)
	f.Add(`{"example_id":"1","library":"x","version":"1","starting_code":"s","functional":"1"}`)
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := versioned.Read(strings.NewReader(s), "f.jsonl")
		if err != nil {
			return
		}
		for _, p := range ps {
			if _, err := p.Task("f.jsonl"); err != nil && !strings.Contains(err.Error(), "invalid task") {
				t.Errorf("task %q: %v", p.ID, err)
			}
		}
	})
}

func TestSolutionModel(t *testing.T) {
	m := versioned.SolutionModelOf("file", []versioned.Solution{{"1", "x = 1\n"}, {"2", "text\n```python\ny = 2\n```\n"}})
	for _, tc := range []struct{ id, want, wantErr string }{
		{"1", "```python\nx = 1\n```\n", ""},
		{"2", "text\n```python\ny = 2\n```\n", ""},
		{"3", "", `versioned: no solution for "3"`},
	} {
		cs, err := m.Complete(t.Context(), adapt.Request{Task: &adapt.Task{ID: tc.id}, Sampling: report.Sampling{N: 2}})
		if err != nil || len(cs) != 2 || cs[1].Text != tc.want || cs[1].Err != tc.wantErr {
			t.Errorf("task %s: got %+v, %v; want text %q, error %q", tc.id, cs, err, tc.want, tc.wantErr)
		}
	}
}
