package numfmt

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
