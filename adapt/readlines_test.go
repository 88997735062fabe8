package adapt_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/textkit"
)

// TestReadLines: blank lines are skipped but counted, an error from the
// callback names the file and the line, and a line past textkit.MaxJSONLine is an
// error naming its line, not a silent stop.
func TestReadLines(t *testing.T) {
	var got []int
	err := adapt.ReadLines(strings.NewReader("{}\n\n  \n{\"a\":1}\n"), "x.jsonl", func(line int, raw []byte) error {
		got = append(got, line)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 4}, got)

	err = adapt.ReadLines(strings.NewReader("{}\n{}\nbad\n"), "x.jsonl", func(line int, raw []byte) error {
		if string(raw) == "bad" {
			return errors.New("want an object")
		}
		return nil
	})
	var pe *adapt.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "adapt: x.jsonl:3: want an object", err.Error())

	long := "{}\n" + strings.Repeat("x", textkit.MaxJSONLine+1) + "\n"
	err = adapt.ReadLines(strings.NewReader(long), "big.jsonl", func(int, []byte) error { return nil })
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 2, pe.Line)
	assert.Contains(t, err.Error(), "longer than")
}
