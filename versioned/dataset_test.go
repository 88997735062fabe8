package versioned_test

import (
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/adaptbench/adaptbench/internal/testenv"

	"github.com/adaptbench/adaptbench/versioned"
)

// dataDir is ../shared/data/gitchameleon, or the test skips.
func dataDir(t *testing.T) string { return testenv.DataPath(t, "gitchameleon") }

func TestDataset(t *testing.T) {
	dir := dataDir(t)
	ps, err := versioned.ReadFile(filepath.Join(dir, "dataset.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 328 {
		t.Fatalf("got %d problems, want 328", len(ps))
	}
	libs := map[string]bool{}
	compat := map[string]bool{}
	ids := map[string]bool{}
	pythons := map[string]int{}
	docs := map[int]int{}
	extra, functional, webdev := 0, 0, 0
	for _, p := range ps {
		libs[p.Library] = true
		compat[p.CompatKey()] = true
		ids[p.ID] = true
		pythons[p.PythonVersion]++
		docs[len(p.Docs)]++
		if p.ExtraDeps != "" {
			extra++
		}
		if p.Functional {
			functional++
		}
		if p.WebDev {
			webdev++
		}
		if len(p.Raw) < 17 {
			t.Errorf("problem %s: %d raw keys, want at least 17", p.ID, len(p.Raw))
		}
	}
	check := func(what string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s: got %v, want %v", what, got, want)
		}
	}
	check("libraries", len(libs), 26)
	check("upstream environment keys", len(compat), 99)
	check("records with extra_dependencies", extra, 48)
	check("functional", functional, 241+62)
	check("webdev", webdev, 39+36)
	check("python 3.10", pythons["3.10"], 219)
	check("python 3.7", pythons["3.7"], 67)
	check("python 3.9", pythons["3.9"], 42)
	check("1 doc", docs[1], 140)
	check("2 docs", docs[2], 168)
	check("3 docs", docs[3], 20)
	var missing []string
	for i := 0; i <= 330; i++ {
		if id := strconv.Itoa(i); !ids[id] {
			missing = append(missing, id)
		}
	}
	if !slices.Equal(missing, []string{"81", "235", "236"}) {
		t.Errorf("missing ids %v, want [81 235 236]", missing)
	}

	sols, err := versioned.ReadSolutionsFile(filepath.Join(dir, "ground_truth_solutions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	gt := map[string]string{}
	for _, s := range sols {
		gt[s.ExampleID] = s.Answer
	}
	check("ground truth records", len(gt), 328)
	for _, p := range ps {
		if got, ok := gt[p.ID]; !ok || got != p.Reference() {
			t.Errorf("problem %s: starting_code+solution differs from the ground truth", p.ID)
		}
	}

	tasks, err := versioned.Tasks(ps, "dataset.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	specs := map[string]bool{}
	for i, task := range tasks {
		p := ps[i]
		if task.Env == nil || task.Env.Runtime != p.PythonVersion || task.Env.Packages[0].Name != p.Library || task.Env.Packages[0].Version != p.Version {
			t.Fatalf("task %s: env %+v does not name python %s and %s==%s", task.ID, task.Env, p.PythonVersion, p.Library, p.Version)
		}
		if task.Target.Path != "sample_"+p.ID+".py" || task.Reference != gt[p.ID] {
			t.Errorf("task %s: target %q or reference differs", task.ID, task.Target.Path)
		}
		specs[versioned.SpecOf(*task.Env).Key()] = true
	}
	// The content key covers extra_dependencies: the two librosa 0.8.0
	// records that share an upstream key but differ in joblib get two.
	check("content keys", len(specs), 100)
}
