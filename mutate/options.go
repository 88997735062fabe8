package mutate

import "github.com/adaptbench/adaptbench/adapt/report"

// Options configures Generate. The zero value and nil are ready to use.
type Options struct {
	// Ops are the operators to use. Nil means Operators.
	Ops []*Operator
	// Policy gives each operator's compile policy. Nil means
	// AllowUnresolved for RenameVar and DropReceiver, RequireCompile for
	// the others.
	Policy func(*Operator) Policy
	// Seed seeds every random choice.
	Seed uint64
	// Runs is how many baseline runs decide which tests are stable. 0
	// means 3.
	Runs int
	// Fragments bounds how many covered fragments are sampled (seeded). 0
	// means all.
	Fragments int
	// SitesPerOp bounds the L1 mutants per operator and fragment, drawn
	// from its sites. 0 means 1.
	SitesPerOp int
	// Levels lists the complexity levels to generate. Nil means L1 only.
	Levels []ComplexityLevel
	// PerLevel is how many combinations of each level above L1 are drawn
	// per fragment. 0 means 1.
	PerLevel int
	// Contexts lists the context levels tasks are made at. Nil means C1,
	// C2 and C3.
	Contexts []ContextLevel
	// Parallelism bounds the mutants validated at once. 0 means
	// exec.DefaultParallelism().
	Parallelism int
	// Progress, if set, is called after each mutant is compiled and
	// tested (Phase "validate"; Passed counts the valid tasks so far),
	// from one goroutine at a time.
	Progress func(report.Progress)
	// Source names the project in task IDs and provenance.
	Source string
	// RequireEffective discards a combination (L2 to L4) whose effective
	// level is below its level (Candidate.Effective): one with a
	// constituent that no test catches alone and the compiler does not
	// reject, with ReasonEffective, before its tests run.
	RequireEffective bool
	// Repo and Commit, when the project was read from a git repository at
	// a commit (package source: Snapshot.Repo and Snapshot.Commit, the
	// tree materialized for gomod.Open or maven.Open), are recorded in
	// every task's provenance, so that a report says exactly which code
	// its tasks came from. Set both or neither.
	Repo, Commit string
}
