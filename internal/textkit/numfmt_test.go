package textkit

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNumbers(t *testing.T) {
	assert.Equal(t, "-", Pct(math.NaN()))
	assert.Equal(t, "12.35", Pct(0.123456))
	assert.Equal(t, "0.00", Pct(-1e-17), "never a negative zero")
	assert.Equal(t, "0.000", Fixed(math.Copysign(0, -1), 3))
	assert.Equal(t, "+2.50", SignedPct(0.025))
	assert.Equal(t, "-1.00", SignedPct(-0.01))
	assert.Equal(t, "0.00", SignedPct(0))
	assert.Equal(t, "-", SignedPct(math.NaN()))
}

func TestLabels(t *testing.T) {
	assert.Equal(t, []string{"a #1", "b", "a #2"}, Labels([]string{"a", "b", "a"}))
	assert.Equal(t, []string{}, Labels(nil)[:0])
}

func TestSamplesText(t *testing.T) {
	assert.Equal(t, "5", SamplesText(5, nil, 3))
	assert.Equal(t, "1–5 per task", SamplesText(5, map[string]int{"a": 1}, 3), "one task has fewer")
	assert.Equal(t, "2–3 per task", SamplesText(5, map[string]int{"a": 2, "b": 3}, 2), "every task its own count")
	assert.Equal(t, "2", SamplesText(0, map[string]int{"a": 2, "b": 2}, 2))
}

func TestKs(t *testing.T) {
	in := []int{10, 1, 5, 1}
	assert.Equal(t, []int{1, 5, 10}, Ks(in))
	assert.Equal(t, []int{10, 1, 5, 1}, in, "the input is not reordered")
	assert.Empty(t, Ks(nil))
}

func TestCount(t *testing.T) {
	assert.Equal(t, "1 check", Count(1, "check"))
	assert.Equal(t, "0 checks", Count(0, "check"))
	assert.Equal(t, "2 tasks", Count(2, "task"))
}
