package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Materialize writes the tree below sub ("." for the whole commit) into
// the directory dir, for tools that need real files (a build, a test
// run). dir is created if it is missing and must be empty. Files keep
// git's executable bit (0755, else 0644), directories are 0755, a
// submodule is an empty directory, and a symbolic link is written as a
// symbolic link.
//
// A hostile tree cannot write outside dir: every write goes through an
// os.Root at dir, and a symbolic link is refused (ErrUnsafePath, naming
// it) unless it resolves, through the tree's own links, to a path inside
// sub; so are entries named ".git" (in any case), which would turn dir
// into a repository whose hooks run, and malformed trees. ctx is checked
// between files; on an error or cancellation dir holds what was written
// so far.
func (s *Snapshot) Materialize(ctx context.Context, sub, dir string) error {
	fail := func(err error) error { return fmt.Errorf("source: %s: materialize %s: %w", s, sub, err) }
	base, err := s.lookup("materialize", sub, true)
	if err != nil {
		return fail(err)
	}
	if !base.isDir() {
		return fail(errors.New("not a directory"))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fail(err)
	}
	defer root.Close()
	d, err := root.Open(".")
	if err != nil {
		return fail(err)
	}
	names, err := d.Readdirnames(1)
	d.Close()
	if err != nil && err != io.EOF {
		return fail(err)
	}
	if len(names) > 0 {
		return fail(fmt.Errorf("%s is not empty", dir))
	}
	m := materializer{ctx: ctx, s: s, root: root, base: base}
	if err := m.dir(base, "."); err != nil {
		return fail(err)
	}
	return nil
}

type materializer struct {
	ctx  context.Context
	s    *Snapshot
	root *os.Root
	base entry // the tree of sub, which dir mirrors
}

// dir writes the entries of the tree e, at rel below the base.
func (m *materializer) dir(e entry, rel string) error {
	es, err := m.s.entries(e)
	if err != nil {
		return err
	}
	for _, c := range es {
		if err := m.ctx.Err(); err != nil {
			return err
		}
		p := path.Join(rel, c.name)
		if strings.EqualFold(c.name, ".git") {
			return fmt.Errorf("%w: %s: an entry named .git", ErrUnsafePath, p)
		}
		switch c.mode {
		case filemode.Dir:
			if err := m.root.Mkdir(p, 0o755); err != nil {
				return err
			}
			if err := m.dir(c, p); err != nil {
				return err
			}
		case filemode.Submodule:
			if err := m.root.Mkdir(p, 0o755); err != nil {
				return err
			}
		case filemode.Symlink:
			target, err := m.s.blob(c.hash)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			if len(target) == 0 || target[0] == '/' {
				return fmt.Errorf("%w: %s -> %s: an absolute or empty link", ErrUnsafePath, p, target)
			}
			// Resolve the link from its own directory, as the kernel
			// will, with the base as the root it must not leave.
			if _, err := m.s.resolve(m.base, rel+"/"+string(target), true); err != nil {
				return fmt.Errorf("%s -> %s: %w", p, target, err)
			}
			if err := m.root.Symlink(string(target), p); err != nil {
				return err
			}
		default:
			if err := m.file(c, p); err != nil {
				return err
			}
		}
	}
	return nil
}

func (m *materializer) file(e entry, p string) error {
	b, err := m.s.blob(e.hash)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	perm := e.fsMode().Perm()
	f, err := m.root.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// The umask may have taken bits off; the tree's mode is the mode.
	return m.root.Chmod(p, perm)
}

var _ fs.FS = (*Snapshot)(nil)
