package mutate

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// Result is what Generate produced.
type Result struct {
	// Tests are the project's tests; Stable those that passed in every
	// baseline run; Flaky those whose result changed between runs.
	Tests, Stable, Flaky []string
	// Fragments counts the candidate fragments found, Covered those with
	// a relevant test, Sampled those mutated.
	Fragments, Covered, Sampled int
	// Candidates are every mutant considered, in a deterministic order.
	Candidates []*Candidate
	// Funnel counts the stages per operator combination.
	Funnel report.Funnel
	// Tasks are the tasks of the valid candidates, one per context level;
	// From[i] is the candidate Tasks[i] was made from.
	Tasks []adapt.Task
	From  []*Candidate
	// BuildTime, TestTime and Total are the wall times spent building, in
	// test processes and in all of Generate's validation phase.
	BuildTime, TestTime, Total time.Duration
	// Batches says how the checks went where the project checks many
	// mutants at once (Maven's shared JVMs).
	Batches BatchStats
}

// BatchStats says how the checks of a project that checks many mutants at
// once (Maven: their tests in shared JVMs) went. Of Checks sent in
// batches, Alone were made one at a time after all: those of a batch too
// small to share a JVM, those their batch left undecided (a mutant that
// loops, exits or kills its JVM), and every check a batch that failed as
// a whole did not decide; Errors says why each such batch failed. The
// verdicts are the same either way: what a check made alone costs is
// time. With maven.Config.TestEach every check is made alone. Zero for
// projects that check one mutant at a time.
type BatchStats struct {
	Checks, Alone int
	Errors        []string
}

// Gates are the pilot's feasibility numbers over the L1 candidates.
type Gates struct {
	Parsed, Compiled, Unresolved, Detected int
	// CompileShare is Compiled/Parsed (the paper's gate: >= 0.70);
	// DetectShare is the share of compiled mutants a test caught (gate:
	// >= 0.60).
	CompileShare, DetectShare float64
	// Valid counts valid L1 tasks (mutants) per operator.
	Valid map[string]int
}

// Gates computes the pilot gates over the result's L1 candidates.
func (r *Result) Gates() Gates {
	g := Gates{Valid: map[string]int{}}
	caught := 0
	for _, c := range r.Candidates {
		if c.Level != L1 || c.Reason == ReasonNoEdit || c.Reason == ReasonParse || c.Reason == ReasonInfra {
			continue
		}
		g.Parsed++
		switch {
		case c.Reason == ReasonCompile:
		case c.Unresolved:
			g.Unresolved++
		default:
			g.Compiled++
			if c.Valid() {
				caught++
			}
		}
		if c.Valid() {
			g.Detected++
			g.Valid[c.Ops[0]]++
		}
	}
	if g.Parsed > 0 {
		g.CompileShare = float64(g.Compiled) / float64(g.Parsed)
	}
	if g.Compiled > 0 {
		g.DetectShare = float64(caught) / float64(g.Compiled)
	}
	return g
}

// The pilot gates of the paper: the shares of L1 mutants that must
// compile and, of those, be caught by a test.
const (
	compileGate = 0.70
	detectGate  = 0.60
)

// Err says which pilot gates fail, or returns nil when both pass. With no
// L1 mutant parsed, or none compiled, a gate could not be measured, and
// that is a failure too.
func (g Gates) Err() error {
	var failed []string
	switch {
	case g.Parsed == 0:
		failed = append(failed, "no L1 mutant parsed, so no gate was measured")
	case g.CompileShare < compileGate:
		failed = append(failed, fmt.Sprintf("compiled %.1f%% < %.0f%%", 100*g.CompileShare, 100*compileGate))
	}
	switch {
	case g.Parsed > 0 && g.Compiled == 0:
		failed = append(failed, "no L1 mutant compiled, so caught-by-tests was not measured")
	case g.Compiled > 0 && g.DetectShare < detectGate:
		failed = append(failed, fmt.Sprintf("caught by tests %.1f%% < %.0f%%", 100*g.DetectShare, 100*detectGate))
	}
	if len(failed) == 0 {
		return nil
	}
	return fmt.Errorf("mutate: pilot gates failed: %s", strings.Join(failed, "; "))
}

// String formats the gates for people.
func (g Gates) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "L1 mutants parsed %d, compiled %d (%.1f%%, gate 70%%), kept unresolved %d, caught by tests %.1f%% of compiled (gate 60%%), valid %d\n",
		g.Parsed, g.Compiled, 100*g.CompileShare, g.Unresolved, 100*g.DetectShare, g.Detected)
	for _, op := range slices.Sorted(maps.Keys(g.Valid)) {
		fmt.Fprintf(&b, "  valid %-14s %d\n", op, g.Valid[op])
	}
	return b.String()
}

// summaryGroup is the group of the compact funnel (FunnelSummary) that a
// group of Result.Funnel (an operator combination, "op" or "op1+op2")
// falls in: "L1 op" for one operator, else its level, "L2", "L3" or "L4"
// (four or more operators).
func summaryGroup(group string) string {
	n := strings.Count(group, "+") + 1
	if n == 1 {
		return "L1 " + group
	}
	return ComplexityLevel(min(n, int(L4))).String()
}

// FunnelSummary returns the funnel with a row per L1 operator (in the
// order of Operators: by tier) and one per level above L1, gathering its
// operator combinations (summaryGroup): about a dozen rows where an L1–L4
// run's Funnel has a hundred. Result.Funnel keeps every combination
// (report.Funnel.WriteCSV writes them all).
func (r *Result) FunnelSummary() *report.Funnel {
	rank := func(g string) (string, int, string) {
		lv, op, _ := strings.Cut(g, " ")
		i := slices.IndexFunc(Operators, func(o *Operator) bool { return o.Name == op })
		if i < 0 {
			i = len(Operators)
		}
		return lv, i, op
	}
	return r.Funnel.Regroup(summaryGroup, func(a, b string) int {
		la, ia, oa := rank(a)
		lb, ib, ob := rank(b)
		if c := strings.Compare(la, lb); c != 0 {
			return c
		}
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(oa, ob)
	})
}

// countCandidate adds a candidate to the funnel.
func countCandidate(f *report.Funnel, c *Candidate) {
	k := c.Key()
	f.Add(k, StageSite, 1)
	if c.Reason == ReasonNoEdit || c.Reason == ReasonOverlap {
		return
	}
	f.Add(k, StageApplied, 1)
	if c.Reason == ReasonParse {
		return
	}
	f.Add(k, StageParsed, 1)
	switch {
	case c.Unresolved:
		f.Add(k, StageUnresolved, 1)
	case c.Reason == ReasonCompile || c.Reason == ReasonInfra || c.Reason == ReasonConstituent:
		return
	default:
		f.Add(k, StageCompiled, 1)
	}
	if c.Valid() {
		f.Add(k, StageDetected, 1)
		if c.Effective() == c.Level {
			f.Add(k, StageEffective, 1)
		}
	}
}
