package ctxbug

import (
	"fmt"
	"strings"
)

// reason is why identification dropped a candidate, in the paper's order
// of its stages
// (§2.4): deobfuscation, test execution, GumTree differencing (a change
// at a perturbed node, none elsewhere), then cleaning (empty outputs,
// duplicates). reasonKept marks a candidate that became an instance.
type reason uint8

const (
	// reasonInvalid is the zero value: never set.
	reasonInvalid reason = iota
	// reasonModel: the model returned an error for the sample.
	reasonModel
	// reasonReference: the base's own solution fails the method's tests,
	// so the tests cannot tell a bug (an environment problem, such as a
	// missing module, never a verdict on the variant).
	reasonReference
	// reasonDeobfuscate: the output holds code, but no method that parses
	// (so there is nothing to deobfuscate and test).
	reasonDeobfuscate
	// reasonHarness: the tests could not be run (a sandbox failure, not a
	// verdict on the variant).
	reasonHarness
	// reasonTests: every test of the method passes with the variant in
	// place, so it is no bug in the target context.
	reasonTests
	// reasonDiff: the variant has the solution's tokens at every perturbed
	// node, so the failure comes from elsewhere.
	reasonDiff
	// reasonLocality: the variant also changes code outside the perturbed
	// nodes.
	reasonLocality
	// reasonEmpty: the output is empty (no code).
	reasonEmpty
	// reasonDuplicate: the same generator already gave the same variant of
	// the same method (from any rule).
	reasonDuplicate
	// reasonKept: the candidate is a benchmark instance.
	reasonKept
)

var stageNames = [...]string{"invalid", "model", "reference", "deobfuscate", "harness", "tests", "diff", "locality", "empty", "duplicate", "kept"}

// reasons lists the reasons in pipeline order, reasonKept last: the
// funnel's stages after stageGenerated are named by their text forms.
var reasons = []reason{reasonModel, reasonReference, reasonDeobfuscate, reasonHarness, reasonTests, reasonDiff, reasonLocality, reasonEmpty, reasonDuplicate, reasonKept}

func (s reason) String() string {
	if int(s) < len(stageNames) {
		return stageNames[s]
	}
	return fmt.Sprintf("Reason(%d)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (s reason) MarshalText() ([]byte, error) {
	if s == reasonInvalid || int(s) >= len(stageNames) {
		return nil, fmt.Errorf("ctxbug: invalid reason %d", s)
	}
	return []byte(s.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *reason) UnmarshalText(b []byte) error {
	for i, n := range stageNames[1:] {
		if string(b) == n {
			*s = reason(i + 1)
			return nil
		}
	}
	return fmt.Errorf("ctxbug: unknown reason %q (want one of %s)", b, strings.Join(stageNames[1:], ", "))
}
