package adaptbench_test

import (
	"slices"
	"strings"
	"testing"
)

// TestPackageMapFiles runs TestPackageMap's reading, checking and
// rewriting on a made-up doc: grouped imports read back as written, each
// kind of difference names the line to write, and a rewrite keeps the
// jobs and the text around the map.
func TestPackageMapFiles(t *testing.T) {
	doc := "// Package x.\n//\n" + mapHeading + "\n//\n// The map.\n//\n" +
		mapLine("a", "does a", []string{"b", "c/d", "c/e"}) + "\n" +
		mapLine("gone", "was here", nil) + "\n" +
		"//\n// After the map.\npackage x\n"
	m, err := parsePackageMap(doc)
	if err != nil {
		t.Fatal(err)
	}
	if got := m["a"]; got.job != "does a" || !slices.Equal(got.imports, []string{"b", "c/d", "c/e"}) {
		t.Fatalf("a reads back as %+v", got)
	}
	if !strings.Contains(doc, "does a ← b, c/{d,e}\n") {
		t.Errorf("imports not grouped by directory:\n%s", doc)
	}
	got := map[string][]string{"a": {"b"}, "new": {"a"}}
	p := strings.Join(packageMapProblems(got, m), "\n")
	for _, want := range []string{
		"doc.go: a imports b, not b, c/d, c/e as the package map says: make its line\n" + mapLine("a", "does a", []string{"b"}),
		"the package map lacks new: add the line",
		"the package map names gone, which is no package of the module: remove its line",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("problems lack %q:\n%s", want, p)
		}
	}
	doc = rewritePackageMap(doc, got, m)
	if !strings.Contains(doc, "// The map.\n//\n"+mapLine("a", "does a", []string{"b"})+"\n"+mapLine("new", "", []string{"a"})+"\n//\n// After the map.\n") {
		t.Errorf("rewritten:\n%s", doc)
	}
	m, err = parsePackageMap(doc)
	if err != nil {
		t.Fatal(err)
	}
	if p := packageMapProblems(got, m); len(p) != 1 || !strings.Contains(p[0], "gives new no job") {
		t.Errorf("after the rewrite: %q, want only new's missing job", p)
	}
}
