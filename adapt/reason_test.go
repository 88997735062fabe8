package adapt_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
)

// TestInvalidReasonNamesTheCause: an invalid task's reason says what went
// wrong, not only where: the compiler's first error line rather than go
// build's "# package" heading, and a test name the run never reported as
// such rather than a bare "error".
func TestInvalidReasonNamesTheCause(t *testing.T) {
	var goTask adapt.Task
	for _, tk := range fixtureTasks(t) {
		if tk.Language == adapt.Go {
			goTask = tk
		}
	}
	require.NotEmpty(t, goTask.ID)
	goTask.Reference = strings.Replace(goTask.Reference, "return x\n", "return undefinedName\n", 1)
	py := pyTasks(1)[0]
	py.Tests[0].Name = "test_m.T.test_f_typo"
	rep, err := adapt.Evaluate(context.Background(), []adapt.Task{goTask, py}, adapt.Identity, &adapt.Options{Runner: runner(t)})
	require.NoError(t, err)
	require.Len(t, rep.Invalid, 2)
	assert.Regexp(t, `^reference compile-error: \S+\.go:\d+:\d+: undefined: undefinedName$`, rep.Invalid[0].Reason)
	assert.Equal(t, "reference failed: test_m.T.test_f_typo error (no test of this name ran: is the name right?)", rep.Invalid[1].Reason)
}
