package versioned

import (
	"bytes"
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
)

//go:generate go run gen_gotasks.go

//go:embed gotasks.jsonl
var goTasksJSONL []byte

// GoTasks returns the Go version-conditioned problems: problems written
// for this project on real Go modules whose API changed between two
// versions (golang.org/x/exp/slices, golang.org/x/sync/errgroup,
// golang.org/x/mod/semver, github.com/google/uuid, github.com/google/go-cmp).
// Each task asks for solution.go (the whole file) at the module version
// its requirement names; its reference passes its tests at that version
// and fails them (it does not compile, or a test fails) at the other
// version, Labels["other_version"]. The workspace holds go.mod requiring
// the stated version and a go.sum with the hashes of both versions, and
// Env names the module at its version with the runtime "go1.23", for a
// Cache with the GoModules builder. Labels: library (the module
// path), version, other_version, release and other_release (YYYY-MM, from
// the module proxy), type_of_change and category, function,
// visible_tests (the test a self-debug round may run; the others are
// hidden) and api_calls (the qualified APIs the reference calls).
//
// The dataset is embedded (gotasks.jsonl, adapt's native format), made by
// gen_gotasks.go from the sources in testdata/goproblems.
func GoTasks() ([]adapt.Task, error) {
	tasks, err := adapt.ReadTasks(bytes.NewReader(goTasksJSONL), "versioned/gotasks.jsonl")
	if err != nil {
		return nil, err
	}
	for i := range tasks {
		tasks[i].Labels["category"] = Categorize(tasks[i].Labels["type_of_change"]).String()
	}
	return tasks, nil
}

// requireRE matches a one-line require directive, or a line of a require
// block, of go.mod: module path and version.
var requireRE = regexp.MustCompile(`(?m)^(require\s+|\t)(\S+)\s+(v\S+)(.*)$`)

// AtVersion returns the task with its module switched to version: the
// require line of go.mod, the Env's package and the version labels (the
// version it had becomes other_version). The target and reference stay
// as they were, so AtVersion(t, t.Labels["other_version"]) is how a
// test shows that a reference depends on its version. The task's ID gets
// "@version" unless version is the one it had. go.sum must already hold
// the hashes of version (GoTasks' tasks hold both of theirs).
func AtVersion(t adapt.Task, version string) (adapt.Task, error) {
	if t.Env == nil || len(t.Env.Packages) != 1 {
		return adapt.Task{}, fmt.Errorf("versioned: task %q does not name exactly one module", t.ID)
	}
	mod, was := t.Env.Packages[0].Name, t.Env.Packages[0].Version
	out := t
	out.Files = slices.Clone(t.Files)
	out.Labels = make(map[string]string, len(t.Labels))
	for k, v := range t.Labels {
		out.Labels[k] = v
	}
	env := *t.Env
	env.Packages = []adapt.Package{{Name: mod, Version: version}}
	out.Env = &env
	found := false
	for i, f := range out.Files {
		if f.Path != "go.mod" {
			continue
		}
		out.Files[i].Content = requireRE.ReplaceAllStringFunc(f.Content, func(line string) string {
			m := requireRE.FindStringSubmatch(line)
			if m[2] != mod {
				return line
			}
			found = true
			return m[1] + m[2] + " " + version + m[4]
		})
	}
	if !found {
		return adapt.Task{}, fmt.Errorf("versioned: task %q: go.mod does not require %s", t.ID, mod)
	}
	if version != was {
		out.ID = t.ID + "@" + version
		out.Labels["version"], out.Labels["other_version"] = version, was
		if r, ok := t.Labels["other_release"]; ok {
			out.Labels["release"], out.Labels["other_release"] = r, t.Labels["release"]
		}
	}
	return out, nil
}

// VisibleTests returns the names of the task's visible tests: those
// Labels["visible_tests"] lists (comma-separated), or every test when it
// lists none (GitChameleon's tasks, whose hidden tests are not
// distributed).
func VisibleTests(t *adapt.Task) []string {
	var names []string
	for _, n := range strings.Split(t.Labels["visible_tests"], ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		for _, tc := range t.Tests {
			names = append(names, tc.Name)
		}
	}
	return names
}
