package evolve

import (
	"fmt"
	"strings"
	"time"

	"github.com/adaptbench/adaptbench/evolve/measure"
	"github.com/adaptbench/adaptbench/evolve/transform"
)

// Individual is one accepted program of a run's population: the original
// or an offspring that kept its readability and passed the tests.
type Individual struct {
	// ID is the individual's index in Evolution.Population; the original is 0.
	ID int `json:"id"`
	// Program is the program itself.
	Program *transform.Program `json:"-"`
	// Hash is Program.Hash().
	Hash string `json:"hash"`
	// Metrics are the program's complexity and readability metrics.
	Metrics measure.Metrics `json:"metrics"`
	// RC and RR are its relative complexity and relative readability (the
	// paper's Eq. 1 and 2), the two objectives the search maximises.
	RC float64 `json:"rc"`
	RR float64 `json:"rr"`
	// Generation is the generation that made it; 0 for the original.
	Generation int `json:"generation"`
	// Step is how it was made from its parent; the zero Step (Parent -1)
	// for the original.
	Step Step `json:"step"`

	done map[string]bool // keys of the sites transformed along the lineage
}

// Step records how an offspring was made: which operator, applied where
// in which parent, with which seed. Given the parent's program, the
// operator and the site, rand.New(rand.NewPCG(Seed, Seed)) as the Apply's
// random source reproduces the offspring exactly ([Replay]).
type Step struct {
	// Parent is the parent's ID, or -1 for the original.
	Parent int `json:"parent"`
	// Operator is the transform's ID ("S2").
	Operator string `json:"operator,omitempty"`
	// Site is where in the parent's Main it was applied.
	Site transform.Site `json:"site"`
	// Seed seeds the random source given to the transform.
	Seed uint64 `json:"seed"`
}

// Stop says why a run ended. The zero value, stopInvalid, marks a run that
// never stopped. Text forms are stable.
type Stop uint8

// The reasons a run stops.
const (
	stopInvalid Stop = iota
	// StopTarget: an individual reached relative complexity 1, every
	// complexity metric at or over its threshold (the paper's goal).
	StopTarget
	// StopBudget: the evaluation budget was spent.
	StopBudget
	// StopTime: the time budget was spent.
	StopTime
	// StopStall: Options.Stall generations in a row accepted nothing.
	StopStall
	// StopExhausted: no parent had an operator left to apply.
	StopExhausted
	// StopCanceled: the context ended the run.
	StopCanceled
)

var stopNames = [...]string{"invalid", "target", "budget", "time", "stall", "exhausted", "canceled"}

// String returns the text form, such as "budget".
func (s Stop) String() string {
	if int(s) < len(stopNames) {
		return stopNames[s]
	}
	return fmt.Sprintf("Stop(%d)", uint8(s))
}

// MarshalText returns the text form; it fails for undefined values.
func (s Stop) MarshalText() ([]byte, error) {
	if int(s) >= len(stopNames) {
		return nil, fmt.Errorf("evolve: invalid Stop %d", uint8(s))
	}
	return []byte(stopNames[s]), nil
}

// UnmarshalText parses the text form; "" is rejected.
func (s *Stop) UnmarshalText(b []byte) error {
	for i, n := range stopNames {
		if n == string(b) {
			*s = Stop(i)
			return nil
		}
	}
	return fmt.Errorf("evolve: unknown stop reason %q (want one of %s)", b, strings.Join(stopNames[:], ", "))
}

// Rejections counts the offspring a run did not accept, by reason.
type Rejections struct {
	// Failed: the transform failed or its result does not parse.
	Failed int `json:"failed"`
	// Duplicate: the same program is already in the population, or was
	// rejected before.
	Duplicate int `json:"duplicate"`
	// Unreadable: a readability metric reached its threshold.
	Unreadable int `json:"unreadable"`
	// Tests: the original tests did not pass.
	Tests int `json:"tests"`
}

// Evolution is what [Evolve] returns for one subject.
type Evolution struct {
	// Subject is the subject's ID.
	Subject string `json:"subject"`
	// Seed is the seed the run used (Options.Seed).
	Seed uint64 `json:"seed"`
	// Population holds every accepted individual in the order accepted;
	// Population[0] is the original.
	Population []*Individual `json:"population"`
	// Front lists the IDs of the final Pareto front over (RC, RR), by
	// decreasing RC.
	Front []int `json:"front"`
	// Best is the ID of the pick: the front's highest-RC individual (ties
	// go to the higher RR, then the lower ID).
	Best int `json:"best"`
	// Generations is the number of generations bred.
	Generations int `json:"generations"`
	// Evaluations is the number of offspring made and examined.
	Evaluations int `json:"evaluations"`
	// Rejected counts the offspring that were not accepted.
	Rejected Rejections `json:"rejected"`
	// Stop says why the run ended.
	Stop Stop `json:"stop"`
	// Elapsed is the run's wall time.
	Elapsed time.Duration `json:"elapsed"`
	// TestTime is the wall time spent waiting for test runs (including
	// cache hits), summed over the offspring tested; with Parallelism above
	// 1 it can exceed Elapsed.
	TestTime time.Duration `json:"test_time"`
	// Tested is the number of offspring whose tests ran (or came from the
	// cache).
	Tested int `json:"tested"`
	// Err is set by Generate when this subject could not be evolved (its
	// original fails its tests, for instance); Population is then empty or
	// holds only the original.
	Err error `json:"-"`
}

// Original returns the original program's individual.
func (r *Evolution) Original() *Individual { return r.Population[0] }

// Evolved returns the picked individual.
func (r *Evolution) Evolved() *Individual { return r.Population[r.Best] }

// Lineage returns the steps that made individual id from the original, in
// order (empty for the original).
func (r *Evolution) Lineage(id int) []Step {
	var steps []Step
	for id > 0 {
		ind := r.Population[id]
		steps = append(steps, ind.Step)
		id = ind.Step.Parent
	}
	for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
		steps[i], steps[j] = steps[j], steps[i]
	}
	return steps
}

// Operators returns the operator IDs of individual id's lineage, in order.
func (r *Evolution) Operators(id int) []string {
	var ops []string
	for _, s := range r.Lineage(id) {
		ops = append(ops, s.Operator)
	}
	return ops
}
