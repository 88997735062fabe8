package ctxbug

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Funnel counts the candidates of one generator and one rule through the
// identification stages (the paper's Fig. 5).
type Funnel struct {
	Generator string `json:"generator"`
	Rule      string `json:"rule"`
	// Task is the rule's adaptation task.
	Task string `json:"task"`
	// Candidates counts the variants generated.
	Candidates int `json:"candidates"`
	// Dropped counts the candidates dropped at each stage.
	Dropped map[Stage]int `json:"dropped"`
	// Kept counts the instances.
	Kept int `json:"kept"`
}

// Left returns how many candidates are left after stage s.
func (f *Funnel) Left(s Stage) int {
	n := f.Candidates
	for _, t := range Stages {
		if t > s {
			break
		}
		n -= f.Dropped[t]
	}
	return n
}

// funnel counts cands by generator (in order of first appearance), rule
// (in the order of Suite, other rules after it, IsoRule last) and, for
// IsoBugs, adaptation task.
func funnel(cands []*Candidate) []*Funnel {
	var out []*Funnel
	idx := map[string]*Funnel{}
	gens := map[string]int{}
	for _, c := range cands {
		if _, ok := gens[c.Generator]; !ok {
			gens[c.Generator] = len(gens)
		}
		key := c.Generator + "\x00" + c.Job.Rule + "\x00" + c.Job.Task
		f := idx[key]
		if f == nil {
			f = &Funnel{Generator: c.Generator, Rule: c.Job.Rule, Task: c.Job.Task, Dropped: map[Stage]int{}}
			idx[key] = f
			out = append(out, f)
		}
		f.Candidates++
		if c.Stage == StageKept {
			f.Kept++
		} else {
			f.Dropped[c.Stage]++
		}
	}
	rank := func(f *Funnel) [3]int {
		r := len(Suite)
		for i, s := range Suite {
			if s.Name == f.Rule {
				r = i
			}
		}
		if f.Rule == IsoRule {
			r = len(Suite) + 1
		}
		t := slices.Index(AdaptTasks, f.Task)
		return [3]int{gens[f.Generator], r, t}
	}
	slices.SortStableFunc(out, func(a, b *Funnel) int {
		ra, rb := rank(a), rank(b)
		return cmp.Or(cmp.Compare(ra[0], rb[0]), cmp.Compare(ra[1], rb[1]), cmp.Compare(ra[2], rb[2]))
	})
	return out
}

// WriteFunnel writes funnels as a Markdown table: per generator and rule,
// the candidates left after each stage, and a total per generator.
func WriteFunnel(w io.Writer, fs []*Funnel) error {
	var b strings.Builder
	b.WriteString("| generator | rule | task | generated |")
	for _, s := range Stages[:len(Stages)-1] {
		fmt.Fprintf(&b, " %s |", s)
	}
	b.WriteString("\n|---|---|---|---|")
	for range Stages[:len(Stages)-1] {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	row := func(f *Funnel) {
		fmt.Fprintf(&b, "| %s | %s | %s | %d |", f.Generator, f.Rule, f.Task, f.Candidates)
		for _, s := range Stages[:len(Stages)-1] {
			fmt.Fprintf(&b, " %d |", f.Left(s))
		}
		b.WriteString("\n")
	}
	var total *Funnel
	for i, f := range fs {
		row(f)
		if total == nil {
			total = &Funnel{Generator: f.Generator, Rule: "all", Dropped: map[Stage]int{}}
		}
		total.Candidates += f.Candidates
		total.Kept += f.Kept
		for s, n := range f.Dropped {
			total.Dropped[s] += n
		}
		if i+1 == len(fs) || fs[i+1].Generator != f.Generator {
			row(total)
			total = nil
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
