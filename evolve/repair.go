package evolve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/evolve/transform"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// ErrNoBug is wrapped when no bug could be injected identically into the
// original and the evolved program so that both fail their tests.
var ErrNoBug = errors.New("evolve: no shared bug")

// Bug records a bug injected for program repair: which mutator, where in
// each version, and the text it replaced and inserted (the same in both).
type Bug struct {
	// Operator is the bug mutator's ID ("M1").
	Operator string `json:"operator"`
	// Seed seeds the mutator's random source in both versions.
	Seed uint64 `json:"seed"`
	// Original and Evolved are the sites in the two programs.
	Original transform.Site `json:"original"`
	Evolved  transform.Site `json:"evolved"`
	// Old and New are the replaced and the inserted text.
	Old string `json:"old"`
	New string `json:"new"`
}

// RepairOptions configures [Repair]. The zero value is valid.
type RepairOptions struct {
	// Bugs are the mutators to inject with. nil means transform.Bugs.
	Bugs []*transform.Transform
	// Seed seeds the choice of mutator, site and the mutator's randomness.
	Seed uint64
	// Tries bounds how many candidate bugs are tested. 0 means 20.
	Tries int
}

// Repair makes a program-repair pair from a run: the same bug injected at
// the same shared statement of the original and of the evolved program
// (the run's pick), as GeneBench does so that the two tasks differ only in
// the evolution. A statement is shared when the GumTree matcher
// (internal/syntax) aligns it between the two programs and a mutator has a
// site of the same kind and text there in both; the mutator is applied
// with the same seed to both, the two edits must replace the same text
// with the same text, and both buggy programs must fail (not time out or
// break) the original tests, which tester runs. Candidates are tried in a
// random order drawn from opts.Seed.
//
// Each task shows the buggy program (Task.Code) and asks for the whole
// fixed file (Target.Function is empty); the tests are the original tests
// and the test files are the tasks' Context, as in the paper's prompt; the
// reference is the correct program. The Bug is returned too, and recorded
// in the tasks' labels.
func Repair(ctx context.Context, s *Subject, res *Result, tester *Tester, opts *RepairOptions) ([]adapt.Task, *Bug, error) {
	if res.Best == 0 {
		return nil, nil, fmt.Errorf("%w: %s: nothing was evolved", ErrNoBug, s.ID)
	}
	var o RepairOptions
	if opts != nil {
		o = *opts
	}
	if o.Bugs == nil {
		o.Bugs = transform.Bugs
	}
	if o.Tries == 0 {
		o.Tries = 20
	}
	orig, evo := res.Original().Program, res.Evolved().Program
	cands, err := sharedSites(orig, evo, o.Bugs)
	if err != nil {
		return nil, nil, fmt.Errorf("evolve: %s: %w", s.ID, err)
	}
	rng := rand.New(rand.NewPCG(o.Seed, streamOf(s.ID)))
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	tries := 0
	for _, c := range cands {
		if tries >= o.Tries {
			break
		}
		seed := rng.Uint64()
		bo, err1 := apply(orig, c.t, c.so, seed)
		be, err2 := apply(evo, c.t, c.se, seed)
		if err1 != nil || err2 != nil {
			continue
		}
		oldO, newO := changed(orig.Main, bo.Main)
		oldE, newE := changed(evo.Main, be.Main)
		if oldO != oldE || newO != newE || oldO == newO || !sameModules(orig, bo) || !sameModules(evo, be) {
			continue
		}
		tries++
		vo, err := tester.Test(ctx, s.Suite, bo)
		if err != nil {
			return nil, nil, err
		}
		if vo.Verdict != VerdictFailed {
			continue
		}
		ve, err := tester.Test(ctx, s.Suite, be)
		if err != nil {
			return nil, nil, err
		}
		if ve.Verdict != VerdictFailed {
			continue
		}
		bug := &Bug{Operator: c.t.ID, Seed: seed, Original: c.so, Evolved: c.se, Old: oldO, New: newO}
		var tasks []adapt.Task
		for i, pair := range [2][2]*transform.Program{{orig, bo}, {evo, be}} {
			t, err := repairTask(s, res, pairIDs(res)[i], pair[0], pair[1], bug)
			if err != nil {
				return nil, nil, err
			}
			tasks = append(tasks, t)
		}
		return tasks, bug, nil
	}
	return nil, nil, fmt.Errorf("%w: %s: %d candidate sites, %d tested", ErrNoBug, s.ID, len(cands), tries)
}

// candidate is a mutator with its site in the original and in the evolved
// program.
type candidate struct {
	t      *transform.Transform
	so, se transform.Site
}

// sharedSites lists, per mutator in order and then by site in the
// original's document order, the sites of the original that the matcher
// aligns with a site of the same kind and text in the evolved program.
func sharedSites(orig, evo *transform.Program, bugs []*transform.Transform) ([]candidate, error) {
	m, err := syntax.MatchSource(syntax.Python, orig.Main, evo.Main)
	if err != nil {
		return nil, err
	}
	var out []candidate
	for _, b := range bugs {
		inEvo := map[[2]int]transform.Site{}
		for _, se := range b.Sites(evo) {
			inEvo[[2]int{se.Start, se.End}] = se
		}
		for _, so := range b.Sites(orig) {
			r, ok := m.Aligned(syntax.Range{Start: so.Start, End: so.End})
			if !ok {
				continue
			}
			se, ok := inEvo[[2]int{r.Start, r.End}]
			if !ok || se.Kind != so.Kind || !bytes.Equal(orig.Main[so.Start:so.End], evo.Main[se.Start:se.End]) {
				continue
			}
			out = append(out, candidate{t: b, so: so, se: se})
		}
	}
	return out, nil
}

// changed returns the differing middle of a and b: what b replaced in a.
func changed(a, b []byte) (old, new string) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return string(a[p : len(a)-s]), string(b[p : len(b)-s])
}

// sameModules reports whether a and b have the same modules.
func sameModules(a, b *transform.Program) bool {
	if len(a.Modules) != len(b.Modules) {
		return false
	}
	for k, v := range a.Modules {
		if w, ok := b.Modules[k]; !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}

// repairPrompt is the artifact's repair request.
const repairPrompt = "I have the following buggy code. Can you fix it so it passes the tests?"

func repairTask(s *Subject, res *Result, id int, fixed, buggy *transform.Program, bug *Bug) (adapt.Task, error) {
	files := append([]adapt.File(nil), s.Suite.Files...)
	files = append(files, moduleFiles(fixed, s.Suite.Path)...)
	var ctxs []adapt.Snippet
	for _, f := range s.Suite.Files {
		ctxs = append(ctxs, adapt.Snippet{Name: f.Path, Code: f.Content})
	}
	var tests []adapt.Test
	for _, name := range s.Suite.Tests {
		tests = append(tests, adapt.Test{Name: name})
	}
	l := labels(s, res, id, "program-repair")
	l["bug"] = bug.Operator
	t := adapt.Task{
		ID:          fmt.Sprintf("%s/repair/%s", s.ID, versionName(id)),
		Language:    adapt.Python,
		Code:        Source(buggy),
		Target:      adapt.Target{Path: s.Suite.Path, Content: string(fixed.Main)},
		Files:       files,
		Context:     ctxs,
		Requirement: adapt.Requirement{Task: repairPrompt},
		Reference:   string(fixed.Main),
		Framework:   s.Suite.framework(),
		Tests:       tests,
		Labels:      l,
		Provenance:  provenance(s, res, id),
	}
	t.Provenance.Operators = append(t.Provenance.Operators, bug.Operator)
	return t, t.Validate()
}
