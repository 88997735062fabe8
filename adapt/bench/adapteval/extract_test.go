package adapteval_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
)

// TestExtract checks the per-sample extraction on AdaptEval tasks where it
// does better than the artifact's line scanner (which stops at a fence
// line, drops decorators and finds nothing under the old name).
func TestExtract(t *testing.T) {
	tasks, _ := fixture(t)
	slug, avg := taskByID(t, tasks, "101.strutil.slugify"), taskByID(t, tasks, "103.stats.moving_average")
	tests := []struct {
		name       string
		task       *adapt.Task
		completion string
		want       string
		err        error
		reason     string
	}{
		{"fenced", slug, "Here it is:\n\n```python\nimport re\n\ndef slugify(text, max_length=None):\n    return text\n```\nDone.",
			"def slugify(text, max_length=None):\n    return text\n", nil, "the fence is accepted"},
		{"decorated", avg, "```python\n@checked\ndef moving_average(values, window=3):\n    return []\n```",
			"@checked\ndef moving_average(values, window=3):\n    return []\n", nil, "decorators are kept"},
		{"indented in a class", slug, "```python\nclass X:\n    def slugify(self, text):\n        return text\n```",
			"def slugify(self, text):\n    return text\n", nil, "dedented"},
		{"unfenced", slug, "def slugify(text):\n    return text.lower()\n", "def slugify(text):\n    return text.lower()\n", nil, "no fence at all"},
		{"old name", slug, "```python\ndef make_slug(text, max_length=None):\n    return text\n```", "", adapt.ErrWrongName, "the model kept the snippet's name"},
		{"no code", slug, "I cannot do that.", "", adapt.ErrNoCode, "prose only"},
		{"other single function", slug, "```python\ndef to_slug(text):\n    return text\n```", "def to_slug(text):\n    return text\n", nil,
			"a block with one function under another name is taken, as before"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := adapt.Extract(tc.task, tc.completion)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err, tc.reason)
				return
			}
			require.NoError(t, err, tc.reason)
			assert.Equal(t, tc.want, a.Code, tc.reason)
		})
	}
}

// FuzzExtract: Extract never panics on any completion for an AdaptEval
// task; what it returns is either code that defines a function, the
// wrong-name error for a completion that names a snippet function, or the
// no-code error.
func FuzzExtract(f *testing.F) {
	tasks, _ := fixture(f)
	for _, t := range tasks {
		f.Add(0, "```python\n"+t.Reference+"```\n")
		f.Add(1, t.Code)
		f.Add(2, "Sure!\n```py\n"+t.Reference)
	}
	f.Add(3, "```python\n@dec(\ndef f(:\n```")
	f.Add(4, "```\n```\n```python\nclass A:\n    def fetch_json(self):\n        pass\n")
	f.Add(0, "~~~python\n\tdef slugify(x):\n\t\treturn x\n~~~")
	f.Fuzz(func(t *testing.T, which int, completion string) {
		if which < 0 {
			which = -which
		}
		task := &tasks[which%len(tasks)]
		a, err := adapt.Extract(task, completion)
		switch {
		case err == nil:
			if !strings.Contains(a.Code, "def") {
				// tree-sitter's error recovery may make a definition of
				// "def!x(...):", never of code without "def".
				t.Fatalf("extracted code without a def: %q", a.Code)
			}
			if _, serr := adapt.Splice(task, a); serr != nil && !strings.Contains(serr.Error(), "syntax") {
				// A splice that does not parse is reported and run; any
				// other failure is a bug.
				t.Logf("splice: %v", serr)
			}
		case errors.Is(err, adapt.ErrWrongName), errors.Is(err, adapt.ErrNoCode):
		default:
			t.Fatalf("unexpected error %v", err)
		}
	})
}
