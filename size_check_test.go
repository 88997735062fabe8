package adaptbench_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestModuleLimits runs TestSizes' module-wide checks on made-up
// packages: a leaf's long doc is named and an imported package's is not
// (an example's import does not count), test helpers are not counted as
// internal packages, and the functions of many parameters are listed.
func TestModuleLimits(t *testing.T) {
	pkgs := map[string]*pkgFacts{
		"lib":              {name: "lib", imports: map[string]bool{}, docLines: maxLeafDocLines + 1},
		"leaf":             {name: "leaf", imports: map[string]bool{"lib": true}, docLines: maxLeafDocLines + 1},
		"shown":            {name: "shown", imports: map[string]bool{}, docLines: maxLeafDocLines},
		"examples/x":       {name: "main", imports: map[string]bool{"leaf": true}},
		"internal/onetest": {name: "onetest", imports: map[string]bool{}},
	}
	for i := range maxInternal + 1 {
		pkgs[fmt.Sprintf("internal/p%d", i)] = &pkgFacts{name: "p", imports: map[string]bool{"lib": true}}
	}
	for i := range maxManyParams + 1 {
		pkgs["lib"].many = append(pkgs["lib"].many, fmt.Sprintf("lib/f.go:%d:1: f%d has 6 parameters", i+1, i))
	}
	got := strings.Join(moduleProblems(pkgs), "\n")
	for _, want := range []string{
		fmt.Sprintf("leaf/doc.go: %d lines, over %d for a leaf package", maxLeafDocLines+1, maxLeafDocLines),
		fmt.Sprintf("%d internal packages, over %d", maxInternal+1, maxInternal),
		fmt.Sprintf("%d functions have 6 or more parameters, over %d", maxManyParams+1, maxManyParams),
		"\tlib/f.go:1:1: f0 has 6 parameters",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"lib/doc.go", "shown/doc.go", "internal/onetest"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("problems name %s:\n%s", unwanted, got)
		}
	}
}
