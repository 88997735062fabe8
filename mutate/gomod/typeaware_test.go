package gomod_test

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/gomod"
)

// goBuild compiles src as the one file of a module and returns the
// compiler's messages ("" when it builds).
func goBuild(t *testing.T, src []byte) string {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/k\n\ngo 1.22\n"), 0o666)
	if err := os.WriteFile(filepath.Join(dir, "k.go"), src, 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := osexec.Command("go", "build", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	if err != nil && len(out) == 0 {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// sitesAt returns op's sites in the fragments of src whose text starts
// with prefix.
func sitesAt(t *testing.T, op *mutate.Operator, src []byte, prefix string) []mutate.Site {
	t.Helper()
	frags, err := mutate.Fragments(mutate.Go, src)
	if err != nil {
		t.Fatal(err)
	}
	var out []mutate.Site
	seen := map[int]bool{}
	for i := range frags {
		for _, s := range op.Sites(&frags[i]) {
			if !seen[s.Start] && strings.HasPrefix(string(src[s.Start:]), prefix) {
				seen[s.Start] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// keepAliveSrc holds a guard of each kind the name-based keep-alive got
// wrong (issue: go-cmp compare.go:610, cast caste.go:1319, go-cmp's
// isZero, humanize bigbytes.go:159).
const keepAliveSrc = `package k

import (
	"errors"
	"io"
	"strconv"
)

// builtin: len is no variable; only n needs keeping.
func builtin(vs []int) int {
	n := len(vs)
	if len(vs) == 0 || n > 3 {
		return 0
	}
	return 1
}

// reused: err is declared twice, in two scopes.
func reused(s string) (int, error) {
	if v, err := strconv.Atoi(s); err == nil {
		return v, nil
	}
	n, err := strconv.Atoi(s + "0")
	if err != nil {
		return 0, err
	}
	return n, nil
}

// assigned: ok is assigned in the loop, read only by the guard.
func assigned(xs []int) bool {
	ok := true
	for _, x := range xs {
		if x < 0 {
			ok = false
		}
	}
	if !ok {
		return false
	}
	return true
}

// imported: errors is used only by the guard.
func imported(err error) error {
	wrapped := err != nil
	if errors.Is(err, io.EOF) {
		return nil
	}
	if wrapped {
		return err
	}
	return nil
}

func useIO() io.Reader { return nil }
`

// TestGuardKeepAliveCompiles checks that every RemoveGuard and UnwrapTry
// mutant of keepAliveSrc compiles, keeping alive exactly the variables the
// deleted guard alone read, and that a guard whose deletion would leave an
// import unused is no edit.
func TestGuardKeepAliveCompiles(t *testing.T) {
	src := []byte(keepAliveSrc)
	if msg := goBuild(t, src); msg != "" {
		t.Fatalf("the original does not build:\n%s", msg)
	}
	cases := []struct {
		op          *mutate.Operator
		guard, want string // want: the replacement, "" a deletion, "-" no edit
	}{
		{mutate.RemoveGuard, "if len(vs) == 0 || n > 3", "_ = n"},
		{mutate.RemoveGuard, "if err != nil {\n\t\treturn 0, err", "_ = err"},
		{operator("unwraptry"), "if err != nil {\n\t\treturn 0, err", "_ = err"},
		{mutate.RemoveGuard, "if !ok", "_ = ok"},
		{mutate.RemoveGuard, "if x < 0", "-"}, // not a guard: its body assigns
		{mutate.RemoveGuard, "if errors.Is", "-"},
	}
	for _, tc := range cases {
		sites := sitesAt(t, tc.op, src, tc.guard)
		if tc.want == "-" && tc.guard == "if x < 0" {
			if len(sites) != 0 {
				t.Errorf("%s: a site at %q", tc.op.Name, tc.guard)
			}
			continue
		}
		if len(sites) != 1 {
			t.Fatalf("%s: %d sites at %q, want 1", tc.op.Name, len(sites), tc.guard)
		}
		m, err := mutate.Mutate(tc.op, sites[0], nil)
		if err != nil {
			t.Fatal(err)
		}
		if tc.want == "-" {
			if m.Fate != mutate.FateNoEdit {
				t.Errorf("%s at %q: fate %v, want no edit (the import would be unused):\n%s", tc.op.Name, tc.guard, m.Fate, m.Src)
			}
			continue
		}
		if m.Fate != mutate.FateOK {
			t.Fatalf("%s at %q: fate %v", tc.op.Name, tc.guard, m.Fate)
		}
		if got := m.Record.Changes[0].New; strings.TrimSpace(got) != tc.want {
			t.Errorf("%s at %q: replaced by %q, want %q", tc.op.Name, tc.guard, got, tc.want)
		}
		if msg := goBuild(t, m.Src); msg != "" {
			t.Errorf("%s at %q: the mutant does not build:\n%s", tc.op.Name, tc.guard, msg)
		}
	}
}

// typeModule has a site of each kind an operator proposed that can never
// compile (issue: humanize comma.go:37 string + made -, cast caste.go:476
// a type switch's case type) or that go vet rejects (an UpdateConst that
// breaks a format's verb), and a sort.Ints, which has no substitute of
// the same signature.
var typeModule = map[string]string{
	"go.mod": "module example.com/tc\n\ngo 1.22\n",
	"tc.go": `package tc

import (
	"fmt"
	"sort"
)

// Join joins a and b with a separator.
func Join(a, b string) string {
	sep := ", "
	s := a + sep
	s = s + b
	return s
}

// Kind numbers the kind of v.
func Kind(v any) int {
	var n int64
	switch v.(type) {
	case int:
		n = 1
	case int64:
		n = 2
	}
	return int(n)
}

// Check rejects large n.
func Check(n int) error {
	if n > 10 {
		return fmt.Errorf("too large: %d", n)
	}
	m := n * 2
	if m > 30 {
		return nil
	}
	return nil
}

// Sorted sorts xs.
func Sorted(xs []int) []int {
	ys := append([]int(nil), xs...)
	sort.Ints(ys)
	return ys
}
`,
	"tc_test.go": `package tc

import "testing"

func TestJoin(t *testing.T) {
	if Join("a", "b") != "a, b" {
		t.Fatal(Join("a", "b"))
	}
}

func TestKind(t *testing.T) {
	if Kind(1) != 1 || Kind(int64(1)) != 2 || Kind("") != 0 {
		t.Fatal("Kind")
	}
}

func TestCheck(t *testing.T) {
	if Check(1) != nil {
		t.Fatal("Check(1)")
	}
	if err := Check(11); err == nil || err.Error() != "too large: 11" {
		t.Fatal(err)
	}
}

func TestSorted(t *testing.T) {
	if s := Sorted([]int{2, 1}); s[0] != 1 {
		t.Fatal(s)
	}
}
`,
}

// TestGoSitesTypeCheck checks that, on a Go module, the operators whose
// mutants must compile propose only edits that type-check (go/types on
// the project), so that none is discarded for a compile error; that no
// UpdateConst breaks a format's verbs; and that sort.Ints is no
// SubstituteAPI site.
func TestGoSitesTypeCheck(t *testing.T) {
	sb := exectest.Sandbox(t)
	dir := writeModule(t, typeModule)
	gm, err := gomod.Open(dir, sb, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer gm.Close()
	ops := []*mutate.Operator{mutate.ModifyLogic, operator("changetype"), operator("updateconst"), operator("substituteapi")}
	res, err := mutate.Generate(context.Background(), gm, &mutate.Options{Seed: 1, Ops: ops, SitesPerOp: 20, Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	byOp := map[string]int{}
	for _, c := range res.Candidates {
		byOp[c.Key()]++
		change := c.Records[0].Changes[0]
		at := fmt.Sprintf("%s %q -> %q", c.Key(), change.Old, change.New)
		if c.Reason == mutate.ReasonCompile {
			t.Errorf("%s: proposed, and does not compile:\n%s", at, c.Detail)
		}
		if strings.Contains(change.New, "%\"") || strings.Contains(change.Old, "%") && !strings.Contains(change.New, "%d") {
			t.Errorf("%s: breaks a format's verb", at)
		}
		if c.Key() == "substituteapi" && change.Old == "Ints" {
			t.Errorf("%s: sort.Sort does not take a []int", at)
		}
	}
	// What still must be proposed: + of numbers, the declaration's type,
	// the format's text around its verb.
	if byOp["modifylogic"] == 0 || byOp["changetype"] == 0 || byOp["updateconst"] == 0 {
		t.Errorf("candidates per operator %v: want modifylogic, changetype and updateconst", byOp)
	}
}

// TestUpdateConstKeepsFormatVerbs checks that UpdateConst offers no
// change of a format string that breaks one of its verbs (issue:
// "too large: %" from "too large: %d", which go vet, run by go test,
// rejects).
func TestUpdateConstKeepsFormatVerbs(t *testing.T) {
	src := []byte(typeModule["tc.go"])
	sites := sitesAt(t, operator("updateconst"), src, `"too large`)
	if len(sites) != 1 {
		t.Fatalf("%d sites at the format, want 1", len(sites))
	}
	if got, want := sites[0].Choices, []string{`"too large: %d_"`}; !slices.Equal(got, want) {
		t.Errorf("choices %q, want %q", got, want)
	}
}

// operator returns the operator of mutate.Operators with the given name.
func operator(name string) *mutate.Operator {
	i := slices.IndexFunc(mutate.Operators, func(op *mutate.Operator) bool { return op.Name == name })
	if i < 0 {
		panic("no operator " + name)
	}
	return mutate.Operators[i]
}
