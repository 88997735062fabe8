package adapt_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
)

// TestExtractWrongName: a completion that defines the snippet's function
// under its old name, and not the target, is a wrong-name answer.
func TestExtractWrongName(t *testing.T) {
	tasks := fixtureTasks(t) // go-clamp, py-broken-ref, py-scaled-sum
	_, err := adapt.Extract(&tasks[2], "```python\ndef total(xs, factor=1.0):\n    return sum(xs) * factor\n```")
	require.ErrorIs(t, err, adapt.ErrWrongName)
	assert.ErrorContains(t, err, "it defines total, not scaled_sum")
	_, err = adapt.Extract(&tasks[0], "```go\nfunc clamp(x, lo, hi int64) int64 { return x }\n```")
	assert.ErrorIs(t, err, adapt.ErrWrongName, "Go too")
	a, err := adapt.Extract(&tasks[2], "```python\ndef total(xs):\n    return 0\n\ndef scaled_sum(values, factor=1.0):\n    return total(values) * factor\n```")
	require.NoError(t, err, "the target wins when both are there")
	assert.Contains(t, a.Code, "def scaled_sum")
}
