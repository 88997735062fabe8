package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// maxLinks bounds the symbolic links one path resolution follows, as
// Linux's ELOOP does.
const maxLinks = 40

// entry is one tree entry: a directory (tree), a file or symbolic link
// (blob), or a submodule (a commit of another repository, which this
// repository does not hold: it reads as an empty directory, as git
// leaves an uninitialized submodule).
type entry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

func (e entry) isDir() bool { return e.mode == filemode.Dir || e.mode == filemode.Submodule }

// fsMode maps git's file modes to fs.FileMode: the executable bit is the
// one permission git keeps.
func (e entry) fsMode() fs.FileMode {
	switch e.mode {
	case filemode.Dir, filemode.Submodule:
		return fs.ModeDir | 0o755
	case filemode.Executable:
		return 0o755
	case filemode.Symlink:
		return fs.ModeSymlink | 0o777
	}
	return 0o644
}

// rootEntry is the commit's tree.
func (s *Snapshot) rootEntry() entry {
	return entry{name: ".", mode: filemode.Dir, hash: s.commit.TreeHash}
}

// entries returns the entries of a directory, sorted by name. A name
// that is not one path element, or that repeats, makes the tree
// malformed (git never writes such a tree; a hostile one may).
func (s *Snapshot) entries(dir entry) ([]entry, error) {
	if dir.mode == filemode.Submodule {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if es, ok := s.dirs[dir.hash]; ok {
		return es, nil
	}
	t, err := s.r.TreeObject(dir.hash)
	if err != nil {
		return nil, err
	}
	out := make([]entry, 0, len(t.Entries))
	for _, te := range t.Entries {
		if te.Name == "" || te.Name == "." || te.Name == ".." || strings.ContainsAny(te.Name, "/\x00") {
			return nil, fmt.Errorf("%w: tree %s has an entry named %q", ErrUnsafePath, dir.hash, te.Name)
		}
		switch te.Mode {
		case filemode.Dir, filemode.Regular, filemode.Deprecated, filemode.Executable, filemode.Symlink, filemode.Submodule:
		default:
			return nil, fmt.Errorf("%w: tree %s: entry %q has mode %o", ErrUnsafePath, dir.hash, te.Name, uint32(te.Mode))
		}
		out = append(out, entry{name: te.Name, mode: te.Mode, hash: te.Hash})
	}
	slices.SortFunc(out, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	for i := 1; i < len(out); i++ {
		if out[i].name == out[i-1].name {
			return nil, fmt.Errorf("%w: tree %s has two entries named %q", ErrUnsafePath, dir.hash, out[i].name)
		}
	}
	s.dirs[dir.hash] = out
	return out, nil
}

func (s *Snapshot) child(dir entry, name string) (entry, bool, error) {
	es, err := s.entries(dir)
	if err != nil {
		return entry{}, false, err
	}
	i, ok := slices.BinarySearchFunc(es, name, func(e entry, n string) int { return strings.Compare(e.name, n) })
	if !ok {
		return entry{}, false, nil
	}
	return es[i], true, nil
}

// blob returns a blob's content.
func (s *Snapshot) blob(h plumbing.Hash) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := s.r.BlobObject(h)
	if err != nil {
		return nil, err
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, err
	}
	// The git library does not hash an object again when it reads it: a
	// loose object rewritten in the store would be read as it is.
	if got := plumbing.ComputeHash(plumbing.BlobObject, data); got != h {
		return nil, fmt.Errorf("object %s holds content that hashes to %s: the repository's object store was altered or damaged", h, got)
	}
	return data, nil
}

func (s *Snapshot) blobSize(h plumbing.Hash) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := s.r.BlobObject(h)
	if err != nil {
		return 0, err
	}
	return b.Size, nil
}

// resolved is where a path leads.
type resolved struct {
	path  string // slash path below the base, "." for the base itself
	e     entry
	found bool
}

// errEscape is a resolution that leaves the base directory.
var errEscape = fmt.Errorf("%w: a symbolic link leads out of the tree", ErrUnsafePath)

// resolve walks name (slash-separated, not cleaned: "a/.." is resolved
// as the kernel would, after following a) from the directory base,
// following symbolic links inside the tree (the last element's only when
// followLast). A ".." above base, an absolute link or more than maxLinks
// links is an error; a missing element makes the result not found, the
// rest of the path then taken lexically (still checked against base).
func (s *Snapshot) resolve(base entry, name string, followLast bool) (resolved, error) {
	queue := strings.Split(name, "/")
	var stack []entry // resolved elements below base
	missing := false
	links := 0
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(stack) == 0 {
				return resolved{}, errEscape
			}
			stack = stack[:len(stack)-1]
			continue
		}
		if missing {
			stack = append(stack, entry{name: c})
			continue
		}
		dir := base
		if len(stack) > 0 {
			dir = stack[len(stack)-1]
		}
		var (
			e   entry
			ok  bool
			err error
		)
		if dir.isDir() {
			if e, ok, err = s.child(dir, c); err != nil {
				return resolved{}, err
			}
		}
		if !ok {
			missing = true
			stack = append(stack, entry{name: c})
			continue
		}
		last := !slices.ContainsFunc(queue, func(q string) bool { return q != "" && q != "." })
		if e.mode == filemode.Symlink && (!last || followLast) {
			if links++; links > maxLinks {
				return resolved{}, fmt.Errorf("%w: more than %d symbolic links (a loop?)", ErrUnsafePath, maxLinks)
			}
			target, err := s.blob(e.hash)
			if err != nil {
				return resolved{}, err
			}
			if len(target) == 0 || target[0] == '/' {
				return resolved{}, fmt.Errorf("%w: symbolic link %q has the absolute target %q", ErrUnsafePath, e.name, target)
			}
			queue = append(strings.Split(string(target), "/"), queue...)
			continue
		}
		stack = append(stack, e)
	}
	r := resolved{path: ".", e: base, found: !missing}
	if len(stack) > 0 {
		names := make([]string, len(stack))
		for i, e := range stack {
			names[i] = e.name
		}
		r.path, r.e = strings.Join(names, "/"), stack[len(stack)-1]
	}
	return r, nil
}

// lookup resolves a valid fs path from the commit's tree.
func (s *Snapshot) lookup(op, name string, followLast bool) (entry, error) {
	if !fs.ValidPath(name) {
		return entry{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	r, err := s.resolve(s.rootEntry(), name, followLast)
	if err != nil {
		return entry{}, &fs.PathError{Op: op, Path: name, Err: err}
	}
	if !r.found {
		return entry{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	if name == "." {
		r.e.name = "."
	} else if i := strings.LastIndexByte(name, '/'); i >= 0 {
		r.e.name = name[i+1:] // a link's target has its own name; fs reports the name opened
	} else {
		r.e.name = name
	}
	return r.e, nil
}

func (s *Snapshot) info(e entry) (*fileInfo, error) {
	fi := &fileInfo{name: e.name, mode: e.fsMode(), mod: s.commit.Committer.When}
	if !e.isDir() {
		n, err := s.blobSize(e.hash)
		if err != nil {
			return nil, err
		}
		fi.size = n
	}
	return fi, nil
}

// Open opens the named file or directory of the commit's tree, following
// symbolic links that stay inside it. A file's content is read whole.
func (s *Snapshot) Open(name string) (fs.File, error) {
	e, err := s.lookup("open", name, true)
	if err != nil {
		return nil, err
	}
	fi, err := s.info(e)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if e.isDir() {
		es, err := s.entries(e)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &openDir{s: s, info: fi, entries: es}, nil
	}
	b, err := s.blob(e.hash)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &openFile{info: fi, Reader: bytes.NewReader(b)}, nil
}

// ReadFile returns the content of the named file.
func (s *Snapshot) ReadFile(name string) ([]byte, error) {
	e, err := s.lookup("read", name, true)
	if err != nil {
		return nil, err
	}
	if e.isDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	}
	b, err := s.blob(e.hash)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return b, nil
}

// ReadDir returns the entries of the named directory, sorted by name. A
// symbolic link is listed as one (Type fs.ModeSymlink), as os.ReadDir
// lists it.
func (s *Snapshot) ReadDir(name string) ([]fs.DirEntry, error) {
	e, err := s.lookup("readdir", name, true)
	if err != nil {
		return nil, err
	}
	if !e.isDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	es, err := s.entries(e)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	return s.dirEntries(es), nil
}

func (s *Snapshot) dirEntries(es []entry) []fs.DirEntry {
	out := make([]fs.DirEntry, len(es))
	for i, e := range es {
		out[i] = dirEntry{s: s, e: e}
	}
	return out
}

// Stat describes the named file, following symbolic links. Every entry
// has the commit's time as its modification time.
func (s *Snapshot) Stat(name string) (fs.FileInfo, error) {
	return s.stat("stat", name, true)
}

// Lstat describes the named file without following a final symbolic link.
func (s *Snapshot) Lstat(name string) (fs.FileInfo, error) {
	return s.stat("lstat", name, false)
}

func (s *Snapshot) stat(op, name string, follow bool) (fs.FileInfo, error) {
	e, err := s.lookup(op, name, follow)
	if err != nil {
		return nil, err
	}
	fi, err := s.info(e)
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	return fi, nil
}

// ReadLink returns the target of the named symbolic link, as stored.
func (s *Snapshot) ReadLink(name string) (string, error) {
	e, err := s.lookup("readlink", name, false)
	if err != nil {
		return "", err
	}
	if e.mode != filemode.Symlink {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	b, err := s.blob(e.hash)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: err}
	}
	return string(b), nil
}

var (
	_ fs.ReadFileFS = (*Snapshot)(nil)
	_ fs.ReadDirFS  = (*Snapshot)(nil)
	_ fs.StatFS     = (*Snapshot)(nil)
	_ fs.ReadLinkFS = (*Snapshot)(nil)
)

type fileInfo struct {
	name string
	size int64
	mode fs.FileMode
	mod  time.Time
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.size }
func (fi *fileInfo) Mode() fs.FileMode  { return fi.mode }
func (fi *fileInfo) ModTime() time.Time { return fi.mod }
func (fi *fileInfo) IsDir() bool        { return fi.mode.IsDir() }
func (fi *fileInfo) Sys() any           { return nil }

type dirEntry struct {
	s *Snapshot
	e entry
}

func (d dirEntry) Name() string               { return d.e.name }
func (d dirEntry) IsDir() bool                { return d.e.isDir() }
func (d dirEntry) Type() fs.FileMode          { return d.e.fsMode().Type() }
func (d dirEntry) Info() (fs.FileInfo, error) { return d.s.info(d.e) }
func (d dirEntry) String() string             { return fs.FormatDirEntry(d) }

type openFile struct {
	info *fileInfo
	*bytes.Reader
}

func (f *openFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *openFile) Close() error               { return nil }

type openDir struct {
	s       *Snapshot
	info    *fileInfo
	entries []entry
	pos     int
}

func (d *openDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *openDir) Close() error               { return nil }
func (d *openDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.name, Err: errors.New("is a directory")}
}

func (d *openDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.pos:]
	if n <= 0 {
		d.pos = len(d.entries)
		return d.s.dirEntries(rest), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	rest = rest[:min(n, len(rest))]
	d.pos += len(rest)
	return d.s.dirEntries(rest), nil
}
