package evolve

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/evolve/measure"
	"github.com/adaptbench/adaptbench/evolve/transform"
	"github.com/adaptbench/adaptbench/exec"
)

// Options configures [Evolve] and [Generate]. The zero value is valid, and a nil
// *Options is the same as a zero one.
type Options struct {
	// Transforms are the operators the search applies, in the order it
	// tries them on each parent. nil means transform.All (the 22
	// semantics-preserving operators).
	Transforms []*transform.Transform

	// Thresholds are CT and RT, the reference values of the relative
	// measures. nil means measure.GeneBenchV1, the artifact's constants.
	Thresholds *measure.Thresholds

	// Breed is the fraction k of the Pareto front, ranked by relative
	// complexity, that breeds in each generation: at least one individual.
	// 0 means 0.2, the paper's 20%; otherwise it must be in (0, 1].
	Breed float64

	// Evaluations is the budget: how many offspring a run may make and
	// examine (every operator applied at a site counts, duplicates and
	// rejects included). 0 means 300; a negative value means no limit
	// (then set Time). A fixed evaluation budget makes a run reproducible.
	Evaluations int

	// Time bounds the run's wall time, checked between the phases of a
	// generation, as the paper's one hour per program. 0 means no limit.
	// A run stopped by time depends on the machine's speed.
	Time time.Duration

	// Stall ends a run after this many consecutive generations that
	// accepted no offspring (the artifact's "no new children"). 0 means 3;
	// a negative value means never.
	Stall int

	// Seed seeds the run's random stream together with the subject's ID:
	// rand.NewPCG(Seed, fnv64a(ID)).
	Seed uint64

	// Parallelism is the number of offspring transformed, measured and
	// tested at once. 0 means exec.DefaultParallelism(). It changes only
	// the speed: results are stored by index and reduced in index order.
	Parallelism int

	// Progress, if set, is called by Generate after each subject (Phase
	// "evolve"; Passed counts the subjects evolved).
	Progress func(report.Progress)

	// StrictReadability applies the paper's validity rule literally: an
	// offspring is rejected when any readability metric R_i reaches its
	// threshold RT_i. By default an offspring is rejected only when a
	// metric reaches its threshold and exceeds the original's value, so
	// that a program that already breaks a threshold (two nested loops
	// reach GeneBenchV1's R9 threshold of 2) can still evolve elsewhere.
	StrictReadability bool

	// Tester runs the tests and caches verdicts. nil means a Tester over a
	// fork server that the call makes and closes.
	Tester *Tester
}

// config is a resolved copy of the options.
type config struct {
	transforms  []*transform.Transform
	thresholds  measure.Thresholds
	breed       float64
	evaluations int
	time        time.Duration
	stall       int
	seed        uint64
	parallelism int
	strict      bool
	tester      *Tester
}

func resolve(o *Options) (config, error) {
	if o == nil {
		o = new(Options)
	}
	c := config{
		transforms:  o.Transforms,
		breed:       o.Breed,
		evaluations: o.Evaluations,
		time:        o.Time,
		stall:       o.Stall,
		seed:        o.Seed,
		parallelism: o.Parallelism,
		strict:      o.StrictReadability,
		tester:      o.Tester,
	}
	if c.transforms == nil {
		c.transforms = transform.All
	}
	if len(c.transforms) == 0 {
		return c, errors.New("evolve: no transforms")
	}
	if err := transform.Validate(c.transforms); err != nil {
		return c, err
	}
	for _, t := range c.transforms {
		if t.Family == transform.Bug {
			return c, fmt.Errorf("evolve: transform %s is a bug mutator, not semantics-preserving", t.ID)
		}
	}
	if o.Thresholds != nil {
		c.thresholds = *o.Thresholds
	} else {
		c.thresholds = measure.GeneBenchV1
	}
	switch {
	case c.breed == 0:
		c.breed = 0.2
	case !(c.breed > 0 && c.breed <= 1) || math.IsNaN(c.breed):
		return c, fmt.Errorf("evolve: Breed %v, want 0 (default) or in (0, 1]", o.Breed)
	}
	switch {
	case c.evaluations == 0:
		c.evaluations = 300
	case c.evaluations < 0:
		if c.time <= 0 {
			return c, errors.New("evolve: no evaluation limit and no time limit")
		}
		c.evaluations = math.MaxInt
	}
	if c.time < 0 {
		return c, fmt.Errorf("evolve: Time %v, want 0 (none) or more", o.Time)
	}
	switch {
	case c.stall == 0:
		c.stall = 3
	case c.stall < 0:
		c.stall = math.MaxInt
	}
	switch {
	case c.parallelism == 0:
		c.parallelism = exec.DefaultParallelism()
	case c.parallelism < 0:
		return c, fmt.Errorf("evolve: Parallelism %d, want 0 or more", o.Parallelism)
	}
	return c, nil
}
