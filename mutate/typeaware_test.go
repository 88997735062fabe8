package mutate_test

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/mutate"
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
		{mutate.UnwrapTry, "if err != nil {\n\t\treturn 0, err", "_ = err"},
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
			if m.Status != mutate.StatusNoEdit {
				t.Errorf("%s at %q: status %v, want no edit (the import would be unused):\n%s", tc.op.Name, tc.guard, m.Status, m.Src)
			}
			continue
		}
		if m.Status != mutate.StatusOK {
			t.Fatalf("%s at %q: status %v", tc.op.Name, tc.guard, m.Status)
		}
		if got := m.Record.Changes[0].New; strings.TrimSpace(got) != tc.want {
			t.Errorf("%s at %q: replaced by %q, want %q", tc.op.Name, tc.guard, got, tc.want)
		}
		if msg := goBuild(t, m.Src); msg != "" {
			t.Errorf("%s at %q: the mutant does not build:\n%s", tc.op.Name, tc.guard, msg)
		}
	}
}
