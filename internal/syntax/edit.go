//go:build cgo

package syntax

import (
	"cmp"
	"fmt"
	"slices"
)

// TextEdit replaces the bytes [Start, End) of a source with Text; an edit
// with Start == End inserts Text at Start. (Not to be confused with
// [Edit], a step of a tree edit script.)
type TextEdit struct {
	Start, End int
	Text       string
}

// EditError reports an edit that [ApplyEdits] rejects: out of range, or
// overlapping another edit.
type EditError struct {
	// Index is the rejected edit's index in the edits given, and Edit its
	// range.
	Index int
	Edit  Range
	// Other is the index of the edit it overlaps, and OtherEdit that
	// edit's range; Other is -1 when the edit is out of range.
	Other     int
	OtherEdit Range
	// Len is the length of the source.
	Len int
}

// Error describes the edit: `syntax: edit [3,6) overlaps [0,5)` or
// `syntax: edit [2,9) out of range [0,6]`.
func (e *EditError) Error() string { return "syntax: edit " + e.Detail() }

// Detail is the error message without its prefix: `[3,6) overlaps [0,5)`
// or `[2,9) out of range [0,6]`.
func (e *EditError) Detail() string {
	if e.Other < 0 {
		return fmt.Sprintf("[%d,%d) out of range [0,%d]", e.Edit.Start, e.Edit.End, e.Len)
	}
	return fmt.Sprintf("[%d,%d) overlaps [%d,%d)", e.Edit.Start, e.Edit.End, e.OtherEdit.Start, e.OtherEdit.End)
}

// EditMap relates the offsets of a source to those of the result of
// applying edits to it with [ApplyEdits]. It is immutable.
type EditMap struct {
	edits []TextEdit // sorted as applied
	given []int      // the index in the edits given of each sorted edit
	at    []int      // the result offset of each sorted edit's text
	pos   []int      // the position in edits of each given edit
}

// ApplyEdits returns src with edits applied, and the map between the
// offsets of src and of the result. src and edits are not modified.
//
// Edits may come in any order. Each must lie within src (0 <= Start <=
// End <= len(src)) and no two may overlap; edits that merely touch are
// fine. They are applied in order of Start, then End, so an insertion at
// the start of a replaced range goes before the replacement; insertions
// at one offset keep the order they are given in. A rejected edit gives a
// [*EditError] and a nil result.
func ApplyEdits(src []byte, edits []TextEdit) ([]byte, *EditMap, error) {
	m := &EditMap{given: make([]int, len(edits)), at: make([]int, len(edits)), pos: make([]int, len(edits))}
	for i := range m.given {
		m.given[i] = i
	}
	slices.SortStableFunc(m.given, func(a, b int) int {
		return cmp.Or(cmp.Compare(edits[a].Start, edits[b].Start), cmp.Compare(edits[a].End, edits[b].End))
	})
	m.edits = make([]TextEdit, len(edits))
	size := len(src)
	for k, i := range m.given {
		e := edits[i]
		m.edits[k] = e
		m.pos[i] = k
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			return nil, nil, &EditError{Index: i, Edit: Range{e.Start, e.End}, Other: -1, Len: len(src)}
		}
		if k > 0 {
			if p := edits[m.given[k-1]]; e.Start < p.End {
				return nil, nil, &EditError{Index: i, Edit: Range{e.Start, e.End}, Other: m.given[k-1], OtherEdit: Range{p.Start, p.End}, Len: len(src)}
			}
		}
		size += len(e.Text) - (e.End - e.Start)
	}
	out := make([]byte, 0, size)
	last := 0
	for k, e := range m.edits {
		out = append(out, src[last:e.Start]...)
		m.at[k] = len(out)
		out = append(out, e.Text...)
		last = e.End
	}
	return append(out, src[last:]...), m, nil
}

// Range returns where the text of the edit with index i in the edits
// given to [ApplyEdits] stands in the result.
func (m *EditMap) Range(i int) Range {
	k := m.pos[i]
	return Range{m.at[k], m.at[k] + len(m.edits[k].Text)}
}

// Old maps offset off of the result back to the source. An offset outside
// the edits' texts moves back by the change in length the edits before it
// made; one inside an edit's text (after its first byte, before its end)
// maps to the start of the range the edit replaced, or to its end when
// end is set, so that a span of the result maps to the span of the source
// that produced it.
func (m *EditMap) Old(off int, end bool) int {
	shift := 0
	for k, e := range m.edits {
		s := m.at[k]
		if off <= s {
			break
		}
		if off < s+len(e.Text) {
			if end {
				return e.End
			}
			return e.Start
		}
		shift = s + len(e.Text) - e.End
	}
	return off - shift
}
