package adapt_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/adapt/report"
	"github.com/adaptbench/adaptbench/exec"
)

// countingRunner counts the test runs of a real runner, and says what it
// is as the runner does (a runner that does not is never cached).
type countingRunner struct {
	r interface {
		exec.Runner
		Isolation() string
	}
	runs atomic.Int64
}

func (c *countingRunner) Run(ctx context.Context, j exec.Job) (exec.Result, error) {
	c.runs.Add(1)
	return c.r.Run(ctx, j)
}

func (c *countingRunner) Isolation() string { return c.r.Isolation() }

// checked is how many samples of rep went through a test run.
func checked(rep *report.Report) int {
	n := 0
	for _, tr := range rep.PerTask {
		for _, s := range tr.Samples {
			if s.Outcome != report.OutcomeNoCode && s.Outcome != report.OutcomeWrongName && s.Outcome != report.OutcomeModelError {
				n++
			}
		}
	}
	return n
}

// TestReferenceCache: the second model's run of a task set performs no
// reference check, in the same process and, with Options.ReferenceCache,
// in the next; a torn or altered cache file is checked again, never
// trusted; the reports are those of uncached runs.
func TestReferenceCache(t *testing.T) {
	adapt.ForgetReferenceChecks()
	t.Cleanup(adapt.ForgetReferenceChecks)
	tasks := pyTasks(4)
	tasks[3].Files[0].Content = strings.Replace(tasks[3].Files[0].Content, "f(1), 4", "f(1), 5", 1) // an invalid task: its failure is cached too
	cr := &countingRunner{r: runner(t).(interface {
		exec.Runner
		Isolation() string
	})}
	dir := filepath.Join(t.TempDir(), "refs")
	opts := adapt.Options{Runner: cr, ReferenceCache: dir}

	ref, err := adapt.Evaluate(context.Background(), tasks, adapt.Reference, &opts)
	require.NoError(t, err)
	require.Equal(t, 3, ref.Valid)
	assert.Equal(t, int64(len(tasks)+checked(ref)), cr.runs.Load(), "the first run checks every reference")

	// The second model: its samples only.
	cr.runs.Store(0)
	id, err := adapt.Evaluate(context.Background(), tasks, adapt.Identity, &opts)
	require.NoError(t, err)
	assert.Equal(t, int64(checked(id)), cr.runs.Load(), "0 reference checks")
	assert.Equal(t, 3, id.Valid)

	// A new process (the process's cache empty): the directory answers.
	adapt.ForgetReferenceChecks()
	cr.runs.Store(0)
	again, err := adapt.Evaluate(context.Background(), tasks, adapt.Identity, &opts)
	require.NoError(t, err)
	assert.Equal(t, int64(checked(again)), cr.runs.Load(), "0 reference checks from the directory")
	assert.Equal(t, reportJSON(t, id), reportJSON(t, again))

	// A torn entry and an altered one (a failure made a pass, its digest
	// left): both checked again, and rewritten whole.
	entries, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	require.Len(t, entries, 4)
	// The failed reference's entry is altered, another one torn (the
	// entries' names are digests: which is which is found, not assumed).
	failed := slices.IndexFunc(entries, func(e string) bool {
		b, err := os.ReadFile(e)
		return err == nil && strings.Contains(string(b), `"outcome":"failed"`)
	})
	require.GreaterOrEqual(t, failed, 0, "no entry of a failed reference")
	b, err := os.ReadFile(entries[failed])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(entries[failed], []byte(strings.Replace(string(b), `"outcome":"failed"`, `"outcome":"passed"`, 1)), 0o644))
	entries = slices.Delete(entries, failed, failed+1)
	torn, err := os.ReadFile(entries[0])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(entries[0], torn[:len(torn)/2], 0o644))
	adapt.ForgetReferenceChecks()
	cr.runs.Store(0)
	healed, err := adapt.Evaluate(context.Background(), tasks, adapt.Identity, &opts)
	require.NoError(t, err)
	assert.Equal(t, 3, healed.Valid, "the altered entry is not trusted")
	assert.Equal(t, reportJSON(t, id), reportJSON(t, healed))
	assert.Equal(t, int64(checked(healed)+2), cr.runs.Load(), "the two bad entries are checked again")
	b, err = os.ReadFile(entries[0])
	require.NoError(t, err)
	assert.Equal(t, torn, b, "the torn entry is rewritten whole")

	// Other limits: another machine's measure, checked again.
	adapt.ForgetReferenceChecks()
	cr.runs.Store(0)
	other := opts
	other.Limits.CPUTime = 7e9
	_, err = adapt.Evaluate(context.Background(), tasks, adapt.Identity, &other)
	require.NoError(t, err)
	assert.Equal(t, int64(checked(id)+len(tasks)), cr.runs.Load(), "other limits: every reference checked")
}

// TestReferenceCacheConcurrentWriters: processes (here, evaluations with
// empty process caches) that write the same entries at once leave whole
// entries and no temporary file.
func TestReferenceCacheConcurrentWriters(t *testing.T) {
	adapt.ForgetReferenceChecks()
	t.Cleanup(adapt.ForgetReferenceChecks)
	tasks := pyTasks(3)
	dir := t.TempDir()
	r := &countingRunner{r: runner(t).(interface {
		exec.Runner
		Isolation() string
	})}
	var wg sync.WaitGroup
	reps := make([]*report.Report, 4)
	errs := make([]error, 4)
	for i := range reps {
		wg.Go(func() {
			reps[i], errs[i] = adapt.Evaluate(context.Background(), tasks, adapt.Reference, &adapt.Options{Runner: r, ReferenceCache: dir})
		})
	}
	wg.Wait()
	for i := range reps {
		require.NoError(t, errs[i])
		assert.Equal(t, reportJSON(t, reps[0]), reportJSON(t, reps[i]))
	}
	all, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, all, 3, "one whole entry per task, no temporary file left")
	adapt.ForgetReferenceChecks()
	r.runs.Store(0)
	_, err = adapt.Evaluate(context.Background(), tasks, nil, &adapt.Options{Runner: r, ReferenceCache: dir})
	require.NoError(t, err)
	assert.Zero(t, r.runs.Load(), "every entry whole and trusted")
}

// TestProgressBeforeTheFirstCheck: a run that starts from nothing says so
// before its first check, which can take minutes (a cold build), so that a
// display shows what runs from the start.
func TestProgressBeforeTheFirstCheck(t *testing.T) {
	for _, noGold := range []bool{false, true} {
		var ps []report.Progress
		_, err := adapt.Evaluate(context.Background(), pyTasks(2), adapt.Reference, &adapt.Options{Runner: runner(t), NoGold: noGold,
			Progress: func(p report.Progress) { ps = append(ps, p) }})
		require.NoError(t, err)
		require.NotEmpty(t, ps)
		want := "reference"
		if noGold {
			want = "samples"
		}
		assert.Equal(t, want, ps[0].Phase)
		assert.Zero(t, ps[0].Done)
		assert.Equal(t, map[bool]int{false: 4, true: 2}[noGold], ps[0].Total)
		assert.Len(t, ps, ps[0].Total+1, "then one report per check")
	}
}
