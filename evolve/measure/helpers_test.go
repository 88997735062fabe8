package measure

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/adaptbench/adaptbench/internal/testenv"
)

// program is one HumanEval problem's complete reference program.
type program struct {
	ID  string
	Src []byte
}

// humanEval returns the 164 HumanEval canonical solutions, each the
// problem's prompt followed by its canonical solution (what the
// GeneBench artifact measured), or skips the test when the shared data
// is absent.
func humanEval(tb testing.TB) []program {
	tb.Helper()
	path := testenv.DataPath(tb, "humaneval/HumanEval.jsonl.gz")
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	var out []program
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var rec struct {
			TaskID            string `json:"task_id"`
			Prompt            string `json:"prompt"`
			CanonicalSolution string `json:"canonical_solution"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			tb.Fatalf("%s:%d: %v", path, line, err)
		}
		out = append(out, program{rec.TaskID, []byte(rec.Prompt + rec.CanonicalSolution)})
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	if len(out) != 164 {
		tb.Fatalf("%s: %d problems, want 164", path, len(out))
	}
	return out
}

// classEval returns the 100 ClassEval reference classes and their 100
// unittest files (classes, self-calls and imports that HumanEval lacks),
// or skips the test when the shared data is absent.
func classEval(tb testing.TB) []program {
	tb.Helper()
	path := testenv.DataPath(tb, "classeval/ClassEval_data.json")
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var recs []struct {
		TaskID       string `json:"task_id"`
		SolutionCode string `json:"solution_code"`
		Test         string `json:"test"`
	}
	if err := json.Unmarshal(data, &recs); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	var out []program
	for _, r := range recs {
		out = append(out, program{r.TaskID + "/solution", []byte(r.SolutionCode)}, program{r.TaskID + "/test", []byte(r.Test)})
	}
	if len(out) != 200 {
		tb.Fatalf("%s: %d programs, want 200", path, len(out))
	}
	return out
}

// gitChameleon returns the 328 GitChameleon ground-truth solutions (calls
// into torch, numpy, scipy, … for C5 and C6), or skips the test when the
// shared data is absent.
func gitChameleon(tb testing.TB) []program {
	tb.Helper()
	path := testenv.DataPath(tb, "gitchameleon/ground_truth_solutions.jsonl")
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []program
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var rec struct {
			ID     string `json:"example_id"`
			Answer string `json:"answer"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			tb.Fatalf("%s:%d: %v", path, line, err)
		}
		out = append(out, program{"GitChameleon/" + rec.ID, []byte(rec.Answer)})
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	if len(out) != 328 {
		tb.Fatalf("%s: %d solutions, want 328", path, len(out))
	}
	return out
}

// fixtures returns the Python files of testdata, written to exercise the
// constructs whose tree-sitter and ast shapes differ.
func fixtures(tb testing.TB) []program {
	tb.Helper()
	names, err := filepath.Glob("testdata/*.py")
	if err != nil {
		tb.Fatal(err)
	}
	var out []program
	for _, name := range names {
		if filepath.Base(name) == "astmetrics.py" {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, program{name, src})
	}
	if len(out) == 0 {
		tb.Fatal("no Python fixtures in testdata")
	}
	return out
}
