package textkit

import (
	"fmt"
	"strings"
)

// maxEdits bounds the edit distance Myers' search explores; past it the
// diff replaces the whole of a with the whole of b (correct, not minimal),
// so that two huge unrelated texts cost O(maxEdits·(n+m)) and not more.
const maxEdits = 1000

// Op is one line of a diff: ' ' (in both), '-' (only in a) or '+' (only in
// b), and the line without its newline.
type Op struct {
	Kind byte
	Line string
}

// Lines splits s into lines without their newlines; a final newline ends
// the last line rather than starting an empty one.
func Lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// Diff returns the line edit script from a to b: a shortest one (Myers'
// algorithm) when the texts differ in at most maxEdits lines.
func Diff(a, b []string) []Op {
	// Common prefix and suffix first: most diffs are small edits.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []Op
	for _, l := range a[:pre] {
		ops = append(ops, Op{' ', l})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, Op{' ', l})
	}
	return ops
}

// myers is the greedy O((n+m)·D) forward search with the trace kept to
// walk back the path.
func myers(a, b []string) []Op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replace(a, b)
	}
	limit := min(n+m, maxEdits)
	off := limit + 1
	v := make([]int, 2*limit+3)
	// trace[d] holds v[k] for k in [-d-1, d+1] as the search of d
	// found it: O(D²) memory in all.
	var trace [][]int
	found := -1
	for d := 0; d <= limit && found < 0; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1] // down: insert b[y]
			} else {
				x = v[off+k-1] + 1 // right: delete a[x]
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
	}
	if found < 0 {
		return replace(a, b)
	}
	// Walk back from (n, m) through the saved rows.
	var rev []Op
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d]
		at := func(k int) int { return prev[k+d+1] }
		k := x - y
		var pk int
		if k == -d || k != d && at(k-1) < at(k+1) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, Op{' ', a[x]})
		}
		if pk == k+1 {
			y--
			rev = append(rev, Op{'+', b[y]})
		} else {
			x--
			rev = append(rev, Op{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, Op{' ', a[x]})
	}
	ops := make([]Op, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return ops
}

func replace(a, b []string) []Op {
	ops := make([]Op, 0, len(a)+len(b))
	for _, l := range a {
		ops = append(ops, Op{'-', l})
	}
	for _, l := range b {
		ops = append(ops, Op{'+', l})
	}
	return ops
}

// Unified returns the unified diff of a and b with context lines of
// context around each change, headed by the names; "" when the texts have
// the same lines.
func Unified(nameA, nameB, a, b string, context int) string {
	ops := Diff(Lines(a), Lines(b))
	changed := false
	for _, o := range ops {
		if o.Kind != ' ' {
			changed = true
			break
		}
	}
	if !changed {
		return ""
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", nameA, nameB)
	// Line numbers (1-based) of each op in a and b.
	ia, ib := make([]int, len(ops)+1), make([]int, len(ops)+1)
	la, lb := 1, 1
	for i, o := range ops {
		ia[i], ib[i] = la, lb
		if o.Kind != '+' {
			la++
		}
		if o.Kind != '-' {
			lb++
		}
	}
	ia[len(ops)], ib[len(ops)] = la, lb
	for i := 0; i < len(ops); {
		if ops[i].Kind == ' ' {
			i++
			continue
		}
		// A hunk: from context lines before the change to context lines
		// after the last change closer than 2·context to the next.
		start := max(0, i-context)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].Kind != ' ' {
				end = j + 1
			} else if j-end >= 2*context {
				break
			}
		}
		end = min(len(ops), end+context)
		na, nb := 0, 0
		for _, o := range ops[start:end] {
			if o.Kind != '+' {
				na++
			}
			if o.Kind != '-' {
				nb++
			}
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(ia[start], na), hunkRange(ib[start], nb))
		for _, o := range ops[start:end] {
			sb.WriteByte(o.Kind)
			sb.WriteString(o.Line)
			sb.WriteByte('\n')
		}
		i = end
	}
	return sb.String()
}

// hunkRange is a hunk header's range: "start,count", with the start of an
// empty range the line before it, as diff -u writes it.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
