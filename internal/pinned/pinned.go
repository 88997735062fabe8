// Package pinned is the one body of every loader's LoadRevision: open a
// repository at a revision (package source), read tasks from the
// commit's tree, and record the repository and commit in each task's
// provenance.
package pinned

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/source"
)

// Load opens repo at rev, calls load with the commit's tree, and stamps
// the tasks it returns with adapt.SetRevision. An error of load is
// prefixed with "<repo>@<commit>: ".
func Load(ctx context.Context, repo, rev string, load func(fs.FS) ([]adapt.Task, error)) ([]adapt.Task, error) {
	snap, err := source.Open(ctx, repo, rev)
	if err != nil {
		return nil, err
	}
	tasks, err := load(snap)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", snap, err)
	}
	adapt.SetRevision(tasks, snap.Repo(), snap.Commit())
	return tasks, nil
}
