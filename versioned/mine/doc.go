// Package mine mines version-conditioned Go problems from a module's
// release history, as GitChameleon's problems were written by hand: one
// more generator with the SDK's shape (Generate, Options, Result with the
// tasks and an report.Funnel).
//
// # Releases
//
// Generate lists the module's releases ("go list -m -versions": no
// pre-releases, no retracted versions; Options.From and To bound them),
// fetches each through the module proxy (Options.Proxy) with the checksum
// database's checks and Options.GoSum's, and builds its packages' export
// data on the host (compiled only: the module's code runs in the sandbox
// alone). The module cache is the cache: a second run fetches nothing.
//
// # Changes
//
// Between consecutive releases, for each package (internal packages
// aside), golang.org/x/exp/apidiff gives the names added and those
// changed incompatibly or removed ([Change]); a name whose doc gained a
// "Deprecated:" paragraph is a deprecation, with the replacement the note
// names ("Use X instead"). A package new at a release adds all its names;
// a package removed as a whole is not followed.
//
// # Problems
//
// The module's own example functions (those with an "// Output:"
// comment) and test functions exercise the changes. Each is type-checked
// with its package's tests; its calls of the module's exported API (and
// reads of its fields), resolved by go/types, are grouped by API and by
// the types of the call. A group whose API changed is a candidate:
//
//	uses-new-api          the API was added at N
//	adapt-to-new-version  the function at N-1 used a name removed,
//	                      changed or deprecated at N, and its update at N
//	                      calls the group's API instead (the changed
//	                      name, the deprecation's replacement, a name
//	                      added at N)
//
// The answer is a function solve with the argument and result types of
// the call (a method's receiver first); its reference body is the call
// at N. The check is the module's function with the group's calls
// replaced by solve(...), so the module's assertions, or the output an
// example prints, judge the answer: the hidden check replaces every call
// of the group, the visible one the first only (when the function has
// one call, the visible check is the hidden one, an example's first line
// of output). The workspace is a module of its own requiring the release:
// solve in solution_test.go (the target), the function's visible and
// hidden copies in check_test.go.
//
// One that needs an unexported name of the package under test, an
// internal package, or a type solve cannot name is not self-contained
// and is dropped with the reason. The statement gives solve's signature,
// the function that calls it (an example's output), and the declarations
// at N of the API and of the changes, each with its doc's first sentence
// (a changed one as it was at N-1 too).
//
// The tasks are versioned's Go problems (benchmark "go-mined": their Env,
// labels and versioned.Detail), so versioned's protocols run them
// unchanged; the Detail's Mined field says where each came from.
//
// # Validity
//
// A problem is kept only when it is version-conditioned and cannot be
// passed without solving it: its reference passes at N and fails at N-1,
// and every trivial answer (the starting code, zero values, a panic, the
// N-1 reference, an example's printed output) fails the hidden check at
// N, each checked in the sandbox through adapt.Checker. The funnel counts
// the candidates through these stages per change kind; at most
// Options.PerAPI problems per API and release are tried, in an order
// Options.Seed draws. A harness failure stops Generate with an error: it
// never drops a candidate.
//
// # Not stable
//
// The IDs, the problem statements' wording and the check file's text may
// change.
package mine
