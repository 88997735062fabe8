package textkit_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adaptbench/adaptbench/internal/textkit"
)

// docstringFence is a function whose docstring shows a Markdown example:
// its fence lines are indented with the docstring (AdaptEval task 1539,
// camel_case_split).
const docstringFence = `def camel_case_split(s: str) -> list[str]:
    """Split a camelCase string into words.

    Example:
    ` + "```" + `
    camel_case_split("camelCase")  # ['camel', 'Case']
    ` + "```" + `
    """
    return s.split()
`

func TestBlocks(t *testing.T) {
	tests := []struct {
		name       string
		completion string
		want       []string
		reason     string
	}{
		{"plain", "Here:\n```python\nx = 1\n```\nDone.", []string{"x = 1\n"}, "one fenced block"},
		{"two blocks", "```python\na = 1\n```\ntext\n```\nb = 2\n```\n", []string{"a = 1\n", "b = 2\n"}, "both, in order"},
		{"no fence", "def f():\n    return 1\n", []string{"def f():\n    return 1\n"}, "an unfenced answer is one block"},
		{"prose only blank", "   \n", nil, "nothing"},
		{"empty fence", "```python\n```\n", nil, "a blank block is dropped, and the text is not taken whole"},
		{"unterminated", "```python\ndef f():\n    pass\n", []string{"def f():\n    pass\n"}, "a truncated answer runs to the end"},
		{"indented docstring fence", "```python\n" + docstringFence + "```\n", []string{docstringFence},
			"a fence line indented 4 spaces in a docstring does not close the block (CommonMark: at most 3)"},
		{"unfenced with docstring fence", docstringFence, []string{docstringFence},
			"a fence indented 4 spaces does not open a block either: the code is taken whole"},
		{"docstring fence at column 0", "```python\ndef f():\n    \"\"\"Doc.\n```\nexample\n```\n\"\"\"\n    return 1\n```\n",
			[]string{"def f():\n    \"\"\"Doc.\n```\nexample\n```\n\"\"\"\n    return 1\n"},
			"a fence inside a triple-quoted string does not close a Python block"},
		{"unbalanced quote", "```python\nx = '''\n```\nprose\n",
			[]string{"x = '''\n"}, "with no closing fence outside a string, the first closing fence closes the block"},
		{"string in other language", "```text\n\"\"\"\n```\nafter\n```\n", []string{"\"\"\"\n"},
			"string literals are followed only in Python blocks"},
		{"one-line string with quotes", "```python\ns = \"'''\"  # '''\n```\n", []string{"s = \"'''\"  # '''\n"},
			"triple quotes in a one-line string or a comment open nothing"},
		{"escaped triple quote", "```python\nx = \"\"\"a \\\"\"\"\n```\nb\"\"\"\n```\n",
			[]string{"x = \"\"\"a \\\"\"\"\n```\nb\"\"\"\n"}, "an escaped quote does not end the string"},
		{"indented opening", "1. Code:\n   ```python\n   def f():\n       pass\n   ```\n", []string{"def f():\n    pass\n"},
			"up to 3 spaces of indentation; the opening fence's indentation is removed from the lines"},
		{"closing indented 3", "```\nx = 1\n   ```\ny", []string{"x = 1\n"}, "a closing fence may be indented 3 spaces"},
		{"longer closing", "````\na\n```\nb\n`````\n", []string{"a\n```\nb\n"}, "a closing fence is at least as long as the opening"},
		{"other character", "~~~python\na\n```\nb\n~~~\n", []string{"a\n```\nb\n"}, "a closing fence is of the same character"},
		{"text after closing", "```\na\n``` not a close\nb\n```\n", []string{"a\n``` not a close\nb\n"}, "only spaces or tabs after a closing fence"},
		{"trailing spaces", "```\na\n```  \t\nafter", []string{"a\n"}, "spaces and tabs after a closing fence are ignored"},
		{"backtick in info", "```a`b\nx\n", []string{"```a`b\nx\n"}, "a backtick fence's info string has no backtick: not a fence"},
		{"two backticks", "``\nx\n``\n", []string{"``\nx\n``\n"}, "a fence has at least three characters"},
		{"crlf", "```python\r\nx = 1\r\n```\r\n", []string{"x = 1\r\n"}, "CRLF line ends"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, textkit.CodeBlocks(tc.completion), tc.reason)
		})
	}
}

// FuzzBlocks: Blocks never panics, returns no blank block, and
// returns at most the text it was given; a fenced block comes back as it
// went in.
func FuzzBlocks(f *testing.F) {
	f.Add("```python\n" + docstringFence + "```\n")
	f.Add(docstringFence)
	f.Add("~~~\n```\n~~~~\n")
	f.Add("```python\nx = '''\n```\n'''\n```\n")
	f.Fuzz(func(t *testing.T, s string) {
		blocks := textkit.CodeBlocks(s)
		total := 0
		for _, b := range blocks {
			if strings.TrimSpace(b) == "" {
				t.Fatalf("blank block from %q", s)
			}
			total += len(b)
		}
		if total > len(s) {
			t.Fatalf("blocks are longer (%d) than the text (%d)", total, len(s))
		}
		// Wrapped in a longer fence than any run of backticks it holds,
		// with every line kept clear of fence syntax, s comes back whole.
		if strings.TrimSpace(s) == "" || strings.ContainsAny(s, "\r") {
			return
		}
		longest := 0
		for run := 0; run < len(s); {
			n := len(s[run:]) - len(strings.TrimLeft(s[run:], "`"))
			longest = max(longest, n)
			run += max(n, 1)
		}
		fc := strings.Repeat("`", max(3, longest+1))
		body := strings.TrimRight(s, "\n") + "\n"
		got := textkit.CodeBlocks("```text\n" + "x\n```\n" + fc + "text\n" + body + fc + "\n")
		if len(got) == 0 || got[len(got)-1] != body {
			t.Fatalf("block %q of %q: got %q", body, s, got)
		}
	})
}
