package syntax

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDedentIndent(t *testing.T) {
	cases := []struct {
		name     string
		reason   string
		in       string
		prefix   string
		dedent   string
		indent   string
		reindent string
	}{
		{
			name: "spaces", reason: "common 4-space prefix; blank lines normalised by Dedent, kept by Indent",
			in: "    def f():\n        return 1\n  \n    x = 2\n", prefix: "\t",
			dedent:   "def f():\n    return 1\n\nx = 2\n",
			indent:   "\t    def f():\n\t        return 1\n  \n\t    x = 2\n",
			reindent: "\tdef f():\n\t    return 1\n\n\tx = 2\n",
		},
		{
			name: "tabs vs spaces", reason: "tabs and spaces are compared literally: nothing in common",
			in: "\tfoo\n    bar", prefix: "  ",
			dedent:   "\tfoo\n    bar",
			indent:   "  \tfoo\n      bar",
			reindent: "  \tfoo\n      bar",
		},
		{
			name: "mixed common", reason: "the common prefix may mix tabs and spaces",
			in: "\t  a\n\t  \tb\n", prefix: "",
			dedent:   "a\n\tb\n",
			indent:   "\t  a\n\t  \tb\n",
			reindent: "a\n\tb\n",
		},
		{
			name: "crlf", reason: "CRLF lines: a blank line keeps its \\r",
			in: "  a\r\n   \r\n  b\r\n", prefix: "#",
			dedent:   "a\r\n\r\nb\r\n",
			indent:   "#  a\r\n   \r\n#  b\r\n",
			reindent: "#a\r\n\r\n#b\r\n",
		},
		{
			name: "python multi-line string", reason: "the plain functions treat string lines like code (documented): a column-0 continuation line prevents dedenting",
			in: "    s = \"\"\"\nx\n\"\"\"\n", prefix: "  ",
			dedent:   "    s = \"\"\"\nx\n\"\"\"\n",
			indent:   "      s = \"\"\"\n  x\n  \"\"\"\n",
			reindent: "      s = \"\"\"\n  x\n  \"\"\"\n",
		},
		{name: "empty", reason: "empty input stays empty", in: "", prefix: "  "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.dedent, string(Dedent([]byte(tc.in))), "%s\nDedent mismatch", tc.reason)
			assert.Equal(t, tc.indent, string(Indent([]byte(tc.in), tc.prefix)), "%s\nIndent mismatch", tc.reason)
			assert.Equal(t, tc.reindent, string(Reindent([]byte(tc.in), tc.prefix)), "%s\nReindent mismatch", tc.reason)
			assert.Equal(t, string(Indent(Dedent([]byte(tc.in)), tc.prefix)), string(Reindent([]byte(tc.in), tc.prefix)), "Reindent != Indent(Dedent)")
		})
	}
}

func TestDedentDoesNotAlias(t *testing.T) {
	in := []byte("  a\n")
	out := Dedent(in)
	out[0] = 'X'
	if string(in) != "  a\n" {
		t.Errorf("Dedent result aliases its input: %q", in)
	}
}
