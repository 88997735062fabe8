package transform

import (
	"errors"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// evolveGrade transforms the M fixture's program with S2 (a guard around
// its second if), A3 (a datetime call) and N1 (renaming score).
func evolveGrade(t *testing.T, fx fixture) (orig, evolved *Program) {
	t.Helper()
	orig = &Program{Main: fx.input, Protected: fx.protect}
	evolved = orig
	rng := rand.New(rand.NewPCG(3, 4))
	for _, step := range []struct {
		tr   *Transform
		site int
	}{{addNestedIf, 1}, {addDatetime, 0}, {renameVariable, 0}} {
		sites := step.tr.Sites(evolved)
		q, err := step.tr.Apply(evolved, sites[step.site], rng)
		if err != nil {
			t.Fatal(err)
		}
		evolved = q
	}
	return orig, evolved
}

func TestSharedStatements(t *testing.T) {
	fx := loadFixture(t, "M1")
	orig, evolved := evolveGrade(t, fx)
	want := `import datetime


def grade(score, bonus):
    datetime.datetime.now()
    newtotal_0 = score + bonus * 2
    if newtotal_0 >= 90 and bonus > 0:
        return "A"
    ConditionChecker15 = 882
    ConditionChecker25 = 915
    if ConditionChecker15 & ConditionChecker25:
        if not newtotal_0 < 50:
            return "B"
    return newtotal_0

`
	require.Equal(t, want, string(evolved.Main), "evolved program")
	pairs, err := sharedStatements(orig, evolved)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pairs {
		a := string(orig.Main[p.Original.Start:p.Original.End])
		b := string(evolved.Main[p.Evolved.Start:p.Evolved.End])
		if a != b {
			t.Errorf("pair %q / %q differs", a, b)
		}
		got = append(got, b)
	}
	// Everything mentioning the renamed total is not shared, nor is what
	// S2 and A3 added.
	assert.Equal(t, []string{`return "A"`, `return "B"`}, got, "shared statements")
}

// TestInjectBug gives the original and the evolved program the same bug
// with every mutator at every shared site, and runs the first of each on
// the fixture's inputs: the two buggy programs behave alike and unlike
// the correct one.
func TestInjectBug(t *testing.T) {
	fx := loadFixture(t, "M1")
	orig, _ := evolveGrade(t, fx)
	// A lighter evolution keeps total, so that every mutator has a site.
	evolved, _, err := Random(orig, addTryExcept, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	_, pyErr := os.Stat(python)
	counts := map[string]int{}
	for _, tr := range Bugs {
		sites, err := BugSites(tr, orig, evolved)
		if err != nil {
			t.Fatal(err)
		}
		counts[tr.ID] = len(sites)
		for i, s := range sites {
			bo, be, err := InjectBug(tr, orig, evolved, s, rand.New(rand.NewPCG(uint64(i), 9)))
			if err != nil {
				t.Fatalf("%s at %s: %v", tr.ID, s.Evolved.Key, err)
			}
			if change(orig.Main, bo.Main) != change(evolved.Main, be.Main) {
				t.Errorf("%s: different changes", tr.ID)
			}
			if i > 0 || pyErr != nil {
				continue
			}
			want, a, b := run(t, fx, orig), run(t, fx, bo), run(t, fx, be)
			if a != b {
				t.Errorf("%s at %s: the buggy programs differ:\n%s\nversus\n%s", tr.ID, s.Evolved.Key, a, b)
			}
			if a == want {
				t.Errorf("%s at %s: the bug changed nothing the check sees", tr.ID, s.Evolved.Key)
			}
		}
	}
	// In "def grade": M1 has "+" and "*"; M2 ">=", ">", "<"; M3 "and",
	// "not", and two conditions; M4 three returns; M5 the numbers 2,
	// 90, 0 and 50 and the strings "A" and "B".
	want := map[string]int{"M1": 2, "M2": 3, "M3": 4, "M4": 3, "M5": 6}
	assert.Equal(t, want, counts, "bug sites")
}

// TestInjectBugs builds third-order mutants of the fixture and its
// evolved version: three distinct bugs, the same in both programs.
func TestInjectBugs(t *testing.T) {
	fx := loadFixture(t, "M1")
	orig := &Program{Main: fx.input, Protected: fx.protect}
	evolved, _, err := Random(orig, addTryExcept, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(10) {
		bo, be, applied, err := injectBugs(Bugs, orig, evolved, 3, rand.New(rand.NewPCG(seed, 0)))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(applied) != 3 {
			t.Fatalf("seed %d: %d bugs", seed, len(applied))
		}
		for i := range applied {
			for j := range i {
				a, b := applied[i].Evolved, applied[j].Evolved
				if a.Key == b.Key && a.Kind == b.Kind {
					t.Errorf("seed %d: bugs %d and %d at the same site %s", seed, j, i, a.Key)
				}
			}
		}
		// The same three edits: the evolved buggy program is the evolved
		// program with the same replacements as the original's.
		pairs, err := sharedStatements(bo, be)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := sharedStatements(orig, evolved)
		if len(pairs) != len(before) {
			t.Errorf("seed %d: %d shared statements after the bugs, %d before", seed, len(pairs), len(before))
		}
		again, _, _, err := injectBugs(Bugs, orig, evolved, 3, rand.New(rand.NewPCG(seed, 0)))
		if err != nil || again.Hash() != bo.Hash() {
			t.Errorf("seed %d: not deterministic", seed)
		}
	}
	if _, _, _, err := injectBugs(Bugs[:1], orig, evolved, 3, rand.New(rand.NewPCG(1, 0))); !errors.Is(err, ErrNoSite) {
		t.Errorf("three arithmetic bugs in a program with two operators: got %v, want ErrNoSite", err)
	}
}
