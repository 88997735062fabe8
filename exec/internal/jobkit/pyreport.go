package jobkit

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
	UnittestReporter = guard + isolate + unittestSource
	PytestReporter   = guard + isolate + pytestSource
)
