package adapteval_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/adapteval"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec/exectest"
)

// TestReferenceIndentedFence: a reference whose docstring holds a Markdown
// example with indented fence lines (as AdaptEval task 1539,
// camel_case_split, does) is taken whole from the fenced answer and passes
// in every prompt setting; it used to be cut at the docstring's first fence
// and scored no-code.
func TestReferenceIndentedFence(t *testing.T) {
	tasks, _, err := adapteval.Load(os.DirFS("testdata/fence"), ".")
	require.NoError(t, err)
	require.Len(t, tasks, 1)
	task := &tasks[0]
	require.Contains(t, task.Reference, "    ```\n", "the fixture's reference has an indented fence")

	a, err := adapt.Extract(task, "```python\n"+task.Reference+"```\n")
	require.NoError(t, err)
	assert.Equal(t, strings.TrimRight(task.Reference, "\n"), strings.TrimRight(a.Code, "\n"), "the whole reference is extracted")

	runner := exectest.Sandbox(t)
	for _, s := range adapteval.Settings {
		t.Run(s.Name, func(t *testing.T) {
			opts := adapteval.Options(s, 1)
			opts.Runner = runner
			rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, opts)
			require.NoError(t, err)
			assert.Equal(t, 1, rep.Valid, "the reference passes: %+v", rep.Invalid)
			assert.Equal(t, map[report.Outcome]int{report.OutcomePassed: 1}, rep.Outcomes)
		})
	}
}
