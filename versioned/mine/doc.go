// Package mine mines version-conditioned Go problems from a module's
// release history, as GitChameleon's problems were written by hand: one
// more generator with the SDK's shape (Generate, Options, Result with the
// tasks and an report.Funnel).
//
// # Releases
//
// Generate lists the module's releases ("go list -m -versions": no
// pre-releases, no retracted versions; Options.From and To bound them)
// and fetches each through the module proxy (Options.Proxy, GOPROXY:
// "file:///dir" serves a local directory) into the module cache with "go
// mod download -json", which checks each download against the checksum
// database as the go command does. Each extracted tree is hashed again
// (golang.org/x/mod/sumdb/dirhash) and must match its download's h1:
// hash, and Options.GoSum's line for it when the caller gives one. Then
// "go list -e -export -deps -test" in a main module requiring the release
// builds its packages and their tests' dependencies: export data for the
// API, and the go.sum lines and dependency modules a problem's workspace
// needs. The module cache is the cache: a second run fetches nothing.
// The module's code is only compiled on the host (cgo off, nothing
// generated or run); it runs in the sandbox alone, as adapt.Checker runs
// every test.
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
// of output). The workspace is a module of its own:
//
//	solution_test.go  solve (the target): the reference, or the starting
//	                  code (uses-new-api: a body that panics; adapt: the
//	                  call at N-1, its arguments mapped onto solve's
//	                  parameters by their text or as constants)
//	check_test.go     the function's copies (TestVisibleX, TestHiddenX;
//	                  an example's, and the tests comparing what each
//	                  prints with its output, as go test does), after the
//	                  declarations of its package's test files it needs,
//	                  its imports kept (a module package named like a
//	                  standard one aliased: github.com/pkg/errors is
//	                  pkgerrors) and the package under test's exported
//	                  names qualified when it was an in-package test
//	go.mod, go.sum    a module requiring the release, with the hashes of
//	                  both releases' module graphs
//
// One that needs an unexported name of the package under test, an
// internal package, or a type solve cannot name is not self-contained
// and is dropped with the reason. The statement gives solve's signature,
// the function that calls it (an example's output), and the declarations
// at N of the API and of the changes, each with its doc's first sentence
// (a changed one as it was at N-1 too).
//
// The task's Env names the module at N (and the modules its packages
// need) with the runtime go1.X of its go directive (at least 1.21), for
// versioned's Go environments; labels and versioned.Detail are those of
// versioned's Go problems (benchmark "go-mined"; APICalls the API's key,
// which versioned resolves by identity), so versioned's protocols run
// them unchanged. The Detail's Mined field holds, as JSON, where the
// problem came from: the module, the releases, the package, the changes,
// the API and solve's signature, the file and function at each release,
// what the reference gave at N-1, and the trivial answers.
//
// # Validity
//
// A problem is kept only when it is version-conditioned and cannot be
// passed without solving it, checked in the sandbox through adapt.Checker
// and the Go environment provider (a module cache per release). The
// funnel counts, per change kind (the first of changed, removed,
// deprecated, added a candidate exercises), the release pairs with such a
// change, the changes, and the candidates through the stages:
// "self-contained"; "reference uses its API" (go/types against the
// module at N); "within the cap" (at most Options.PerAPI problems per API
// and release, the candidates tried in an order Options.Seed draws, the
// rest capped); "passes at N"; "fails at N-1" (a compile error or a
// failed test: anything else is no verdict on the version); then one
// stage per trivial answer, each of which must fail the hidden check at
// N: "starting code fails", "zero values fail" (a body returning zero
// values), "panic fails", "N-1 reference fails" (an adaptation's starting
// code; a new API has none) and "printed output fails" (an example's: a
// body printing the visible output, then returning zero values); and
// "valid". A harness failure stops Generate with an error: it never drops
// a candidate.
//
// # Not stable
//
// The IDs, the problem statements' wording and the check file's text may
// change.
package mine
