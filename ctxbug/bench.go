package ctxbug

import (
	"fmt"

	"github.com/adaptbench/adaptbench/adapt"
)

// Setting is one of the paper's three benchmark variants (§3.2): what
// the reused code given to the model is.
type Setting string

const (
	// WithCtxBugs: the variant, with its CtxBugs ("w/ CtxBugs").
	WithCtxBugs Setting = "ctxbug"
	// WithoutCtxBugs: the variant with every CtxBug location replaced by
	// <INFILL> ("w/o CtxBugs").
	WithoutCtxBugs Setting = "infill"
	// WithIsoBugs: an IsoBug variant, with bugs implanted at the CtxBug
	// locations of the solution ("w/ IsoBugs").
	WithIsoBugs Setting = "isobug"
)

// Labels a benchmark task carries, beside "benchmark" = "ctxbug": the
// grouping keys a report breaks scores down by. Per-task data (the
// instance, the class, the bug locations) is in the task's [Detail].
const (
	labelGenerator = "generator" // the model that generated the variant
	labelRule      = "rule"      // the perturbation rule ("isobug" for IsoBugs)
	labelTask      = "task"      // the adaptation task of the rule
	labelSetting   = "setting"   // the Setting
)

// LabelKeys lists every label key a benchmark task carries, the paper's
// breakdowns first: adapt.Options{Breakdown: ctxbug.LabelKeys}.
var LabelKeys = []string{labelSetting, labelGenerator, labelRule, labelTask, "benchmark"}

// DetailSchema is the adapt.Provenance.Schema of benchmark tasks: the
// format of their [Detail].
const DetailSchema = "ctxbug/v1"

// Detail is the record of one benchmark task, kept as JSON in its
// adapt.Provenance.Detail (read by [DetailOf]).
type Detail struct {
	// Instance is the CtxBug instance the task was made from (for an
	// IsoBug, the instance it was made from in turn).
	Instance string `json:"instance"`
	// Class is the name of the method's class.
	Class string `json:"class"`
	// Bugs are the bug locations: byte ranges of the task's Reference.
	Bugs []Span `json:"bugs"`
}

// DetailOf decodes the record of a benchmark task (made by [Tasks]). An
// error names the task and what was expected: a task without provenance
// schema DetailSchema (it wraps adapt.ErrDetailSchema), a record that does
// not decode, no bug location, or one outside the reference.
func DetailOf(t *adapt.Task) (*Detail, error) {
	var d Detail
	if err := t.DecodeDetail(DetailSchema, &d); err != nil {
		return nil, err
	}
	if len(d.Bugs) == 0 {
		return nil, fmt.Errorf("ctxbug: task %q: provenance detail has no bug location", t.ID)
	}
	for _, s := range d.Bugs {
		if s.Start < 0 || s.End < s.Start || s.End > len(t.Reference) {
			return nil, fmt.Errorf("ctxbug: task %q: bad bug location [%d,%d) (want a range within the reference's %d bytes)", t.ID, s.Start, s.End, len(t.Reference))
		}
	}
	return &d, nil
}

// setDetail stores d as t's provenance detail, with schema DetailSchema
// (making t.Provenance if it is nil).
func setDetail(t *adapt.Task, d *Detail) error {
	if err := t.SetDetail(DetailSchema, d); err != nil {
		return fmt.Errorf("ctxbug: %w", err)
	}
	return nil
}

// instanceTask turns instance in of base b into an adaptation task in setting s.
// The task is the base's ClassEval task (target, tests, reference: the
// method's solution) with the reused code set by the setting, the class
// without the method and its callers as context, the method's docstring
// as requirement, labels (see the Label constants) and provenance
// (generator "ctxbug", parent the base, operators the rule, and the
// [Detail]: the instance, the class and the bug locations). An IsoBug instance makes a task
// only with WithIsoBugs, and a CtxBug instance only with the others.
func instanceTask(b *Base, in *Instance, s Setting) (adapt.Task, error) {
	if b == nil || b.ID() != in.Base {
		return adapt.Task{}, fmt.Errorf("ctxbug: instance %s: base %s not given", in.ID, in.Base)
	}
	iso := in.Rule == IsoRule
	if iso != (s == WithIsoBugs) {
		return adapt.Task{}, fmt.Errorf("ctxbug: instance %s (rule %s) has no %q setting", in.ID, in.Rule, s)
	}
	t := b.Task
	var code string
	switch s {
	case WithCtxBugs, WithIsoBugs:
		code = in.Variant
	case WithoutCtxBugs:
		code = in.WithoutBugs()
	default:
		return adapt.Task{}, fmt.Errorf("ctxbug: unknown setting %q (want ctxbug, infill or isobug)", s)
	}
	t.ID = in.ID + "|" + string(s)
	t.Code = code
	t.Context = []adapt.Snippet{{Name: b.Class, Code: b.classContext}}
	instance, ops := in.ID, []string{in.Rule}
	if iso {
		instance = in.Parent
		ops = []string{IsoRule}
	}
	spans := make([]Span, len(in.Bugs))
	for i, bug := range in.Bugs {
		spans[i] = bug.Solution
	}
	t.Labels = map[string]string{
		"benchmark":    "ctxbug",
		labelGenerator: in.Generator,
		labelRule:      in.Rule,
		labelTask:      in.Task,
		labelSetting:   string(s),
	}
	source := ""
	if b.Task.Provenance != nil {
		source = b.Task.Provenance.Source
	}
	t.Provenance = &adapt.Provenance{Generator: "ctxbug", Parent: b.ID(), Operators: ops, Source: source}
	if err := setDetail(&t, &Detail{Instance: instance, Class: b.Class, Bugs: spans}); err != nil {
		return adapt.Task{}, err
	}
	if err := t.Validate(); err != nil {
		return adapt.Task{}, err
	}
	return t, nil
}

// Tasks turns every instance into a task in setting s; bases holds the
// instances' bases by ID.
func Tasks(bases map[string]*Base, ins []*Instance, s Setting) ([]adapt.Task, error) {
	out := make([]adapt.Task, 0, len(ins))
	for _, in := range ins {
		t, err := instanceTask(bases[in.Base], in, s)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
