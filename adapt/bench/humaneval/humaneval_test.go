package humaneval_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/adaptbench/adaptbench/internal/testenv"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/humaneval"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/exec/sandbox"
)

func TestMain(m *testing.M) { exectest.Main(m) }

func forkServer(t testing.TB) *sandbox.ForkServer { return exectest.ForkServer(t) }

func dataFile(t testing.TB) string { return testenv.DataPath(t, "humaneval/HumanEval.jsonl.gz") }

func TestLoadAll(t *testing.T) {
	tasks, err := humaneval.LoadFile(dataFile(t))
	require.NoError(t, err)
	require.Len(t, tasks, 164)
	assert.Equal(t, "HumanEval/0", tasks[0].ID)
	assert.Equal(t, "has_close_elements", tasks[0].Target.Function)
	assert.True(t, strings.HasPrefix(tasks[0].Reference, "def has_close_elements("))
}

func TestReadErrors(t *testing.T) {
	_, err := humaneval.Read(strings.NewReader("{\"task_id\": \"X/1\"}\n"), "he.jsonl")
	assert.ErrorContains(t, err, "he.jsonl:1: problem needs task_id, entry_point and test")
	_, err = humaneval.Read(strings.NewReader("{}\n{"), "he.jsonl")
	assert.ErrorContains(t, err, "he.jsonl:1")
}

// TestReferencePassesAll runs every canonical solution through Evaluate,
// with the default fast path: pass@1 must be 1.
func TestReferencePassesAll(t *testing.T) {
	tasks, err := humaneval.LoadFile(dataFile(t))
	require.NoError(t, err)
	start := time.Now()
	rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{Runner: forkServer(t), NoGold: true})
	require.NoError(t, err)
	p1, _ := rep.Score(1)
	assert.Equal(t, 1.0, p1, "outcomes %v, invalid %v", rep.Outcomes, rep.Invalid)
	t.Logf("164 canonical solutions in %v", time.Since(start))
}
