package adapt_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// TestSpliceReusesParsedTargets: Splice parses a target file once for all
// the answers spliced into it; what it gives is what a splice into a fresh
// parse gives, for more targets than it keeps parsed, in any order, for
// answers that parse and answers that do not.
func TestSpliceReusesParsedTargets(t *testing.T) {
	var tasks []adapt.Task
	for i := range 150 {
		src := fmt.Sprintf("def f(x):\n    return x + %d\n\n\ndef g():\n    return %d\n", i, i)
		tasks = append(tasks, adapt.Task{ID: fmt.Sprint(i), Language: adapt.Python,
			Target: adapt.Target{Path: "m.py", Function: "f", Content: src}})
	}
	for round := range 3 {
		for j := range tasks {
			i := (j*7 + round*31) % len(tasks)
			tk := &tasks[i]
			code := fmt.Sprintf("def f(x):\n    return x * %d\n", j)
			if j%5 == 0 {
				code = fmt.Sprintf("def f(x):\n    return (x * %d\n", j) // does not parse
			}
			got, err := adapt.Splice(tk, adapt.Answer{Code: code})
			want, werr := syntax.Replace(syntax.Python, []byte(tk.Target.Content), "f", []byte(code))
			require.NotNil(t, want)
			assert.Equal(t, string(want), got, "task %d, answer %d", i, j)
			assert.Equal(t, werr == nil, err == nil, "task %d, answer %d: %v, want %v", i, j, err, werr)
		}
	}
}
