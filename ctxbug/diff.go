package ctxbug

import (
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// Span is a byte range [Start, End).
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Bug is one perturbed solution node at which a variant differs from the
// solution: one CtxBug (or IsoBug) location.
type Bug struct {
	// Hole is the index of the hole in the job's Holes.
	Hole int `json:"hole"`
	// Node is the grammar type of the solution node compared.
	Node string `json:"node"`
	// Solution is the hole's range in the solution method, and Text its
	// source.
	Solution Span   `json:"solution"`
	Text     string `json:"text"`
	// Variant is the range of the variant that stands where the hole was,
	// and VariantText its source.
	Variant     Span   `json:"variant"`
	VariantText string `json:"variant_text"`
	// Deleted reports that the perturbed node has no counterpart in the
	// variant (GumTree deletes it); Variant is then the gap between the
	// counterparts of its neighbours.
	Deleted bool `json:"deleted,omitempty"`
}

// comparison is the GumTree alignment of a solution method (a) with
// another version of it (b).
type comparison struct {
	a, b    []byte
	ra, rb  *syntax.Node
	m       *syntax.Mapping
	leavesA []*syntax.Node
}

func compare(solution, other []byte) (*comparison, error) {
	ra, err := syntax.ParseNodes(syntax.Python, solution)
	if err != nil {
		return nil, err
	}
	rb, err := syntax.ParseNodes(syntax.Python, other)
	if err != nil {
		return nil, err
	}
	c := &comparison{a: solution, b: other, ra: ra, rb: rb, m: syntax.Match(ra, solution, rb, other)}
	ra.Walk(func(n *syntax.Node) bool {
		if len(n.Children) == 0 && n.Type != "comment" {
			c.leavesA = append(c.leavesA, n)
		}
		return true
	})
	return c, nil
}

// norm is the text of n as a sequence of tokens: its leaves (comments
// left out) joined by one space, so that white space and line breaks
// never matter, while quotes, spelling and order do.
func norm(n *syntax.Node, src []byte) string {
	var toks []string
	n.Walk(func(c *syntax.Node) bool {
		if len(c.Children) == 0 && c.Type != "comment" {
			toks = append(toks, c.Text(src))
		}
		return true
	})
	return strings.Join(toks, " ")
}

// site is where a hole is in the solution: the node compared (the
// outermost nodes spanning the hole exactly, or else the smallest node
// containing it) and its counterpart in b.
type site struct {
	node    *syntax.Node
	partner *syntax.Node
	exact   bool
}

func (c *comparison) site(h Hole) site {
	var exact []*syntax.Node
	var container *syntax.Node
	c.ra.Walk(func(n *syntax.Node) bool {
		if n.Start > h.Start || n.End < h.End || (h.Start == h.End && (n.Start == h.Start || n.End == h.End)) {
			return false // outside, or an empty hole at its edge
		}
		if n.Start == h.Start && n.End == h.End && n.Start < n.End {
			exact = append(exact, n)
		} else {
			container = n
		}
		return true
	})
	if len(exact) > 0 {
		for _, n := range exact {
			if p := c.m.ToB(n); p != nil {
				return site{node: n, partner: p, exact: true}
			}
		}
		return site{node: exact[0], exact: true}
	}
	return site{node: container, partner: c.m.ToB(container)}
}

// region returns the range of b that stands where hole h of a is: the
// counterpart of the hole's node (less the margins a containing node has
// around the hole), or, for a node without counterpart, the gap between
// the counterparts of the nearest matched tokens before and after it.
func (c *comparison) region(h Hole, s site) Span {
	if s.partner != nil {
		r := Span{s.partner.Start + (h.Start - s.node.Start), s.partner.End - (s.node.End - h.End)}
		if r.End < r.Start {
			r.End = r.Start
		}
		return r
	}
	lo, hi := 0, len(c.b)
	for _, l := range c.leavesA {
		if l.End <= h.Start {
			if p := c.m.ToB(l); p != nil {
				lo = p.End
			}
		}
	}
	for i := len(c.leavesA) - 1; i >= 0; i-- {
		l := c.leavesA[i]
		if l.Start >= h.End {
			if p := c.m.ToB(l); p != nil {
				hi = p.Start
			}
		}
	}
	if hi < lo {
		hi = lo
	}
	for lo < hi && isSpace(c.b[lo]) {
		lo++
	}
	for hi > lo && isSpace(c.b[hi-1]) {
		hi--
	}
	return Span{lo, hi}
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// bugs returns the holes at which b differs from a: a hole's node has no
// counterpart, or a counterpart with other tokens (GumTree, as in the
// paper). Where the token alignment of [comparison.align] pins down what
// b has in a hole's place, that text decides instead, and is the bug's
// variant range: GumTree pairs equal tokens across positions (swapped
// variables, an attribute replaced by another the method also uses), so
// that its counterpart can be an unchanged token moved from elsewhere.
func (c *comparison) bugs(holes []Hole) []Bug {
	al := c.align(holes)
	var out []Bug
	for i, h := range holes {
		s := c.site(h)
		if s.node == nil {
			continue
		}
		deleted := s.partner == nil
		differs := deleted || norm(s.partner, c.b) != norm(s.node, c.a)
		r := Span{}
		if al.ok && al.known[i] {
			differs = al.gapText[i] != al.holeText[i]
			r = al.gaps[i]
		} else {
			r = c.region(h, s)
		}
		if !differs {
			continue
		}
		out = append(out, Bug{
			Hole: i, Node: s.node.Type,
			Solution: Span{h.Start, h.End}, Text: string(c.a[h.Start:h.End]),
			Variant: r, VariantText: string(c.b[r.Start:r.End]),
			Deleted: deleted,
		})
	}
	return out
}

// resolved reports, for each hole, whether b has the solution's tokens
// there: the hole's node has a counterpart with the same tokens (the
// paper's resolution criterion, by GumTree), or, where the token
// alignment pins down what b has in the hole's place, those tokens are
// the hole's (see bugs: a copied bug is not resolved because GumTree
// pairs the hole with an equal token from elsewhere).
func (c *comparison) resolved(holes []Hole) []bool {
	al := c.align(holes)
	out := make([]bool, len(holes))
	for i, h := range holes {
		if al.ok && al.known[i] {
			out[i] = al.gapText[i] == al.holeText[i]
			continue
		}
		s := c.site(h)
		out[i] = s.node != nil && s.partner != nil && norm(s.partner, c.b) == norm(s.node, c.a)
	}
	return out
}
