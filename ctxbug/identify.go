package ctxbug

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
	"github.com/adaptbench/adaptbench/exec/sandbox"
	"github.com/adaptbench/adaptbench/internal/syntax"
	"github.com/adaptbench/adaptbench/internal/textkit"
	"github.com/adaptbench/adaptbench/internal/tracker"
)

// Identify runs the paper's identification (§2.4) on every candidate,
// after checking that each base's solution passes its own tests (the
// candidates of a base whose solution fails are dropped with
// reasonReference): deobfuscate the output's method; run the method's tests with it in
// place in the class (they must fail); align it with the solution by
// GumTree (it must differ at a perturbed node, or delete it) and by
// tokens (unless AllowEditsElsewhere, it must differ nowhere else; see
// the package documentation); then drop empty outputs and
// duplicates. Each candidate's reason says where it stopped. Empty outputs
// pass the earlier stages vacuously (a method that is not there fails
// every test and deletes every perturbed node) and are dropped at the
// cleaning stage, as in the paper; their tests are not run. Duplicates
// are variants of the same method from the same generator whose tokens
// are equal, from whatever rule; the first in candidate order is kept.
//
// Identify returns a Result without Tasks: the candidates given, each
// with its reason set, the instances kept, in order, and the funnel of
// each generator and rule through the stages, in order of first
// appearance. It returns an error only when it cannot run at all or ctx ends;
// a sandbox failure on one candidate drops it with reasonHarness.
func Identify(ctx context.Context, cands []*Candidate, opts *Options) (*Result, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Parallelism <= 0 {
		o.Parallelism = exec.DefaultParallelism()
	}
	runner, closeRunner, err := sandbox.Default(o.Runner)
	if err != nil {
		return nil, err
	}
	defer closeRunner()
	o.Runner = runner
	chk := &adapt.Checker{Runner: o.Runner, Limits: o.Limits}
	// Gold first: the tests of a base whose solution fails them say
	// nothing about its variants.
	var bases []*Base
	gold := map[*Base][]string{}
	for _, c := range cands {
		if _, ok := gold[c.Job.Base]; !ok {
			gold[c.Job.Base] = nil
			bases = append(bases, c.Job.Base)
		}
	}
	goldErr := make([]error, len(bases))
	goldFail := make([][]string, len(bases))
	var g errgroup.Group
	g.SetLimit(o.Parallelism)
	for i, b := range bases {
		g.Go(func() error {
			if ctx.Err() != nil {
				return nil
			}
			goldFail[i], goldErr[i] = failingTests(ctx, chk, &b.Task, adapt.Answer{Code: string(b.Method)})
			return nil
		})
	}
	g.Wait()
	bad := map[*Base]string{}
	for i, b := range bases {
		switch {
		case goldErr[i] != nil:
			bad[b] = "the solution could not be tested: " + goldErr[i].Error()
		case len(goldFail[i]) > 0:
			bad[b] = "the solution fails " + strings.Join(goldFail[i], ", ")
		}
	}
	empty := make([]bool, len(cands))
	var todo []int
	for i, c := range cands {
		if why, ok := bad[c.Job.Base]; ok && c.Completion.Err == "" {
			c.reason, c.detail = reasonReference, why
			continue
		}
		todo = append(todo, i)
	}
	progress := tracker.New(o.Progress, "identify", len(todo))
	for _, i := range todo {
		c := cands[i]
		g.Go(func() error {
			if ctx.Err() != nil {
				return nil
			}
			empty[i] = check(ctx, c, chk, o.AllowEditsElsewhere)
			progress.Done(c.reason == reasonInvalid && !empty[i])
			return nil
		})
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	id := &Result{candidates: cands}
	seen := map[string]string{}
	for i, c := range cands {
		if c.reason == reasonInvalid && empty[i] {
			c.reason, c.detail = reasonEmpty, "the output holds no code"
		}
		if c.reason == reasonInvalid {
			key := c.Generator + "\x00" + c.Job.Base.ID() + "\x00" + tokens([]byte(c.variant))
			if first, ok := seen[key]; ok {
				c.reason, c.detail = reasonDuplicate, "same variant as "+first
			} else {
				seen[key] = instanceID(c)
				c.reason = reasonKept
				id.Instances = append(id.Instances, newInstance(c))
			}
		}
	}
	id.Funnel = funnel(cands)
	return id, nil
}

// check runs the stages up to the locality check on c, setting its reason
// when it is dropped; it reports whether c's output is empty.
func check(ctx context.Context, c *Candidate, chk *adapt.Checker, editsElsewhere bool) (empty bool) {
	j := c.Job
	if c.Completion.Err != "" {
		c.reason, c.detail = reasonModel, c.Completion.Err
		return false
	}
	text := c.Completion.Text
	if j.Rule == IsoRule {
		text = strings.NewReplacer(markStart, "", markEnd, "").Replace(text)
	}
	if len(textkit.CodeBlocks(text)) == 0 {
		return true
	}
	variant, answer, err := deobfuscated(&j.Base.Task, text, j.Obfuscated.Names)
	if err != nil {
		c.reason, c.detail = reasonDeobfuscate, err.Error()
		return false
	}
	c.variant = variant
	failing, err := failingTests(ctx, chk, &j.Base.Task, answer)
	if err != nil {
		c.reason, c.detail = reasonHarness, err.Error()
		return false
	}
	if len(failing) == 0 {
		c.reason, c.detail = reasonTests, "every test passes"
		return false
	}
	c.failing = failing
	cmp, err := compare(j.Base.Method, []byte(variant))
	if err != nil {
		c.reason, c.detail = reasonDeobfuscate, err.Error()
		return false
	}
	c.bugs = cmp.bugs(j.Holes)
	if len(c.bugs) == 0 {
		c.reason, c.detail = reasonDiff, "the solution's tokens at every perturbed node"
		return false
	}
	if !editsElsewhere && !cmp.align(j.Holes).ok {
		c.reason, c.detail = reasonLocality, "the tokens outside the perturbed nodes are not the solution's"
		return false
	}
	return false
}

// deobfuscated takes the target method out of a completion and renames
// its identifiers back with names. It fails when there is no such method
// or it does not parse.
func deobfuscated(t *adapt.Task, text string, names map[string]string) (string, adapt.Answer, error) {
	a, err := adapt.Extract(t, text)
	if err != nil {
		return "", adapt.Answer{}, err
	}
	code, err := deobfuscateCode([]byte(a.Code), names)
	if err != nil {
		return "", adapt.Answer{}, err
	}
	root, err := syntax.ParseNodes(syntax.Python, code)
	if err != nil {
		return "", adapt.Answer{}, err
	}
	if root.Err {
		return "", adapt.Answer{}, errors.New("ctxbug: the method has syntax errors")
	}
	a.Code = string(code)
	return a.Code, a, nil
}

// failingTests checks a against t and returns the names of the tests that
// did not pass (all of them when the module does not import). A check
// that could not run (an infrastructure error) is an error.
func failingTests(ctx context.Context, chk *adapt.Checker, t *adapt.Task, a adapt.Answer) ([]string, error) {
	res, err := chk.Check(ctx, t, a)
	if err == nil && res.Outcome == report.OutcomeInfraError {
		err = errors.New(res.Detail)
	}
	if err != nil {
		return nil, fmt.Errorf("ctxbug: %s: %w", t.ID, err)
	}
	if res.Outcome == report.OutcomeNoCode {
		return nil, fmt.Errorf("ctxbug: %s: %s", t.ID, res.Detail)
	}
	var failing []string
	for _, tc := range res.Tests {
		if tc.Status != exec.TestPassed {
			failing = append(failing, tc.Name)
		}
	}
	return failing, nil
}

// tokens is the method's token sequence, comments left out (the dedup
// key): two variants that differ only in layout or comments are the same.
func tokens(code []byte) string {
	root, err := syntax.ParseNodes(syntax.Python, code)
	if err != nil {
		return string(code)
	}
	return norm(root, code)
}
