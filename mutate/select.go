package mutate

import (
	"context"
	"math/rand/v2"
)

// siteTable is what Generate knows of the sites of one fragment: per
// operator, the byte ranges each site's edits touch (nil: the site gives
// no edit that type-checks, and is not proposed).
type siteTable map[*Operator][][]Range

// live reports whether site k of op may be drawn.
func (t siteTable) live(op *Operator, k int) bool { return t == nil || t[op][k] != nil }

// selectSites runs each site of each operator once, to learn the ranges
// its edits touch (which do not depend on the choice drawn: a rename
// touches every use of its variable, wherever its site is), and, where p
// can type-check a mutant and op's policy is RequireCompile, narrows the
// site's choices to those that type-check alone; a site left with none is
// not proposed. So an operator proposes only edits that compile as far as
// go/types sees (a string + turned -, a type switch's case types, a
// keep-alive a deletion needs), and the compile share measures the
// operators, not edits that can never compile.
func selectSites(ctx context.Context, p Project, file string, sites map[*Operator][]Site, policy func(*Operator) Policy) (siteTable, error) {
	tc, _ := p.(typeChecker)
	t := siteTable{}
	for op, ss := range sites {
		t[op] = make([][]Range, len(ss))
		for k := range ss {
			s := &ss[k]
			var keep []string
			var ranges []Range
			choices := s.Choices
			if len(choices) == 0 {
				choices = []string{""}
			}
			for _, ch := range choices {
				one := *s
				if ch != "" {
					one.Choices = []string{ch}
				}
				edits := op.Run(one, rand.New(rand.NewPCG(0, 0)))
				if len(edits) == 0 {
					continue
				}
				if tc != nil && policy(op) == RequireCompile {
					src, _, err := apply(s.Frag.Src, edits)
					if err != nil {
						continue
					}
					msgs, ok := tc.TypeErrors(ctx, file, src)
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					if ok && msgs != "" {
						continue
					}
				}
				keep = append(keep, ch)
				if ranges == nil {
					for _, e := range edits {
						ranges = append(ranges, Range{e.Start, e.End})
					}
				}
			}
			if len(keep) == 0 {
				continue
			}
			if len(s.Choices) > 0 {
				s.Choices = keep
			}
			t[op][k] = ranges
		}
	}
	return t, nil
}
