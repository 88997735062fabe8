//go:build unix

package adapt_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
)

// A journal lock this process holds (a child it is starting shares a
// journal closed a moment ago, until the child's exec) is waited for a
// moment, not refused; one held for longer is refused.
func TestJournalLockedByThisProcessBriefly(t *testing.T) {
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	f, err := os.Create(journal)
	require.NoError(t, err)
	require.NoError(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX))
	time.AfterFunc(300*time.Millisecond, func() { f.Close() })
	_, err = adapt.Evaluate(context.Background(), pyTasks(1), adapt.Reference, &adapt.Options{Runner: runner(t), Journal: journal})
	require.NoError(t, err, "the lock was released after 300ms")

	g, err := os.Open(journal)
	require.NoError(t, err)
	defer g.Close()
	require.NoError(t, syscall.Flock(int(g.Fd()), syscall.LOCK_EX))
	start := time.Now()
	_, err = adapt.Evaluate(context.Background(), pyTasks(1), adapt.Reference, &adapt.Options{Runner: runner(t), Journal: journal})
	require.ErrorIs(t, err, adapt.ErrJournalLocked)
	assert.Less(t, time.Since(start), 5*time.Second)
}
