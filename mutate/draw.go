package mutate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/adaptbench/adaptbench/internal/syntax"
)

// slotted is a site drawn for an L1 candidate and its slot among the
// operator's draws.
type slotted struct{ site, slot int }

// drawSites draws up to per of an operator's n sites for L1 candidates:
// the first per of a permutation, as before sites were selected, with a
// site not proposed (siteTable.live) replaced by the next live one of the
// permutation in its slot, so that the same seed draws the same sites
// wherever they are live.
func drawSites(op *Operator, n, per int, table siteTable, rng *rand.Rand) []slotted {
	per = min(per, n)
	var out []slotted
	var free []int // slots of the first per whose site is not live
	for i, k := range rng.Perm(n) {
		if len(out) == per {
			break
		}
		switch live := table.live(op, k); {
		case i < per && live:
			out = append(out, slotted{k, i})
		case i < per:
			free = append(free, i)
		case live:
			out = append(out, slotted{k, free[0]})
			free = free[1:]
		}
	}
	slices.SortFunc(out, func(a, b slotted) int { return a.slot - b.slot })
	return out
}

// fragmentSites are where the operators apply in one fragment.
type fragmentSites struct {
	avail []*Operator          // the operators with a site, in suite order
	sites map[*Operator][]Site // each one's sites
	table siteTable            // which sites are live and what each edits
}

// drawCombo draws the picks of one combination of level lv: one site of
// each operator, the least used operators so far first (ties broken by
// rng), so that operators stay balanced, each site live (table) and its
// edits disjoint from those of the sites drawn before it (a rename edits
// every use of its variable, not just its site). L2 combines two
// distinct operators; L3 and L4
// repeat operators (at other sites) only when fewer distinct ones fit,
// keeping at least two distinct (the digest's levels, families being
// operators). It returns nil when no such combination fits. A nil table
// takes each site's own range as its edits.
func (fs *fragmentSites) drawCombo(lv ComplexityLevel, usage map[string]int, rng *rand.Rand) []sitePick {
	avail, sites, table := fs.avail, fs.sites, fs.table
	n := int(lv)
	if len(avail) < 2 {
		return nil
	}
	order := slices.Clone(avail)
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	slices.SortStableFunc(order, func(a, b *Operator) int { return usage[a.Name] - usage[b.Name] })
	var picks []sitePick
	var used []Range
	edits := func(op *Operator, k int) []Range {
		if table == nil {
			return []Range{{sites[op][k].Start, sites[op][k].End}}
		}
		return table[op][k]
	}
	overlaps := func(rs []Range) bool {
		for _, r := range rs {
			for _, u := range used {
				if r.Start < u.End && u.Start < r.End || r.Start == u.Start {
					return true
				}
			}
		}
		return false
	}
	// take picks a live site of op whose edits are disjoint from the
	// picks' so far, if any.
	take := func(op *Operator) bool {
		s := sites[op]
		for _, k := range rng.Perm(len(s)) {
			if rs := edits(op, k); table.live(op, k) && !overlaps(rs) {
				used = append(used, rs...)
				picks = append(picks, sitePick{op, s[k]})
				return true
			}
		}
		return false
	}
	for _, op := range order {
		if len(picks) == n {
			break
		}
		take(op)
	}
	for more := lv > L2; more && len(picks) < n; {
		more = false
		for _, op := range order {
			if len(picks) < n && take(op) {
				more = true
			}
		}
	}
	distinct := map[*Operator]bool{}
	for _, pk := range picks {
		distinct[pk.Op] = true
	}
	if len(picks) < n || len(distinct) < 2 {
		return nil
	}
	for _, pk := range picks {
		usage[pk.Op.Name]++
	}
	return picks
}

// changeKey names a constituent's change: its file, operator and edits.
func changeKey(c *Candidate, r Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%s", c.File, r.Operator)
	for _, ch := range r.Changes {
		fmt.Fprintf(&b, "\x00%d:%d:%s", ch.Orig.Start, ch.Orig.End, ch.New)
	}
	return b.String()
}

// soloCandidate returns the L1 candidate of record r of combination c
// alone: its changes applied to the fragment's file, parsed.
func soloCandidate(c *Candidate, r Record, ops []*Operator, policy func(*Operator) Policy) *Candidate {
	s := &Candidate{File: c.File, Frag: c.Frag, Level: L1, Ops: []string{r.Operator}, Seed: c.Seed, Tests: c.Tests, Policy: RequireCompile}
	for _, op := range ops {
		if op.Name == r.Operator && policy(op) == AllowUnresolved {
			s.Policy = AllowUnresolved
		}
	}
	var edits []Edit
	for _, ch := range r.Changes {
		edits = append(edits, Edit{ch.Orig.Start, ch.Orig.End, []byte(ch.New)})
	}
	src, changes, err := apply(c.Frag.Src, edits)
	if err != nil {
		s.Reason, s.Detail = ReasonOverlap, err.Error()
		return s
	}
	rec := r
	rec.Changes = changes
	s.Records, s.Src = []Record{rec}, src
	if t, err := syntax.Parse(syntax.Lang(c.Frag.Lang), src); err != nil || t.HasErrors() {
		s.Reason = ReasonParse
	}
	return s
}
