package ctxbugtest

import (
	"math/rand/v2"
	"testing"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/ctxbug"
)

func TestMutate(t *testing.T) {
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
	tests := []struct{ node, text, want string }{
		{"|", "|", "+"},
		{"==", "==", "!="},
		{"integer", "3", "4"},
		{"true", "True", "False"},
		{"parameters", "self, path, mode", "self, path"},
		{"parameters", "self", "self, strict=False"},
		{"return_statement", "return x", "return None"},
		{"return_statement", "return n > 0", "return n >= 0"},
		{"identifier", "a", "b"},
		{"call", "round(x, 2)", "round(x, 3)"},
		{"string", "'abc'", "'Abc'"},
	}
	for _, tt := range tests {
		if got := mutate(tt.node, tt.text, []string{"a", "b"}, rng()); got != tt.want {
			t.Errorf("mutate(%s, %q) = %q, want %q", tt.node, tt.text, got, tt.want)
		}
	}
}

func TestFill(t *testing.T) {
	b := &ctxbug.Base{Task: adapt.Task{ID: "C.add"}, Method: []byte("def add(a, b):\n    return a | b\n")}
	jobs, err := ctxbug.Jobs([]*ctxbug.Base{b}, []*ctxbug.Rule{rule(t, "operator"), rule(t, "free")})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	if got, want := fill(jobs[0], rng), "def add(var_0, var_1):\n    return var_0 + var_1\n"; got != want {
		t.Errorf("operator job:\n%s\nwant\n%s", got, want)
	}
	// The free-identifier holes swap the variables; deobfuscation makes
	// the mixed names consistent again.
	if got, want := fill(jobs[1], rng), "def add(var_0, var_1):\n    return b | a\n"; got != want {
		t.Errorf("free job:\n%s\nwant\n%s", got, want)
	}
}

// rule returns the rule of ctxbug.Rules with the given name.
func rule(t *testing.T, name string) *ctxbug.Rule {
	t.Helper()
	for _, r := range ctxbug.Rules {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no rule %q in ctxbug.Rules", name)
	return nil
}
