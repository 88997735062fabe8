package evolve

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"slices"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/evolve/transform"
)

// TestSuite is a benchmark's own tests for one program: the files of the
// workspace they run in, where the program goes, and which tests decide.
// Equivalence in GeneBench means exactly this: the evolved program passes
// the tests the original passed, unchanged.
type TestSuite struct {
	// Path is where the program's main file goes in the workspace, such as
	// "solution.py". The modules a transform created (S7) go beside it.
	Path string
	// Files are the other files of the workspace: the test modules and any
	// fixtures. They never change.
	Files []adapt.File
	// Framework is adapt.FrameworkUnittest or adapt.FrameworkPytest; ""
	// means unittest.
	Framework string
	// Tests names the tests that decide, as the framework reports them
	// ("test_check.TestCheck.test_check"). Every one must pass.
	Tests []string
}

// errNotPython is wrapped when a task given to [FromTask] is not a Python
// unittest or pytest task.
var errNotPython = errors.New("evolve: not a Python task")

// key identifies the suite in the equivalence cache: a hash of everything
// that decides a verdict except the program.
func (s *TestSuite) key() string {
	h := sha256.New()
	frame := func(b string) {
		fmt.Fprintf(h, "%d:", len(b))
		h.Write([]byte(b))
	}
	frame(s.Path)
	frame(s.framework())
	for _, f := range s.Files {
		frame(f.Path)
		frame(f.Content)
	}
	frame("tests")
	for _, t := range s.Tests {
		frame(t)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (s *TestSuite) framework() string {
	if s.Framework == "" {
		return adapt.FrameworkUnittest
	}
	return s.Framework
}

// validate checks the suite once, before a search uses it.
func (s *TestSuite) validate() error {
	switch {
	case s == nil:
		return errors.New("evolve: nil TestSuite")
	case s.Path == "" || path.Clean(s.Path) != s.Path || path.IsAbs(s.Path) || s.Path == ".." || len(s.Path) > 2 && s.Path[:3] == "../":
		return fmt.Errorf("evolve: suite path %q must be a clean relative path", s.Path)
	case len(s.Tests) == 0:
		return errors.New("evolve: suite has no tests")
	}
	switch s.framework() {
	case adapt.FrameworkUnittest, adapt.FrameworkPytest:
	default:
		return fmt.Errorf("evolve: suite framework %q, want unittest or pytest", s.Framework)
	}
	seen := map[string]bool{s.Path: true}
	for _, f := range s.Files {
		if seen[f.Path] {
			return fmt.Errorf("evolve: suite file %q appears twice or is the program's path", f.Path)
		}
		seen[f.Path] = true
	}
	return nil
}

// files returns the workspace for program p: the suite's files, p.Main at
// Path and p's modules beside it, sorted by path.
func (s *TestSuite) files(p *transform.Program) []adapt.File {
	out := slices.Clone(s.Files)
	out = append(out, adapt.File{Path: s.Path, Content: string(p.Main)})
	dir := path.Dir(s.Path)
	for _, name := range sortedKeys(p.Modules) {
		out = append(out, adapt.File{Path: path.Join(dir, name), Content: string(p.Modules[name])})
	}
	slices.SortFunc(out, func(a, b adapt.File) int {
		switch {
		case a.Path < b.Path:
			return -1
		case a.Path > b.Path:
			return 1
		}
		return 0
	})
	return out
}
