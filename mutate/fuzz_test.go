package mutate

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// FuzzApply parses the input as Go or Java, runs a randomly chosen
// operator at a random site of a random fragment and re-parses the mutant:
// no panic, edits in range and inside the block, and Revert restores F.
func FuzzApply(f *testing.F) {
	for _, s := range sources(f) {
		f.Add(s.src, s.lang == Java, uint64(1))
	}
	f.Add([]byte("package p\nfunc f(a int) int {\n\tb := a + 1\n\tif b > 2 {\n\t\treturn 0\n\t}\n\treturn b\n}\n"), false, uint64(7))
	f.Add([]byte("class A { int f(int a) { int b = a * 2; if (b > 1) return 0; return this.c + b; } }"), true, uint64(3))
	f.Fuzz(func(t *testing.T, src []byte, isJava bool, seed uint64) {
		lang := Go
		if isJava {
			lang = Java
		}
		frags, err := Fragments(lang, src)
		if err != nil || len(frags) == 0 {
			return
		}
		rng := rand.New(rand.NewPCG(seed, 0))
		fr := &frags[rng.IntN(len(frags))]
		op := Operators[rng.IntN(len(Operators))]
		if !op.supports(lang) {
			return
		}
		sites := op.Sites(fr)
		if len(sites) == 0 {
			return
		}
		site := sites[rng.IntN(len(sites))]
		for _, e := range op.Run(site, rand.New(rand.NewPCG(seed, 1))) {
			if e.Start < fr.block.Start || e.End > fr.block.End || e.Start > e.End {
				t.Fatalf("%s: edit [%d,%d) outside block [%d,%d)", op.Name, e.Start, e.End, fr.block.Start, fr.block.End)
			}
		}
		m, err := Mutate(op, site, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if m.Fate == FateBadEdit {
			t.Fatalf("%s: %v", op.Name, m.Err)
		}
		if m.Src == nil {
			return
		}
		back, err := Revert(m.Src, []Record{m.Record})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(back, src) {
			t.Fatalf("%s: Revert did not restore F", op.Name)
		}
	})
}
