package testenv

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// epoch is the time of a repository's first commit; each later commit is
// one minute after the one before.
var epoch = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// Branch is the branch commits go on.
const Branch = "main"

// Repo is a repository under construction.
type Repo struct {
	// Dir is the repository's directory: a worktree whose .git holds the
	// objects (its files are not written), or a bare repository.
	Dir string

	repo    *git.Repository
	t       testing.TB
	commits int
}

// InitRepo makes an empty repository in a new temporary directory of t,
// bare or not, with HEAD on Branch.
func InitRepo(t testing.TB, bare bool) *Repo {
	t.Helper()
	dir := t.TempDir()
	r, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{
		Bare:        bare,
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName(Branch)},
	})
	if err != nil {
		t.Fatalf("sourcetest: init %s: %v", dir, err)
	}
	return &Repo{Dir: dir, repo: r, t: t}
}

// Signature returns the author and committer of the n-th commit (from 0).
func Signature(n int) object.Signature {
	return object.Signature{Name: "adaptbench test", Email: "test@adaptbench.invalid", When: epoch.Add(time.Duration(n) * time.Minute)}
}

// Commit makes a commit on Branch whose tree is exactly files (a file's
// ModTime and Sys are ignored), with the previous commit as its parent,
// and returns its full hash.
func (r *Repo) Commit(files fstest.MapFS, msg string) string {
	r.t.Helper()
	tree, err := r.tree(files, ".")
	if err != nil {
		r.t.Fatalf("sourcetest: commit %q: %v", msg, err)
	}
	return r.CommitTree(tree, msg)
}

// CommitTree makes a commit on Branch of a tree already in the object
// store (one a test built by hand, such as a malformed tree) and returns
// its full hash.
func (r *Repo) CommitTree(tree plumbing.Hash, msg string) string {
	r.t.Helper()
	sig := Signature(r.commits)
	c := &object.Commit{Author: sig, Committer: sig, Message: msg, TreeHash: tree}
	ref := plumbing.NewBranchReferenceName(Branch)
	if head, err := r.repo.Reference(ref, true); err == nil {
		c.ParentHashes = []plumbing.Hash{head.Hash()}
	}
	h := r.store(c)
	if err := r.repo.Storer.SetReference(plumbing.NewHashReference(ref, h)); err != nil {
		r.t.Fatalf("sourcetest: %v", err)
	}
	r.commits++
	return h.String()
}

// Tag tags commit: a lightweight tag, or an annotated one with a message.
func (r *Repo) Tag(name, commit string, annotated bool) {
	r.t.Helper()
	var opts *git.CreateTagOptions
	if annotated {
		sig := Signature(r.commits)
		opts = &git.CreateTagOptions{Tagger: &sig, Message: "tag " + name}
	}
	if _, err := r.repo.CreateTag(name, plumbing.NewHash(commit), opts); err != nil {
		r.t.Fatalf("sourcetest: tag %s: %v", name, err)
	}
}

// store writes an object and returns its hash.
func (r *Repo) store(o interface {
	Encode(plumbing.EncodedObject) error
}) plumbing.Hash {
	r.t.Helper()
	obj := r.repo.Storer.NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		r.t.Fatalf("sourcetest: encode: %v", err)
	}
	return r.put(obj)
}

// put writes an encoded object to the store and returns its hash.
func (r *Repo) put(obj plumbing.EncodedObject) plumbing.Hash {
	r.t.Helper()
	h, err := r.repo.Storer.SetEncodedObject(obj)
	if err != nil {
		r.t.Fatalf("sourcetest: store: %v", err)
	}
	return h
}

// Blob stores data as a blob and returns its hash.
func (r *Repo) Blob(data []byte) plumbing.Hash {
	r.t.Helper()
	obj := r.repo.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, err := obj.Writer()
	if err == nil {
		_, err = w.Write(data)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		r.t.Fatalf("sourcetest: blob: %v", err)
	}
	return r.put(obj)
}

// Tree stores a tree of the given entries as they are (unsorted, names
// unchecked: a test may build a malformed one) and returns its hash.
func (r *Repo) Tree(entries ...object.TreeEntry) plumbing.Hash {
	r.t.Helper()
	return r.store(&object.Tree{Entries: entries})
}

// tree stores the directory dir of files as a tree, in git's order.
func (r *Repo) tree(files fstest.MapFS, dir string) (plumbing.Hash, error) {
	names := map[string]bool{}
	subdirs := map[string]bool{}
	for p := range files {
		rel := p
		if dir != "." {
			if !strings.HasPrefix(p, dir+"/") {
				continue
			}
			rel = strings.TrimPrefix(p, dir+"/")
		}
		first, rest, nested := strings.Cut(rel, "/")
		if nested && rest != "" {
			subdirs[first] = true
		} else if !files[p].Mode.IsDir() {
			names[first] = true
		}
	}
	var entries []object.TreeEntry
	for name := range subdirs {
		h, err := r.tree(files, path.Join(dir, name))
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
	}
	for name := range names {
		f := files[path.Join(dir, name)]
		mode := filemode.Regular
		switch {
		case f.Mode&fs.ModeSymlink != 0:
			mode = filemode.Symlink
		case f.Mode&0o111 != 0:
			mode = filemode.Executable
		}
		entries = append(entries, object.TreeEntry{Name: name, Mode: mode, Hash: r.Blob(f.Data)})
	}
	// git orders a tree's entries by name, a directory's name as if it
	// ended in a slash.
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	slices.SortFunc(entries, func(a, b object.TreeEntry) int { return strings.Compare(key(a), key(b)) })
	return r.store(&object.Tree{Entries: entries}), nil
}

// Files reads every regular file of fsys (executable bits kept) into a
// MapFS, each path under prefix ("" or "." for none): a testdata
// directory to commit.
func Files(t testing.TB, fsys fs.FS, prefix string) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[path.Join(prefix, p)] = &fstest.MapFile{Data: b, Mode: fi.Mode() & 0o111}
		return nil
	})
	if err != nil {
		t.Fatalf("sourcetest: %v", err)
	}
	return out
}

// RewriteLoose replaces the content of the loose object of the blob that
// holds old with content, keeping the object's name: what one who can
// write a repository's (or a mirror's) object store can do. The
// repository must be bare.
func (r *Repo) RewriteLoose(old, content []byte) {
	r.t.Helper()
	h := plumbing.ComputeHash(plumbing.BlobObject, old).String()
	p := filepath.Join(r.Dir, "objects", h[:2], h[2:])
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	fmt.Fprintf(w, "blob %d\x00", len(content))
	w.Write(content)
	if err := w.Close(); err != nil {
		r.t.Fatalf("sourcetest: %v", err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		r.t.Fatalf("sourcetest: the blob is not a loose object: %v", err)
	}
	if err := os.WriteFile(p, z.Bytes(), 0o444); err != nil {
		r.t.Fatalf("sourcetest: %v", err)
	}
}
