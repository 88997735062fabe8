// Package buildsys holds what mutate's build systems (mutate/gomod and
// mutate/maven) share: the private copy of a project, the tasks' base, the
// mutants a prepare decided on, and sorting a run's tests.
package buildsys

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/adaptbench/adaptbench/mutate"
)

// RunDir is the directory of the project copy that holds the test binary
// and its output during a run.
const RunDir = ".adaptbench-mutate"

// CopyTree copies the regular files and directories under src to dst,
// writable by the owner and readable by all (the sandbox's user).
func CopyTree(src, dst string) error {
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			if rel != "." && (d.Name() == ".git" || strings.HasPrefix(d.Name(), ".adaptbench")) {
				return filepath.SkipDir
			}
			return os.MkdirAll(out, 0o777)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o666)
	})
	if err != nil {
		return fmt.Errorf("mutate: copy %s: %w", src, err)
	}
	return os.Chmod(dst, 0o777)
}

// LinkOrCopy makes dst a hard link to src, or a copy.
func LinkOrCopy(src, dst string) error {
	os.Remove(dst)
	if os.Link(src, dst) == nil {
		return nil
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o777)
}

// ProjectFiles calls add with each file of the project at dir, its path
// relative to dir (with slashes) and its content, but those in hidden
// directories and a "target" directory (Maven's build output): the files
// of the base of the project's tasks (adapt.NewBase).
func ProjectFiles(dir string, add func(path, content string)) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || rel == "target") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		add(rel, string(b))
		return nil
	})
}

// SortRun records each of tests (nil: every test in passed) in o as
// passed or failed, in order; a test missing from passed did not pass.
func SortRun(o *mutate.TestRun, tests []string, passed map[string]bool) {
	if tests == nil {
		tests = slices.Sorted(maps.Keys(passed))
	}
	for _, t := range tests {
		if passed[t] {
			o.Passed = append(o.Passed, t)
		} else {
			o.Failed = append(o.Failed, t)
		}
	}
}

// Decided holds what a preparer decided about mutants, by file and source,
// from its prepare until that prepare's release. The zero value is empty
// and ready to use.
type Decided[T any] struct {
	mu sync.Mutex
	m  map[string]*T
}

// Get returns what was decided about the mutant, or nil.
func (d *Decided[T]) Get(file string, src []byte) *T {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.m[MutantKey(file, src)]
}

// Has reports whether a prepare not yet released decided on key.
func (d *Decided[T]) Has(key string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.m[key] != nil
}

// Keep records found and returns the release that forgets it.
func (d *Decided[T]) Keep(found map[string]*T) (release func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.m == nil {
		d.m = map[string]*T{}
	}
	maps.Copy(d.m, found)
	return func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		for k := range found {
			delete(d.m, k)
		}
	}
}

// MutantKey keys decided mutants.
func MutantKey(file string, src []byte) string { return file + "\x00" + string(src) }
