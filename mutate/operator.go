package mutate

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// Tier groups operators by the depth of the adaptation (Table I).
type Tier uint8

const (
	tierInvalid    Tier = iota
	TierIdentifier      // variable rename, constant update, identifier resolution
	TierStatement       // guard insertion, type change, try/catch edit
	TierStructural      // control flow, API substitution, logic customization
)

var tierNames = [...]string{"invalid", "identifier", "statement", "structural"}

func (t Tier) String() string {
	if int(t) < len(tierNames) {
		return tierNames[t]
	}
	return fmt.Sprintf("Tier(%d)", uint8(t))
}

// MarshalText implements encoding.TextMarshaler.
func (t Tier) MarshalText() ([]byte, error) {
	if t == tierInvalid || int(t) >= len(tierNames) {
		return nil, fmt.Errorf("mutate: invalid tier %d", uint8(t))
	}
	return []byte(t.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (t *Tier) UnmarshalText(b []byte) error {
	for i, n := range tierNames[1:] {
		if n == string(b) {
			*t = Tier(i + 1)
			return nil
		}
	}
	return fmt.Errorf("mutate: unknown tier %q", b)
}

// An Edit replaces the bytes [Start, End) of the original file with New.
type Edit struct {
	Start, End int
	New        []byte
}

// A Site is one place in a fragment where an operator can apply.
type Site struct {
	Frag *Fragment
	// Kind is the affected node's grammar type, Start and End its byte
	// range in Frag.Src, and Path its position under the fragment's block
	// (child indices).
	Kind       string
	Start, End int
	Path       []int
	node       *syntax.Node
	// Choices are the operator's candidate replacements; Run picks one.
	Choices []string
}

// An Operator is one adaptation of Table I, applied in reverse: it turns
// the adapted fragment F into an unadapted F′.
type Operator struct {
	// Name is a Go identifier, such as "renamevar".
	Name string
	// Doc says what the operator does, first line a summary.
	Doc   string
	Tier  Tier
	Langs []Lang
	// Sites lists the places in f where the operator applies, in source
	// order; it is deterministic.
	Sites func(f *Fragment) []Site
	// Run returns the edits for one site, drawing any choice from rng.
	Run func(s Site, rng *rand.Rand) []Edit
}

func (op *Operator) String() string { return op.Name }

// supports reports whether op handles lang.
func (op *Operator) supports(lang Lang) bool {
	for _, l := range op.Langs {
		if l == lang {
			return true
		}
	}
	return false
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// validateOps checks a list of operators once, before any work: each needs an
// identifier Name unique in the list, a Doc, a valid Tier, at least one
// supported language and non-nil Sites and Run.
func validateOps(ops []*Operator) error {
	seen := map[string]bool{}
	var errs []error
	for i, op := range ops {
		if op == nil {
			errs = append(errs, fmt.Errorf("mutate: operator %d is nil", i))
			continue
		}
		switch {
		case !identRE.MatchString(op.Name):
			errs = append(errs, fmt.Errorf("mutate: operator %d: name %q is not an identifier", i, op.Name))
		case seen[op.Name]:
			errs = append(errs, fmt.Errorf("mutate: duplicate operator %q", op.Name))
		}
		seen[op.Name] = true
		if op.Doc == "" {
			errs = append(errs, fmt.Errorf("mutate: operator %q has no Doc", op.Name))
		}
		if op.Tier == tierInvalid || op.Tier > TierStructural {
			errs = append(errs, fmt.Errorf("mutate: operator %q has an invalid tier", op.Name))
		}
		if len(op.Langs) == 0 {
			errs = append(errs, fmt.Errorf("mutate: operator %q supports no language", op.Name))
		}
		for _, l := range op.Langs {
			if _, err := languageOf(l); err != nil {
				errs = append(errs, fmt.Errorf("mutate: operator %q: %w", op.Name, err))
			}
		}
		if op.Sites == nil || op.Run == nil {
			errs = append(errs, fmt.Errorf("mutate: operator %q needs Sites and Run", op.Name))
		}
	}
	return errors.Join(errs...)
}
