package transform

import (
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSuiteOrder(t *testing.T) {
	var ids, bugs []string
	for _, tr := range All {
		ids = append(ids, tr.ID)
	}
	for _, tr := range Bugs {
		bugs = append(bugs, tr.ID)
	}
	want := strings.Fields("S1 S2 S3 S4 S5 S6 S7 S8 S9 S10 S11 S12 A1 A2 A3 A4 A5 A6 A7 A8 N1 N2")
	assert.Equal(t, want, ids, "All IDs")
	assert.Equal(t, strings.Fields("M1 M2 M3 M4 M5"), bugs, "Bugs IDs")
	if err := Validate(All); err != nil {
		t.Error(err)
	}
	if err := Validate(Bugs); err != nil {
		t.Error(err)
	}
	fam := map[string]Family{"S": Structural, "A": API, "N": Renaming, "M": Bug}
	for _, tr := range append(All[:len(All):len(All)], Bugs...) {
		if tr.Family != fam[tr.ID[:1]] {
			t.Errorf("%s: family %v", tr.ID, tr.Family)
		}
	}
}

func TestValidate(t *testing.T) {
	ok := func() *Transform {
		return &Transform{ID: "S1", Name: "X", Doc: "d", Family: Structural, Sites: addNestedFor.Sites, Apply: addNestedFor.Apply}
	}
	for _, tc := range []struct {
		name, want string
		edit       func(*Transform)
	}{
		{"bad id", `ID "X1"`, func(t *Transform) { t.ID = "X1" }},
		{"bad name", `name "x y"`, func(t *Transform) { t.Name = "x y" }},
		{"no doc", "empty Doc", func(t *Transform) { t.Doc = "" }},
		{"no family", "invalid family", func(t *Transform) { t.Family = familyInvalid }},
		{"no apply", "nil Sites or Apply", func(t *Transform) { t.Apply = nil }},
	} {
		tr := ok()
		tc.edit(tr)
		err := Validate([]*Transform{tr})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	if err := Validate([]*Transform{ok(), ok()}); err == nil || !strings.Contains(err.Error(), "duplicate ID") {
		t.Errorf("duplicates: got %v", err)
	}
	if err := Validate([]*Transform{nil}); err == nil {
		t.Error("nil transform accepted")
	}
}

func TestFamilyText(t *testing.T) {
	for _, f := range []Family{Structural, API, Renaming, Bug} {
		b, err := f.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var g Family
		if err := g.UnmarshalText(b); err != nil || g != f {
			t.Errorf("%v: round trip gave %v, %v", f, g, err)
		}
	}
	if _, err := familyInvalid.MarshalText(); err == nil {
		t.Error("familyInvalid marshalled")
	}
	var g Family
	for _, s := range []string{"", "invalid", "Structural"} {
		if err := g.UnmarshalText([]byte(s)); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	if Family(9).String() != "Family(9)" {
		t.Error(Family(9).String())
	}
}

func TestProgramCloneHash(t *testing.T) {
	p := &Program{Main: []byte("x = 1\n"), Modules: map[string][]byte{"a.py": []byte("y"), "b.py": []byte("z")}, Protected: []string{"f"}}
	q := p.Clone()
	q.Main[0] = 'w'
	q.Modules["a.py"][0] = 'w'
	q.Protected[0] = "g"
	if string(p.Main) != "x = 1\n" || string(p.Modules["a.py"]) != "y" || p.Protected[0] != "f" {
		t.Error("Clone shares memory with the original")
	}
	if p.Hash() != p.Clone().Hash() {
		t.Error("Hash differs between equal programs")
	}
	moved := &Program{Main: []byte("x = 1\n"), Modules: map[string][]byte{"a.py": []byte("yz"), "b.py": nil}}
	if p.Hash() == moved.Hash() {
		t.Error("moving bytes between modules keeps the hash")
	}
	if (&Program{Main: []byte("a")}).Hash() != "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb" {
		t.Error("Hash of a program without modules is not the sha256 of Main")
	}
}

func TestRandomErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := &Program{Main: []byte("x = f(1)\n")}
	if _, _, err := Random(p, addNestedFor, rng); !errors.Is(err, ErrNoSite) {
		t.Errorf("no for loop: got %v, want ErrNoSite", err)
	}
	broken := &Transform{ID: "S99", Name: "Broken", Doc: "d", Family: Structural,
		Sites: func(p *Program) []Site { return []Site{{Kind: "module", End: len(p.Main)}} },
		Apply: func(p *Program, s Site, rng *rand.Rand) (*Program, error) { return p.with([]byte("def f(:\n")), nil },
	}
	if _, _, err := Random(p, broken, rng); !errors.Is(err, ErrSyntax) {
		t.Errorf("broken output: got %v, want ErrSyntax", err)
	}
	if _, _, err := Random(&Program{Main: []byte("def f(:\n")}, addTryExcept, rng); !errors.Is(err, ErrSyntax) {
		t.Errorf("broken input: got %v, want ErrSyntax", err)
	}
	if _, err := parse([]byte("def f(:\n")); !errors.Is(err, ErrSyntax) {
		t.Errorf("parse of broken input: got %v, want ErrSyntax", err)
	}
	stale := Site{Start: 0, End: 3, Kind: "for_statement", Key: "0:for_statement"}
	if _, err := addNestedFor.Apply(p, stale, rng); err == nil || !strings.Contains(err.Error(), "not in this program") {
		t.Errorf("stale site: got %v", err)
	}
}

// TestDeterminism applies every operator twice with the same seed at
// every site of a program with many sites and compares the bytes.
func TestDeterminism(t *testing.T) {
	for _, id := range []string{"S9", "N1", "M1", "S1"} {
		fx := loadFixture(t, id)
		p := &Program{Main: fx.input, Protected: fx.protect}
		for _, tr := range append(All[:len(All):len(All)], Bugs...) {
			for _, s := range tr.Sites(p) {
				a, err1 := tr.Apply(p, s, rand.New(rand.NewPCG(5, 6)))
				b, err2 := tr.Apply(p, s, rand.New(rand.NewPCG(5, 6)))
				if err1 != nil || err2 != nil {
					t.Fatalf("%s on %s at %s: %v, %v", tr.ID, id, s.Key, err1, err2)
				}
				if a.Hash() != b.Hash() {
					t.Errorf("%s on %s at %s: two runs with one seed differ", tr.ID, id, s.Key)
				}
			}
		}
	}
}

// TestCRLF keeps a CRLF file CRLF: no line of the result ends in a bare
// "\n".
func TestCRLF(t *testing.T) {
	src := "def f(n):\r\n    s = 0\r\n    for i in range(n):\r\n        s += i\r\n    return s * 2\r\n"
	p := &Program{Main: []byte(src)}
	for _, tr := range append(All[:len(All):len(All)], Bugs...) {
		for _, s := range tr.Sites(p) {
			q, err := tr.Apply(p, s, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Count(string(q.Main), "\n") != strings.Count(string(q.Main), "\r\n") {
				t.Errorf("%s at %s: mixed line ends:\n%q", tr.ID, s.Key, q.Main)
			}
		}
	}
}

// TestS11Temporaries turns a loop whose body has its own temporaries (sq,
// and the inner loop's j) into recursion: they stay local to the helper,
// and the program computes the same.
func TestS11Temporaries(t *testing.T) {
	src := "def f(n):\n    out = []\n    for i in range(n):\n        sq = i * i\n        for j in range(2):\n            out.append(sq + j)\n    return out\n"
	want := "def f(n):\n    out = []\n    def loop_3_4(loop_range, loop_index):\n        if loop_index >= len(loop_range):\n            return\n" +
		"        i = loop_range[loop_index]\n        sq = i * i\n        for j in range(2):\n            out.append(sq + j)\n" +
		"        loop_3_4(loop_range, loop_index + 1)\n    loop_3_4(range(n), 0)\n    return out\n"
	p := &Program{Main: []byte(src), Protected: []string{"f"}}
	sites := transformLoopToRecursion.Sites(p)
	if len(sites) != 2 {
		t.Fatalf("%d sites, want 2 (both loops)", len(sites))
	}
	q, err := transformLoopToRecursion.Apply(p, sites[0], rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	require.Equal(t, want, string(q.Main))
	if _, err := os.Stat(python); err != nil {
		return
	}
	fx := fixture{dir: "inline", check: []byte("import prog\nfor n in range(5):\n    print(prog.f(n))\n")}
	if a, b := run(t, fx, p), run(t, fx, q); a != b {
		t.Errorf("outputs differ:\n%s\nversus\n%s", a, b)
	}
}
