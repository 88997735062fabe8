package evolve

import (
	"context"
	"iter"
	"slices"

	"github.com/adaptbench/adaptbench/exec"
)

// Preload lists the modules DefaultTester's fork server imports once, on
// top of exec.DefaultPreload: those the API operators and S4 and S9 inject
// (A1–A8), so that a test run forks them ready instead of importing numpy
// and scipy again each time.
var Preload = []string{"base64", "datetime", "http.client", "queue", "threading", "numpy", "scipy.stats", "dateutil.parser", "cryptography.fernet", "sklearn.utils"}

// DefaultTester returns a Tester over a new exec.ForkServer that preloads
// [Preload] (the modules the machine's Python has) in a new exec.Sandbox,
// with DefaultLimits, and the function that closes both.
func DefaultTester() (*Tester, func(), error) {
	fs, err := exec.NewPythonRunner(&exec.ForkServerConfig{Preload: PreloadList()})
	if err != nil {
		return nil, nil, err
	}
	return NewTester(fs, nil), func() { fs.Close() }, nil
}

// PreloadList is exec.DefaultPreload followed by Preload, for a fork
// server of one's own.
func PreloadList() []string { return append(slices.Clone(exec.DefaultPreload), Preload...) }

// Report is what [RunAll] returns: one Result per subject, in the order of
// the subjects.
type Report struct {
	Results []*Result
}

// All yields the results in subject order.
func (r *Report) All() iter.Seq[*Result] { return slices.Values(r.Results) }

// Evolved yields the results of the subjects that were evolved (their
// original passed its tests and the run did not fail).
func (r *Report) Evolved() iter.Seq[*Result] {
	return func(yield func(*Result) bool) {
		for _, res := range r.Results {
			if res.Err == nil && len(res.Population) > 0 && !yield(res) {
				return
			}
		}
	}
}

// RunAll evolves each subject in turn with [Run] and the same options (each
// subject's stream is seeded from Options.Seed and its ID, so a subject's
// result does not depend on the others). A subject that cannot be evolved
// gets a Result with Err set (wrapping ErrOriginalFails when its original
// fails); only ctx ending or a bad Options stops the whole call, which then
// returns the results so far with the error. With a nil Options.Tester one
// tester, and its cache, serves every subject.
func RunAll(ctx context.Context, subjects []*Subject, opts *Options) (*Report, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if _, err := resolve(&o); err != nil {
		return nil, err
	}
	if o.Tester == nil {
		t, closeFn, err := DefaultTester()
		if err != nil {
			return nil, err
		}
		defer closeFn()
		o.Tester = t
	}
	rep := &Report{}
	for _, s := range subjects {
		res, err := Run(ctx, s, &o)
		if ctx.Err() != nil {
			if res != nil {
				res.Err = ctx.Err()
				rep.Results = append(rep.Results, res)
			}
			return rep, ctx.Err()
		}
		if res == nil {
			res = &Result{Subject: s.ID, Seed: o.Seed}
		}
		res.Err = err
		rep.Results = append(rep.Results, res)
	}
	return rep, nil
}
