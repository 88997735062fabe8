package mutate

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// errEdits is wrapped by the errors of [Apply] and [Revert] for edits that
// are out of range or overlap.
var errEdits = errors.New("mutate: invalid edits")

// Range is a half-open byte range [Start, End).
type Range struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// A Change is one replaced range of a mutation: Old at Orig in F became New
// at Mut in F′.
type Change struct {
	Orig Range  `json:"orig"`
	Mut  Range  `json:"mut"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// A Record describes one applied mutation so that it can be inspected and
// undone: writing each Change's Old over its Mut range in F′ gives back F
// byte for byte (see [Revert]).
type Record struct {
	Operator string `json:"operator"`
	Tier     Tier   `json:"tier"`
	// NodeKind and NodePath identify the affected node: its grammar type
	// and its path from the fragment's block (indices into
	// [syntax.Node.Children]).
	NodeKind string   `json:"node_kind"`
	NodePath []int    `json:"node_path"`
	Changes  []Change `json:"changes"`
}

// Apply returns src with edits applied; src is not modified. It rejects
// out-of-range and overlapping edits with an error wrapping errEdits;
// two edits at one offset (two insertions included) overlap, since their
// order would be arbitrary.
func Apply(src []byte, edits []Edit) ([]byte, error) {
	out, _, err := apply(src, edits)
	return out, err
}

// apply applies edits and returns, for each edit in the order given, the
// change it made.
func apply(src []byte, edits []Edit) ([]byte, []Change, error) {
	tes := make([]syntax.TextEdit, len(edits))
	for i, e := range edits {
		tes[i] = syntax.TextEdit{Start: e.Start, End: e.End, Text: string(e.New)}
	}
	out, m, err := syntax.ApplyEdits(src, tes)
	var ee *syntax.EditError
	if errors.As(err, &ee) {
		return nil, nil, fmt.Errorf("%w: %s", errEdits, ee.Detail())
	}
	if err != nil {
		return nil, nil, err
	}
	// Disjoint edits may still share an offset (insertions there); mutate
	// rejects that, since their order would be arbitrary.
	first := make(map[int]int, len(edits)) // the first edit at each offset
	for i, e := range edits {
		if j, ok := first[e.Start]; ok {
			p := edits[j]
			return nil, nil, fmt.Errorf("%w: [%d,%d) overlaps [%d,%d)", errEdits, e.Start, e.End, p.Start, p.End)
		}
		first[e.Start] = i
	}
	changes := make([]Change, len(edits))
	for i, e := range edits {
		r := m.Range(i)
		changes[i] = Change{
			Orig: Range{e.Start, e.End}, Mut: Range{r.Start, r.End},
			Old: string(src[e.Start:e.End]), New: string(e.New),
		}
	}
	return out, changes, nil
}

// Revert undoes records on mutated, the F′ they were recorded for, and
// returns F. It fails (wrapping errEdits) when the ranges do not fit
// mutated or their text is not the recorded New text.
func Revert(mutated []byte, records []Record) ([]byte, error) {
	var edits []Edit
	for _, r := range records {
		for _, c := range r.Changes {
			if c.Mut.Start < 0 || c.Mut.End > len(mutated) || c.Mut.Start > c.Mut.End ||
				string(mutated[c.Mut.Start:c.Mut.End]) != c.New {
				return nil, fmt.Errorf("%w: %s change at [%d,%d) does not match F′", errEdits, r.Operator, c.Mut.Start, c.Mut.End)
			}
			edits = append(edits, Edit{c.Mut.Start, c.Mut.End, []byte(c.Old)})
		}
	}
	return Apply(mutated, edits)
}

// Fate is what became of one attempted mutation: a mutant that parses, no
// edit, edits rejected, or a mutant with syntax errors. Its text forms
// ("ok", "no_edit", "bad_edit", "syntax") are stable.
type Fate uint8

const (
	fateInvalid Fate = iota
	FateOK           // F′ parses
	FateNoEdit       // the operator returned no edits, or only no-op ones
	FateBadEdit      // the edits overlap or are out of range
	FateSyntax       // F′ has syntax errors
)

var fateNames = [...]string{"invalid", "ok", "no_edit", "bad_edit", "syntax"}

func (s Fate) String() string {
	if int(s) < len(fateNames) {
		return fateNames[s]
	}
	return fmt.Sprintf("Fate(%d)", uint8(s))
}

// MarshalText implements encoding.TextMarshaler.
func (s Fate) MarshalText() ([]byte, error) {
	if s == fateInvalid || int(s) >= len(fateNames) {
		return nil, fmt.Errorf("mutate: invalid fate %d", uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Fate) UnmarshalText(b []byte) error {
	for i, n := range fateNames[1:] {
		if n == string(b) {
			*s = Fate(i + 1)
			return nil
		}
	}
	return fmt.Errorf("mutate: unknown fate %q", b)
}

// A Mutant is F′, the result of one operator at one site.
type Mutant struct {
	Fate Fate
	// Src is the whole mutated file (nil unless the edits applied).
	Src    []byte
	Record Record
	// syntaxErrs are the syntax errors of Src when Fate is FateSyntax (for
	// the package's tests: they equal a full parse's).
	syntaxErrs []syntaxError
	// Err says why the edits were rejected when Fate is FateBadEdit.
	Err error
}

// Mutate runs op at s, applies its edits to the fragment's file and
// re-parses the result. A rejected mutant is a verdict in Mutant.Fate,
// not an error; the error is for a language op does not support or a
// parser failure.
func Mutate(op *Operator, s Site, rng *rand.Rand) (*Mutant, error) {
	c, err := compose([]sitePick{{op, s}}, rng)
	if err != nil {
		return nil, err
	}
	return &Mutant{Fate: c.Fate, Src: c.Src, Record: c.Records[0], syntaxErrs: c.Errors, Err: c.Err}, nil
}

// A sitePick is one operator at one of its sites.
type sitePick struct {
	Op   *Operator
	Site Site
}

// A composite is F′ made by several operators at once (the paper's
// combination levels L2 to L4), with one Record per pick.
type composite struct {
	Fate    Fate
	Src     []byte
	Records []Record
	Errors  []syntaxError
	Err     error
}

// Compose runs the picks in order with rng, applies all their edits to the
// source at once and re-parses the result. All sites must come from
// fragments of one source. When the edits of two picks overlap, the
// Fate is FateBadEdit: picks must touch disjoint ranges, so that each
// Record can be inspected and reverted on its own. Revert with all the
// Records gives F back.
func compose(picks []sitePick, rng *rand.Rand) (*composite, error) {
	if len(picks) == 0 {
		return nil, errors.New("mutate: nothing to compose")
	}
	f := picks[0].Site.Frag
	c := &composite{Records: make([]Record, len(picks))}
	var edits []Edit
	var owner []int
	noop := true
	for i, p := range picks {
		sf := p.Site.Frag
		if !p.Op.supports(sf.Lang) {
			return nil, fmt.Errorf("mutate: operator %s does not support %s", p.Op.Name, sf.Lang)
		}
		if sf.Lang != f.Lang || !bytes.Equal(sf.Src, f.Src) {
			return nil, errors.New("mutate: composed sites come from different sources")
		}
		c.Records[i] = Record{Operator: p.Op.Name, Tier: p.Op.Tier, NodeKind: p.Site.Kind, NodePath: p.Site.Path}
		for _, e := range p.Op.Run(p.Site, rng) {
			if e.Start < 0 || e.End > len(f.Src) || e.Start > e.End || !bytes.Equal(f.Src[e.Start:e.End], e.New) {
				noop = false
			}
			edits = append(edits, e)
			owner = append(owner, i)
		}
	}
	if noop {
		c.Fate = FateNoEdit
		return c, nil
	}
	out, changes, err := apply(f.Src, edits)
	if err != nil {
		c.Fate, c.Err = FateBadEdit, err
		return c, nil
	}
	for j, ch := range changes {
		r := &c.Records[owner[j]]
		r.Changes = append(r.Changes, ch)
	}
	for i := range c.Records {
		slices.SortFunc(c.Records[i].Changes, func(a, b Change) int { return a.Orig.Start - b.Orig.Start })
	}
	c.Src = out
	errs, err := reparse(f, out, changes)
	if err != nil {
		return nil, fmt.Errorf("mutate: reparse: %w", err)
	}
	if len(errs) > 0 {
		c.Fate, c.Errors = FateSyntax, syntaxErrors(errs)
		return c, nil
	}
	c.Fate = FateOK
	return c, nil
}

// reparse returns the syntax errors of out, f.Src with changes applied, as
// a parse of out from scratch gives them; incrementally, from the tree of
// f.Src, when f has it.
func reparse(f *Fragment, out []byte, changes []Change) ([]syntax.SyntaxError, error) {
	if f.file == nil {
		t, err := syntax.Parse(syntax.Lang(f.Lang), out)
		if err != nil {
			return nil, err
		}
		return t.Errors(), nil
	}
	// The changes are disjoint: one edit from the first one's start to
	// the last one's end covers them all.
	start, oldEnd, newEnd := len(f.Src), 0, 0
	for _, c := range changes {
		start, oldEnd, newEnd = min(start, c.Orig.Start), max(oldEnd, c.Orig.End), max(newEnd, c.Mut.End)
	}
	return f.file.Errors(out, start, oldEnd, newEnd)
}

// The stages of mutate's validity funnel (an report.Funnel grouped by
// operator combination) that a mutant reaches on its own; the pipeline
// adds StageCompiled, StageUnresolved and StageDetected.
const (
	StageSite    = "site"    // a site was found and the operator run
	StageApplied = "applied" // the edits were valid and changed the source
	StageParsed  = "parsed"  // F′ re-parsed without errors
)

// countMutant counts m in f under its operator: StageSite always, then
// StageApplied and StageParsed as far as m got.
func countMutant(f *report.Funnel, m *Mutant) {
	op := m.Record.Operator
	f.Add(op, StageSite, 1)
	if m.Fate == FateOK || m.Fate == FateSyntax {
		f.Add(op, StageApplied, 1)
	}
	if m.Fate == FateOK {
		f.Add(op, StageParsed, 1)
	}
}
