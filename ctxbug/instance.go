package ctxbug

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/textkit"
)

// Instance is one benchmark instance: a variant of a base method that
// identification kept, with its bug locations.
type Instance struct {
	// ID is "<generator>|<job>|<sample>".
	ID string `json:"id"`
	// Base is the base's task ID ("ClassEval_11.add").
	Base string `json:"base"`
	// Generator is the model that filled the template.
	Generator string `json:"generator"`
	// Rule and Task are the job's rule and adaptation task.
	Rule string `json:"rule"`
	Task string `json:"task"`
	// Parent is, for an IsoBug instance, the CtxBug instance it marks.
	Parent string `json:"parent,omitempty"`
	// template is the masked (or marked) method the generator filled,
	// before obfuscation, and Holes its perturbed nodes.
	Template string `json:"template"`
	Holes    []Hole `json:"holes"`
	// Names is the obfuscation map of the generator's prompt.
	Names map[string]string `json:"names"`
	// Raw is the generator's output.
	Raw string `json:"raw"`
	// Variant is the deobfuscated method: the reused code with the bugs.
	Variant string `json:"variant"`
	// Failing lists the tests the variant fails.
	Failing []string `json:"failing"`
	// Bugs are its bug locations.
	Bugs []Bug `json:"bugs"`
}

func instanceID(c *Candidate) string {
	return fmt.Sprintf("%s|%s|%d", c.Generator, c.Job.ID, c.Sample)
}

func newInstance(c *Candidate) *Instance {
	return &Instance{
		ID: instanceID(c), Base: c.Job.Base.ID(), Generator: c.Generator,
		Rule: c.Job.Rule, Task: c.Job.task, Parent: c.Job.parent,
		Template: c.Job.code, Holes: c.Job.Holes, Names: c.Job.Obfuscated.Names,
		Raw: c.Completion.Text, Variant: c.variant, Failing: c.failing, Bugs: c.bugs,
	}
}

// WithoutBugs returns the variant with every bug location replaced by
// <INFILL>: the "w/o CtxBugs" code.
func (in *Instance) WithoutBugs() string {
	spans := make([]Span, 0, len(in.Bugs))
	for _, b := range in.Bugs {
		spans = append(spans, b.Variant)
	}
	slices.SortFunc(spans, func(a, b Span) int { return a.Start - b.Start })
	var out []byte
	last := 0
	for _, s := range spans {
		if s.Start < last {
			continue // nested in a location already replaced
		}
		out = append(out, in.Variant[last:s.Start]...)
		out = append(out, Infill...)
		last = s.End
	}
	return string(append(out, in.Variant[last:]...))
}

// WriteInstances writes instances as JSON Lines.
func WriteInstances(w io.Writer, ins []*Instance) error {
	bw := bufio.NewWriter(w)
	for _, in := range ins {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(in); err != nil {
			return fmt.Errorf("ctxbug: instance %q: %w", in.ID, err)
		}
		bw.Write(buf.Bytes())
	}
	return bw.Flush()
}

// ReadInstances reads instances written by WriteInstances; name is used
// in errors, which name the line.
func ReadInstances(r io.Reader, name string) ([]*Instance, error) {
	var out []*Instance
	err := textkit.ReadJSONL(r, func(line int, raw []byte) error {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var in Instance
		if err := dec.Decode(&in); err != nil {
			return fmt.Errorf("ctxbug: malformed instance: %w", err)
		}
		if in.ID == "" || in.Base == "" || in.Variant == "" || len(in.Bugs) == 0 {
			return fmt.Errorf("ctxbug: instance needs id, base, variant and bugs")
		}
		out = append(out, &in)
		return nil
	}, func(line int, err error) error {
		return &adapt.ParseError{Path: name, Line: line, Err: err}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
