package libapi

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOutputKeepsTheStderrTail(t *testing.T) {
	cmd := exec.CommandContext(context.Background(), "sh", "-c", `echo out; printf 'x%.0s' $(seq 5000) >&2; echo " the reason" >&2; exit 3`)
	out, err := CommandOutput(cmd, "shell")
	require.Error(t, err)
	assert.Equal(t, "out\n", string(out), "stdout is kept on failure")
	msg := err.Error()
	assert.True(t, strings.HasPrefix(msg, "shell -c echo out;"), "the label and the arguments come first: %.40q", msg)
	assert.True(t, strings.HasSuffix(msg, "x the reason"), "the end of stderr is kept, trimmed")
	assert.Contains(t, msg, "exit status 3: ...x")
	_, tailPart, _ := strings.Cut(msg, ": ...")
	assert.Len(t, tailPart, TailLen)
}

func TestOutputSucceeds(t *testing.T) {
	out, err := CommandOutput(exec.Command("sh", "-c", "echo ok; echo noise >&2"), "sh")
	require.NoError(t, err)
	assert.Equal(t, "ok\n", string(out))
}
