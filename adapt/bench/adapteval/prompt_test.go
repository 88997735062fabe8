package adapteval_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestPromptGolden renders the prompts of every fixture task in every
// setting and compares them with testdata/golden/<setting>.txt (refresh
// with -update, and review the diff: the files are the artifact's strings).
func TestPromptGolden(t *testing.T) {
	tasks, _ := fixture(t)
	category := adapteval.AReqOracle
	category.Name, category.CategoryOnly = "areq-oracle-category", true
	for _, s := range append(adapteval.Settings, category) {
		t.Run(s.Name, func(t *testing.T) {
			var b strings.Builder
			for i := range tasks {
				msgs, err := s.Template().Render(&tasks[i])
				require.NoError(t, err)
				b.WriteString("=== " + tasks[i].ID + "\n")
				for _, m := range msgs {
					b.WriteString("--- " + m.Role + "\n" + m.Content + "\n")
				}
			}
			golden := filepath.Join("testdata", "golden", s.Name+".txt")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
				require.NoError(t, os.WriteFile(golden, []byte(b.String()), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test -update to create it")
			assert.Equal(t, string(want), b.String(), "prompts differ from %s", golden)
		})
	}
}

// TestPromptStrings pins the artifact's assembly on a small task, piece by
// piece, independently of the golden files.
func TestPromptStrings(t *testing.T) {
	task := adapt.Task{
		ID: "1.m.f", Language: adapt.Python,
		Code:   "def g(a):\n    return a\n",
		Target: adapt.Target{Path: "m.py", Function: "f", Content: "import os\n\nX = 1\n\n\ndef f(a,\n      b):\n    return a\n\n    # tail\n\n\ndef k():\n    pass\n"},
		Requirement: adapt.Requirement{Task: "Rename g.\n", Steps: []adapt.Step{
			{ID: "0", Type: "Method_Signature.Rename_Func", Description: `Rename 'g' to "f".`},
			{ID: "0#2", Type: "Logic.Ins_Cond", Description: "Don't fail on\tNone — or \\ \x01."},
		}},
		Context: []adapt.Snippet{{Name: "X", Code: "    X = 1\n    Y = 2"}, {Name: "Imports", Code: "import os"}},
	}
	const (
		snippet = "\n\n### Reused Snippet:\n```python\ndef g(a):\n    return a\n\n```\n"
		tail    = "\n\nPlease write out function after adaptation in the following section:\n### Adapted Function:"
		oracle  = "\n\n### Related Code Context For Reference:\n[Start of X]\n```python\nX = 1\nY = 2\n```\n[End of X]\n[Start of Imports]\n```python\nimport os\n```\n[End of Imports]"
		steps   = `[{'id': 0, 'type': 'Method_Signature.Rename_Func', 'description': 'Rename \'g\' to "f".'}, {'id': 0, 'type': 'Logic.Ins_Cond', 'description': "Don't fail on\tNone — or \\ \x01."}]`
	)
	tests := []struct {
		s      adapteval.Setting
		want   string
		reason string
	}{
		{adapteval.AReqOracle, "I will provide you with a code snippet to reuse and a json file containing required adaptations. You should adapt the snippet into a target code base according to the description of adaptations one by one. Some related code context from the target code base is provided for reference." +
			snippet + "\n\n### Adaptations Required to Perform:\n```json\n" + steps + "\n```\n" + oracle + tail,
			"ids as integers, Python repr quoting and escapes, blocks dedented by their first line"},
		{adapteval.TReqNoCtx, "I will provide you with a code snippet to reuse. You should adapt the snippet into a target code base according to the task description. Some related code context from the target code base is provided for reference." +
			snippet + "\n\n### Adaptation Task Description:\nRename g.\n\n" + tail,
			"the description verbatim, its newline included; no context block"},
		{adapteval.NoReqCtx, "I will provide you with a code snippet to reuse. You should adapt the snippet into a target code base according to its intra-file context. " +
			snippet + "\n\n### In-file Context:\n```python\nimport os\n\nX = 1\n\n# insert your adapted method here.\n\ndef k():\n    pass\n\n```\n" + tail,
			"the def line (multi-line signature) and body replaced, blank lines before the def eaten"},
	}
	for _, tc := range tests {
		msgs, err := tc.s.Messages(&task)
		require.NoError(t, err)
		assert.Equal(t, []adapt.Message{{Role: "system", Content: "You are a helpful assistant."}, {Role: "user", Content: tc.want}}, msgs, tc.reason)
	}
	task.Context = nil
	msgs, err := adapteval.TReqOracle.Messages(&task)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(msgs[1].Content, "Rename g.\n\n\n\n### Related Code Context For Reference:\nNone.\n"+tail), "no Oracle block: None.")
	cat := adapteval.AReqNoCtx
	cat.CategoryOnly = true
	msgs, err = cat.Messages(&task)
	require.NoError(t, err)
	assert.Contains(t, msgs[1].Content, "[{'id': 0, 'type': 'Method_Signature', ", "the category only, as the artifact's example prompts")

	_, err = adapteval.NoReqCtx.Messages(&adapt.Task{ID: "x", Target: adapt.Target{Content: "def other():\n    pass\n", Function: "f"}})
	assert.ErrorContains(t, err, "no definition of f", "NoReq needs the target in the file")
	_, err = adapteval.SettingByName("areq")
	assert.ErrorContains(t, err, "areq-oracle, areq-noctx, treq-oracle, treq-noctx, noreq")
}

func TestInFileContext(t *testing.T) {
	tests := []struct {
		name, file, fn, want, reason string
	}{
		{"method", "class A:\n    x = 1\n\n    def f(self):\n        return 1\n\n    def g(self):\n        pass\n", "f",
			"class A:\n    x = 1\n\n# insert your adapted method here.\n\n    def g(self):\n        pass\n",
			"the marker is not indented; the next method follows it after a blank line"},
		{"last", "import re\n\ndef f(x):\n    return x\n", "f", "import re\n\n# insert your adapted method here.\n", "nothing after the function"},
		{"decorated", "@dec\ndef f():\n    pass\nY = 2\n", "f", "@dec\n\n# insert your adapted method here.\n\nY = 2\n", "the decorator stays above, as in the artifact"},
	}
	for _, tc := range tests {
		got, err := adapteval.InFileContext(tc.file, tc.fn)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, got, tc.reason)
	}
}
