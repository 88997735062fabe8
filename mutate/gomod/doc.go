// Package gomod is mutate's build system for Go modules: [Open] copies a
// module into a private directory and returns it as a mutate.Project whose
// tests run in an exec.Runner (a sandbox).
//
//	sb, _ := sandbox.New(nil)
//	mod, err := gomod.Open(dir, sb, &gomod.Config{Packages: []string{"cmp"}})
//	if err != nil { … }
//	defer mod.Close()
//	res, err := mutate.Generate(ctx, mod, &mutate.Options{Seed: 1})
//
// It implements mutate.Project from outside mutate, as any build system
// would, and also the optional methods mutate.Generate looks for: Prepare
// (decide on many mutants at once) and TypeErrors (type-check a mutant).
//
// # Packages and tests
//
// The module's root package is studied, or those Config.Packages names
// ("cmp", or [AllPackages] for every package with sources and tests); a
// module without a root package is an error listing its packages. Each
// package is built and tested on its own: a fragment's relevant tests are
// those of its package, the tests adapt's Go driver runs for a task whose
// target is there. Tests of the root package are named "TestX", those of
// package directory d "d.TestX". Go examples with an output comment are
// tests, as go test runs them. A test binary ends at a panic; the tests
// after the panicking one are run again in a process of their own.
//
// # Builds
//
// Every build is "go test -c" on the host with GOPROXY=off (the module
// cache must hold the dependencies), GOTOOLCHAIN=local and GOWORK=off, the
// mutant's file swapped in with -overlay, so the tree is never copied per
// mutant and the build cache keeps the rest compiled. Test binaries run in
// the Runner, -test.run selecting the relevant tests.
//
// Before the pipeline checks its candidates ([Module.Prepare]), each
// mutant is type-checked with go/types against the export data "go list
// -export" gives, so that one that does not compile costs no build, and
// vetted with the checks go test runs. Those that pass are compiled
// together as mutant schemata: one test binary per package in which every
// changed function body becomes a switch on $ADAPTBENCH_MUTANT (an arm per
// mutant, line directives keeping each arm's positions), run once per
// mutant, as PIT and Major do for Java. What a schema cannot hold is built
// alone: a change outside function bodies, a body with labels, a change
// of line count or of closures where the package reads source lines or
// function names, a mutant go/types cannot decide on, and a mutant with
// type errors under mutate.AllowUnresolved (judged on gc's own messages).
// Config.BuildEach builds every mutant alone: the reference the schemata
// are checked against (the same verdicts, slower).
//
// Per-test coverage runs a binary built once with -cover, once per test.
// A task's environment names the modules the go.mod requires.
package gomod
