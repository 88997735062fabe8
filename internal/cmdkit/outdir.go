// Package cmdkit is what the example mains share.
//
// The output directory: every example takes -out DIR, creates it, and
// says "wrote PATH" for each file it writes there, so that nothing lands
// in the current directory unannounced and a second run does not
// overwrite the first's files unasked.
//
// The broken-run check: a run which is mostly broken says so. A command
// whose checks the harness could not make exits non-zero, and one whose
// references mostly fail warns loudly (a broken environment looks like
// that, not a benchmark).
package cmdkit

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// OutFlag registers -out on fl. Its default, empty, means a new directory
// named after the run (see OpenOutDir).
func OutFlag(fl *flag.FlagSet, run string) *string {
	return fl.String("out", "", "directory to write the outputs into, created if need be (default: a new directory "+run+"-N in the current one)")
}

// OutDir is an output directory and where its "wrote" lines go.
type OutDir struct {
	path string
	log  io.Writer
}

// OpenOutDir creates the directory path (and its parents) or, when path is
// empty, a new directory run-N in the current directory with the first N
// that is free: a run never writes into an earlier run's directory
// unless it is told to. The "wrote" lines go to log.
func OpenOutDir(path, run string, log io.Writer) (*OutDir, error) {
	if path != "" {
		if err := os.MkdirAll(path, 0o755); err != nil {
			return nil, fmt.Errorf("-out: %w", err)
		}
		return &OutDir{path, log}, nil
	}
	for n := 1; ; n++ {
		p := run + "-" + strconv.Itoa(n)
		err := os.Mkdir(p, 0o755)
		if err == nil {
			fmt.Fprintf(log, "writing into %s (-out DIR to choose)\n", p)
			return &OutDir{p, log}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("-out: %w", err)
		}
	}
}

// Path is the directory.
func (d *OutDir) Path() string { return d.path }

// Join is the path of the file name in the directory.
func (d *OutDir) Join(name string) string { return filepath.Join(d.path, name) }

// Write writes the file name in the directory and says so.
func (d *OutDir) Write(name string, write func(io.Writer) error) error {
	return WriteFile(d.log, d.Join(name), write)
}

// Wrote says that the file at path was written (by a library that writes
// it itself, such as a journal).
func (d *OutDir) Wrote(path string) { fmt.Fprintf(d.log, "wrote %s\n", path) }

// WriteFile writes the file at path (a path the user named) through a
// temporary file renamed into place, so that a failed write leaves no
// torn file, and writes "wrote PATH" to log.
func WriteFile(log io.Writer, path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	fmt.Fprintf(log, "wrote %s\n", path)
	return nil
}
