package syntax

import (
	"testing"
)

// FuzzMatch checks, on arbitrary sources, that matching a tree with itself
// (the same *Node, and a second parse of the same source) maps every node
// to itself with no edits, and that matching two different sources (src
// cut at split) does not panic and yields a consistent mapping and script.
func FuzzMatch(f *testing.F) {
	f.Add(uint8(0), uint16(0), []byte(pySrc))
	f.Add(uint8(1), uint16(40), []byte(goSrc))
	f.Add(uint8(2), uint16(80), []byte(javaSrc))
	f.Add(uint8(0), uint16(10), []byte("x = a + b\nx = a | b\n"))
	f.Add(uint8(0), uint16(9), []byte("def f(:\n  return\ndef f(x):\n  if x is None:\n    return\n"))
	f.Add(uint8(1), uint16(3), []byte("package p\n\nfunc f() {\n\tx := (1\n}\n"))
	f.Fuzz(func(t *testing.T, li uint8, split uint16, src []byte) {
		lang := fuzzLangs[int(li)%len(fuzzLangs)]
		root, err := ParseNodes(lang, src)
		if err != nil {
			t.Fatalf("ParseNodes: %v", err)
		}
		checkMatchSelf(t, lang, root, src)
		cut := int(split) % (len(src) + 1)
		checkMatchTwo(t, lang, src[:cut], src[cut:])
	})
}

// checkMatchSelf checks that matching root with itself, and with a second
// parse of the same source, maps every node to itself with no edits.
func checkMatchSelf(t *testing.T, lang Lang, root *Node, src []byte) {
	t.Helper()
	nodes := 0
	root.Walk(func(*Node) bool { nodes++; return true })

	// The same tree on both sides.
	m := Match(root, src, root, src)
	for x, y := range m.Pairs() {
		if x != y {
			t.Fatalf("Match(t, t): %s [%d,%d) mapped to %s [%d,%d)", x.Type, x.Start, x.End, y.Type, y.Start, y.End)
		}
	}
	if m.Len() != nodes {
		t.Fatalf("Match(t, t): %d of %d nodes mapped", m.Len(), nodes)
	}
	if e := m.Edits(); len(e) != 0 {
		t.Fatalf("Match(t, t): edits %v", e)
	}

	// A second parse of the same source.
	other, _ := ParseNodes(lang, src)
	m = Match(root, src, other, src)
	for x, y := range m.Pairs() {
		if x.Start != y.Start || x.End != y.End || x.Type != y.Type {
			t.Fatalf("Match(t, t'): %s [%d,%d) mapped to %s [%d,%d)", x.Type, x.Start, x.End, y.Type, y.Start, y.End)
		}
	}
	if m.Len() != nodes || len(m.Edits()) != 0 {
		t.Fatalf("Match(t, t'): %d of %d nodes mapped, edits %v", m.Len(), nodes, m.Edits())
	}
}

// checkMatchTwo checks that matching two different sources does not
// panic and yields a consistent mapping and script.
func checkMatchTwo(t *testing.T, lang Lang, a, b []byte) {
	t.Helper()
	m, err := MatchSource(lang, a, b)
	if err != nil {
		t.Fatalf("MatchSource: %v", err)
	}
	for x, y := range m.Pairs() {
		if m.ToB(x) != y || m.ToA(y) != x {
			t.Fatalf("mapping is not one-to-one at %s", x.Type)
		}
		if x.Type != y.Type && (x.Named || y.Named || x.Field != y.Field) {
			t.Fatalf("%s mapped to %s", x.Type, y.Type)
		}
	}
	for _, e := range m.Edits() {
		switch e.Kind {
		case Insert:
			if e.A != nil || e.B == nil {
				t.Fatalf("bad insert %v", e)
			}
		case Delete:
			if e.A == nil || e.B != nil {
				t.Fatalf("bad delete %v", e)
			}
		case Update, Move:
			if e.A == nil || e.B == nil || m.ToB(e.A) != e.B {
				t.Fatalf("bad %v", e)
			}
		default:
			t.Fatalf("edit of kind %v", e.Kind)
		}
	}
}
