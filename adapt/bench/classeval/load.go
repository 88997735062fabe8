package classeval

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/pinned"
)

// LoadFile reads ClassEval_data.json into tasks (see Tasks), with path as
// their Provenance.Source.
func LoadFile(path string) ([]adapt.Task, error) {
	classes, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Tasks(classes, path)
}

// Load reads the ClassEval JSON file name of fsys into tasks (see Tasks),
// with name as their Provenance.Source.
func Load(fsys fs.FS, name string) ([]adapt.Task, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("classeval: %w", err)
	}
	classes, err := read(bytes.NewReader(b), name)
	if err != nil {
		return nil, err
	}
	return Tasks(classes, name)
}

// LoadRevision reads the ClassEval JSON file name (a path in the
// repository) at a revision of a git repository, from git's object store
// (repo and rev as source.Open takes them: a local clone, a bare mirror
// or a URL, and a branch, tag or hash), into tasks whose provenance names
// the repository and the commit's full hash. The same revision gives the
// same tasks, byte for byte.
func LoadRevision(ctx context.Context, repo, rev, name string) ([]adapt.Task, error) {
	return pinned.Load(ctx, repo, rev, func(fsys fs.FS) ([]adapt.Task, error) { return Load(fsys, name) }, adapt.SetRevision)
}
