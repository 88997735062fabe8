package adaptbench_test

import (
	"os"
	"strings"
	"testing"
)

// TestAPIFiles runs TestAPI's file handling on a made-up module: a type
// moving from package a to a new package b keeps its reason, a shrunk
// package's budget drops to its count, a new type without a reason is
// named, and a difference lists each added and removed name.
func TestAPIFiles(t *testing.T) {
	dir := t.TempDir()
	old := map[string][]apiName{
		"a": {{line: "func F()"}, {line: "type Moved struct", typeName: "Moved"}, {line: "type Stays int", typeName: "Stays"}},
	}
	if err := writeAPIDir(dir, old, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(apiPath(dir, "a"))
	if err != nil {
		t.Fatal(err)
	}
	// The reasons a reviewer writes by hand.
	text := strings.Replace(string(b), "type Moved struct\n", "type Moved struct // callers read it\n", 1)
	text = strings.Replace(text, "type Stays int\n", "type Stays int // callers pass it\n", 1)
	if err := os.WriteFile(apiPath(dir, "a"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := readAPIDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p := apiProblems(old, files); len(p) != 0 {
		t.Fatalf("the API as written: %q", p)
	}

	moved := map[string][]apiName{
		"a": {{line: "func F()"}, {line: "func G()"}, {line: "type Stays int", typeName: "Stays"}},
		"b": {{line: "type Moved struct", typeName: "Moved"}, {line: "type New struct", typeName: "New"}},
	}
	p := strings.Join(apiProblems(moved, files), "\n")
	for _, want := range []string{"package a: the exported API differs", "\n+ func G()\n- type Moved struct", "package b: 2 exported names and no"} {
		if !strings.Contains(p, want) {
			t.Errorf("problems lack %q:\n%s", want, p)
		}
	}
	files["a"].budget = 2
	if p := strings.Join(apiProblems(moved, files), "\n"); !strings.Contains(p, "package a: 3 names, 1 over its budget 2") {
		t.Errorf("no budget problem:\n%s", p)
	}

	files["a"].budget = 9
	if err := writeAPIDir(dir, moved, files); err != nil {
		t.Fatal(err)
	}
	if files, err = readAPIDir(dir); err != nil {
		t.Fatal(err)
	}
	if r := files["b"].reasons["Moved"]; r != "callers read it" {
		t.Errorf("Moved's reason in b = %q, want the one it had in a", r)
	}
	if files["a"].budget != 3 || files["b"].budget != 2 {
		t.Errorf("budgets a=%d b=%d, want 3 (lowered to the count) and 2 (a new package's count)", files["a"].budget, files["b"].budget)
	}
	if p := apiProblems(moved, files); len(p) != 1 || !strings.Contains(p[0], "type New has no reason") {
		t.Errorf("after the update: %q, want only New's missing reason", p)
	}
}
