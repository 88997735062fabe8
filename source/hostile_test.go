package source_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/adaptbench/adaptbench/internal/testenv"
	"github.com/adaptbench/adaptbench/source"
)

// A hostile repository cannot make Materialize write, or leave a link
// that leads, outside the target directory. Each tree is committed to a
// repository of its own; the target directory sits beside a victim
// directory that must stay empty.
func TestMaterializeHostile(t *testing.T) {
	link := func(target string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink}
	}
	file := &fstest.MapFile{Data: []byte("pwned\n")}
	cases := []struct {
		name   string
		files  fstest.MapFS
		sub    string
		says   string
		reason string
	}{
		{"up", fstest.MapFS{"a": link("../victim")}, ".", "a -> ../victim", "a relative link out of the root"},
		{"deep up", fstest.MapFS{"d/e/a": link("../../../victim")}, ".", "d/e/a", "a relative link out of the root, from below"},
		{"absolute", fstest.MapFS{"a": link("/etc/passwd")}, ".", "absolute", "an absolute link"},
		{"chained", fstest.MapFS{"b": link("."), "a": link("b/..")}, ".", "a -> b/..", "lexically inside, out through another link (b is the root, b/.. its parent)"},
		{"out of sub", fstest.MapFS{"proj/a": link("../README"), "README": file}, "proj", "../README", "inside the repository, outside the subtree written"},
		{"through sub's parent", fstest.MapFS{"proj/a": link("../proj/x"), "proj/x": file}, "proj", "../proj/x", "back into the subtree, through its parent that dir does not mirror"},
		{"loop", fstest.MapFS{"a": link("b"), "b": link("a")}, ".", "symbolic links", "a loop"},
		{"dot git", fstest.MapFS{".git/hooks/post-checkout": file}, ".", ".git", "a .git directory"},
		{"dot git case", fstest.MapFS{".GIT/config": file}, ".", ".GIT", "a .git directory, other case"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := testenv.InitRepo(t, true)
			r.Commit(c.files, c.name)
			s, err := source.Open(context.Background(), r.Dir, "main")
			if err != nil {
				t.Fatal(err)
			}
			checkRefused(t, s, c.sub, c.says, c.reason)
		})
	}
}

// Malformed trees (git never writes them; a hostile server may) are
// refused too: an entry named "..", one with a slash, and a name that
// appears twice, once as a link out and once as a directory to write
// through it.
func TestMaterializeMalformedTrees(t *testing.T) {
	cases := []struct {
		name, says string
		tree       func(r *testenv.Repo) object.TreeEntry
	}{
		{"dotdot", `".."`, func(r *testenv.Repo) object.TreeEntry {
			inner := r.Tree(object.TreeEntry{Name: "victim", Mode: filemode.Dir, Hash: r.Tree(object.TreeEntry{Name: "f", Mode: filemode.Regular, Hash: r.Blob([]byte("pwned"))})})
			return object.TreeEntry{Name: "..", Mode: filemode.Dir, Hash: inner}
		}},
		{"slash", `"../victim"`, func(r *testenv.Repo) object.TreeEntry {
			return object.TreeEntry{Name: "../victim", Mode: filemode.Regular, Hash: r.Blob([]byte("pwned"))}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := testenv.InitRepo(t, true)
			r.CommitTree(r.Tree(c.tree(r)), c.name)
			// The tree is refused as soon as it is read.
			_, err := source.Open(context.Background(), r.Dir, "main")
			if !errors.Is(err, source.ErrUnsafePath) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("Open: err = %v, want ErrUnsafePath naming %s", err, c.says)
			}
		})
	}
	t.Run("twice", func(t *testing.T) {
		r := testenv.InitRepo(t, true)
		sub := r.Tree(object.TreeEntry{Name: "f", Mode: filemode.Regular, Hash: r.Blob([]byte("pwned"))})
		r.CommitTree(r.Tree(
			object.TreeEntry{Name: "ok", Mode: filemode.Regular, Hash: r.Blob([]byte("fine"))},
			object.TreeEntry{Name: "x", Mode: filemode.Symlink, Hash: r.Blob([]byte("../victim"))},
			object.TreeEntry{Name: "x", Mode: filemode.Dir, Hash: sub},
		), "twice")
		_, err := source.Open(context.Background(), r.Dir, "main")
		if !errors.Is(err, source.ErrUnsafePath) || !strings.Contains(err.Error(), `two entries named "x"`) {
			t.Fatalf("Open: err = %v, want ErrUnsafePath naming x", err)
		}
	})
	t.Run("below the root", func(t *testing.T) {
		r := testenv.InitRepo(t, true)
		bad := r.Tree(object.TreeEntry{Name: "..", Mode: filemode.Regular, Hash: r.Blob([]byte("pwned"))})
		r.CommitTree(r.Tree(object.TreeEntry{Name: "d", Mode: filemode.Dir, Hash: bad}), "below")
		s, err := source.Open(context.Background(), r.Dir, "main")
		if err != nil {
			t.Fatal(err) // the root is fine; d is read when reached
		}
		checkRefused(t, s, ".", `".."`, "an entry named .. below the root")
		if _, err := fs.ReadDir(s, "d"); !errors.Is(err, source.ErrUnsafePath) {
			t.Errorf("ReadDir(d): err = %v, want ErrUnsafePath", err)
		}
	})
}

func checkRefused(t *testing.T, s *source.Snapshot, sub, says, reason string) {
	t.Helper()
	parent := t.TempDir()
	victim := filepath.Join(parent, "victim")
	if err := os.Mkdir(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "out")
	err := s.Materialize(context.Background(), sub, dir)
	if !errors.Is(err, source.ErrUnsafePath) {
		t.Errorf("%s: err = %v, want ErrUnsafePath", reason, err)
	} else if !strings.Contains(err.Error(), says) {
		t.Errorf("%s: error %q does not say %q", reason, err, says)
	}
	if es, _ := os.ReadDir(victim); len(es) > 0 {
		t.Errorf("%s: wrote %s into the victim directory", reason, es[0].Name())
	}
	if es, _ := os.ReadDir(parent); len(es) != 2 {
		t.Errorf("%s: the parent holds %d entries, want out and victim", reason, len(es))
	}
	// Whatever was written is inside dir, and no link leads out.
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSymlink != 0 {
			real, err := filepath.EvalSymlinks(p)
			if err == nil && !strings.HasPrefix(real, dir+string(filepath.Separator)) && real != dir {
				t.Errorf("%s: %s leads to %s, outside %s", reason, p, real, dir)
			}
		}
		return nil
	})
}

// Reading through the FS, a link out of the tree is an error too.
func TestOpenLinkOut(t *testing.T) {
	r := testenv.InitRepo(t, false)
	r.Commit(fstest.MapFS{
		"up":  {Data: []byte("../x"), Mode: fs.ModeSymlink},
		"abs": {Data: []byte("/etc/passwd"), Mode: fs.ModeSymlink},
		"b":   {Data: []byte("."), Mode: fs.ModeSymlink},
		"a":   {Data: []byte("b/.."), Mode: fs.ModeSymlink},
	}, "links")
	s, err := source.Open(context.Background(), r.Dir, "main")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"up", "abs", "a"} {
		if _, err := s.ReadFile(name); !errors.Is(err, source.ErrUnsafePath) {
			t.Errorf("ReadFile(%s): err = %v, want ErrUnsafePath", name, err)
		}
	}
	if fi, err := s.Stat("b"); err != nil || !fi.IsDir() {
		t.Errorf("Stat(b) = %v, %v; want the root directory", fi, err)
	}
}

// TestRewrittenObjectRefused: a blob whose loose object was rewritten in
// the store, its name kept, is refused when read or materialized, naming
// the object, rather than given as the commit's content; the other files
// of the commit read as they are.
func TestRewrittenObjectRefused(t *testing.T) {
	r := testenv.InitRepo(t, true)
	honest, tampered := []byte("def test_f():\n    assert f(1) == 2\n"), []byte("def test_f():\n    assert True\n")
	r.Commit(fstest.MapFS{"test_a.py": {Data: honest}, "b.py": {Data: []byte("x = 1\n")}}, "tests")
	r.RewriteLoose(honest, tampered)
	s, err := source.Open(context.Background(), r.Dir, "main")
	if err != nil {
		t.Fatal(err)
	}
	b, err := fs.ReadFile(s, "b.py")
	if err != nil || string(b) != "x = 1\n" {
		t.Fatalf("an honest file: %q, %v", b, err)
	}
	b, err = fs.ReadFile(s, "test_a.py")
	if err == nil || !strings.Contains(err.Error(), "object store was altered or damaged") {
		t.Fatalf("ReadFile gave %q, %v; want the rewritten object refused", b, err)
	}
	dir := t.TempDir()
	err = s.Materialize(context.Background(), ".", dir)
	if err == nil || !strings.Contains(err.Error(), "test_a.py") || !strings.Contains(err.Error(), "altered or damaged") {
		t.Fatalf("Materialize: %v; want the rewritten object refused, by name", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "test_a.py")); err == nil {
		t.Fatalf("the rewritten object was written: %q", b)
	}
}
