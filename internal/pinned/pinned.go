// Package pinned is the one body of every loader's LoadRevision: open a
// repository at a revision (package source), read tasks from the
// commit's tree, and record the repository and commit in each task's
// provenance (the loader passes adapt.SetRevision as stamp, so that this
// package, below adapt, imports nothing of it).
package pinned

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/adaptbench/adaptbench/source"
)

// Load opens repo at rev, calls load with the commit's tree, and stamps
// the tasks it returns with stamp(tasks, repo, commit). An error of load
// is prefixed with "<repo>@<commit>: ".
func Load[T any](ctx context.Context, repo, rev string, load func(fs.FS) ([]T, error), stamp func([]T, string, string)) ([]T, error) {
	tasks, _, err := LoadReport(ctx, repo, rev, func(fsys fs.FS) ([]T, struct{}, error) {
		tasks, err := load(fsys)
		return tasks, struct{}{}, err
	}, stamp)
	return tasks, err
}

// LoadReport is Load for a loader that also returns a report of what it
// read (adapteval's and versioned's LoadReport).
func LoadReport[T, R any](ctx context.Context, repo, rev string, load func(fs.FS) ([]T, R, error), stamp func([]T, string, string)) ([]T, R, error) {
	var none R
	snap, err := source.Open(ctx, repo, rev)
	if err != nil {
		return nil, none, err
	}
	tasks, rep, err := load(snap)
	if err != nil {
		return nil, none, fmt.Errorf("%s: %w", snap, err)
	}
	stamp(tasks, snap.Repo(), snap.Commit())
	return tasks, rep, nil
}
