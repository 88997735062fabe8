package gomod

import "slices"

// Packages returns the directories of the packages g studies, sorted ("."
// is the root package), for the tests.
func Packages(g *Module) []string { return slices.Clone(g.pkgs) }
