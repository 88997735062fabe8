package ctxbug

import (
	"fmt"
)

// IsoJobs makes an IsoBug job of every CtxBug instance (§3.2): the base
// solution with <START> and <END> around each of the instance's bug
// locations, for a model to implant a bug that is wrong on its own inside
// each. Its holes are those locations, so that identification checks the
// implanted bugs exactly as it checks CtxBugs. bases holds the instances'
// bases by ID; an instance whose base is missing is an error naming it.
func IsoJobs(bases map[string]*Base, ins []*Instance) ([]*Job, error) {
	var out []*Job
	for _, in := range ins {
		b := bases[in.Base]
		if b == nil {
			return nil, fmt.Errorf("ctxbug: instance %s: no base %q", in.ID, in.Base)
		}
		var holes, marks []Hole
		for _, bug := range in.Bugs {
			s := bug.Solution
			if s.Start < 0 || s.End > len(b.Method) || s.End < s.Start || (len(holes) > 0 && s.Start < holes[len(holes)-1].End) {
				return nil, fmt.Errorf("ctxbug: instance %s: bug location [%d,%d) out of order or outside the method", in.ID, s.Start, s.End)
			}
			holes = append(holes, Hole{Start: s.Start, End: s.End, Node: bug.Node})
			marks = append(marks, Hole{Start: s.Start, End: s.Start, Placeholder: markStart}, Hole{Start: s.End, End: s.End, Placeholder: markEnd})
		}
		code, err := applyHoles(b.Method, marks)
		if err != nil {
			return nil, fmt.Errorf("ctxbug: instance %s: %w", in.ID, err)
		}
		o, err := obfuscateTemplate(b.Method, template{Rule: IsoRule, Code: string(code), Holes: marks}, b.Requirement)
		if err != nil {
			return nil, fmt.Errorf("ctxbug: instance %s: %w", in.ID, err)
		}
		out = append(out, &Job{
			ID: in.ID + "|" + IsoRule, Base: b, Rule: IsoRule, task: in.Task,
			Holes: holes, code: string(code), Obfuscated: o, parent: in.ID,
		})
	}
	return out, nil
}

// BaseMap indexes bases by ID.
func BaseMap(bases []*Base) map[string]*Base {
	m := make(map[string]*Base, len(bases))
	for _, b := range bases {
		m[b.ID()] = b
	}
	return m
}
