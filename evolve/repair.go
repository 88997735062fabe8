package evolve

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/evolve/transform"
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
// the evolution. The candidates are each mutator's sites in statements the
// two programs share (transform.BugSites: unchanged statements matched by
// the GumTree matcher of internal/syntax), tried in a random order drawn
// from opts.Seed; transform.InjectBug applies the mutator to both with the
// same random draws and checks that both got the same change, and both
// buggy programs must fail (not time out or break) the original tests,
// which tester runs.
//
// Each task shows the buggy program (Task.Code) and asks for the whole
// fixed file (Target.Function is empty); the tests are the original tests
// and the test files are the tasks' Context, as in the paper's prompt; the
// reference is the correct program. The Bug is returned too, and recorded
// in the tasks' labels.
func Repair(ctx context.Context, s *Subject, res *Evolution, tester *Tester, opts *RepairOptions) ([]adapt.Task, *Bug, error) {
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
	var cands []candidate
	for _, b := range o.Bugs {
		sites, err := transform.BugSites(b, orig, evo)
		if err != nil {
			return nil, nil, fmt.Errorf("evolve: %s: %w", s.ID, err)
		}
		for _, site := range sites {
			cands = append(cands, candidate{t: b, site: site})
		}
	}
	rng := rand.New(rand.NewPCG(o.Seed, streamOf(s.ID)))
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	tries := 0
	for _, c := range cands {
		if tries >= o.Tries {
			break
		}
		seed := rng.Uint64()
		bo, be, err := transform.InjectBug(c.t, orig, evo, c.site, rand.New(rand.NewPCG(seed, seed)))
		if err != nil {
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
		old, new := changed(orig.Main, bo.Main)
		bug := &Bug{Operator: c.t.ID, Seed: seed, Original: c.site.Original, Evolved: c.site.Evolved, Old: old, New: new}
		var tasks []adapt.Task
		for i, pair := range [2][2]*transform.Program{{orig, bo}, {evo, be}} {
			t, err := repairTask(s, res, repairVersion{pairIDs(res)[i], pair[0], pair[1]}, bug)
			if err != nil {
				return nil, nil, err
			}
			tasks = append(tasks, t)
		}
		return tasks, bug, nil
	}
	return nil, nil, fmt.Errorf("%w: %s: %d candidate sites, %d tested", ErrNoBug, s.ID, len(cands), tries)
}

// candidate is a mutator with a shared site.
type candidate struct {
	t    *transform.Transform
	site transform.BugSite
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

// repairPrompt is the artifact's repair request.
const repairPrompt = "I have the following buggy code. Can you fix it so it passes the tests?"

// repairVersion is one version of a program a bug was injected into:
// individual id of the evolution, and the program without the bug and
// with it.
type repairVersion struct {
	id           int
	fixed, buggy *transform.Program
}

// repairTask is the program-repair task of one version: repair v.buggy
// into v.fixed, with the subject's tests.
func repairTask(s *Subject, res *Evolution, v repairVersion, bug *Bug) (adapt.Task, error) {
	id, fixed, buggy := v.id, v.fixed, v.buggy
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
	l := labels(s, id, "program-repair")
	l["bug"] = bug.Operator
	t := adapt.Task{
		ID:          fmt.Sprintf("%s/repair/%s", s.ID, versionName(id)),
		Language:    adapt.Python,
		Code:        source(buggy),
		Target:      adapt.Target{Path: s.Suite.Path, Content: string(fixed.Main)},
		Files:       files,
		Context:     ctxs,
		Requirement: adapt.Requirement{Task: repairPrompt},
		Reference:   string(fixed.Main),
		Framework:   s.Suite.framework(),
		Tests:       tests,
		Labels:      l,
	}
	if err := setProvenance(&t, s, res, id, bug); err != nil {
		return adapt.Task{}, err
	}
	return t, t.Validate()
}
