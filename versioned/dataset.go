package versioned

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/pinned"
)

// LoadReport says what readDataset (and Load, LoadDir) read: where the
// dataset was, how many problems have a hidden test file, and the files
// that match no problem.
type LoadReport struct {
	// Dir is the directory of dataset.jsonl within the file system read:
	// "dataset" under a repository's root, or the directory itself.
	Dir string `json:"dir"`
	// Problems counts the records of dataset.jsonl.
	Problems int `json:"problems"`
	// Hidden counts the problems with a hidden test file; NoHidden lists
	// the IDs of those without one, which have no hidden verdict.
	Hidden   int      `json:"hidden"`
	NoHidden []string `json:"no_hidden,omitempty"`
	// VisibleFiles counts the files of visible_tests/. They are read for
	// the count only: upstream's harness runs the record's test field, and
	// these copies are older (some compute the expected value with the
	// API under test; see the package doc).
	VisibleFiles int `json:"visible_files"`
	// Orphans are the hidden test files whose id has no record
	// (upstream's test_sample_81.py), left out.
	Orphans []string `json:"orphans,omitempty"`
	// Ignored are the other files of hidden_tests/, left out.
	Ignored []string `json:"ignored,omitempty"`
}

// String says what was read in one line, for logs.
func (r *LoadReport) String() string {
	s := fmt.Sprintf("%s: %d problems, %d with a hidden test file, %d without (no hidden verdict)", r.Dir, r.Problems, r.Hidden, len(r.NoHidden))
	if len(r.Orphans) > 0 {
		s += fmt.Sprintf("; hidden test files with no problem, left out: %s", strings.Join(r.Orphans, ", "))
	}
	if len(r.Ignored) > 0 {
		s += fmt.Sprintf("; other files of hidden_tests/, left out: %s", strings.Join(r.Ignored, ", "))
	}
	return s
}

var hiddenFileName = regexp.MustCompile(`^test_sample_([0-9]+)\.py$`)

// readDataset reads the published dataset from fsys: dir/dataset/dataset.jsonl
// when dir is the root of upstream's repository, else dir/dataset.jsonl;
// with, beside it, hidden_tests/test_sample_<id>.py (each problem's hidden
// test file, set as problem.HiddenTest) and visible_tests/ (counted).
// Any subset of the hidden test files may be present; the report says
// which problems have one. A hidden test file whose id has no record is
// an orphan, reported and left out. fsys may be os.DirFS, a git revision
// exposed as an fs.FS, an fstest.MapFS.
func readDataset(fsys fs.FS, dir string) ([]problem, *LoadReport, error) {
	if dir == "" {
		dir = "."
	}
	rep := &LoadReport{Dir: dir}
	if sub := path.Join(dir, "dataset"); isFile(fsys, path.Join(sub, "dataset.jsonl")) {
		rep.Dir = sub
	}
	name := path.Join(rep.Dir, "dataset.jsonl")
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, fmt.Errorf("versioned: %s: no dataset.jsonl here or under dataset/: %w", dir, err)
	}
	ps, err := readProblems(f, name)
	f.Close()
	if err != nil {
		return nil, nil, err
	}
	rep.Problems = len(ps)
	byID := make(map[string]*problem, len(ps))
	for i := range ps {
		byID[ps[i].ID] = &ps[i]
	}
	hidden := path.Join(rep.Dir, "hidden_tests")
	entries, err := fs.ReadDir(fsys, hidden)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("versioned: %w", err)
	}
	for _, e := range entries {
		m := hiddenFileName.FindStringSubmatch(e.Name())
		if e.IsDir() || m == nil {
			rep.Ignored = append(rep.Ignored, e.Name())
			continue
		}
		id := m[1]
		if n, err := strconv.Atoi(id); err == nil && strconv.Itoa(n) != id {
			rep.Ignored = append(rep.Ignored, e.Name())
			continue
		}
		p := byID[id]
		if p == nil {
			rep.Orphans = append(rep.Orphans, e.Name())
			continue
		}
		b, err := fs.ReadFile(fsys, path.Join(hidden, e.Name()))
		if err != nil {
			return nil, nil, fmt.Errorf("versioned: %w", err)
		}
		if strings.TrimSpace(string(b)) == "" {
			return nil, nil, fmt.Errorf("versioned: %s: empty hidden test file", path.Join(hidden, e.Name()))
		}
		p.HiddenTest = string(b)
	}
	for i := range ps {
		if ps[i].HiddenTest == "" {
			rep.NoHidden = append(rep.NoHidden, ps[i].ID)
		} else {
			rep.Hidden++
		}
	}
	if entries, err := fs.ReadDir(fsys, path.Join(rep.Dir, "visible_tests")); err == nil {
		for _, e := range entries {
			if !e.IsDir() && hiddenFileName.MatchString(e.Name()) {
				rep.VisibleFiles++
			}
		}
	}
	slices.Sort(rep.Orphans)
	slices.Sort(rep.Ignored)
	return ps, rep, nil
}

func isFile(fsys fs.FS, name string) bool {
	fi, err := fs.Stat(fsys, name)
	return err == nil && !fi.IsDir()
}

// Load reads the published dataset from fsys into tasks, one per problem
// in record order: dir/dataset/dataset.jsonl when dir is the root of
// upstream's repository, else dir/dataset.jsonl, with the hidden test
// files of hidden_tests/ beside it (any subset; the report says which
// problems have one). The package doc gives the tasks' shape. Bad records
// are errors naming the line.
func Load(fsys fs.FS, dir string) ([]adapt.Task, *LoadReport, error) {
	ps, rep, err := readDataset(fsys, dir)
	if err != nil {
		return nil, nil, err
	}
	tasks, err := tasksOf(ps, path.Join(rep.Dir, "dataset.jsonl"))
	return tasks, rep, err
}

// LoadRevision reads the GitChameleon repository at a revision, from the
// directory dir of that commit's tree (the repository root, or its
// dataset/ directory), straight from git's object store: repo and rev are
// as source.Open takes them (a local clone, a bare mirror or a URL; a
// branch, tag or hash). Every task's provenance names the repository and
// the commit's full hash; the same revision gives the same tasks, byte for
// byte, and a revision the repository lacks is an error naming both.
func LoadRevision(ctx context.Context, repo, rev, dir string) ([]adapt.Task, *LoadReport, error) {
	return pinned.LoadReport(ctx, repo, rev, func(fsys fs.FS) ([]adapt.Task, *LoadReport, error) {
		return Load(fsys, dir)
	}, adapt.SetRevision)
}

// LoadDir is Load on a directory of the machine: upstream's repository
// root, its dataset/ directory, or a copy of it.
func LoadDir(dir string) ([]adapt.Task, *LoadReport, error) {
	tasks, rep, err := Load(os.DirFS(dir), ".")
	if rep != nil {
		rep.Dir = path.Join(dir, rep.Dir)
	}
	return tasks, rep, err
}
