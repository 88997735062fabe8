package evolve_test

import (
	"strings"
	"testing"

	"github.com/adaptbench/adaptbench/evolve"
)

// FuzzCalls: Calls never panics, and every call it returns is text of the
// input: its expected value appears, and "candidate(" or the check
// parameter's call does too. (go test -fuzz stalls on cgo packages on this
// machine; the seed corpus runs as a normal test.)
func FuzzCalls(f *testing.F) {
	for _, s := range []string{
		sumSquares.Test,
		"def check(candidate):\n    assert candidate(1, 'a') == (1, 'a')\n",
		"def check(c):\n    assert c(-1.5e3) == -1500.0, 'neg'\n    assert c(f'{1}') == 1\n",
		"def check(candidate):\n    assert candidate(\n        [1,\n         2]) == {1: [2]}\n",
		"def check(candidate):\n    assert candidate(",
		"def check():\n    assert f(1) == 1\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		calls, err := evolve.Calls([]byte(src))
		if err != nil {
			return
		}
		for _, c := range calls {
			if !strings.Contains(src, c.Expected) || !strings.Contains(src, c.Args) {
				t.Errorf("call %+v is not text of the input %q", c, src)
			}
			if c.Expected == "" {
				t.Errorf("empty expected value from %q", src)
			}
		}
	})
}
