package versioned_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/versioned"
)

// checkLabelKeys fails when a task carries a label that is not one of
// LabelKeys, or a value that looks like per-task data (a list, JSON).
func checkLabelKeys(t *testing.T, tasks []adapt.Task) {
	t.Helper()
	for _, task := range tasks {
		for k, v := range task.Labels {
			if !slices.Contains(versioned.LabelKeys, k) {
				t.Errorf("%s: label %s=%q is not one of LabelKeys %v: per-task data belongs in the Detail", task.ID, k, v, versioned.LabelKeys)
			}
			if strings.ContainsAny(v, ",{[") {
				t.Errorf("%s: label %s=%q is not a grouping value", task.ID, k, v)
			}
		}
	}
}

func TestGoTasksDetail(t *testing.T) {
	tasks, err := versioned.GoTasks()
	if err != nil {
		t.Fatal(err)
	}
	checkLabelKeys(t, tasks)
	var buf bytes.Buffer
	if err := adapt.WriteTasks(&buf, tasks); err != nil {
		t.Fatal(err)
	}
	back, err := adapt.ReadTasks(&buf, "tasks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	assert.Equal(t, tasks, back, "tasks written and read back")
	for i := range back {
		d, err := versioned.DetailOf(&back[i])
		if err != nil {
			t.Fatal(err)
		}
		if d.Version != back[i].Env.Packages[0].Version || d.OtherVersion == "" || d.Runtime != "1.23" || d.Function == "" ||
			len(d.VisibleTests) != 1 || len(d.APICalls) == 0 || back[i].Labels["year"] != d.Release[:4] {
			t.Errorf("%s: detail %+v, labels %v", back[i].ID, d, back[i].Labels)
		}
	}
}

func TestDetailOfErrors(t *testing.T) {
	task := adapt.Task{ID: "x", Tests: []adapt.Test{{Name: "a"}, {Name: "b"}}}
	if _, err := versioned.DetailOf(&task); !errors.Is(err, adapt.ErrDetailSchema) || !strings.Contains(err.Error(), `versioned: task "x"`) {
		t.Errorf("DetailOf(no provenance) = %v, want adapt.ErrDetailSchema naming the task", err)
	}
	if got := versioned.VisibleTests(&task); !cmp.Equal(got, []string{"a", "b"}) {
		t.Errorf("VisibleTests(no detail) = %v, want every test", got)
	}
	if err := versioned.SetDetail(&task, &versioned.Detail{Version: "1.0", Release: "2021-06", VisibleTests: []string{"b"}}); err != nil {
		t.Fatal(err)
	}
	if task.Labels["year"] != "2021" || !cmp.Equal(versioned.VisibleTests(&task), []string{"b"}) || !cmp.Equal(versioned.HiddenTests(&task), []string{"a"}) {
		t.Errorf("after SetDetail: labels %v, visible %v, hidden %v", task.Labels, versioned.VisibleTests(&task), versioned.HiddenTests(&task))
	}
	for _, tc := range []struct{ name, schema, detail, want string }{
		{"other schema", "ctxbug/v1", `{}`, `wrong provenance schema: "ctxbug/v1" (want "versioned/v1"`},
		{"no version", versioned.DetailSchema, `{"runtime":"3.7"}`, "has no version"},
		{"comma list", versioned.DetailSchema, `{"version":"1","api_calls":"a,b"}`, "cannot unmarshal string"},
	} {
		task.Provenance.Schema, task.Provenance.Detail = tc.schema, []byte(tc.detail)
		if _, err := versioned.DetailOf(&task); err == nil || !strings.Contains(err.Error(), `task "x"`) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: DetailOf = %v, want an error naming the task and %q", tc.name, err, tc.want)
		}
	}
}
