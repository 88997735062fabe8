// Package mine mines version-conditioned Go problems from a module's
// release history, as GitChameleon's problems were written by hand: one
// more generator with the SDK's shape (Generate, Options, Result with the
// tasks and an adapt.Funnel).
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
// comment, which go test runs and checks) and test functions exercise
// the changes. Each is type-checked with its package's tests, and it is
// a candidate when it uses a changed name (a package-level name, a
// method, a field, resolved by go/types):
//
//	uses-new-api          a function at N that uses a name added at N:
//	                      write it, given its signature, its doc, its
//	                      expected output (an example) and the version
//	adapt-to-new-version  a function at N-1 that uses a name removed,
//	                      changed or deprecated at N, whose counterpart (the
//	                      same name) at N is updated (and no longer uses a
//	                      removed or deprecated name): adapt the N-1 code
//	                      to N; the reference is N's
//
// A candidate is moved into a module of its own, the problem's workspace:
// solution_test.go holds the function in its package (p or p_test: an
// example's output may name its types), after the
// declarations of its package's test files it needs (helpers, test types
// and their methods, transitively), its imports kept and the package
// under test's exported names qualified when it was an in-package test.
// One that needs an unexported name of the package under test or an
// internal package is not self-contained and is dropped with the reason.
// The workspace:
//
//	solution_test.go  the target (the whole file): the reference, or the
//	                  starting code (uses-new-api: the helpers and the
//	                  signature with a body that panics; adapt: the
//	                  function and its helpers at N-1)
//	check_test.go     the checks the answer cannot change: for an example,
//	                  TestVisible<Example> (its output's first line,
//	                  visible) and Test<Example> (all of it, compared as
//	                  go test compares an example's output: hidden); for a
//	                  test function, the test itself is visible and
//	                  TestHidden<X> runs it (hidden)
//	go.mod, go.sum    a module requiring the release, with the hashes of
//	                  both releases' module graphs
//
// The task's Env names the module at N (and the modules its packages
// need) with the runtime go1.X of its go directive (at least 1.21), for
// versioned's Go environments; labels and versioned.Detail are those of
// versioned's Go problems (benchmark "go-mined"), so versioned's
// protocols (greedy, chain of thought, self-debug on the visible test)
// run them unchanged. The Detail's Mined field holds, as JSON, where the
// problem came from: the module, the releases, the package, the changes
// (kind, name, old and new declaration), the file and function at each
// release, and what the reference gave at N-1.
//
// An example's problem is checked by its output, which the statement
// gives. A test function's is checked only by the test passing, and its
// statement has nothing to go on but the names it exercises: a model may
// write a weaker test than the module's. The "style" label ("example",
// "test") keeps the two apart in breakdowns.
//
// # Validity
//
// As everywhere in the SDK, a problem is kept only when it is
// version-conditioned, checked in the sandbox through adapt.Checker and
// the Go environment provider (a module cache per release): the
// reference passes at N, it fails at N-1 (a compile error or a failed
// test; anything else is not a verdict on the version), and the starting
// code fails at N (a do-nothing answer does not pass). The funnel counts,
// per change kind (the first of changed, removed, deprecated, added a
// candidate exercises), the release pairs with such a change, the
// changes, and the candidates through "self-contained", "passes at N",
// "fails at N-1" and "valid". A harness failure stops Generate with an
// error: it never drops a candidate.
//
// # Not stable
//
// The IDs, the problem statements' wording and the check file's text may
// change.
package mine
