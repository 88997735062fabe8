package adapt_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/bench/demo"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/internal/testenv"
)

// TestAsOrdinaryUser reruns the demo's reference run and the fixture's
// evaluation as uid 65534: an ordinary user's first Evaluate panicked (a
// nil job cgroup in the sandbox) before.
func TestAsOrdinaryUser(t *testing.T) {
	testenv.RunUnprivileged(t, "TestDemoReference", "TestEvaluateReferenceAndIdentity")
}

// TestDemoReference: the reference passes every task of the embedded demo
// benchmark, in the Sandbox and in the fork server.
func TestDemoReference(t *testing.T) {
	tasks, err := demo.Tasks()
	require.NoError(t, err)
	runners := map[string]adapt.Options{
		"sandbox":     {Runner: exectest.Sandbox(t)},
		"fork server": {Runner: exectest.ForkServer(t)},
	}
	for _, name := range []string{"sandbox", "fork server"} {
		t.Run(name, func(t *testing.T) {
			opts := runners[name]
			rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &opts)
			require.NoError(t, err)
			for _, inv := range rep.Invalid {
				t.Errorf("invalid: %s: %s", inv.TaskID, inv.Reason)
			}
			assert.Equal(t, len(tasks), rep.Valid, "every demo task is valid")
			p1, _ := rep.Score(1)
			assert.Equal(t, 1.0, p1, "the reference passes every task")
		})
	}
}
