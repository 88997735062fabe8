// Package libapi is what versioned and versioned/mine share about the
// libraries whose versions they test: the kinds of API change a problem
// makes, the Go API a file uses, and running the go command or pip that
// fetch a library's versions.
//
// # Change categories
//
// [Categorize] maps GitChameleon's free-text type_of_change labels to the
// kinds of API change its figures count ([Category]).
//
// # Go API
//
// [Uses] resolves the module API a Go file uses by identity, with
// go/types: the package path and the object, not the name an import goes
// by. The mined problems' validity (a reference must use its own API) and
// the API hit rate of Go answers share it.
//
// # Helper commands
//
// [CommandOutput] runs a helper command (the go command, pip, a Python
// interpreter) and, when it fails, says why with the end of its standard
// error: the end is where the go command and pip put the reason.
package libapi
