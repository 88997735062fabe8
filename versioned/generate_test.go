package versioned_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec/exectest"
	"github.com/adaptbench/adaptbench/versioned"
)

// TestGenerate keeps the problems whose reference passes in its own
// environment and names the others: a solution written for minilib 1.0
// fails under 2.0, and a version with no wheel cannot be provisioned.
func TestGenerate(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		exectest.SkipWithout(t, "no /usr/bin/python3")
	}
	wheels := t.TempDir()
	writeWheel(t, wheels, "minilib", "1.0", map[string]string{"minilib/__init__.py": "def greet(name):\n    return 'Hello, %s!' % name\n"})
	writeWheel(t, wheels, "minilib", "2.0", map[string]string{"minilib/__init__.py": "def salute(name):\n    return 'Hello, %s!' % name\n"})
	cache := &versioned.Cache{Dir: cacheDir(t), Builder: &versioned.Venv{Python: "/usr/bin/python3", Wheelhouse: wheels, NoDeps: true, SystemSitePackages: true}}
	var lines []string
	for i, v := range []string{"1.0", "2.0", "3.0"} {
		lines = append(lines, fmt.Sprintf(`{"example_id":"%d","python_version":"3","library":"minilib","version":%q,"problem":"Greet.","starting_code":"import minilib\ndef hello(name):\n","solution":"    return minilib.greet(name)","test":"assert hello('Ada') == 'Hello, Ada!'\n","type_of_change":"name change","additional_dependencies":"","functional":"1","webdev":0}`, i, v))
	}
	ps, err := versioned.Read(strings.NewReader(strings.Join(lines, "\n")), "minilib.jsonl")
	require.NoError(t, err)
	tasks, err := versioned.Tasks(ps, "minilib.jsonl")
	require.NoError(t, err)
	var progress []report.Progress
	res, err := versioned.Generate(context.Background(), tasks, &versioned.Options{Runner: exectest.Sandbox(t),
		Environments: &versioned.Provider{Provisioner: cache}, Progress: func(p report.Progress) { progress = append(progress, p) }})
	require.NoError(t, err)
	require.Len(t, res.Tasks, 1)
	assert.Equal(t, "0", res.Tasks[0].ID)
	require.Len(t, res.Invalid, 2)
	assert.Equal(t, "1", res.Invalid[0].TaskID)
	assert.Contains(t, res.Invalid[0].Reason, "reference failed")
	assert.Equal(t, "2", res.Invalid[1].TaskID)
	assert.Contains(t, res.Invalid[1].Reason, "environment: ")
	assert.Equal(t, 3, res.Funnel.Count("minilib", versioned.StageProblems))
	assert.Equal(t, 2, res.Funnel.Count("minilib", versioned.StageProvisioned))
	assert.Equal(t, 1, res.Funnel.Count("minilib", versioned.StagePasses))
	require.Len(t, progress, 4, "one as the checks begin, one per task")
	assert.Zero(t, progress[0].Done)
	assert.Equal(t, 1, progress[3].Passed)
}
