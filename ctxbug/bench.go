package ctxbug

import (
	"fmt"
	"strconv"
	"strings"

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

// Settings lists the settings in the paper's order.
var Settings = []Setting{WithCtxBugs, WithoutCtxBugs, WithIsoBugs}

// Labels a benchmark task carries, beside "benchmark" = "ctxbug".
const (
	LabelGenerator = "generator" // the model that generated the variant
	LabelRule      = "rule"      // the perturbation rule ("isobug" for IsoBugs)
	LabelTask      = "task"      // the adaptation task of the rule
	LabelSetting   = "setting"   // the Setting
	LabelInstance  = "instance"  // the CtxBug instance (for an IsoBug, the one it was made from)
	LabelBugs      = "bugs"      // the bug locations in the reference, "start-end,start-end"
	LabelClass     = "class"     // the class name
)

// Task turns instance in of base b into an adaptation task in setting s.
// The task is the base's ClassEval task (target, tests, reference: the
// method's solution) with the reused code set by the setting, the class
// without the method and its callers as context, the method's docstring
// as requirement, labels (see the Label constants; the bug locations are
// byte ranges of the Reference) and provenance (generator "ctxbug",
// parent the base, operators the rule). An IsoBug instance makes a task
// only with WithIsoBugs, and a CtxBug instance only with the others.
func Task(b *Base, in *Instance, s Setting) (adapt.Task, error) {
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
	t.Context = []adapt.Snippet{{Name: b.Class, Code: b.ClassContext}}
	instance, ops := in.ID, []string{in.Rule}
	if iso {
		instance = in.Parent
		ops = []string{IsoRule}
	}
	var spans []string
	for _, bug := range in.Bugs {
		spans = append(spans, strconv.Itoa(bug.Solution.Start)+"-"+strconv.Itoa(bug.Solution.End))
	}
	t.Labels = map[string]string{
		"benchmark":    "ctxbug",
		LabelGenerator: in.Generator,
		LabelRule:      in.Rule,
		LabelTask:      in.Task,
		LabelSetting:   string(s),
		LabelInstance:  instance,
		LabelBugs:      strings.Join(spans, ","),
		LabelClass:     b.Class,
	}
	source := ""
	if b.Task.Provenance != nil {
		source = b.Task.Provenance.Source
	}
	t.Provenance = &adapt.Provenance{Generator: "ctxbug", Parent: b.ID(), Operators: ops, Source: source}
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
		t, err := Task(bases[in.Base], in, s)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// BugSpans parses a task's bug locations (its "bugs" label).
func BugSpans(t *adapt.Task) ([]Span, error) {
	v := t.Labels[LabelBugs]
	if v == "" {
		return nil, fmt.Errorf("ctxbug: task %q has no %q label", t.ID, LabelBugs)
	}
	var out []Span
	for _, f := range strings.Split(v, ",") {
		a, b, ok := strings.Cut(f, "-")
		s, err1 := strconv.Atoi(a)
		e, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || s < 0 || e < s || e > len(t.Reference) {
			return nil, fmt.Errorf("ctxbug: task %q: bad bug location %q (want start-end within the reference)", t.ID, f)
		}
		out = append(out, Span{s, e})
	}
	return out, nil
}
