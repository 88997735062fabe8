package ctxbug

import (
	"fmt"
	"strings"
)

// Reason is why identification dropped a candidate, in the paper's order
// of its stages
// (§2.4): deobfuscation, test execution, GumTree differencing (a change
// at a perturbed node, none elsewhere), then cleaning (empty outputs,
// duplicates). ReasonKept marks a candidate that became an instance.
type Reason uint8

const (
	// ReasonInvalid is the zero value: never set.
	ReasonInvalid Reason = iota
	// ReasonModel: the model returned an error for the sample.
	ReasonModel
	// ReasonReference: the base's own solution fails the method's tests,
	// so the tests cannot tell a bug (an environment problem, such as a
	// missing module, never a verdict on the variant).
	ReasonReference
	// ReasonDeobfuscate: the output holds code, but no method that parses
	// (so there is nothing to deobfuscate and test).
	ReasonDeobfuscate
	// ReasonHarness: the tests could not be run (a sandbox failure, not a
	// verdict on the variant).
	ReasonHarness
	// ReasonTests: every test of the method passes with the variant in
	// place, so it is no bug in the target context.
	ReasonTests
	// ReasonDiff: the variant has the solution's tokens at every perturbed
	// node, so the failure comes from elsewhere.
	ReasonDiff
	// ReasonLocality: the variant also changes code outside the perturbed
	// nodes.
	ReasonLocality
	// ReasonEmpty: the output is empty (no code).
	ReasonEmpty
	// ReasonDuplicate: the same generator already gave the same variant of
	// the same method (from any rule).
	ReasonDuplicate
	// ReasonKept: the candidate is a benchmark instance.
	ReasonKept
)

var stageNames = [...]string{"invalid", "model", "reference", "deobfuscate", "harness", "tests", "diff", "locality", "empty", "duplicate", "kept"}

// reasons lists the reasons in pipeline order, ReasonKept last: the
// funnel's stages after StageGenerated are named by their text forms.
var reasons = []Reason{ReasonModel, ReasonReference, ReasonDeobfuscate, ReasonHarness, ReasonTests, ReasonDiff, ReasonLocality, ReasonEmpty, ReasonDuplicate, ReasonKept}

func (s Reason) String() string {
	if int(s) < len(stageNames) {
		return stageNames[s]
	}
	return fmt.Sprintf("Reason(%d)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (s Reason) MarshalText() ([]byte, error) {
	if s == ReasonInvalid || int(s) >= len(stageNames) {
		return nil, fmt.Errorf("ctxbug: invalid reason %d", s)
	}
	return []byte(s.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Reason) UnmarshalText(b []byte) error {
	for i, n := range stageNames[1:] {
		if string(b) == n {
			*s = Reason(i + 1)
			return nil
		}
	}
	return fmt.Errorf("ctxbug: unknown reason %q (want one of %s)", b, strings.Join(stageNames[1:], ", "))
}
