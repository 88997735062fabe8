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
	"github.com/adaptbench/adaptbench/internal/provenance"
	"github.com/adaptbench/adaptbench/source"
)

// Load opens repo at rev, calls load with the commit's tree, and stamps
// the tasks it returns with provenance.SetRevision. An error of load is
// prefixed with "<repo>@<commit>: ".
func Load(ctx context.Context, repo, rev string, load func(fs.FS) ([]adapt.Task, error)) ([]adapt.Task, error) {
	tasks, _, err := LoadReport(ctx, repo, rev, func(fsys fs.FS) ([]adapt.Task, struct{}, error) {
		tasks, err := load(fsys)
		return tasks, struct{}{}, err
	})
	return tasks, err
}

// LoadReport is Load for a loader that also returns a report of what it
// read (adapteval's and versioned's LoadReport).
func LoadReport[R any](ctx context.Context, repo, rev string, load func(fs.FS) ([]adapt.Task, R, error)) ([]adapt.Task, R, error) {
	var none R
	snap, err := source.Open(ctx, repo, rev)
	if err != nil {
		return nil, none, err
	}
	tasks, rep, err := load(snap)
	if err != nil {
		return nil, none, fmt.Errorf("%s: %w", snap, err)
	}
	provenance.SetRevision(tasks, snap.Repo(), snap.Commit())
	return tasks, rep, nil
}
