package transform

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// Family groups the transforms as GeneBench does: structural (S1–S12), API
// injection (A1–A8), renaming (N1–N2) and the semantics-altering bug
// mutators (M1–M5). The zero value is invalid.
type Family uint8

// The families.
const (
	familyInvalid Family = iota
	Structural
	API
	Renaming
	Bug
)

var familyNames = [...]string{"invalid", "structural", "api", "renaming", "bug"}

// String returns "structural", "api", "renaming", "bug" or "invalid".
func (f Family) String() string {
	if int(f) < len(familyNames) {
		return familyNames[f]
	}
	return fmt.Sprintf("Family(%d)", uint8(f))
}

// MarshalText returns the String form; it fails for familyInvalid and
// unknown values.
func (f Family) MarshalText() ([]byte, error) {
	if f == familyInvalid || int(f) >= len(familyNames) {
		return nil, fmt.Errorf("transform: cannot marshal %v", f)
	}
	return []byte(f.String()), nil
}

// UnmarshalText parses the String form; "" and "invalid" are rejected.
func (f *Family) UnmarshalText(b []byte) error {
	for i, n := range familyNames {
		if i > 0 && n == string(b) {
			*f = Family(i)
			return nil
		}
	}
	return fmt.Errorf("transform: unknown family %q (want structural, api, renaming or bug)", b)
}

// Site is one place where a transform applies: a byte range of
// Program.Main, the kind of its node and a key that identifies it stably
// (the node's path in the tree, such as "module/1:function_definition/
// body/0:for_statement"), so a search can remember which sites it already
// transformed.
type Site struct {
	Start, End int
	Kind       string
	Key        string
}

// Transform is one operator: a descriptor with the functions that find its
// sites and apply it at one of them.
type Transform struct {
	// ID is GeneBench's identifier ("S1".."S12", "A1".."A8", "N1", "N2")
	// or "M1".."M5" for the bug mutators.
	ID string
	// Name is the paper's name ("AddNestedFor").
	Name string
	// Doc says what the transform does and under which conditions it is
	// not semantics-preserving.
	Doc string
	// Family is the transform's family.
	Family Family
	// Sites lists where the transform applies to p, in document order; the
	// result depends only on p.
	Sites func(p *Program) []Site
	// Apply rewrites p at s (one of Sites(p)) and returns a new Program;
	// it never mutates p. All randomness comes from rng.
	Apply func(p *Program, s Site, rng *rand.Rand) (*Program, error)
}

// Errors callers branch on.
var (
	// ErrNoSite means the transform has no site in the program.
	ErrNoSite = errors.New("transform: no site")
	// ErrSyntax means a program (or a transform's result) does not parse.
	ErrSyntax = errors.New("transform: program does not parse")
)

var idRE = regexp.MustCompile(`^[SANM][0-9]+$`)
var nameRE = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)

// Validate checks a list of transforms once, before a search uses it: each
// needs an ID of the form S1, A2, N1 or M3, a CamelCase Name, a non-empty
// Doc, a valid Family and non-nil Sites and Apply; IDs and names must be
// unique.
func Validate(ts []*Transform) error {
	ids, names := map[string]bool{}, map[string]bool{}
	for i, t := range ts {
		switch {
		case t == nil:
			return fmt.Errorf("transform: transform %d is nil", i)
		case !idRE.MatchString(t.ID):
			return fmt.Errorf("transform: transform %d: ID %q is not a letter S, A, N or M and a number", i, t.ID)
		case !nameRE.MatchString(t.Name):
			return fmt.Errorf("transform: %s: name %q is not a CamelCase identifier", t.ID, t.Name)
		case t.Doc == "":
			return fmt.Errorf("transform: %s: empty Doc", t.ID)
		case t.Family == familyInvalid || int(t.Family) >= len(familyNames):
			return fmt.Errorf("transform: %s: invalid family %v", t.ID, t.Family)
		case t.Sites == nil || t.Apply == nil:
			return fmt.Errorf("transform: %s: nil Sites or Apply", t.ID)
		case ids[t.ID]:
			return fmt.Errorf("transform: duplicate ID %s", t.ID)
		case names[t.Name]:
			return fmt.Errorf("transform: duplicate name %s", t.Name)
		}
		ids[t.ID], names[t.Name] = true, true
	}
	return nil
}

// Random picks a site of t uniformly with rng, applies t there and checks
// that the result parses. It returns ErrNoSite when t has no site in p and
// an error wrapping ErrSyntax when the result (Main or any module) has
// error or missing nodes, or when p.Main itself does not parse (a program
// that does not parse has no sites).
func Random(p *Program, t *Transform, rng *rand.Rand) (*Program, Site, error) {
	sites := t.Sites(p)
	if len(sites) == 0 {
		if err := checkSource("main", p.Main); err != nil {
			return nil, Site{}, fmt.Errorf("transform: %s %s: the input: %w", t.ID, t.Name, err)
		}
		return nil, Site{}, fmt.Errorf("%s %s: %w", t.ID, t.Name, ErrNoSite)
	}
	s := sites[rng.IntN(len(sites))]
	q, err := t.Apply(p, s, rng)
	if err != nil {
		return nil, s, fmt.Errorf("transform: %s %s at %s: %w", t.ID, t.Name, s.Key, err)
	}
	if err := Check(q); err != nil {
		return nil, s, fmt.Errorf("transform: %s %s at %s: %w", t.ID, t.Name, s.Key, err)
	}
	return q, s, nil
}

// Check parses Main and every module of p and returns an error wrapping
// ErrSyntax, naming the file and the first syntax error, if one does not
// parse.
func Check(p *Program) error {
	if err := checkSource("main", p.Main); err != nil {
		return err
	}
	for _, name := range sortedKeys(p.Modules) {
		if err := checkSource(name, p.Modules[name]); err != nil {
			return err
		}
	}
	return nil
}

func checkSource(name string, src []byte) error {
	t, err := syntax.Parse(syntax.Python, src)
	if err != nil {
		return fmt.Errorf("%s: %w: %v", name, ErrSyntax, err)
	}
	if errs := t.Errors(); len(errs) > 0 {
		return fmt.Errorf("%s: %w: %v", name, ErrSyntax, errs[0])
	}
	return nil
}
