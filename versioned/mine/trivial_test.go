package mine_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/versioned/mine"
)

// checkTrivial checks that every trivial answer of every problem fails
// its hidden check, and that the same kinds of answer passed the checks
// the problems had before (the answer's own test as the hidden check; an
// example's output compared with the output its prompt showed).
func checkTrivial(t *testing.T, res *mine.Result, checker *adapt.Checker) {
	t.Helper()
	ctx := context.Background()
	hidden := func(task *adapt.Task, code string) (bool, report.SampleResult) {
		t.Helper()
		r, err := checker.Check(ctx, task, adapt.Answer{Code: code})
		require.NoError(t, err)
		require.NotEqual(t, report.OutcomeInfraError, r.Outcome, r.Detail)
		h := task.Tests[1].Name
		i := slices.IndexFunc(r.Tests, func(o report.TestOutcome) bool { return o.Name == h })
		return i >= 0 && r.Tests[i].Status == exec.TestPassed, r
	}
	kinds := map[string]int{}
	for i := range res.Tasks {
		task := &res.Tasks[i]
		o, err := mine.OriginOf(task)
		require.NoError(t, err)
		want := []string{"panic", "start", "zero"}
		if o.Problem == "adapt-to-new-version" {
			want = append(want, "previous")
		}
		if task.Labels["style"] == "example" {
			want = append(want, "print")
		}
		got := make([]string, 0, len(o.Trivial))
		for k := range o.Trivial {
			got = append(got, k)
		}
		slices.Sort(got)
		slices.Sort(want)
		assert.Equal(t, want, got, "%s: trivial answers", task.ID)
		assert.Equal(t, task.Code, o.Trivial["start"], "%s: the starting code", task.ID)
		for kind, code := range o.Trivial {
			if passed, r := hidden(task, code); passed {
				t.Errorf("%s: the %s answer passes the hidden check (%s)\n%s", task.ID, kind, r.Outcome, code)
			} else {
				kinds[kind]++
			}
		}
	}
	// Every kind was tried on some problem.
	for _, k := range []string{"start", "zero", "panic", "previous", "print"} {
		assert.Positive(t, kinds[k], "no problem tried the %s answer", k)
	}

	// The checks as they were: the same trivial answers passed them.
	byID := map[string]*adapt.Task{}
	for i := range res.Tasks {
		byID[res.Tasks[i].ID] = &res.Tasks[i]
	}
	test := byID[libPath+"@v1.1.0/lib.TestDouble.Double/new-api"]
	example := byID[libPath+"@v1.1.0/lib.ExampleDouble.Double/new-api"]
	require.NotNil(t, test)
	require.NotNil(t, example)
	old := *test
	old.Files = append([]adapt.File{{Path: "check_test.go", Content: oldTestCheck}}, test.Files[1:]...)
	old.Tests = []adapt.Test{{Name: "TestDouble", File: "solution_test.go"}, {Name: "TestHiddenDouble", File: "check_test.go"}}
	passed, r := hidden(&old, "package lib\n\nimport \"testing\"\n\nfunc TestDouble(t *testing.T) {}\n")
	assert.True(t, passed, "an empty test passed the old check: %s %s", r.Outcome, r.Detail)
	old = *example
	old.Files = append([]adapt.File{{Path: "check_test.go", Content: fmt.Sprintf(oldExampleCheck, "TestVisibleExampleDouble", "ExampleDouble", "4\n", "TestExampleDouble", "ExampleDouble", "4\n", false, "lib_test")}}, example.Files[1:]...)
	old.Tests = []adapt.Test{{Name: "TestVisibleExampleDouble", File: "check_test.go"}, {Name: "TestExampleDouble", File: "check_test.go"}}
	passed, r = hidden(&old, "package lib_test\n\nimport \"fmt\"\n\nfunc ExampleDouble() { fmt.Println(4) }\n")
	assert.True(t, passed, "printing the output passed the old check: %s %s", r.Outcome, r.Detail)
}

// oldTestCheck is a test function's hidden check as it was: the answer's
// own test.
const oldTestCheck = `package lib

import "testing"

func TestHiddenDouble(t *testing.T) { TestDouble(t) }
`

// oldExampleCheck is an example's check as it was: the answer's example
// function's output against the output its prompt showed.
const oldExampleCheck = `package %[8]s

import (
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

// %[1]s checks the first line of what %[2]s prints.
func %[1]s(t *testing.T) {
	minedCheckOutput(t, %[2]s, %[3]q, true, false)
}

// %[4]s checks what %[5]s prints, as go test checks an example.
func %[4]s(t *testing.T) {
	minedCheckOutput(t, %[5]s, %[6]q, false, %[7]v)
}

// minedCheckOutput runs f with its standard output captured and compares
// the output with want as go test does (spaces at either end ignored;
// unordered: as sorted lines); firstLine compares the first lines only.
func minedCheckOutput(t *testing.T, f func(), want string, firstLine, unordered bool) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	func() {
		defer func() {
			os.Stdout = stdout
			w.Close()
			if p := recover(); p != nil {
				t.Fatalf("panic: %%v\noutput before it:\n%%s", p, <-done)
			}
		}()
		f()
	}()
	got := <-done
	norm := func(s string) string {
		s = strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
		if firstLine {
			s, _, _ = strings.Cut(s, "\n")
			return strings.TrimSpace(s)
		}
		if unordered {
			lines := strings.Split(s, "\n")
			slices.Sort(lines)
			s = strings.Join(lines, "\n")
		}
		return s
	}
	if norm(got) != norm(want) {
		t.Errorf("got:\n%%s\nwant:\n%%s", strings.TrimSpace(got), strings.TrimSpace(want))
	}
}
`
