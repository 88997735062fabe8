package htmlreport_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"strings"
	"testing/fstest"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
)

// A task in adapt's directory format, inline: the snippet computes a
// mean, the target wants it renamed and safe on empty input.
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

// The HTML report of a run: one self-contained page (usually written to
// report.html beside the run's other outputs) whose content security
// policy loads nothing and runs only the page's own script. Given the
// tasks, its explorer shows each task's prompt, code and reference, and
// diffs every sample against them. The same report gives the same bytes.
func ExampleWrite() {
	tasks, err := adapt.LoadDir(exampleFS, "tasks")
	if err != nil {
		log.Fatal(err)
	}
	rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, nil)
	if err != nil {
		log.Fatal(err)
	}
	var page, again bytes.Buffer
	for _, b := range []*bytes.Buffer{&page, &again} {
		if err := htmlreport.Write(b, rep, &htmlreport.Options{Tasks: tasks}); err != nil {
			log.Fatal(err)
		}
	}
	html := page.String()
	title := html[strings.Index(html, "<title>") : strings.Index(html, "</title>")+len("</title>")]
	fmt.Println(title)
	fmt.Println("loads nothing:", strings.Contains(html, `content="default-src 'none';`) && !strings.Contains(html, " src="))
	fmt.Println("script elements (data, code):", strings.Count(html, "<script"))
	fmt.Println("the same bytes again:", bytes.Equal(page.Bytes(), again.Bytes()))
	// Output:
	// <title>adaptbench: reference</title>
	// loads nothing: true
	// script elements (data, code): 2
	// the same bytes again: true
}
