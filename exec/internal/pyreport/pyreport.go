// Package pyreport holds the Python drivers' reporters: the programs that
// run unittest or pytest inside the sandbox and send each event on the
// results channel. exec's drivers run them; the sandbox's fork server
// compiles them once per server, so that a driver's job skips that step.
package pyreport

import _ "embed"

//go:embed driver_guard.py
var guard string

//go:embed isolate.py
var isolate string

//go:embed driver_unittest.py
var unittestSource string

//go:embed driver_pytest.py
var pytestSource string

// The reporters: each is the guard (the results channel and the tamper
// watch), the answer's process (isolate.py) and the framework's reporter,
// in one program.
var (
	Unittest = guard + isolate + unittestSource
	Pytest   = guard + isolate + pytestSource
)
