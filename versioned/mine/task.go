package mine

import (
	"encoding/json"
	"fmt"
	"go/types"
	"go/version"
	"path"
	"slices"
	"strings"

	"golang.org/x/mod/semver"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/versioned"
	"github.com/adaptbench/adaptbench/versioned/internal/category"
)

// origin is where a mined problem came from: its record in the task's
// versioned.Detail (field Mined), read by originOf.
type origin struct {
	// Problem is "uses-new-api" (write a function that uses what release
	// Version added) or "adapt-to-new-version" (adapt the function as it
	// was at Previous to Version).
	Problem string `json:"problem"`
	// Module, Version and Previous: the module and the two releases
	// compared.
	Module   string `json:"module"`
	Version  string `json:"version"`
	Previous string `json:"previous"`
	// Package is the import path of the package whose tests hold the
	// function.
	Package string `json:"package"`
	// Changes are the API changes the function exercises.
	Changes []Change `json:"changes"`
	// File and Function locate the function at Version (the file relative
	// to the module root); PreviousFile and PreviousFunction at Previous,
	// for an adaptation.
	File             string `json:"file"`
	Function         string `json:"function"`
	PreviousFile     string `json:"previous_file,omitempty"`
	PreviousFunction string `json:"previous_function,omitempty"`
	// PreviousOutcome is what the reference gave at Previous, which makes
	// the problem version-conditioned ("compile-error" or "failed"), and
	// PreviousDetail the first line of the compiler's or the test's
	// message.
	PreviousOutcome string `json:"previous_outcome"`
	PreviousDetail  string `json:"previous_detail,omitempty"`
}

// originOf decodes the record of a mined problem. An error names the task:
// one that is not a version-conditioned task, or one that was not mined.
func originOf(t *adapt.Task) (*origin, error) {
	d, err := versioned.DetailOf(t)
	if err != nil {
		return nil, err
	}
	if len(d.Mined) == 0 {
		return nil, fmt.Errorf("mine: task %q was not mined (its detail has no mined record)", t.ID)
	}
	var o origin
	if err := json.Unmarshal(d.Mined, &o); err != nil {
		return nil, fmt.Errorf("mine: task %q: mined record: %w", t.ID, err)
	}
	return &o, nil
}

// The files of a problem's workspace.
const (
	solutionFile = "solution_test.go"
	checkFile    = "check_test.go"
)

// makeTasks writes a candidate's problem (c.task) and the same workspace
// requiring the previous release (c.older).
func makeTasks(c *candidate) error {
	prev, cur := c.at[0], c.at[1]
	mod := c.id[:strings.LastIndex(c.id, "@")]
	visible, hidden, check := tests(c.cur)
	sums := append(slices.Clone(cur.build.goSum), prev.build.goSum...)
	slices.Sort(sums)
	sums = slices.Compact(sums)
	goLine := cur.rel.Go
	if v := c.cur.GoVersion; v != "" && version.Compare(v, "go"+goLine) > 0 {
		goLine = strings.TrimPrefix(version.Lang(v), "go")
	}
	// Both workspaces require the modules N's packages and tests need at
	// N's versions (at least), so that at N-1 only the module under test
	// differs: a test importing a module that N-1 did not require still
	// builds, and fails on the API alone.
	curDeps, prevDeps := cur.build.deps, mergeDeps(cur.build.deps, prev.build.deps)
	workspace := func(r *release, deps []adapt.Package) []adapt.File {
		var req strings.Builder
		fmt.Fprintf(&req, "\t%s %s\n", mod, r.Version)
		for _, d := range deps {
			fmt.Fprintf(&req, "\t%s %s\n", d.Name, d.Version)
		}
		return []adapt.File{
			{Path: checkFile, Content: check},
			{Path: "go.mod", Content: fmt.Sprintf("module adaptbench.invalid/mined\n\ngo %s\n\nrequire (\n%s)\n", goLine, req.String())},
			{Path: "go.sum", Content: strings.Join(sums, "\n") + "\n"},
		}
	}
	env := func(r *release, deps []adapt.Package) *adapt.Environment {
		return &adapt.Environment{Runtime: "go" + goLine, Packages: append([]adapt.Package{{Name: mod, Version: r.Version}}, deps...)}
	}
	t := adapt.Task{
		ID: c.id, Language: adapt.Go, Framework: adapt.FrameworkGo,
		Code:        c.cur.Stub,
		Target:      adapt.Target{Path: solutionFile, Content: c.cur.Src},
		Files:       workspace(cur.rel, curDeps),
		Requirement: adapt.Requirement{Task: requirement(c, mod, goLine)},
		Reference:   c.cur.Src,
		Tests:       []adapt.Test{{Name: visible, File: solutionFile}, {Name: hidden, File: checkFile}},
		Labels: map[string]string{
			"benchmark": "go-mined", "library": mod, "go": goLine,
			"type_of_change": typeOfChange[c.group], "style": style(c.cur),
		},
		Provenance: &adapt.Provenance{Generator: "versioned-mine", Source: mod},
		Env:        env(cur.rel, curDeps),
	}
	if c.cur.Example {
		t.Tests[0].File = checkFile
	}
	if c.problem == problemAdapt {
		t.Code = c.prev.Src
	}
	t.Labels["category"] = category.Of(t.Labels["type_of_change"]).String()
	// The API calls the reference makes that the changes are about (the
	// API hit rate looks for calls only): functions and methods added or
	// changed, and a deprecation's replacement.
	var apis []string
	for _, ch := range c.changes {
		key, decl := ch.key(), ch.New
		if ch.Kind == kindDeprecated || ch.Kind == kindRemoved {
			key, decl = ch.Package+"."+ch.Replacement, ""
			if api := cur.api[ch.Package]; api != nil && ch.Replacement != "" {
				if o, ok := lookup(api, ch.Replacement).(*types.Func); ok {
					decl = objectString(o)
				}
			}
		}
		if strings.HasPrefix(decl, "func ") && slices.Contains(c.cur.Uses, key) && !slices.Contains(apis, key) {
			apis = append(apis, key)
		}
	}
	o := origin{
		Problem: c.problem, Module: mod, Version: cur.rel.Version, Previous: prev.rel.Version,
		Package: c.pkg, Changes: c.changes, File: c.cur.File, Function: c.cur.Name,
	}
	if c.prev != nil {
		o.PreviousFile, o.PreviousFunction = c.prev.File, c.prev.Name
	}
	d := &versioned.Detail{
		Version: cur.rel.Version, Release: cur.rel.Month, OtherVersion: prev.rel.Version, OtherRelease: prev.rel.Month,
		Runtime: goLine, Function: c.cur.Name, VisibleTests: []string{visible}, APICalls: apis,
	}
	if err := setOrigin(&t, d, &o); err != nil {
		return err
	}
	older := t
	older.ID = t.ID + "@" + prev.rel.Version
	older.Files = workspace(prev.rel, prevDeps)
	older.Env = env(prev.rel, prevDeps)
	c.task, c.older = &t, &older
	return nil
}

// mergeDeps is a's modules and b's, each at the higher of its versions.
func mergeDeps(a, b []adapt.Package) []adapt.Package {
	out := slices.Clone(a)
	for _, d := range b {
		i := slices.IndexFunc(out, func(x adapt.Package) bool { return x.Name == d.Name })
		switch {
		case i < 0:
			out = append(out, d)
		case semver.Compare(d.Version, out[i].Version) > 0:
			out[i] = d
		}
	}
	slices.SortFunc(out, func(x, y adapt.Package) int { return strings.Compare(x.Name, y.Name) })
	return out
}

func setOrigin(t *adapt.Task, d *versioned.Detail, o *origin) error {
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	d.Mined = b
	return versioned.SetDetail(t, d)
}

// setPrevious records in the problem what its reference gave at the
// previous release.
func setPrevious(c *candidate, res adapt.SampleResult) error {
	d, err := versioned.DetailOf(c.task)
	if err != nil {
		return err
	}
	o, err := originOf(c.task)
	if err != nil {
		return err
	}
	o.PreviousOutcome = res.Outcome.String()
	o.PreviousDetail = why(res)
	for _, l := range strings.Split(res.Detail, "\n") {
		if strings.Contains(l, solutionFile+":") {
			o.PreviousDetail = strings.TrimSpace(l)
			break
		}
	}
	return setOrigin(c.task, d, o)
}

// typeOfChange is the type_of_change label of each group, in
// GitChameleon's words (category.Of maps them).
var typeOfChange = map[string]string{
	kindAdded:      "new func/method/class",
	kindRemoved:    "name change",
	kindChanged:    "argument change",
	kindDeprecated: "deprecation",
}

// style is the "style" label: "example" (checked by its output) or
// "test" (checked by the test passing, a weaker check).
func style(tf *testFunc) string {
	if tf.Example {
		return "example"
	}
	return "test"
}

// requirement is the problem statement.
func requirement(c *candidate, mod, goLine string) string {
	var b strings.Builder
	at := fmt.Sprintf("%s at version %s (Go %s)", mod, c.at[1].rel.Version, goLine)
	what := "a test"
	if c.cur.Example {
		what = "an example"
	}
	if c.problem == problemAdapt {
		fmt.Fprintf(&b, "%s holds %s, %s of package %s written for %s at version %s. Adapt it to %s: it must compile and pass there",
			solutionFile, c.cur.Name, what, c.pkg, mod, c.at[0].rel.Version, at)
	} else {
		fmt.Fprintf(&b, "Using %s, complete %s: write %s, %s of package %s", at, solutionFile, c.cur.Name, what, c.pkg)
		if !c.cur.Example {
			// A test has no other statement than what it exercises.
			var names []string
			for _, ch := range c.changes {
				pkg := path.Base(ch.Package)
				if api := c.at[1].api[ch.Package]; api != nil {
					pkg = api.Name()
				}
				names = append(names, pkg+"."+ch.Name)
			}
			fmt.Fprintf(&b, " that exercises %s and passes", strings.Join(names, ", "))
		}
	}
	if c.cur.Example {
		order := "exactly"
		if c.cur.Unordered {
			order = "these lines, in any order"
		}
		// The output ends the statement, as it is: no period after it.
		fmt.Fprintf(&b, ", printing %s:\n\n%s\n", order, strings.TrimRight(c.cur.Output, "\n"))
		return b.String()
	}
	b.WriteString(".")
	return b.String()
}

// tests returns the visible and hidden tests of a problem and the file
// that holds what is not the solution's: for an example, a visible test
// of its output's first line and a hidden test of all of it (as go test
// compares an example's output), which the solution cannot change; for a
// test function, the test itself is visible, and the hidden test runs it.
func tests(tf *testFunc) (visible, hidden, file string) {
	if !tf.Example {
		hidden = "TestHidden" + strings.TrimPrefix(tf.Name, "Test")
		return tf.Name, hidden, fmt.Sprintf(testCheck, hidden, tf.Name, tf.Name, tf.Package)
	}
	visible, hidden = "TestVisible"+tf.Name, "Test"+tf.Name
	return visible, hidden, fmt.Sprintf(exampleCheck, visible, tf.Name, tf.Output, hidden, tf.Name, tf.Output, tf.Unordered, tf.Package)
}

const testCheck = `package %[4]s

import "testing"

// %[1]s runs %[2]s: its verdict is the test's.
func %[1]s(t *testing.T) { %[3]s(t) }
`

const exampleCheck = `package %[8]s

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
