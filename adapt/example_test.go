package adapt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

// A task in the directory format, inline: the snippet computes a mean, the
// target wants it renamed and safe on empty input.
var exampleFS = fstest.MapFS{
	"tasks/py-mean/task.json": {Data: []byte(`{
  "language": "python",
  "target": {"path": "stats.py", "function": "safe_mean"},
  "requirement": {"steps": [
    {"id": "0", "type": "Method_Signature.Rename_Func", "description": "Rename avg to safe_mean."},
    {"id": "1", "type": "Logic.Ins_Cond", "description": "Return 0.0 for an empty list."}
  ]},
  "tests": [
    {"name": "test_stats.T.test_mean", "file": "test_stats.py", "steps": ["0"]},
    {"name": "test_stats.T.test_empty", "file": "test_stats.py", "steps": ["1"]}
  ]
}`)},
	"tasks/py-mean/code.py":        {Data: []byte("def avg(xs):\n    return sum(xs) / len(xs)\n")},
	"tasks/py-mean/reference.py":   {Data: []byte("def safe_mean(xs):\n    if not xs:\n        return 0.0\n    return sum(xs) / len(xs)\n")},
	"tasks/py-mean/files/stats.py": {Data: []byte("def safe_mean(xs):\n    if not xs:\n        return 0.0\n    return sum(xs) / len(xs)\n")},
	"tasks/py-mean/files/test_stats.py": {Data: []byte(`import unittest
from stats import safe_mean

class T(unittest.TestCase):
    def test_mean(self):
        self.assertEqual(safe_mean([1, 2, 3]), 2)

    def test_empty(self):
        self.assertEqual(safe_mean([]), 0.0)
`)},
}

func ExampleEvaluate() {
	tasks, err := adapt.LoadDir(exampleFS, "tasks")
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range []adapt.Model{adapt.Reference, adapt.Identity} {
		rep, err := adapt.Evaluate(context.Background(), tasks, m, nil)
		if err != nil {
			log.Fatal(err)
		}
		p1, _ := rep.Score(1)
		fmt.Printf("%s: pass@1 %.2f, outcomes %v\n", m.Name(), p1, rep.Outcomes)
	}
	// Output:
	// reference: pass@1 1.00, outcomes map[passed:1]
	// identity: pass@1 0.00, outcomes map[wrong-name:1]
}

func ExampleExtract() {
	tasks, _ := adapt.LoadDir(exampleFS, "tasks")
	completion := "Here is the adapted function:\n\n```python\nimport math\n\ndef helper():\n    pass\n\ndef safe_mean(xs):\n    return math.fsum(xs) / len(xs) if xs else 0.0\n```\n"
	a, err := adapt.Extract(&tasks[0], completion)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(a.Code)
	fmt.Println(a.Imports)
	// Output:
	// def safe_mean(xs):
	//     return math.fsum(xs) / len(xs) if xs else 0.0
	// [import math]
}

// Checker checks one answer against a task, outside Evaluate: here an
// answer that forgets the empty list.
func ExampleChecker() {
	tasks, err := adapt.LoadDir(exampleFS, "tasks")
	if err != nil {
		log.Fatal(err)
	}
	runner, done, err := sandbox.Default(nil)
	if err != nil {
		log.Fatal(err)
	}
	defer done()
	chk := &adapt.Checker{Runner: runner}
	res, err := chk.Check(context.Background(), &tasks[0], adapt.Answer{Code: "def safe_mean(xs):\n    return sum(xs) / len(xs)\n"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Outcome)
	for _, t := range res.Tests {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%s: %s %s", t.Name, t.Status, t.ErrorType)))
	}
	// Output:
	// failed
	// test_stats.T.test_mean: passed
	// test_stats.T.test_empty: error ZeroDivisionError
}

// Repair rounds: a model that gets it right once it sees the test output.
func ExampleRepair() {
	tasks, err := adapt.LoadDir(exampleFS, "tasks")
	if err != nil {
		log.Fatal(err)
	}
	learner := adapt.ModelFunc("learner", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
		code := "def safe_mean(xs):\n    return sum(xs) / len(xs)\n"
		if req.Round > 0 && strings.Contains(req.Messages[0].Content, "ZeroDivisionError") {
			code = "def safe_mean(xs):\n    return sum(xs) / len(xs) if xs else 0.0\n"
		}
		return []report.Completion{{Text: "```python\n" + code + "```\n"}}, nil
	})
	repair := &adapt.Repair{Name: "show-failures", Rounds: 2, Render: func(t *adapt.Task, last report.SampleResult) ([]adapt.Message, error) {
		var b strings.Builder
		fmt.Fprintf(&b, "Your code:\n%s\nfails these tests:\n", last.Code)
		for _, tc := range last.Tests {
			if tc.Status != exec.TestPassed {
				fmt.Fprintf(&b, "%s: %s\n", tc.Name, tc.ErrorType)
			}
		}
		return []adapt.Message{{Role: "user", Content: b.String()}}, nil
	}}
	rep, err := adapt.Evaluate(context.Background(), tasks, learner, &adapt.Options{Repair: repair})
	if err != nil {
		log.Fatal(err)
	}
	s := rep.PerTask[0].Samples[0]
	for i, r := range s.Rounds {
		fmt.Println("round", i, r.Outcome)
	}
	fmt.Println("final", s.Outcome)
	// Output:
	// round 0 failed
	// final passed
}

func ExampleFunnel() {
	var f report.Funnel
	f.Declare("made", "compiles", "fails a test")
	f.Add("rename", "made", 10)
	f.Add("rename", "compiles", 9)
	f.Add("rename", "fails a test", 4)
	f.Add("guard", "made", 5)
	f.Add("guard", "compiles", 5)
	f.Add("guard", "fails a test", 5)
	f.WriteTable(os.Stdout)
	// Output:
	// | group | made | compiles | fails a test |
	// |---|---:|---:|---:|
	// | rename | 10 | 9 | 4 |
	// | guard | 5 | 5 | 5 |
	// | total | 15 | 14 | 9 |
}

// Compare sets two runs side by side on the same tasks: here a careful
// model against a hasty one that forgets the empty list in half its
// samples. Runs are told apart by name.
func ExampleCompare() {
	tasks, err := adapt.LoadDir(exampleFS, "tasks")
	if err != nil {
		log.Fatal(err)
	}
	answer := func(careful bool) adapt.Model {
		return adapt.ModelFunc("demo", func(ctx context.Context, req adapt.Request) ([]report.Completion, error) {
			var out []report.Completion
			for _, s := range req.Samples {
				code := "def safe_mean(xs):\n    return sum(xs) / len(xs) if xs else 0.0\n"
				if !careful && s >= 2 {
					code = "def safe_mean(xs):\n    return sum(xs) / len(xs)\n"
				}
				out = append(out, report.Completion{Text: "```python\n" + code + "```\n"})
			}
			return out, nil
		})
	}
	run := func(name string, careful bool) *report.Report {
		rep, err := adapt.Evaluate(context.Background(), tasks, answer(careful), &adapt.Options{Name: name, Samples: 4, K: []int{1, 4}})
		if err != nil {
			log.Fatal(err)
		}
		return rep
	}
	c, err := report.Compare(run("hasty", false), run("careful", true))
	if err != nil {
		log.Fatal(err)
	}
	c.WriteMarkdown(os.Stdout)
	// Output:
	// ## careful (B) against hasty (A)
	//
	// | | A: hasty | B: careful | B − A (points) | 95% CI (bootstrap over tasks) | tasks |
	// |---|---:|---:|---:|---|---:|
	// | pass@1 | 50.00% | 100.00% | +50.00 | - | 1 |
	// | pass@4 | 100.00% | 100.00% | 0.00 | - | 1 |
	// | pass@1, adaptation (steps) | 75.00% | 100.00% | +25.00 | - | 2 |
	//
	// Each interval is a 95% percentile bootstrap (2000 resamples, seed 1) that resamples tasks, A and B together: pass@k over the tasks' values; the adaptation row over the tasks' steps, a resampled task bringing all of its steps (the steps of one task are not independent).
	//
	// | McNemar | pairs | A only | B only | p | test |
	// |---|---:|---:|---:|---:|---|
	// | tasks (majority of samples; the headline) | 1 | 0 | 1 | 1 | exact binomial |
	// | samples (by index; not independent) | 4 | 0 | 2 | 0.5 | exact binomial |
	//
	// Gained, fail → pass (1): py-mean
}

// Scoring answers made elsewhere: human-eval's samples, one line per
// sample, become a model that holds, for each task, the samples the file
// has. Evaluate(ctx, tasks, rp, nil) then scores each task on its own
// samples; Match first catches answers to tasks the set does not hold.
// LoadReplay reads a directory of answer files (EvalPlus's layout) the
// same way.
func ExampleLoadReplay() {
	samples := `{"task_id": "HumanEval/0", "completion": "    return True\n"}
{"task_id": "HumanEval/0", "completion": "    return False\n"}
{"task_id": "HumanEval/1", "completion": "    return 1\n"}
{"task_id": "HumanEval/9", "completion": "    return 9\n"}
`
	dir, err := os.MkdirTemp("", "replay")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "samples.jsonl")
	if err := os.WriteFile(file, []byte(samples), 0o644); err != nil {
		log.Fatal(err)
	}
	rp, err := adapt.LoadReplay("my-model", file)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rp.SampleCount("HumanEval/0"), rp.SampleCount("HumanEval/1"), rp.SampleCount("HumanEval/2"))
	tasks := []adapt.Task{{ID: "HumanEval/0"}, {ID: "HumanEval/1"}, {ID: "HumanEval/2"}}
	fmt.Println(rp.Match(tasks))
	// Output:
	// 2 1 0
	// adapt: replay my-model: 1 answered task ids are not in the task set: HumanEval/9
}

// ExampleNewBase: tasks made from one project share it as a base, which
// the task file holds once; each task line names it by digest.
func ExampleNewBase() {
	base, err := adapt.NewBase([]adapt.File{
		{Path: "go.mod", Content: "module example.com/calc\n\ngo 1.22\n"},
		{Path: "calc.go", Content: "package calc\n\nfunc Double(x int) int { return 2 * x }\n"},
		{Path: "calc_test.go", Content: "package calc\n\nimport \"testing\"\n\nfunc TestDouble(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Fatal()\n\t}\n}\n"},
	})
	if err != nil {
		log.Fatal(err)
	}
	var tasks []adapt.Task
	for _, code := range []string{"func Double(x int) int { return x }\n", "func Double(x int) int { return x * x }\n"} {
		tasks = append(tasks, adapt.Task{
			ID: fmt.Sprintf("calc-%d", len(tasks)), Language: adapt.Go, Code: code,
			Reference: "func Double(x int) int { return 2 * x }\n",
			// The target is the base's file: its content is not stored again.
			Target: adapt.Target{Path: "calc.go", Function: "Double", Content: "package calc\n\nfunc Double(x int) int { return 2 * x }\n"},
			Base:   base,
			Tests:  []adapt.Test{{Name: "TestDouble"}},
		})
	}
	var buf bytes.Buffer
	if err := adapt.WriteTasks(&buf, tasks); err != nil {
		log.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var head struct {
			Kind, ID string
			Files    []adapt.File
		}
		json.Unmarshal([]byte(line), &head)
		fmt.Printf("kind=%q id=%q files=%d base named=%v\n", head.Kind, head.ID, len(head.Files), strings.Contains(line, base.Digest()))
	}
	back, err := adapt.ReadTasks(&buf, "tasks.jsonl")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(back), "tasks sharing one base:", back[0].Base == back[1].Base, len(back[1].WorkspaceFiles()), "workspace files besides the target")
	// Output:
	// kind="base" id="" files=3 base named=true
	// kind="" id="calc-0" files=0 base named=true
	// kind="" id="calc-1" files=0 base named=true
	// 2 tasks sharing one base: true 2 workspace files besides the target
}
