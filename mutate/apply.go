package mutate

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// ErrEdits is wrapped by the errors of [Apply] and [Revert] for edits that
// are out of range or overlap.
var ErrEdits = errors.New("mutate: invalid edits")

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

// sortEdits returns the indices of edits sorted by start and checks the
// edits against a source of n bytes: each must lie in [0, n] with
// Start <= End, and no two may overlap (two insertions at one offset
// overlap too).
func sortEdits(n int, edits []Edit) ([]int, error) {
	idx := make([]int, len(edits))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return edits[a].Start - edits[b].Start })
	for k, i := range idx {
		e := edits[i]
		if e.Start < 0 || e.End < e.Start || e.End > n {
			return nil, fmt.Errorf("%w: [%d,%d) out of range [0,%d]", ErrEdits, e.Start, e.End, n)
		}
		if k > 0 {
			p := edits[idx[k-1]]
			if e.Start < p.End || e.Start == p.Start {
				return nil, fmt.Errorf("%w: [%d,%d) overlaps [%d,%d)", ErrEdits, e.Start, e.End, p.Start, p.End)
			}
		}
	}
	return idx, nil
}

// Apply returns src with edits applied; src is not modified. It rejects
// out-of-range and overlapping edits with an error wrapping [ErrEdits].
func Apply(src []byte, edits []Edit) ([]byte, error) {
	out, _, err := apply(src, edits)
	return out, err
}

// apply applies edits and returns, for each edit in the order given, the
// change it made.
func apply(src []byte, edits []Edit) ([]byte, []Change, error) {
	idx, err := sortEdits(len(src), edits)
	if err != nil {
		return nil, nil, err
	}
	var b bytes.Buffer
	b.Grow(len(src))
	changes := make([]Change, len(edits))
	last := 0
	for _, i := range idx {
		e := edits[i]
		b.Write(src[last:e.Start])
		start := b.Len()
		b.Write(e.New)
		changes[i] = Change{
			Orig: Range{e.Start, e.End}, Mut: Range{start, b.Len()},
			Old: string(src[e.Start:e.End]), New: string(e.New),
		}
		last = e.End
	}
	b.Write(src[last:])
	return b.Bytes(), changes, nil
}

// Revert undoes records on mutated, the F′ they were recorded for, and
// returns F. It fails (wrapping [ErrEdits]) when the ranges do not fit
// mutated or their text is not the recorded New text.
func Revert(mutated []byte, records []Record) ([]byte, error) {
	var edits []Edit
	for _, r := range records {
		for _, c := range r.Changes {
			if c.Mut.Start < 0 || c.Mut.End > len(mutated) || c.Mut.Start > c.Mut.End ||
				string(mutated[c.Mut.Start:c.Mut.End]) != c.New {
				return nil, fmt.Errorf("%w: %s change at [%d,%d) does not match F′", ErrEdits, r.Operator, c.Mut.Start, c.Mut.End)
			}
			edits = append(edits, Edit{c.Mut.Start, c.Mut.End, []byte(c.Old)})
		}
	}
	return Apply(mutated, edits)
}

// Status is the outcome of one attempted mutation.
type Status uint8

const (
	StatusInvalid Status = iota
	StatusOK             // F′ parses
	StatusNoEdit         // the operator returned no edits, or only no-op ones
	StatusBadEdit        // the edits overlap or are out of range
	StatusSyntax         // F′ has syntax errors
)

var statusNames = [...]string{"invalid", "ok", "no_edit", "bad_edit", "syntax"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// MarshalText implements encoding.TextMarshaler.
func (s Status) MarshalText() ([]byte, error) {
	if s == StatusInvalid || int(s) >= len(statusNames) {
		return nil, fmt.Errorf("mutate: invalid status %d", uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames[1:] {
		if n == string(b) {
			*s = Status(i + 1)
			return nil
		}
	}
	return fmt.Errorf("mutate: unknown status %q", b)
}

// A Mutant is F′, the result of one operator at one site.
type Mutant struct {
	Status Status
	// Src is the whole mutated file (nil unless the edits applied).
	Src    []byte
	Record Record
	// Errors are the syntax errors of Src when Status is StatusSyntax.
	Errors []SyntaxError
	// Err says why the edits were rejected when Status is StatusBadEdit.
	Err error
}

// Mutate runs op at s, applies its edits to the fragment's file and
// re-parses the result. A rejected mutant is a verdict in Mutant.Status,
// not an error; the error is for a language op does not support or a
// parser failure.
func Mutate(op *Operator, s Site, rng *rand.Rand) (*Mutant, error) {
	c, err := Compose([]Pick{{op, s}}, rng)
	if err != nil {
		return nil, err
	}
	return &Mutant{Status: c.Status, Src: c.Src, Record: c.Records[0], Errors: c.Errors, Err: c.Err}, nil
}

// A Pick is one operator at one of its sites.
type Pick struct {
	Op   *Operator
	Site Site
}

// A Composite is F′ made by several operators at once (the paper's
// combination levels L2 to L4), with one Record per pick.
type Composite struct {
	Status  Status
	Src     []byte
	Records []Record
	Errors  []SyntaxError
	Err     error
}

// Compose runs the picks in order with rng, applies all their edits to the
// source at once and re-parses the result. All sites must come from
// fragments of one source. When the edits of two picks overlap, the
// Status is StatusBadEdit: picks must touch disjoint ranges, so that each
// Record can be inspected and reverted on its own. Revert with all the
// Records gives F back.
func Compose(picks []Pick, rng *rand.Rand) (*Composite, error) {
	if len(picks) == 0 {
		return nil, errors.New("mutate: nothing to compose")
	}
	f := picks[0].Site.Frag
	c := &Composite{Records: make([]Record, len(picks))}
	var edits []Edit
	var owner []int
	noop := true
	for i, p := range picks {
		sf := p.Site.Frag
		if !p.Op.Supports(sf.Lang) {
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
		c.Status = StatusNoEdit
		return c, nil
	}
	out, changes, err := apply(f.Src, edits)
	if err != nil {
		c.Status, c.Err = StatusBadEdit, err
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
	t, err := syntax.Parse(syntax.Lang(f.Lang), out)
	if err != nil {
		return nil, fmt.Errorf("mutate: reparse: %w", err)
	}
	if t.HasErrors() {
		c.Status, c.Errors = StatusSyntax, syntaxErrors(t.Errors())
		return c, nil
	}
	c.Status = StatusOK
	return c, nil
}

// Stage names a step of the validity funnel. The package counts
// StageSite, StageApplied and StageParsed; later steps (compile, test)
// add their own.
type Stage string

const (
	StageSite    Stage = "site"    // a site was found and the operator run
	StageApplied Stage = "applied" // the edits were valid and changed the source
	StageParsed  Stage = "parsed"  // F′ re-parsed without errors
)

// A Funnel counts, per operator, how many mutants reached each stage. The
// zero Funnel is ready to use; it is not safe for concurrent use.
type Funnel struct {
	counts map[string]map[Stage]int
	stages []Stage
	ops    []string
}

// Add counts one mutant of op reaching stage.
func (f *Funnel) Add(op string, stage Stage) {
	if f.counts == nil {
		f.counts = map[string]map[Stage]int{}
	}
	c := f.counts[op]
	if c == nil {
		c = map[Stage]int{}
		f.counts[op] = c
		f.ops = append(f.ops, op)
	}
	if !slices.Contains(f.stages, stage) {
		f.stages = append(f.stages, stage)
	}
	c[stage]++
}

// AddMutant counts m: StageSite always, then StageApplied and StageParsed
// as far as m got.
func (f *Funnel) AddMutant(m *Mutant) {
	op := m.Record.Operator
	f.Add(op, StageSite)
	if m.Status == StatusOK || m.Status == StatusSyntax {
		f.Add(op, StageApplied)
	}
	if m.Status == StatusOK {
		f.Add(op, StageParsed)
	}
}

// declare fixes the order of stages before any is counted.
func (f *Funnel) declare(stages ...Stage) {
	for _, s := range stages {
		if !slices.Contains(f.stages, s) {
			f.stages = append(f.stages, s)
		}
	}
}

// Count returns how many mutants of op reached stage.
func (f *Funnel) Count(op string, stage Stage) int { return f.counts[op][stage] }

// Ops returns the operators counted, in first-seen order.
func (f *Funnel) Ops() []string { return slices.Clone(f.ops) }

// Stages returns the stages counted, in first-seen order.
func (f *Funnel) Stages() []Stage { return slices.Clone(f.stages) }

// String formats the funnel as a table, one operator a line.
func (f *Funnel) String() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%-10s", "operator")
	for _, s := range f.stages {
		fmt.Fprintf(&b, " %8s", s)
	}
	b.WriteByte('\n')
	for _, op := range f.ops {
		fmt.Fprintf(&b, "%-10s", op)
		for _, s := range f.stages {
			fmt.Fprintf(&b, " %8d", f.counts[op][s])
		}
		b.WriteByte('\n')
	}
	return b.String()
}
