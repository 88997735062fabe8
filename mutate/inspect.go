package mutate

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// Verdict says what a model's output did with one injected mutation.
type Verdict uint8

const (
	verdictInvalid Verdict = iota
	Reversed               // the node reads as in F again
	Unchanged              // the node still reads as in F′
	Altered                // the node reads as neither
	NodeMissing            // no node of the output aligns with it
)

var verdictNames = [...]string{"invalid", "reversed", "unchanged", "altered", "node_missing"}

func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}

// MarshalText implements encoding.TextMarshaler.
func (v Verdict) MarshalText() ([]byte, error) {
	if v == verdictInvalid || int(v) >= len(verdictNames) {
		return nil, fmt.Errorf("mutate: invalid verdict %d", uint8(v))
	}
	return []byte(v.String()), nil
}

// Class sorts one sample by its test verdict and its inspection.
type Class uint8

const (
	classInvalid     Class = iota
	ClassRestored          // tests pass and every mutation was reversed
	ClassAlternative       // tests pass but some node was not restored: an alternative valid adaptation (the paper's "functional pass with unresolved adaptation path")
	ClassFailed            // tests fail
)

var classNames = [...]string{"invalid", "restored", "alternative", "failed"}

func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return fmt.Sprintf("Class(%d)", uint8(c))
}

// MarshalText implements encoding.TextMarshaler.
func (c Class) MarshalText() ([]byte, error) {
	if c == classInvalid || int(c) >= len(classNames) {
		return nil, fmt.Errorf("mutate: invalid class %d", uint8(c))
	}
	return []byte(c.String()), nil
}

// Inspection is the verdict of each injected mutation of a task on one
// output, in the order of the task's records.
type Inspection struct {
	Operators []string
	Verdicts  []Verdict
}

// Reversed counts the reversed mutations.
func (in Inspection) Reversed() int {
	n := 0
	for _, v := range in.Verdicts {
		if v == Reversed {
			n++
		}
	}
	return n
}

// Classify combines the test verdict with the inspection.
func (in Inspection) Classify(passed bool) Class {
	switch {
	case !passed:
		return ClassFailed
	case in.Reversed() == len(in.Verdicts):
		return ClassRestored
	}
	return ClassAlternative
}

// Inspect checks which of a task's mutations an output reversed. output is
// the task's target function as the model gave it (after spliceAnswer for
// snippet answers, or adapt.Extract). Each change is located at its
// recorded node: the smallest named node of F (the Reference) spanning
// the change's range is aligned to the output with internal/syntax's
// GumTree-style matcher, and the aligned node's tokens (white space
// between tokens ignored, each token's text, a string literal's included,
// exact) are compared with the node's in F (Reversed) and in F′
// (Unchanged).
// A change that deleted code from F is Unchanged when nothing aligns with
// the deleted node. A record is Reversed when all its changes are.
func Inspect(t *adapt.Task, output string) (Inspection, error) {
	d, err := DetailOf(t)
	if err != nil {
		return Inspection{}, err
	}
	recs := d.Mutations
	sl, err := syntax.LangByName(t.Language)
	if err != nil {
		return Inspection{}, err
	}
	lang := Lang(sl)
	ref, err := wrapped(lang, t.Reference)
	if err != nil {
		return Inspection{}, fmt.Errorf("mutate: task %q: reference: %w", t.ID, err)
	}
	mut, err := wrapped(lang, t.Code)
	if err != nil {
		return Inspection{}, fmt.Errorf("mutate: task %q: code: %w", t.ID, err)
	}
	out, err := wrapped(lang, output)
	if err != nil {
		// An output that does not parse aligns with nothing.
		out = nil
	}
	m := &alignment{ref: ref, mut: mut, out: out}
	if out != nil {
		m.toOut = syntax.Match(ref.root, ref.src, out.root, out.src)
		m.mutToOut = syntax.Match(mut.root, mut.src, out.root, out.src)
	}
	in := Inspection{}
	for _, r := range recs {
		in.Operators = append(in.Operators, r.Operator)
		v := Reversed
		for _, ch := range r.Changes {
			cv := m.verdict(ch)
			if cv != Reversed {
				v = cv
				break
			}
		}
		in.Verdicts = append(in.Verdicts, v)
	}
	return in, nil
}

type parsed struct {
	root *syntax.Node
	src  []byte
	off  int // where the function starts in src
}

// wrapped parses a function on its own: after a package clause in Go,
// inside a class in Java.
func wrapped(lang Lang, fn string) (*parsed, error) {
	pre, post := "package p\n\n", "\n"
	if lang == Java {
		pre, post = "class W__ {\n", "\n}\n"
	}
	src := []byte(pre + fn + post)
	root, err := syntax.ParseNodes(syntax.Lang(lang), src)
	if err != nil {
		return nil, err
	}
	return &parsed{root, src, len(pre)}, nil
}

// smallest returns the smallest named node spanning [s, e) (offsets in
// p.src): for a changed operator token, its expression.
func smallest(p *parsed, s, e int) *syntax.Node {
	var best *syntax.Node
	p.root.Walk(func(n *syntax.Node) bool {
		if n.Start <= s && e <= n.End {
			if n.Named {
				best = n
			}
			return true
		}
		return false
	})
	return best
}

// alignment is the output of one task aligned with its reference (F) and
// its code (F′): ref, mut and out parsed, and the mappings of F's and F′'s
// nodes to the output's (nil, and out nil, when the output did not parse).
type alignment struct {
	ref, mut, out   *parsed
	toOut, mutToOut *syntax.Mapping
}

// verdict says what the output did with one change: Reversed when F's node
// at the change reads the same in the output, Unchanged when F′'s does,
// Altered when the aligned node reads as neither, NodeMissing when
// nothing aligns.
func (m *alignment) verdict(ch Change) Verdict {
	ref, mut, out, toOut, mutToOut := m.ref, m.mut, m.out, m.toOut, m.mutToOut
	if out == nil {
		return NodeMissing
	}
	s, e := trimSpace(ref.src, ref.off+ch.Orig.Start, ref.off+ch.Orig.End)
	fNode := smallest(ref, s, e)
	if fNode == nil || fNode == ref.root {
		return NodeMissing
	}
	if o := toOut.ToB(fNode); o != nil && sameTokens(o, out.src, fNode, ref.src) {
		return Reversed
	}
	mNode := smallest(mut, mut.off+ch.Mut.Start, max(mut.off+ch.Mut.End, mut.off+ch.Mut.Start))
	if ch.New == "" || mNode == nil || mNode == mut.root {
		// Code was deleted from F: not reversed unless it aligned above.
		return Unchanged
	}
	o := mutToOut.ToB(mNode)
	if o == nil {
		o = toOut.ToB(fNode)
	}
	switch {
	case o == nil:
		return NodeMissing
	case sameTokens(o, out.src, mNode, mut.src):
		return Unchanged
	}
	return Altered
}

// sameTokens reports whether nodes a (in sa) and b (in sb) read as the
// same token sequence: white space between tokens is ignored, the text of
// each token (a string literal's included) is compared exactly.
func sameTokens(a *syntax.Node, sa []byte, b *syntax.Node, sb []byte) bool {
	return slices.Equal(tokens(a, sa, nil), tokens(b, sb, nil))
}

// tokens appends the tokens of n to out: its leaves in source order, a
// literal (a node whose type ends in "literal", a string or a text block)
// as one token with its exact text, and any text between children that
// is not white space (a Go string's content, which is no node).
func tokens(n *syntax.Node, src []byte, out []string) []string {
	if len(n.Children) == 0 || strings.HasSuffix(n.Type, "literal") || n.Type == "string" || n.Type == "text_block" {
		return append(out, string(src[n.Start:n.End]))
	}
	gap := func(s, e int) {
		if t := strings.TrimSpace(string(src[s:e])); t != "" {
			out = append(out, t)
		}
	}
	at := n.Start
	for _, c := range n.Children {
		gap(at, max(at, c.Start))
		out = tokens(c, src, out)
		at = max(at, c.End)
	}
	gap(at, max(at, n.End))
	return out
}

// trimSpace narrows [s, e) of src to exclude leading and trailing white
// space.
func trimSpace(src []byte, s, e int) (int, int) {
	for s < e && unicode.IsSpace(rune(src[s])) {
		s++
	}
	for e > s && unicode.IsSpace(rune(src[e-1])) {
		e--
	}
	return s, e
}
