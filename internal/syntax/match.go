//go:build cgo

package syntax

import (
	"fmt"
	"hash/fnv"
	"iter"
	"slices"
	"strings"
)

const (
	matchMinHeight = 2       // smallest height of a subtree matched top-down
	matchMinDice   = 0.5     // smallest dice similarity of a bottom-up match
	matchMaxSize   = 1000    // largest subtree whose leaves recovery compares
	matchMaxCells  = 1 << 22 // largest children LCS table of recovery
)

// Range is a half-open byte range [Start, End) of a source.
type Range struct{ Start, End int }

// EditKind is the kind of an [Edit].
type EditKind uint8

// The edit kinds. The zero value is invalid.
const (
	EditInvalid EditKind = iota
	Insert               // a subtree of b has no counterpart in a
	Delete               // a subtree of a has no counterpart in b
	Update               // a matched leaf changed its label
	Move                 // a matched node changed parent or order
)

var editKindNames = [...]string{"invalid", "insert", "delete", "update", "move"}

// String returns "insert", "delete", "update", "move" or "invalid".
func (k EditKind) String() string {
	if int(k) < len(editKindNames) {
		return editKindNames[k]
	}
	return fmt.Sprintf("EditKind(%d)", uint8(k))
}

// Edit is one step of the edit script from a to b.
type Edit struct {
	Kind EditKind
	// Type is the grammar type of the node (of A for an Update, whose B
	// may differ for an operator).
	Type string
	// A is the node of a: the deleted subtree's root, the updated leaf or
	// the moved node. It is nil for an Insert.
	A *Node
	// B is the node of b: the inserted subtree's root, the new leaf or the
	// moved node where it ended up. It is nil for a Delete.
	B *Node
	// OldLabel and NewLabel are the labels of A and B for an Update (for a
	// leaf, its source text); both are "" for other kinds.
	OldLabel, NewLabel string
}

// String formats the edit as `update identifier "t" -> "u" at [4,5)->[4,5)`.
func (e Edit) String() string {
	var b strings.Builder
	b.WriteString(e.Kind.String())
	b.WriteByte(' ')
	b.WriteString(e.Type)
	if e.Kind == Update {
		fmt.Fprintf(&b, " %q -> %q", e.OldLabel, e.NewLabel)
	}
	b.WriteString(" at ")
	if e.A != nil {
		fmt.Fprintf(&b, "[%d,%d)", e.A.Start, e.A.End)
	}
	b.WriteString("->")
	if e.B != nil {
		fmt.Fprintf(&b, "[%d,%d)", e.B.Start, e.B.End)
	}
	return b.String()
}

// Mapping is a one-to-one matching between the nodes of two trees, a and
// b, made by [Match]. It is immutable and safe for concurrent use.
type Mapping struct {
	a, b   *mtree
	ab, ba []int32 // partner of each post-order index, or -1
}

// MatchSource parses a and b as lang with [ParseNodes] and matches them.
func MatchSource(lang Lang, a, b []byte) (*Mapping, error) {
	ta, err := ParseNodes(lang, a)
	if err != nil {
		return nil, err
	}
	tb, err := ParseNodes(lang, b)
	if err != nil {
		return nil, err
	}
	return Match(ta, a, tb, b), nil
}

// Diff returns the edit script from a to b, two sources in lang: a
// shorthand for [MatchSource] and [Mapping.Edits].
func Diff(lang Lang, a, b []byte) ([]Edit, error) {
	m, err := MatchSource(lang, a, b)
	if err != nil {
		return nil, err
	}
	return m.Edits(), nil
}

// Match matches the tree a, parsed from srcA, with the tree b, parsed from
// srcB. The trees must come from [ParseNodes] for the same language, or be
// built alike; they are not modified, and a and b may be the same tree (a
// nil tree has no nodes).
//
// The trees are aligned with the GumTree algorithm (Falleri et al.,
// "Fine-grained and accurate source code differencing", ASE 2014), and
// [Mapping.Edits] derives an edit script from the alignment. They serve two callers: the CtxBug
// identification step (a variant must differ from the solution at a
// perturbed node, or delete it, and nowhere else: see
// [Mapping.ChangedNodes]) and the inspection of mutation-injection tasks
// (where did the node recorded at a byte range go: see [Mapping.Aligned]).
//
// Nodes are compared by a match type and a label:
//
//   - the match type is the grammar type, except for anonymous nodes that
//     fill a field (the operator of `a + b`), whose type is the field name,
//     so that `a + b` → `a | b` is one update of the operator;
//   - the label of a named leaf (identifier, literal, comment) and of an
//     anonymous node that fills a field (an operator) is its source text;
//     other anonymous leaves (keywords, punctuation, Go's "\n" terminators)
//     are labelled by their type, so that white space never matters; inner
//     nodes have no label.
//
// The matching runs in three phases:
//
//  1. Top-down: isomorphic subtrees (same match types and labels
//     throughout) of height at least 2 are matched greedily from the
//     highest down. A subtree that is isomorphic to exactly one subtree of
//     the other tree is matched at once; ambiguous pairs are matched later,
//     best first by the dice similarity of their parents, ties broken by
//     position.
//  2. Bottom-up: in post-order, an unmatched inner node of a is matched to
//     the unmatched node of b of the same type that shares the most matched
//     descendants with it, if their dice similarity is at least 0.5. The two
//     roots are matched if they have the same type.
//  3. Recovery: after each bottom-up match (and the roots'), the unmatched
//     children of the pair are matched by a longest common subsequence of
//     isomorphic subtrees, then of similar nodes, then of nodes whose type
//     occurs once among the children on each side, recursively under each
//     new pair; children already matched to each other are anchors that new
//     pairs may not cross. Two nodes are similar if they have the same
//     match type and, for inner nodes, the same shape (isomorphic but for
//     labels) or a dice similarity of the multisets of their leaves of at
//     least 0.5 (so that `log(y)` is not paired with `y = x * 3` only
//     because both are expression statements). This is GumTree's "simple"
//     recovery plus that similarity test, a cheap stand-in for the optimal
//     tree edit distance of the paper. The size threshold bounds the
//     cost: subtrees of 1000 nodes or more are similar by type alone, and
//     a node pair with more than 4M pairs of children skips the
//     subsequence passes.
//
// Every choice is deterministic: ties are broken by source position.
//
// The edit script ([Edit]) is the one of Chawathe et al. in the compact form
// GumTree reports: an unmatched subtree is one [Insert] or [Delete] of its
// root (unmatched nodes under it are not listed again; matched nodes under it
// are moves), a matched leaf whose label changed is an [Update], and a
// matched node whose parent is not matched to its partner's parent, or that
// is out of order among its matched siblings, is a [Move]. Edits are not
// meant to be replayed: an Insert says where the subtree is in b, not at
// which index of which parent of a it goes.
//
// The matching heuristics (and so the exact edit scripts) are not stable and
// may be tuned; the invariants are: Match of a tree with an identical tree
// maps every node to its copy and yields no edits, and every pair of the
// mapping has the same match type.
func Match(a *Node, srcA []byte, b *Node, srcB []byte) *Mapping {
	m := &Mapping{a: newMTree(a, srcA), b: newMTree(b, srcB)}
	m.ab = make([]int32, len(m.a.nodes))
	m.ba = make([]int32, len(m.b.nodes))
	for i := range m.ab {
		m.ab[i] = -1
	}
	for i := range m.ba {
		m.ba[i] = -1
	}
	m.topDown()
	m.bottomUp()
	return m
}

// ToB returns the node of b matched to n, a node of a, or nil.
func (m *Mapping) ToB(n *Node) *Node {
	if i, ok := m.a.index[n]; ok && m.ab[i] >= 0 {
		return m.b.nodes[m.ab[i]]
	}
	return nil
}

// ToA returns the node of a matched to n, a node of b, or nil.
func (m *Mapping) ToA(n *Node) *Node {
	if i, ok := m.b.index[n]; ok && m.ba[i] >= 0 {
		return m.a.nodes[m.ba[i]]
	}
	return nil
}

// Len returns the number of matched pairs.
func (m *Mapping) Len() int {
	k := 0
	for _, j := range m.ab {
		if j >= 0 {
			k++
		}
	}
	return k
}

// Pairs yields the matched pairs (node of a, node of b) in the pre-order of
// a.
func (m *Mapping) Pairs() iter.Seq2[*Node, *Node] {
	return func(yield func(*Node, *Node) bool) {
		for _, i := range m.a.preorder() {
			if j := m.ab[i]; j >= 0 && !yield(m.a.nodes[i], m.b.nodes[j]) {
				return
			}
		}
	}
}

// Aligned returns the range in b of the node of a spanning exactly r.
// When several nodes of a span r (an expression statement and its call),
// the outermost one that is matched is used. ok is false when no node of a
// spans r or none of those is matched.
func (m *Mapping) Aligned(r Range) (Range, bool) {
	for _, i := range m.a.preorder() {
		n := m.a.nodes[i]
		if n.Start == r.Start && n.End == r.End && m.ab[i] >= 0 {
			p := m.b.nodes[m.ab[i]]
			return Range{p.Start, p.End}, true
		}
	}
	return Range{}, false
}

// ChangedNodes returns the nodes of a that the edit script updates,
// deletes or moves, and the nodes of b it inserts, each in pre-order. A
// deleted or inserted node stands for its whole subtree (but for matched
// nodes under it, which are moves).
func (m *Mapping) ChangedNodes() (inA, inB []*Node) {
	for _, e := range m.Edits() {
		if e.Kind == Insert {
			inB = append(inB, e.B)
		} else if len(inA) == 0 || inA[len(inA)-1] != e.A {
			inA = append(inA, e.A)
		}
	}
	return inA, inB
}

// Edits returns the edit script from a to b: first the deletes, updates
// and moves in the pre-order of a (an update before a move of the same
// node), then the inserts in the pre-order of b.
func (m *Mapping) Edits() []Edit {
	ta, tb := m.a, m.b
	moved := m.misordered()
	var out []Edit
	for _, i := range ta.preorder() {
		n := ta.nodes[i]
		j := m.ab[i]
		p := ta.parent[i]
		if j < 0 {
			if p < 0 || m.ab[p] >= 0 {
				out = append(out, Edit{Kind: Delete, Type: n.Type, A: n})
			}
			continue
		}
		nb := tb.nodes[j]
		if ta.label[i] != tb.label[j] {
			out = append(out, Edit{Kind: Update, Type: n.Type, A: n, B: nb, OldLabel: ta.label[i], NewLabel: tb.label[j]})
		}
		q := tb.parent[j]
		switch {
		case p < 0 && q < 0:
		case p < 0 || q < 0 || m.ab[p] != q || moved[i]:
			out = append(out, Edit{Kind: Move, Type: n.Type, A: n, B: nb})
		}
	}
	for _, j := range tb.preorder() {
		if m.ba[j] < 0 {
			if q := tb.parent[j]; q < 0 || m.ba[q] >= 0 {
				n := tb.nodes[j]
				out = append(out, Edit{Kind: Insert, Type: n.Type, B: n})
			}
		}
	}
	return out
}

// misordered reports the nodes of a that are matched to a child of their
// parent's partner but are out of order among such siblings: those outside
// a longest common subsequence of the two orders (not computed for nodes
// with more than 2,048 matched children, whose children are never out of
// order).
func (m *Mapping) misordered() []bool {
	ta, tb := m.a, m.b
	moved := make([]bool, len(ta.nodes))
	for x := range ta.nodes {
		y := m.ab[x]
		if y < 0 || len(ta.kids[x]) < 2 {
			continue
		}
		var sa, sb []int32
		for _, c := range ta.kids[x] {
			if d := m.ab[c]; d >= 0 && tb.parent[d] == y {
				sa = append(sa, c)
			}
		}
		for _, d := range tb.kids[y] {
			if c := m.ba[d]; c >= 0 && ta.parent[c] == int32(x) {
				sb = append(sb, d)
			}
		}
		if len(sa)*len(sb) > matchMaxCells {
			continue // too many children to compare orders
		}
		keep := make(map[int32]bool, len(sa))
		for _, pr := range lcs(len(sa), len(sb), func(i, j int) bool { return m.ab[sa[i]] == sb[j] }) {
			keep[sa[pr[0]]] = true
		}
		for _, c := range sa {
			if !keep[c] {
				moved[c] = true
			}
		}
	}
	return moved
}

// mtree is a tree flattened in post-order for matching.
type mtree struct {
	nodes  []*Node
	index  map[*Node]int32
	parent []int32
	kids   [][]int32
	height []int32
	size   []int32  // nodes in the subtree, the root included
	hash   []uint64 // of match types and labels: isomorphism
	shape  []uint64 // of match types only: isomorphism but for labels
	typ    []string // match type
	label  []string
	pre    []int32 // pre-order number
	order  []int32 // post-order indices in pre-order
}

func newMTree(root *Node, src []byte) *mtree {
	t := &mtree{index: make(map[*Node]int32)}
	var walk func(n *Node, parent int32, pre *int32) int32
	walk = func(n *Node, parent int32, pre *int32) int32 {
		mypre := *pre
		*pre++
		var kids []int32
		for _, c := range n.Children {
			kids = append(kids, walk(c, -1, pre))
		}
		i := int32(len(t.nodes))
		typ, label := n.Type, ""
		switch {
		case !n.Named && n.Field != "":
			typ, label = "$"+n.Field, nodeText(n, src)
		case !n.Named:
			label = n.Type
		case len(n.Children) == 0:
			label = nodeText(n, src)
		}
		h, sh := fnv.New64a(), fnv.New64a()
		h.Write([]byte(typ))
		sh.Write([]byte(typ))
		h.Write([]byte{0})
		sh.Write([]byte{0})
		h.Write([]byte(label))
		h.Write([]byte{0})
		var height, size int32 = 1, 1
		for _, k := range kids {
			t.parent[k] = i
			height = max(height, t.height[k]+1)
			size += t.size[k]
			h.Write(hashBytes(t.hash[k]))
			sh.Write(hashBytes(t.shape[k]))
		}
		h.Write([]byte{1})
		sh.Write([]byte{1})
		t.nodes = append(t.nodes, n)
		t.index[n] = i
		t.parent = append(t.parent, parent)
		t.kids = append(t.kids, kids)
		t.height = append(t.height, height)
		t.size = append(t.size, size)
		t.hash = append(t.hash, h.Sum64())
		t.shape = append(t.shape, sh.Sum64())
		t.typ = append(t.typ, typ)
		t.label = append(t.label, label)
		t.pre = append(t.pre, mypre)
		return i
	}
	var pre int32
	if root != nil {
		walk(root, -1, &pre)
	}
	t.order = make([]int32, len(t.nodes))
	for i, p := range t.pre {
		t.order[p] = int32(i)
	}
	return t
}

func hashBytes(h uint64) []byte {
	var b [8]byte
	for s := range 8 {
		b[s] = byte(h >> (8 * s))
	}
	return b[:]
}

// nodeText returns the source of n, clamped to src so that a tree and a
// source that do not belong together cannot cause a panic.
func nodeText(n *Node, src []byte) string {
	s, e := min(max(n.Start, 0), len(src)), min(max(n.End, 0), len(src))
	if s > e {
		return ""
	}
	return string(src[s:e])
}

// preorder returns the post-order indices of the nodes in pre-order.
func (t *mtree) preorder() []int32 { return t.order }

// root returns the index of the root, or -1 for an empty tree.
func (t *mtree) root() int32 { return int32(len(t.nodes)) - 1 }

// isDesc reports whether d is a proper descendant of x (post-order
// indices: x's subtree is [x-size+1, x]).
func (t *mtree) isDesc(d, x int32) bool { return d < x && d > x-t.size[x] }

func (m *Mapping) iso(x, y int32) bool {
	return m.a.hash[x] == m.b.hash[y] && m.a.size[x] == m.b.size[y]
}

func (m *Mapping) link(x, y int32) { m.ab[x], m.ba[y] = y, x }

// linkIso matches the isomorphic subtrees rooted at x and y node by node.
func (m *Mapping) linkIso(x, y int32) {
	m.link(x, y)
	kx, ky := m.a.kids[x], m.b.kids[y]
	for i := range min(len(kx), len(ky)) {
		m.linkIso(kx[i], ky[i])
	}
}

// dice returns the dice similarity of the subtrees rooted at x (in a) and
// y (in b): twice the number of descendants of x matched to descendants of
// y, over the number of descendants of both.
func (m *Mapping) dice(x, y int32) float64 {
	if x < 0 || y < 0 {
		return 0
	}
	da, db := m.a.size[x]-1, m.b.size[y]-1
	if da+db == 0 {
		return 0
	}
	common := 0
	for d := x - m.a.size[x] + 1; d < x; d++ {
		if p := m.ab[d]; p >= 0 && m.b.isDesc(p, y) {
			common++
		}
	}
	return 2 * float64(common) / float64(da+db)
}

// heightQueue is GumTree's priority list of subtrees by height.
type heightQueue struct {
	t       *mtree
	buckets [][]int32
	top     int
}

func newHeightQueue(t *mtree) *heightQueue {
	q := &heightQueue{t: t}
	if r := t.root(); r >= 0 {
		q.buckets = make([][]int32, t.height[r]+1)
		q.push(r)
	}
	return q
}

func (q *heightQueue) push(i int32) {
	h := int(q.t.height[i])
	q.buckets[h] = append(q.buckets[h], i)
	q.top = max(q.top, h)
}

func (q *heightQueue) peek() int {
	for q.top > 0 && len(q.buckets[q.top]) == 0 {
		q.top--
	}
	return q.top
}

// pop removes and returns the subtrees of the greatest height, in
// pre-order.
func (q *heightQueue) pop() []int32 {
	h := q.peek()
	out := q.buckets[h]
	q.buckets[h] = nil
	slices.SortFunc(out, func(x, y int32) int { return int(q.t.pre[x] - q.t.pre[y]) })
	return out
}

func (q *heightQueue) open(i int32) {
	for _, k := range q.t.kids[i] {
		q.push(k)
	}
}

// topDown is phase 1: greedy matching of isomorphic subtrees.
func (m *Mapping) topDown() {
	ta, tb := m.a, m.b
	if len(ta.nodes) == 0 || len(tb.nodes) == 0 {
		return
	}
	td := &topDownRun{m: m, countA: hashCounts(ta), countB: hashCounts(tb)}
	qa, qb := newHeightQueue(ta), newHeightQueue(tb)
	for min(qa.peek(), qb.peek()) >= matchMinHeight {
		if ha, hb := qa.peek(), qb.peek(); ha != hb {
			if ha > hb {
				for _, x := range qa.pop() {
					qa.open(x)
				}
			} else {
				for _, y := range qb.pop() {
					qb.open(y)
				}
			}
			continue
		}
		td.matchLevel(qa, qb)
	}
	td.linkAmbiguous()
}

// isoPair is a pair of isomorphic subtrees, x in a and y in b.
type isoPair struct{ x, y int32 }

// topDownRun is the state of one topDown: how often each subtree hash
// occurs on each side, and the pairs whose hash is not unique.
type topDownRun struct {
	m              *Mapping
	countA, countB map[uint64]int
	ambiguous      []isoPair
}

// hashCounts counts the subtrees of t by hash.
func hashCounts(t *mtree) map[uint64]int {
	count := make(map[uint64]int, len(t.nodes))
	for _, h := range t.hash {
		count[h]++
	}
	return count
}

// matchLevel pairs the subtrees of the greatest height, which is the
// same in qa and qb: isomorphic pairs with a unique hash are linked,
// the others kept for linkAmbiguous; subtrees left unpaired are opened.
func (td *topDownRun) matchLevel(qa, qb *heightQueue) {
	m := td.m
	ta, tb := m.a, m.b
	la, lb := qa.pop(), qb.pop()
	usedA := make(map[int32]bool)
	usedB := make(map[int32]bool)
	byHash := make(map[uint64][]int32)
	for _, y := range lb {
		byHash[tb.hash[y]] = append(byHash[tb.hash[y]], y)
	}
	for _, x := range la {
		for _, y := range byHash[ta.hash[x]] {
			if !m.iso(x, y) {
				continue
			}
			h := ta.hash[x]
			if td.countA[h] > 1 || td.countB[h] > 1 {
				td.ambiguous = append(td.ambiguous, isoPair{x, y})
			} else if m.ab[x] < 0 && m.ba[y] < 0 {
				m.linkIso(x, y)
			}
			usedA[x], usedB[y] = true, true
		}
	}
	for _, x := range la {
		if !usedA[x] && m.ab[x] < 0 {
			qa.open(x)
		}
	}
	for _, y := range lb {
		if !usedB[y] && m.ba[y] < 0 {
			qb.open(y)
		}
	}
}

// linkAmbiguous links the ambiguous pairs: best parent similarity first,
// then by position.
func (td *topDownRun) linkAmbiguous() {
	m, ambiguous := td.m, td.ambiguous
	ta, tb := m.a, m.b
	sims := make([]float64, len(ambiguous))
	for k, p := range ambiguous {
		sims[k] = m.dice(ta.parent[p.x], tb.parent[p.y])
	}
	idx := make([]int, len(ambiguous))
	for k := range idx {
		idx[k] = k
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		pi, pj := ambiguous[i], ambiguous[j]
		switch {
		case sims[i] > sims[j]:
			return -1
		case sims[i] < sims[j]:
			return 1
		}
		di := abs32(ta.pre[pi.x] - tb.pre[pi.y])
		dj := abs32(ta.pre[pj.x] - tb.pre[pj.y])
		if di != dj {
			return int(di - dj)
		}
		if pi.x != pj.x {
			return int(ta.pre[pi.x] - ta.pre[pj.x])
		}
		return int(tb.pre[pi.y] - tb.pre[pj.y])
	})
	for _, k := range idx {
		p := ambiguous[k]
		if m.ab[p.x] < 0 && m.ba[p.y] < 0 && !m.partlyMatched(p.x, p.y) {
			m.linkIso(p.x, p.y)
		}
	}
}

// partlyMatched reports whether some node of the subtree of x or of y is
// already matched (an ambiguous subtree can contain a smaller one that
// was matched first).
func (m *Mapping) partlyMatched(x, y int32) bool {
	for d := x - m.a.size[x] + 1; d <= x; d++ {
		if m.ab[d] >= 0 {
			return true
		}
	}
	for d := y - m.b.size[y] + 1; d <= y; d++ {
		if m.ba[d] >= 0 {
			return true
		}
	}
	return false
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// bottomUp is phases 2 and 3: matching of containers by their matched
// descendants, with recovery under each new match.
func (m *Mapping) bottomUp() {
	ta, tb := m.a, m.b
	if len(ta.nodes) == 0 || len(tb.nodes) == 0 {
		return
	}
	seen := make([]int32, len(tb.nodes)) // generation marks
	gen := int32(0)
	for x := int32(0); x < int32(len(ta.nodes)); x++ {
		if m.ab[x] >= 0 || len(ta.kids[x]) == 0 || x == ta.root() {
			continue
		}
		gen++
		best, bestSim := int32(-1), 0.0
		for d := x - ta.size[x] + 1; d < x; d++ {
			p := m.ab[d]
			if p < 0 {
				continue
			}
			for c := tb.parent[p]; c >= 0 && seen[c] != gen; c = tb.parent[c] {
				seen[c] = gen
				if m.ba[c] >= 0 || tb.typ[c] != ta.typ[x] {
					continue
				}
				s := m.dice(x, c)
				if s > bestSim || (s == bestSim && best >= 0 && tb.pre[c] < tb.pre[best]) {
					best, bestSim = c, s
				}
			}
		}
		if best >= 0 && bestSim >= matchMinDice {
			m.link(x, best)
			m.recoverUnder(x, best)
		}
	}
	ra, rb := ta.root(), tb.root()
	if m.ab[ra] < 0 && m.ba[rb] < 0 && ta.typ[ra] == tb.typ[rb] {
		m.link(ra, rb)
	}
	if m.ab[ra] == rb {
		m.recoverUnder(ra, rb)
	}
}

// recoverUnder is phase 3 under the matched pair (x, y): it matches their
// unmatched children by isomorphism, then by type in order, then by types
// unique on both sides, and recurses into the pairs matched by type.
func (m *Mapping) recoverUnder(x, y int32) {
	ta, tb := m.a, m.b
	unmatched := func() (ka, kb []int32) {
		for _, c := range ta.kids[x] {
			if m.ab[c] < 0 {
				ka = append(ka, c)
			}
		}
		for _, d := range tb.kids[y] {
			if m.ba[d] < 0 {
				kb = append(kb, d)
			}
		}
		return ka, kb
	}
	if ka, kb := unmatched(); len(ka) == 0 || len(kb) == 0 {
		return
	}
	// Both sequences keep the children already matched to each other as
	// anchors, so that a new pair is not chosen across them.
	ca, cb := ta.kids[x], tb.kids[y]
	seq := func(same func(c, d int32) bool) [][2]int {
		if len(ca)*len(cb) > matchMaxCells {
			return nil
		}
		return lcs(len(ca), len(cb), func(i, j int) bool {
			c, d := ca[i], cb[j]
			if m.ab[c] >= 0 || m.ba[d] >= 0 {
				return m.ab[c] == d
			}
			return same(c, d)
		})
	}
	for _, p := range seq(m.iso) {
		if c, d := ca[p[0]], cb[p[1]]; m.ab[c] < 0 && !m.partlyMatched(c, d) {
			m.linkIso(c, d)
		}
	}
	for _, p := range seq(m.similar) {
		if c, d := ca[p[0]], cb[p[1]]; m.ab[c] < 0 && m.ba[d] < 0 {
			m.link(c, d)
			m.recoverUnder(c, d)
		}
	}
	ka, kb := unmatched()
	if len(ka) == 0 || len(kb) == 0 {
		return
	}
	count := make(map[string][2]int)
	for _, c := range ca {
		v := count[ta.typ[c]]
		v[0]++
		count[ta.typ[c]] = v
	}
	for _, d := range cb {
		v := count[tb.typ[d]]
		v[1]++
		count[tb.typ[d]] = v
	}
	for _, c := range ka {
		if count[ta.typ[c]] != [2]int{1, 1} {
			continue
		}
		for _, d := range kb {
			if m.ba[d] < 0 && tb.typ[d] == ta.typ[c] {
				m.link(c, d)
				m.recoverUnder(c, d)
			}
		}
	}
}

// similar reports whether x (in a) and y (in b) may be paired by the
// recovery phase: they have the same match type and, unless one is a leaf,
// they have the same shape (are isomorphic but for labels) or one has
// matchMaxSize nodes or more, the dice similarity of the multisets of their leaves (by type and label)
// is at least matchMinDice.
func (m *Mapping) similar(x, y int32) bool {
	ta, tb := m.a, m.b
	if ta.typ[x] != tb.typ[y] {
		return false
	}
	if len(ta.kids[x]) == 0 || len(tb.kids[y]) == 0 ||
		(ta.shape[x] == tb.shape[y] && ta.size[x] == tb.size[y]) ||
		max(ta.size[x], tb.size[y]) >= matchMaxSize {
		return true
	}
	count := make(map[uint64]int)
	na, nb, common := 0, 0, 0
	for d := x - ta.size[x] + 1; d < x; d++ {
		if len(ta.kids[d]) == 0 {
			count[ta.hash[d]]++
			na++
		}
	}
	for d := y - tb.size[y] + 1; d < y; d++ {
		if len(tb.kids[d]) == 0 {
			nb++
			if count[tb.hash[d]] > 0 {
				count[tb.hash[d]]--
				common++
			}
		}
	}
	return 2*float64(common) >= matchMinDice*float64(na+nb)
}

// lcs returns the index pairs of a longest common subsequence of two
// sequences of lengths n and k under eq, in order. Among several, it
// prefers the earliest elements of the first sequence.
func lcs(n, k int, eq func(i, j int) bool) [][2]int {
	if n == 0 || k == 0 {
		return nil
	}
	// t[i][j] is the LCS length of the suffixes from i and j.
	w := k + 1
	t := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := k - 1; j >= 0; j-- {
			switch {
			case eq(i, j):
				t[i*w+j] = t[(i+1)*w+j+1] + 1
			case t[(i+1)*w+j] >= t[i*w+j+1]:
				t[i*w+j] = t[(i+1)*w+j]
			default:
				t[i*w+j] = t[i*w+j+1]
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < n && j < k; {
		switch {
		case eq(i, j) && t[i*w+j] == t[(i+1)*w+j+1]+1:
			out = append(out, [2]int{i, j})
			i++
			j++
		case t[(i+1)*w+j] >= t[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return out
}
