package adaptbench_test

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

var updateMap = flag.Bool("update-map", false, "rewrite doc.go's package map from the module's packages, keeping each package's job")

// mapHeading opens the package map in doc.go; the map is the
// preformatted lines of the doc comment after it, one per package:
// its path ("." for the root), its job and, after mapArrow, the packages
// of the module its code imports.
const (
	mapHeading = "// # Package map"
	mapArrow   = " ← "
	mapPathCol = 28 // the width of the path column
)

// mapEntry is one line of the package map.
type mapEntry struct {
	job     string
	imports []string // sorted; packages of the module, as paths relative to it
}

// TestPackageMap holds doc.go's package map to the module: it names every
// package (the example commands included) and no other, gives each a
// job, and lists what each imports of the module (tests aside). On a
// difference it prints the line to write; `go test -run TestPackageMap .
// -update-map` rewrites the imports and adds and removes lines, keeping
// the jobs (a new package's job is then left to write).
func TestPackageMap(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the module's packages")
	}
	got := modulePackages(t)
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	want, err := parsePackageMap(doc)
	if err != nil {
		t.Fatal(err)
	}
	if *updateMap {
		doc = rewritePackageMap(doc, got, want)
		if err := os.WriteFile("doc.go", []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if want, err = parsePackageMap(doc); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range packageMapProblems(got, want) {
		t.Error(p)
	}
}

// modulePackages returns each package of the module, by path relative to
// it, with the packages of the module its non-test files import.
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Fatalf("%s: %v", p.PkgPath, e)
		}
		var imps []string
		for imp := range p.Imports {
			if rel, ok := moduleRel(imp); ok {
				imps = append(imps, rel)
			}
		}
		rel, _ := moduleRel(p.PkgPath)
		slices.Sort(imps)
		out[rel] = imps
	}
	return out
}

// moduleRel is a module package's path relative to the module, "." for
// the root.
func moduleRel(pkgPath string) (string, bool) {
	if pkgPath == modulePath {
		return ".", true
	}
	rel, ok := strings.CutPrefix(pkgPath, modulePath+"/")
	return rel, ok
}

// parsePackageMap reads the map's lines out of doc.go's text.
func parsePackageMap(doc string) (map[string]mapEntry, error) {
	_, after, ok := strings.Cut(doc, mapHeading+"\n")
	if !ok {
		return nil, fmt.Errorf("doc.go: no %q line: the package map goes under it", mapHeading)
	}
	m := map[string]mapEntry{}
	for i, l := range strings.Split(after, "\n") {
		if !strings.HasPrefix(l, "//") {
			break // the end of the doc comment
		}
		l, ok := strings.CutPrefix(l, "//\t")
		if !ok {
			continue
		}
		p, rest, _ := strings.Cut(l, " ")
		job, imps, _ := strings.Cut(strings.TrimSpace(rest), strings.TrimSpace(mapArrow))
		if _, dup := m[p]; dup {
			return nil, fmt.Errorf("doc.go: the package map names %s twice (line %d of the map)", p, i+1)
		}
		m[p] = mapEntry{job: strings.TrimSpace(job), imports: expandImports(strings.TrimSpace(imps))}
	}
	return m, nil
}

// expandImports reads "a, b/{c,d}" as [a b/c b/d], sorted.
func expandImports(s string) []string {
	var out []string
	for len(s) > 0 {
		var item string
		if i := strings.IndexAny(s, ",{"); i >= 0 && s[i] == '{' {
			end := strings.Index(s, "}")
			if end < 0 {
				end = len(s) - 1
			}
			for _, leaf := range strings.Split(s[i+1:end], ",") {
				out = append(out, s[:i]+strings.TrimSpace(leaf))
			}
			s = strings.TrimPrefix(strings.TrimSpace(s[min(end+1, len(s)):]), ",")
		} else {
			item, s, _ = strings.Cut(s, ",")
			out = append(out, strings.TrimSpace(item))
		}
		s = strings.TrimSpace(s)
	}
	slices.Sort(out)
	return out
}

// compactImports writes imports as the map does: the packages directly
// under one directory, when two or more, as "dir/{a,b}".
func compactImports(imports []string) string {
	byDir := map[string][]string{}
	for _, p := range imports {
		byDir[path.Dir(p)] = append(byDir[path.Dir(p)], p)
	}
	var out []string
	done := map[string]bool{}
	for _, p := range imports {
		d := path.Dir(p)
		switch {
		case d == "." || len(byDir[d]) < 2:
			out = append(out, p)
		case !done[d]:
			done[d] = true
			var leaves []string
			for _, q := range byDir[d] {
				leaves = append(leaves, path.Base(q))
			}
			out = append(out, d+"/{"+strings.Join(leaves, ",")+"}")
		}
	}
	return strings.Join(out, ", ")
}

// mapLine is the map's line for package p.
func mapLine(p, job string, imports []string) string {
	l := "//\t" + p + strings.Repeat(" ", max(1, mapPathCol-len(p))) + job
	if len(imports) > 0 {
		l += mapArrow + compactImports(imports)
	}
	return l
}

// packageMapProblems compares the module's packages with the map, each
// message saying what to change in doc.go.
func packageMapProblems(got map[string][]string, want map[string]mapEntry) []string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(got)) {
		e, ok := want[p]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("doc.go: the package map lacks %s: add the line (its job in a few words)\n%s", p, mapLine(p, "<its one job>", got[p])))
		case e.job == "":
			out = append(out, fmt.Sprintf("doc.go: the package map gives %s no job: write it before %q", p, strings.TrimSpace(mapArrow)))
		case !slices.Equal(e.imports, got[p]):
			out = append(out, fmt.Sprintf("doc.go: %s imports %s, not %s as the package map says: make its line\n%s", p, orNone(got[p]), orNone(e.imports), mapLine(p, e.job, got[p])))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(want)) {
		if _, ok := got[p]; !ok {
			out = append(out, fmt.Sprintf("doc.go: the package map names %s, which is no package of the module: remove its line", p))
		}
	}
	return out
}

func orNone(imports []string) string {
	if len(imports) == 0 {
		return "nothing of the module"
	}
	return strings.Join(imports, ", ")
}

// rewritePackageMap replaces the map's lines with the module's packages,
// in path order, keeping each known package's job.
func rewritePackageMap(doc string, got map[string][]string, old map[string]mapEntry) string {
	before, after, _ := strings.Cut(doc, mapHeading+"\n")
	lines := strings.Split(after, "\n")
	// The map is the first run of preformatted lines; what comes before it
	// (its introduction) and after it stays.
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "//\t") || !strings.HasPrefix(l, "//") })
	end := start
	for end < len(lines) && strings.HasPrefix(lines[end], "//\t") {
		end++
	}
	var m []string
	for _, p := range slices.Sorted(maps.Keys(got)) {
		m = append(m, mapLine(p, old[p].job, got[p]))
	}
	lines = slices.Concat(lines[:start], m, lines[end:])
	return before + mapHeading + "\n" + strings.Join(lines, "\n")
}
