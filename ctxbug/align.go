package ctxbug

import (
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// token is one leaf of a syntax tree.
type token struct {
	text       string
	start, end int
}

// tokensOf returns the leaves of root in source order, leaving out
// comments and docstrings (a string statement that opens a block), which
// are not code a variant can get wrong.
func tokensOf(root *syntax.Node, src []byte) []token {
	var out []token
	var walk func(n *syntax.Node)
	walk = func(n *syntax.Node) {
		if n.Type == "comment" {
			return
		}
		if n.Type == "block" {
			for i, k := range n.Children {
				if k.Named {
					if isDocstring(k) {
						for _, rest := range n.Children[i+1:] {
							walk(rest)
						}
						return
					}
					break
				}
			}
		}
		if len(n.Children) == 0 {
			out = append(out, token{n.Text(src), n.Start, n.End})
			return
		}
		for _, k := range n.Children {
			walk(k)
		}
	}
	walk(root)
	return out
}

func isDocstring(n *syntax.Node) bool {
	if n.Type != "expression_statement" || len(n.Children) != 1 {
		return false
	}
	t := n.Children[0].Type
	return t == "string" || t == "concatenated_string"
}

// alignment says what b has in place of each hole of a, when b's tokens
// are a's outside the holes, in order.
type alignment struct {
	// ok reports whether b's tokens outside the holes are a's.
	ok bool
	// gaps are b's ranges standing for each hole, gapText their tokens
	// and holeText the hole's tokens in a, joined by one space.
	gaps              []Span
	gapText, holeText []string
	// known is false for holes whose gap cannot be told from a
	// neighbour's (adjacent holes) or is empty (the hole's code deleted).
	known []bool
}

// align matches b's tokens against a's with every hole a wildcard: the
// tokens before the first hole must open b, those after the last must
// close it, and those between holes must follow in order (leftmost match,
// which finds a match whenever there is one).
func (c *comparison) align(holes []Hole) alignment {
	ta, tb := tokensOf(c.ra, c.a), tokensOf(c.rb, c.b)
	n := len(holes)
	segs := make([][]string, n+1)
	holeToks := make([][]string, n)
	for _, t := range ta {
		k := 0
		for k < n && holes[k].End <= t.start {
			k++
		}
		if k < n && holes[k].Start <= t.start && t.end <= holes[k].End && holes[k].Start < holes[k].End {
			holeToks[k] = append(holeToks[k], t.text)
			continue
		}
		segs[k] = append(segs[k], t.text)
	}
	texts := make([]string, len(tb))
	for i, t := range tb {
		texts[i] = t.text
	}
	at := func(i int, seg []string) bool {
		return i+len(seg) <= len(texts) && slices.Equal(texts[i:i+len(seg)], seg)
	}
	al := alignment{gaps: make([]Span, n), gapText: make([]string, n), holeText: make([]string, n), known: make([]bool, n)}
	if !at(0, segs[0]) {
		return al
	}
	if n == 0 {
		al.ok = len(texts) == len(segs[0])
		return al
	}
	pos := len(segs[0])
	bounds := make([][2]int, n) // token index range of each gap
	for k := 1; k < n; k++ {
		i := pos
		for i <= len(texts) && !at(i, segs[k]) {
			i++
		}
		if i > len(texts) {
			return al
		}
		bounds[k-1] = [2]int{pos, i}
		pos = i + len(segs[k])
	}
	last := len(texts) - len(segs[n])
	if last < pos || !at(last, segs[n]) {
		return al
	}
	bounds[n-1] = [2]int{pos, last}
	al.ok = true
	for k := range n {
		lo, hi := bounds[k][0], bounds[k][1]
		al.holeText[k] = strings.Join(holeToks[k], " ")
		al.gapText[k] = strings.Join(texts[lo:hi], " ")
		shared := (k > 0 && len(segs[k]) == 0) || (k+1 < n && len(segs[k+1]) == 0)
		al.known[k] = hi > lo && !shared
		if hi > lo {
			al.gaps[k] = Span{tb[lo].start, tb[hi-1].end}
		}
	}
	return al
}
