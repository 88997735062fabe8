package textkit_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/internal/textkit"
)

func TestExceptionType(t *testing.T) {
	tests := []struct {
		name, text, want, line, reason string
	}{
		{"assertion", "Traceback (most recent call last):\n  File \"/tmp/work/test_x.py\", line 9, in test_a\n    self.assertEqual(f(), 2)\nAssertionError: 1 != 2\n",
			"AssertionError", "AssertionError: 1 != 2", "the exception line after the frames"},
		{"multi-line message", "Traceback (most recent call last):\n  File \"t.py\", line 3, in test_b\n    self.assertEqual(a, b)\nAssertionError: Lists differ: [1] != [2]\n\nFirst differing element 0:\n1\n2\n",
			"AssertionError", "AssertionError: Lists differ: [1] != [2]", "lines of the message are not exception lines"},
		{"source line with Error:", "Traceback (most recent call last):\n  File \"m.py\", line 2, in f\n    except ValueError: pass  # Error: here\nNameError: name 'x' is not defined\n",
			"NameError", "NameError: name 'x' is not defined", "a source line that mentions Error: does not count (the artifact would take it)"},
		{"chained", "Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'k'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"a.py\", line 3\nmod.sub.CustomError: boom\n",
			"CustomError", "mod.sub.CustomError: boom", "the last exception, without its module"},
		{"no message", "Traceback (most recent call last):\n  File \"a.py\", line 1\nStopIteration\n", "StopIteration", "StopIteration", "an exception without a message"},
		{"import", "Failed to import test module: test_fetch\nTraceback (most recent call last):\n  File \"/tmp/work/fetch.py\", line 3, in <module>\n    import nonexistent_pkg_xyz\nModuleNotFoundError: No module named 'nonexistent_pkg_xyz'\n",
			"ModuleNotFoundError", "ModuleNotFoundError: No module named 'nonexistent_pkg_xyz'", "an import failure"},
		{"none", "the suite hit its time limit", "", "", "no traceback"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, textkit.ExceptionType(tc.text), "%s: %s", tc.name, tc.reason)
		assert.Equal(t, tc.line, textkit.ExceptionLine(tc.text), "%s: %s", tc.name, tc.reason)
	}
}
