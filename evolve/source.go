package evolve

import (
	"fmt"
	"path"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/evolve/transform"
)

// source renders a program as one text, the way GeneBench puts multi-file
// programs into a prompt: the main file, then for each module (in name
// order) the line "#The following is code in dependent file <name>:"
// followed by the module's source.
func source(p *transform.Program) string {
	var b strings.Builder
	b.Write(p.Main)
	for _, name := range sortedKeys(p.Modules) {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "#The following is code in dependent file %s:\n", name)
		b.Write(p.Modules[name])
	}
	return b.String()
}

// moduleFiles returns p's modules as workspace files beside mainPath.
func moduleFiles(p *transform.Program, mainPath string) []adapt.File {
	var out []adapt.File
	dir := path.Dir(mainPath)
	for _, name := range sortedKeys(p.Modules) {
		out = append(out, adapt.File{Path: path.Join(dir, name), Content: string(p.Modules[name])})
	}
	return out
}

// LabelKeys lists the label keys this package sets on a derived task,
// beside those it keeps from the subject's task: "genebench" (the task
// kind), "version" ("original" or "evolved") and, on a repair task,
// "bug" (the bug mutator's ID). adapt.Options{Breakdown:
// evolve.LabelKeys} breaks a report down by them.
var LabelKeys = []string{"genebench", "version", "bug"}

// DetailSchema is the adapt.Provenance.Schema of derived tasks: the format
// of their [Detail].
const DetailSchema = "evolve/v1"

// Detail is the record of one derived task, kept as JSON in its
// adapt.Provenance.Detail (read by [DetailOf]).
type Detail struct {
	// Lineage is how the task's program was evolved from the original,
	// step by step; empty for the original.
	Lineage []Step `json:"lineage,omitempty"`
	// Bug is the bug a repair task's code has; nil for the other kinds.
	Bug *Bug `json:"bug,omitempty"`
}

// DetailOf decodes the record of a task derived by this package. An error
// names the task and what was expected: a task without provenance schema
// DetailSchema (it wraps adapt.ErrDetailSchema) or a record that does not
// decode.
func DetailOf(t *adapt.Task) (*Detail, error) {
	var d Detail
	if err := t.DecodeDetail(DetailSchema, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// setDetail stores d as t's provenance detail, with schema DetailSchema
// (making t.Provenance if it is nil).
func setDetail(t *adapt.Task, d *Detail) error {
	if err := t.SetDetail(DetailSchema, d); err != nil {
		return fmt.Errorf("evolve: %w", err)
	}
	return nil
}

// setProvenance sets the provenance of t, a task derived from individual
// id of res: its generator, parent, operators and seed, and its Detail,
// the lineage and bug (nil but for a repair task).
func setProvenance(t *adapt.Task, s *Subject, res *Evolution, id int, bug *Bug) error {
	p := &adapt.Provenance{Generator: "evolve", Parent: s.ID, Operators: res.Operators(id), Seed: res.Seed}
	if s.Task != nil && s.Task.Provenance != nil {
		p.Source = s.Task.Provenance.Source
	}
	if bug != nil {
		p.Operators = append(p.Operators, bug.Operator)
	}
	t.Provenance = p
	return setDetail(t, &Detail{Lineage: res.Lineage(id), Bug: bug})
}

// labels returns the labels of a derived task: those of the subject's
// task, the kind of task and the version ("original" or "evolved").
func labels(s *Subject, id int, kind string) map[string]string {
	l := map[string]string{}
	if s.Task != nil {
		for k, v := range s.Task.Labels {
			l[k] = v
		}
	}
	l["genebench"] = kind
	l["version"] = versionName(id)
	return l
}

// versionName is "original" for the original and "evolved" otherwise.
func versionName(id int) string {
	if id == 0 {
		return "original"
	}
	return "evolved"
}
