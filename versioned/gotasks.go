package versioned

import (
	"bytes"
	_ "embed"
	"fmt"
	"maps"
	"regexp"
	"slices"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/versioned/internal/libapi"
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
// version, its Detail's OtherVersion. The workspace holds go.mod requiring
// the stated version and a go.sum with the hashes of both versions, and
// Env names the module at its version with the runtime "go1.23", for a
// Cache with the GoModules builder. Labels: benchmark, library (the
// module path), go (the Go version), type_of_change, category and year
// (of the version's release). [Detail]: version and other_version,
// release and other_release (YYYY-MM, from the module proxy), runtime,
// function, visible_tests (the test a self-debug round may run; the
// others are hidden) and api_calls (the qualified APIs the reference
// calls).
//
// The dataset is embedded (gotasks.jsonl, adapt's native format), made by
// gen_gotasks.go from the sources in testdata/goproblems.
func GoTasks() ([]adapt.Task, error) {
	tasks, err := adapt.ReadTasks(bytes.NewReader(goTasksJSONL), "versioned/gotasks.jsonl")
	if err != nil {
		return nil, err
	}
	for i := range tasks {
		tasks[i].Labels["category"] = libapi.Categorize(tasks[i].Labels["type_of_change"]).String()
	}
	return tasks, nil
}

// requireRE matches a one-line require directive, or a line of a require
// block, of go.mod: module path and version.
var requireRE = regexp.MustCompile(`(?m)^(require\s+|\t)(\S+)\s+(v\S+)(.*)$`)

// AtVersion returns the task with its module switched to version: the
// require line of go.mod, the Env's package, and the versions and
// releases of its [Detail] (the version it had becomes OtherVersion; the
// year label follows the release). The target and reference stay as they
// were, so AtVersion(t, d.OtherVersion) is how a test shows that a
// reference depends on its version. The task's ID gets "@version" unless
// version is the one it had. go.sum must already hold the hashes of
// version (GoTasks' tasks hold both of theirs).
func AtVersion(t adapt.Task, version string) (adapt.Task, error) {
	if t.Env == nil || len(t.Env.Packages) != 1 {
		return adapt.Task{}, fmt.Errorf("versioned: task %q does not name exactly one module", t.ID)
	}
	d, err := DetailOf(&t)
	if err != nil {
		return adapt.Task{}, err
	}
	mod, was := t.Env.Packages[0].Name, t.Env.Packages[0].Version
	out := t
	out.Files = slices.Clone(t.Files)
	out.Labels = maps.Clone(t.Labels)
	prov := *t.Provenance
	out.Provenance = &prov
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
		d.Version, d.OtherVersion = version, was
		if d.OtherRelease != "" {
			d.Release, d.OtherRelease = d.OtherRelease, d.Release
		}
		if err := SetDetail(&out, d); err != nil {
			return adapt.Task{}, err
		}
	}
	return out, nil
}

// visibleTests returns the names of the task's visible tests: those its
// [Detail] lists, or every test when it lists none or the task has no
// Detail (such a task has no hidden tests; see [hiddenTests]).
func visibleTests(t *adapt.Task) []string {
	var names []string
	if d, err := DetailOf(t); err == nil {
		names = slices.Clone(d.VisibleTests)
	}
	if len(names) == 0 {
		for _, tc := range t.Tests {
			names = append(names, tc.Name)
		}
	}
	return names
}
