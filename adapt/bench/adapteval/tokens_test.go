package adapteval_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
)

// longFile is a Python module with a target function between two runs of
// n helper functions, and the artifact's two sides of its NoReq context
// before truncation: the text above the def (trailing blank lines eaten by
// the def's regular expression) and the marker with the text below the
// body.
func longFile(n int) (file, above, below string) {
	var a, b strings.Builder
	a.WriteString("import math\n\n\n")
	for i := range n {
		fmt.Fprintf(&a, "def helper_above_%d(value, scale=%d):\n    \"\"\"Scale value by %d and shift it.\"\"\"\n    return math.floor(value * scale) + %d\n\n\n", i, i%7+1, i%7+1, i)
	}
	for i := range n {
		fmt.Fprintf(&b, "def helper_below_%d(items):\n    return [x + %d for x in items if x %% %d]\n\n\n", i, i, i%5+2)
	}
	file = a.String() + "def target(x):\n    return x\n\n\n" + b.String()
	return file, strings.TrimRight(a.String(), "\n"), adapteval.InFileMarker + "\n" + b.String()
}

// TestInFileContextTruncated: a NoReq context whose sides are longer than
// 8192 cl100k_base tokens is cut as the artifact cuts it: the text above
// to its last 8192 tokens, the text from the marker down to its first
// 8192, joined by "\n\n". The golden (testdata/golden/noreq-long.txt,
// refresh with -update) is checked independently of the code that wrote
// it: each side is a suffix (prefix) of the untruncated side, has 8192
// tokens by the same encoder, and is the longest such: one more line of
// the untruncated text is more than 8192 tokens.
func TestInFileContextTruncated(t *testing.T) {
	file, above, below := longFile(700)
	got, err := adapteval.InFileContext(file, "target")
	require.NoError(t, err)

	golden := filepath.Join("testdata", "golden", "noreq-long.txt")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test -update to create it")
	require.Equal(t, string(want), got, "the golden %s", golden)

	nAbove, err := adapteval.CountTokens(above)
	require.NoError(t, err)
	nBelow, err := adapteval.CountTokens(below)
	require.NoError(t, err)
	require.Greater(t, nAbove, 8192, "the text above is long enough to be cut")
	require.Greater(t, nBelow, 8192, "the text below is long enough to be cut")

	i := strings.Index(string(want), "\n\n"+adapteval.InFileMarker)
	require.Positive(t, i, "the marker starts the second side")
	head, tail := string(want[:i]), string(want[i+2:])
	assert.True(t, strings.HasSuffix(above, head), "the head is the end of the text above")
	assert.True(t, strings.HasPrefix(below, tail), "the tail is the start of the text from the marker down")
	assert.Less(t, len(head), len(above))
	assert.Less(t, len(tail), len(below))

	n, err := adapteval.CountTokens(head)
	require.NoError(t, err)
	assert.Equal(t, 8192, n, "tokens of the text kept above")
	n, err = adapteval.CountTokens(tail)
	require.NoError(t, err)
	assert.Equal(t, 8192, n, "tokens of the text kept below")

	// The cut is as late (early) as it can be: the head starts within a
	// line of the text above, and that whole line plus the head is over
	// the limit; likewise for the tail.
	dropped := above[:len(above)-len(head)]
	line := dropped[strings.LastIndexByte(dropped, '\n')+1:]
	n, err = adapteval.CountTokens(line + head)
	require.NoError(t, err)
	assert.Greater(t, n, 8192, "one more line above would be too many")
	rest := below[len(tail):]
	line, _, _ = strings.Cut(rest, "\n")
	n, err = adapteval.CountTokens(tail + line + "\n")
	require.NoError(t, err)
	assert.Greater(t, n, 8192, "one more line below would be too many")

	short, _, _ := longFile(3)
	ctx, err := adapteval.InFileContext(short, "target")
	require.NoError(t, err)
	assert.NotContains(t, ctx, "\ufffd")
	assert.Contains(t, ctx, "import math\n", "a short file is not cut")
}

func TestReplaceInvalidUTF8(t *testing.T) {
	tests := []struct{ name, in, want, reason string }{
		{"valid", "aé€", "aé€", "unchanged"},
		{"cut lead", "a\xe2\x82", "a\ufffd", "an incomplete sequence at the end is one U+FFFD"},
		{"cut continuation", "\x82\xacb", "\ufffd\ufffdb", "lone continuation bytes are one U+FFFD each"},
		{"bad byte", "a\xffb", "a\ufffdb", "an invalid byte"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, adapteval.ReplaceInvalidUTF8(tc.in), "%s: %s", tc.name, tc.reason)
	}
}
