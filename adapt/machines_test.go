package adapt_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/htmlreport"
	"github.com/adaptbench/adaptbench/adapt/report"
)

// machineCount is what a report says of one machine.
type machineCount struct {
	Host    string `json:"host"`
	Kernel  string `json:"kernel"`
	Records int    `json:"records"`
}

// machinesOf reads the machines a report lists, from its JSON.
func machinesOf(t *testing.T, rep *report.Report) []machineCount {
	t.Helper()
	b, err := json.Marshal(rep)
	require.NoError(t, err)
	var v struct {
		Machines []machineCount `json:"machines"`
	}
	require.NoError(t, json.Unmarshal(b, &v))
	return v.Machines
}

// onAnotherMachine rewrites the header of a journal as another machine
// would have written it (its kernel and host), keeping its first keep
// records, and returns how many lines it holds.
func onAnotherMachine(t *testing.T, journal string, keep int) int {
	t.Helper()
	b, err := os.ReadFile(journal)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(b), "\n")
	lines = lines[:min(len(lines)-1, keep+1)]
	var head map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &head))
	m := head["meta"].(map[string]any)["manifest"].(map[string]any)
	m["kernel"], m["host"] = "4.19.0-other", "other-host"
	delete(head, "sum")
	h, err := json.Marshal(head)
	require.NoError(t, err)
	lines[0] = string(h) + "\n"
	require.NoError(t, os.WriteFile(journal, adapt.Rechain([]byte(strings.Join(lines, ""))), 0o644))
	return len(lines)
}

// TestReportListsEveryMachine: a report lists every machine that produced
// its records, with how many each, and gives no one machine's manifest
// for a run of several: the shards of a merge run on two machines, and a
// run resumed on another machine than the one it began on.
func TestReportListsEveryMachine(t *testing.T) {
	tasks := pyTasks(4) // each: a gold check, a completion and a result
	dir := t.TempDir()
	kernel, err := os.ReadFile("/proc/sys/kernel/osrelease")
	require.NoError(t, err)
	here := strings.TrimSpace(string(kernel))
	host, _ := os.Hostname()

	whole, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{Runner: runner(t)})
	require.NoError(t, err)
	assert.Equal(t, []machineCount{{host, here, 12}}, machinesOf(t, whole), "one machine")
	require.NotNil(t, whole.Run.Manifest)

	t.Run("shards", func(t *testing.T) {
		var journals []string
		for i := range 2 {
			o := adapt.Options{Runner: runner(t), Shard: adapt.Shard{Index: i, Count: 2}, Journal: filepath.Join(dir, fmt.Sprintf("shard%d.jsonl", i))}
			_, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &o)
			require.NoError(t, err)
			journals = append(journals, o.Journal)
		}
		n := onAnotherMachine(t, journals[1], 1000) - 1
		require.Positive(t, n)
		merged, err := adapt.Merge(tasks, journals, nil)
		require.NoError(t, err)
		assert.Equal(t, []machineCount{{host, here, 12 - n}, {"other-host", "4.19.0-other", n}}, machinesOf(t, merged))
		assert.Nil(t, merged.Run.Manifest, "no one machine's manifest for the whole run")
	})

	t.Run("resumed", func(t *testing.T) {
		o := adapt.Options{Runner: runner(t), Journal: filepath.Join(dir, "run.jsonl")}
		_, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &o)
		require.NoError(t, err)
		onAnotherMachine(t, o.Journal, 5) // the other machine ran 5 records, then stopped
		want := []machineCount{{"other-host", "4.19.0-other", 5}, {host, here, 7}}
		rep, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &o)
		require.NoError(t, err)
		assert.Equal(t, want, machinesOf(t, rep))
		assert.Nil(t, rep.Run.Manifest, "no one machine's manifest for the whole run")
		var page strings.Builder
		require.NoError(t, htmlreport.Write(&page, rep, nil))
		assert.Contains(t, page.String(), "5 records measured on other-host: ")
		assert.Contains(t, page.String(), fmt.Sprintf("7 records measured on %s: ", host))
		assert.NotContains(t, page.String(), ">measured on ")
		merged, err := adapt.Merge(tasks, []string{o.Journal}, nil)
		require.NoError(t, err)
		assert.Equal(t, want, machinesOf(t, merged), "the journal says which machine wrote which lines")
		again, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &o)
		require.NoError(t, err)
		assert.Equal(t, want, machinesOf(t, again))
		whole.Machines, rep.Machines, rep.Run.Manifest = nil, nil, whole.Run.Manifest
		assert.Equal(t, whole, rep, "the numbers are those of one run")
	})
}
