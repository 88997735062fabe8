package mutate_test

import (
	"github.com/adaptbench/adaptbench/mutate"
	"github.com/adaptbench/adaptbench/mutate/gomod"
	"github.com/adaptbench/adaptbench/mutate/maven"
)

// The build systems implement the optional interfaces Generate looks for;
// a renamed or changed method would otherwise be silently ignored.
var (
	_ mutate.Preparer    = (*gomod.Module)(nil)
	_ mutate.TypeChecker = (*gomod.Module)(nil)

	_ mutate.BatchCoverage = (*maven.Project)(nil)
	_ mutate.Preparer      = (*maven.Project)(nil)
	_ mutate.BatchChecker  = (*maven.Project)(nil)
)
