package ctxbug

import (
	"fmt"
	"strings"
)

// Stage is where identification dropped a candidate, in the paper's order
// (§2.4): deobfuscation, test execution, GumTree differencing (a change
// at a perturbed node, none elsewhere), then cleaning (empty outputs,
// duplicates). StageKept marks a candidate that became an instance.
type Stage uint8

const (
	// StageInvalid is the zero value: never set.
	StageInvalid Stage = iota
	// StageModel: the model returned an error for the sample.
	StageModel
	// StageReference: the base's own solution fails the method's tests,
	// so the tests cannot tell a bug (an environment problem, such as a
	// missing module, never a verdict on the variant).
	StageReference
	// StageDeobfuscate: the output holds code, but no method that parses
	// (so there is nothing to deobfuscate and test).
	StageDeobfuscate
	// StageHarness: the tests could not be run (a sandbox failure, not a
	// verdict on the variant).
	StageHarness
	// StageTests: every test of the method passes with the variant in
	// place, so it is no bug in the target context.
	StageTests
	// StageDiff: the variant has the solution's tokens at every perturbed
	// node, so the failure comes from elsewhere.
	StageDiff
	// StageLocality: the variant also changes code outside the perturbed
	// nodes.
	StageLocality
	// StageEmpty: the output is empty (no code).
	StageEmpty
	// StageDuplicate: the same generator already gave the same variant of
	// the same method (from any rule).
	StageDuplicate
	// StageKept: the candidate is a benchmark instance.
	StageKept
)

var stageNames = [...]string{"invalid", "model", "reference", "deobfuscate", "harness", "tests", "diff", "locality", "empty", "duplicate", "kept"}

// Stages lists the stages in pipeline order, StageKept last.
var Stages = []Stage{StageModel, StageReference, StageDeobfuscate, StageHarness, StageTests, StageDiff, StageLocality, StageEmpty, StageDuplicate, StageKept}

func (s Stage) String() string {
	if int(s) < len(stageNames) {
		return stageNames[s]
	}
	return fmt.Sprintf("Stage(%d)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (s Stage) MarshalText() ([]byte, error) {
	if s == StageInvalid || int(s) >= len(stageNames) {
		return nil, fmt.Errorf("ctxbug: invalid stage %d", s)
	}
	return []byte(s.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Stage) UnmarshalText(b []byte) error {
	for i, n := range stageNames[1:] {
		if string(b) == n {
			*s = Stage(i + 1)
			return nil
		}
	}
	return fmt.Errorf("ctxbug: unknown stage %q (want one of %s)", b, strings.Join(stageNames[1:], ", "))
}
