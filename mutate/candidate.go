package mutate

import (
	"fmt"
	"strings"
)

// ComplexityLevel is a complexity level of the paper (L1 to L4): how many
// mutations a task combines. ContextLevel (C1 to C3) is the other axis:
// how much code around the snippet the prompt shows.
type ComplexityLevel uint8

// The levels. L2 combines two distinct operators, L3 three from at least two
// operators, L4 four or more from at least two (families are operators).
const (
	complexityInvalid ComplexityLevel = iota
	L1
	L2
	L3
	L4
)

func (l ComplexityLevel) String() string {
	if l >= L1 && l <= L4 {
		return fmt.Sprintf("L%d", l)
	}
	return fmt.Sprintf("ComplexityLevel(%d)", uint8(l))
}

// Policy says how the compile step treats a mutant that does not compile.
type Policy uint8

const (
	_ Policy = iota // the zero value is no policy
	// RequireCompile discards every mutant that does not compile (the
	// paper's literal pipeline).
	RequireCompile
	// AllowUnresolved keeps a mutant whose only compile errors are
	// unresolved names on the lines it changed: the compiler, not a test,
	// detects it. The digest's default for variable rename and identifier
	// resolution, whose purpose is an unresolved name.
	AllowUnresolved
)

func (p Policy) String() string {
	switch p {
	case RequireCompile:
		return "require_compile"
	case AllowUnresolved:
		return "allow_unresolved"
	}
	return fmt.Sprintf("Policy(%d)", uint8(p))
}

// defaultPolicy returns the compile policy of the digest: AllowUnresolved
// for RenameVar and DropReceiver, RequireCompile for every other operator.
func defaultPolicy(op *Operator) Policy {
	if op == renameVar || op == dropReceiver {
		return AllowUnresolved
	}
	return RequireCompile
}

// Reason says why the pipeline discarded a mutant.
type Reason uint8

const (
	// ReasonNone is the zero value: the mutant was not discarded (a valid
	// one, or one not decided yet).
	ReasonNone        Reason = iota
	ReasonNoEdit             // the operators changed nothing
	ReasonOverlap            // the picks' edits overlap (a combination only)
	ReasonParse              // F′ has syntax errors (tree-sitter ERROR or MISSING nodes)
	ReasonCompile            // the project does not compile with F′
	ReasonNoFailure          // every relevant test still passes
	ReasonInfra              // the build or test harness failed
	ReasonConstituent        // a constituent of a combination is not valid on its own
	ReasonFlaky              // the relevant tests failed once but passed when run again
	ReasonEffective          // Options.RequireEffective: a constituent no test catches alone
)

var reasonNames = [...]string{"none", "no_edit", "overlap_conflict", "parse_error", "compile_error", "no_test_failure", "build_infra_error", "constituent_invalid", "flaky_failure", "effective_level_below"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// MarshalText implements encoding.TextMarshaler.
func (r Reason) MarshalText() ([]byte, error) {
	if r == ReasonNone || int(r) >= len(reasonNames) {
		return nil, fmt.Errorf("mutate: no reason to marshal (%d): the mutant was not discarded", uint8(r))
	}
	return []byte(r.String()), nil
}

// Funnel stages added by the pipeline after StageParsed.
const (
	StageCompiled   = "compiled"   // the project compiled with F′
	StageUnresolved = "unresolved" // did not compile, kept by AllowUnresolved
	StageDetected   = "detected"   // a relevant test failed, or AllowUnresolved kept it: a valid task
	StageEffective  = "effective"  // detected, and each constituent is detected alone (Candidate.Effective)
)

// A Candidate is one mutant the pipeline considered, with its verdict.
type Candidate struct {
	File  string
	Frag  *Fragment
	Level ComplexityLevel
	// Ops are the operators applied, in order; Seed seeded their choices.
	Ops  []string
	Seed uint64
	// Records say what each operator changed (ranges in the file).
	Records []Record
	// Src is the mutated file, F′ in place.
	Src []byte
	// Tests are the relevant tests: stable on the baseline, covering the
	// fragment.
	Tests []string
	// Reason is why the mutant was discarded, ReasonNone for a valid one.
	Reason Reason
	// Failing are the relevant tests that failed on F′; Unresolved is set
	// when AllowUnresolved kept a mutant that did not compile, TimedOut
	// when the test run hit a limit.
	Failing    []string
	Unresolved bool
	TimedOut   bool
	Policy     Policy
	Detail     string
	// Parts are, for a combination (L2 to L4), its constituents each
	// applied alone, in the order of Ops, with their own verdicts (an
	// L1 candidate of the same change when there is one). A combination
	// is discarded with ReasonConstituent when a part does not parse or
	// compile on its own (or, under AllowUnresolved, is not kept); a
	// part no test catches alone is allowed.
	Parts []*Candidate
}

// Valid reports whether the candidate became a task.
func (c *Candidate) Valid() bool { return c.Reason == ReasonNone && c.Src != nil }

// Effective returns the candidate's effective level: how many of its
// constituents are detected alone (a relevant test fails, or
// AllowUnresolved keeps it), at least L1. A combination of two changes,
// one of which no test catches alone, is as hard to find as its other
// change: L1, not L2. It is the candidate's level for an L1 candidate.
func (c *Candidate) Effective() ComplexityLevel {
	if c.Level == L1 {
		return L1
	}
	return ComplexityLevel(max(1, c.detectedParts()))
}

// detectedParts counts the constituents detected alone.
func (c *Candidate) detectedParts() int {
	n := 0
	for _, p := range c.Parts {
		if p.Valid() {
			n++
		}
	}
	return n
}

// DetectedBy says what caught a valid candidate, as its tasks' label
// LabelDetectedBy: "compile" (kept by AllowUnresolved), "timeout" (its
// test run hit a limit) or "test"; "" for an invalid one.
func (c *Candidate) DetectedBy() string {
	switch {
	case !c.Valid():
		return ""
	case c.Unresolved:
		return "compile"
	case c.TimedOut:
		return "timeout"
	}
	return "test"
}

// Key names the candidate's operator combination, "op" or "op1+op2".
func (c *Candidate) Key() string { return strings.Join(c.Ops, "+") }
