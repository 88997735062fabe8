package versioned

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
)

// LabelKeys lists every label key a version-conditioned task carries: the
// grouping keys of the paper's breakdowns, for adapt.Options{Breakdown:
// versioned.LabelKeys} and [groupings]. "python" and "go" are the
// runtime's version (a handful of values), "year" the release year of the
// library version the task names. Per-task data (versions, releases,
// tests, APIs) is in the task's [Detail].
var LabelKeys = []string{"benchmark", "library", "category", "type_of_change", "python", "go", "year", "style", "webdev"}

// DetailSchema is the adapt.Provenance.Schema of version-conditioned tasks
// (GitChameleon's and the Go problems): the format of their [Detail].
const DetailSchema = "versioned/v1"

// Detail is the record of one version-conditioned task, kept as JSON in
// its adapt.Provenance.Detail (set by [SetDetail], read by [DetailOf]).
type Detail struct {
	// Version is the library version the task names; Release its release
	// date ("YYYY-MM").
	Version string `json:"version"`
	Release string `json:"release,omitempty"`
	// OtherVersion is the version at which a Go problem's reference no
	// longer passes, and OtherRelease its release date ([AtVersion] swaps
	// the two pairs).
	OtherVersion string `json:"other_version,omitempty"`
	OtherRelease string `json:"other_release,omitempty"`
	// Runtime is the interpreter or toolchain version the problem states,
	// as its prompt shows it ("3.10", "1.23").
	Runtime string `json:"runtime"`
	// Function is the function a Go problem asks for.
	Function string `json:"function,omitempty"`
	// VisibleTests names the tests a self-debug round may run; the others
	// are hidden. Empty means every test is visible, and the task has no
	// hidden verdict.
	VisibleTests []string `json:"visible_tests,omitempty"`
	// APICalls are the qualified APIs the reference calls, which the API
	// hit rate looks for in an answer.
	APICalls []string `json:"api_calls,omitempty"`
	// Mined is the record of a problem mined from a module's release
	// history: the API change and the functions it came from (package
	// versioned/mine decodes it).
	Mined json.RawMessage `json:"mined,omitempty"`
}

// DetailOf decodes the record of a version-conditioned task. An error
// names the task and what was expected: a task without provenance schema
// DetailSchema (it wraps adapt.ErrDetailSchema), a record that does not
// decode, or one without a version.
func DetailOf(t *adapt.Task) (*Detail, error) {
	var d Detail
	if err := t.DecodeDetail(DetailSchema, &d); err != nil {
		return nil, err
	}
	if d.Version == "" {
		return nil, fmt.Errorf("versioned: task %q: provenance detail has no version", t.ID)
	}
	return &d, nil
}

// SetDetail stores d as t's provenance detail, with schema DetailSchema
// (making t.Provenance if it is nil), and sets t's "year" label from
// d.Release (removing it when there is no release).
func SetDetail(t *adapt.Task, d *Detail) error {
	if err := t.SetDetail(DetailSchema, d); err != nil {
		return fmt.Errorf("versioned: %w", err)
	}
	year, _, _ := strings.Cut(d.Release, "-")
	if year == "" {
		delete(t.Labels, "year")
		return nil
	}
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	t.Labels["year"] = year
	return nil
}

// apiCalls returns the APIs t's reference calls, none when t has no
// record.
func apiCalls(t *adapt.Task) []string {
	d, err := DetailOf(t)
	if err != nil {
		return nil
	}
	return d.APICalls
}
