package exectest

// Snapshot and Left are what Main compares before and after the tests.
var (
	Snapshot = snapshot
	Left     = left
)
