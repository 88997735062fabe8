// Package humaneval loads OpenAI's HumanEval benchmark (and benchmarks of
// the same shape: MBPP-style prompt, entry point, check(candidate) test) as
// it is published, into adapt tasks.
//
// Each problem becomes a Python task whose target file solution.py holds
// the prompt with the canonical solution, whose target function is the
// entry point, and whose one test, test_check.TestCheck.test_check, runs
// the problem's check(candidate) on it:
//
//	import unittest
//	from solution import *
//	import solution as _solution
//	<the problem's test code>
//	class TestCheck(unittest.TestCase):
//	    def test_check(self):
//	        check(_solution.<entry_point>)
//
// The code to adapt is the prompt (signature and docstring), the reference
// is the entry point's definition, and the requirement is the docstring's
// task. The same tasks serve evolve, which transforms the reference.
//
// [LoadFile] reads a file on disk, [Load] a file of an fs.FS, and
// [LoadRevision] a file at a revision of a git repository (package
// source), recording the repository and commit in every task's
// provenance.
package humaneval

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/pinned"
	"github.com/adaptbench/adaptbench/internal/syntax"
	"github.com/adaptbench/adaptbench/internal/textkit"
)

// Problem is one record of HumanEval.jsonl.
type Problem struct {
	TaskID            string `json:"task_id"`
	Prompt            string `json:"prompt"`
	EntryPoint        string `json:"entry_point"`
	CanonicalSolution string `json:"canonical_solution"`
	Test              string `json:"test"`
}

// testName is the name of each task's one test.
const testName = "test_check.TestCheck.test_check"

// Read reads problems in JSON Lines form (gzip-compressed or not); name is
// used in errors. Bad records are errors naming the line.
func Read(r io.Reader, name string) ([]Problem, error) {
	br := bufio.NewReader(r)
	if head, err := br.Peek(2); err == nil && head[0] == 0x1f && head[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, &adapt.ParseError{Path: name, Err: err}
		}
		defer gz.Close()
		br = bufio.NewReader(gz)
	}
	var out []Problem
	err := textkit.ReadJSONL(br, func(line int, raw []byte) error {
		var p Problem
		if err := json.Unmarshal(raw, &p); err != nil {
			return fmt.Errorf("malformed problem: %w", err)
		}
		if p.TaskID == "" || p.EntryPoint == "" || p.Test == "" {
			return fmt.Errorf("problem needs task_id, entry_point and test")
		}
		out = append(out, p)
		return nil
	}, func(line int, err error) error {
		return &adapt.ParseError{Path: name, Line: line, Err: err}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Tasks turns problems into tasks.
func Tasks(problems []Problem, source string) ([]adapt.Task, error) {
	tasks := make([]adapt.Task, 0, len(problems))
	for _, p := range problems {
		t, err := task(p, source)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	return tasks, nil
}

// ReadFile reads the problems of HumanEval.jsonl or HumanEval.text.gz.
func ReadFile(path string) ([]Problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("humaneval: %w", err)
	}
	defer f.Close()
	return Read(f, path)
}

// LoadFile reads HumanEval.jsonl or HumanEval.text.gz into tasks.
func LoadFile(path string) ([]adapt.Task, error) {
	ps, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Tasks(ps, path)
}

// Load reads the problems file name of fsys (JSON Lines, gzip-compressed
// or not) into tasks, with name as their Provenance.Source.
func Load(fsys fs.FS, name string) ([]adapt.Task, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("humaneval: %w", err)
	}
	ps, err := Read(bytes.NewReader(b), name)
	if err != nil {
		return nil, err
	}
	return Tasks(ps, name)
}

// LoadRevision reads the problems file name (a path in the repository) at
// a revision of a git repository, from git's object store (repo and rev
// as source.Open takes them: a local clone, a bare mirror or a URL, and a
// branch, tag or hash), into tasks whose provenance names the repository
// and the commit's full hash. The same revision gives the same tasks,
// byte for byte.
func LoadRevision(ctx context.Context, repo, rev, name string) ([]adapt.Task, error) {
	return pinned.Load(ctx, repo, rev, func(fsys fs.FS) ([]adapt.Task, error) { return Load(fsys, name) }, adapt.SetRevision)
}

func task(p Problem, source string) (adapt.Task, error) {
	solution := p.Prompt + p.CanonicalSolution
	ref, err := syntax.Extract(syntax.Python, []byte(solution), p.EntryPoint)
	if err != nil {
		return adapt.Task{}, fmt.Errorf("humaneval: %s: entry point: %w", p.TaskID, err)
	}
	var test strings.Builder
	test.WriteString("import unittest\nfrom solution import *\nimport solution as _solution\n\n")
	test.WriteString(p.Test)
	fmt.Fprintf(&test, "\n\nclass TestCheck(unittest.TestCase):\n    def test_check(self):\n        check(_solution.%s)\n", p.EntryPoint)
	t := adapt.Task{
		ID:          p.TaskID,
		Language:    adapt.Python,
		Code:        p.Prompt,
		Target:      adapt.Target{Path: "solution.py", Function: p.EntryPoint, Content: solution},
		Files:       []adapt.File{{Path: "test_check.py", Content: test.String()}},
		Requirement: adapt.Requirement{Task: "Implement " + p.EntryPoint + " as its docstring describes."},
		Reference:   string(ref),
		Framework:   adapt.FrameworkUnittest,
		Tests:       []adapt.Test{{Name: testName, File: "test_check.py"}},
		Labels:      map[string]string{"benchmark": "humaneval"},
		Provenance:  &adapt.Provenance{Generator: "humaneval", Source: source},
	}
	if err := t.Validate(); err != nil {
		return adapt.Task{}, err
	}
	return t, nil
}
