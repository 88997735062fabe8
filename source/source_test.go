package source_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/adaptbench/adaptbench/internal/testenv"
	"github.com/adaptbench/adaptbench/source"
)

// twoCommits builds a repository with two commits of data.txt, tagged v1
// (lightweight) and v2 (annotated).
func twoCommits(t *testing.T, bare bool) (r *testenv.Repo, first, second string) {
	t.Helper()
	r = testenv.InitRepo(t, bare)
	first = r.Commit(fstest.MapFS{
		"data.txt":   {Data: []byte("one\n")},
		"sub/a.py":   {Data: []byte("a = 1\n")},
		"bin/run.sh": {Data: []byte("#!/bin/sh\necho hi\n"), Mode: 0o755},
	}, "first")
	r.Tag("v1", first, false)
	second = r.Commit(fstest.MapFS{
		"data.txt":   {Data: []byte("two\n")},
		"sub/a.py":   {Data: []byte("a = 2\n")},
		"sub/b.py":   {Data: []byte("b = 2\n")},
		"bin/run.sh": {Data: []byte("#!/bin/sh\necho hi\n"), Mode: 0o755},
	}, "second")
	r.Tag("v2", second, true)
	return r, first, second
}

func open(t *testing.T, repo, rev string) *source.Snapshot {
	t.Helper()
	s, err := source.Open(context.Background(), repo, rev)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func read(t *testing.T, fsys fs.FS, name string) string {
	t.Helper()
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestOpenResolvesRevisions(t *testing.T) {
	for _, bare := range []bool{false, true} {
		r, first, second := twoCommits(t, bare)
		cases := []struct {
			rev, want, reason string
		}{
			{"main", second, "a branch"},
			{"HEAD", second, "HEAD, on main"},
			{"HEAD~1", first, "an ancestor"},
			{"main^", first, "a parent"},
			{"v1", first, "a lightweight tag"},
			{"v2", second, "an annotated tag: the commit it points to"},
			{"refs/tags/v1", first, "a full reference name"},
			{first, first, "a full hash"},
			{first[:8], first, "an abbreviated hash"},
		}
		for _, c := range cases {
			s := open(t, r.Dir, c.rev)
			if s.Commit() != c.want {
				t.Errorf("bare=%v: Open(%q) = commit %s, want %s (%s)", bare, c.rev, s.Commit(), c.want, c.reason)
			}
			if s.Repo() != r.Dir {
				t.Errorf("Repo() = %q, want %q", s.Repo(), r.Dir)
			}
		}
		if got := read(t, open(t, r.Dir, "v1"), "data.txt"); got != "one\n" {
			t.Errorf("v1 data.txt = %q, want the first commit's", got)
		}
		if got := read(t, open(t, r.Dir, "v2"), "data.txt"); got != "two\n" {
			t.Errorf("v2 data.txt = %q, want the second commit's", got)
		}
		if _, err := fs.Stat(open(t, r.Dir, "v1"), "sub/b.py"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("sub/b.py at v1: err = %v, want fs.ErrNotExist (added by the second commit)", err)
		}
	}
}

// The test repositories are deterministic: built twice, in two
// directories, the same commits have the same hashes (fixed author,
// committer and times), so the tests' hashes mean something.
func TestSameCommitsSameHashes(t *testing.T) {
	_, a1, a2 := twoCommits(t, false)
	_, b1, b2 := twoCommits(t, true)
	if a1 != b1 || a2 != b2 {
		t.Fatalf("hashes differ: %s %s vs %s %s", a1, a2, b1, b2)
	}
	if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(a2) {
		t.Fatalf("commit %q is not 40 hex digits", a2)
	}
}

func TestOpenErrors(t *testing.T) {
	r, _, _ := twoCommits(t, false)
	notRepo := t.TempDir()
	cases := []struct {
		name, repo, rev string
		is              error
		says            []string
	}{
		{"missing revision", r.Dir, "v9", source.ErrRevision, []string{r.Dir, `"v9"`, "revision not found"}},
		{"missing hash", r.Dir, strings.Repeat("ab", 20), source.ErrRevision, []string{r.Dir, strings.Repeat("ab", 20)}},
		{"bad syntax", r.Dir, "main~~^{", source.ErrRevision, []string{r.Dir, "main~~^{"}},
		{"empty revision", r.Dir, "", source.ErrRevision, []string{r.Dir, "empty revision"}},
		{"not a repository", notRepo, "main", source.ErrNotRepository, []string{notRepo, "not a git repository"}},
		{"no such path", filepath.Join(notRepo, "nope"), "main", fs.ErrNotExist, []string{filepath.Join(notRepo, "nope")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := source.Open(context.Background(), c.repo, c.rev)
			if !errors.Is(err, c.is) {
				t.Fatalf("err = %v, want one wrapping %v", err, c.is)
			}
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("err = %T, want *source.Error", err)
			}
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
		})
	}
}

func TestOpenURL(t *testing.T) {
	if _, err := exec.LookPath("git-upload-pack"); err != nil {
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("file:// clones run git-upload-pack, and git is not installed")
		}
	}
	r, first, second := twoCommits(t, true)
	u := "file://" + r.Dir
	for rev, want := range map[string]string{"main": second, "HEAD": second, "v1": first, "v2": second, first[:10]: first} {
		s := open(t, u, rev)
		if s.Commit() != want {
			t.Errorf("Open(%s, %q) = %s, want %s", u, rev, s.Commit(), want)
		}
		if s.Repo() != u {
			t.Errorf("Repo() = %q, want %q", s.Repo(), u)
		}
	}
	if got := read(t, open(t, u, "v1"), "sub/a.py"); got != "a = 1\n" {
		t.Errorf("sub/a.py at v1 = %q", got)
	}
	_, err := source.Open(context.Background(), u, "v9")
	if !errors.Is(err, source.ErrRevision) || !strings.Contains(err.Error(), u) {
		t.Errorf("missing revision of a clone: err = %v, want ErrRevision naming %s", err, u)
	}
}

// A URL that cannot be reached says so, and never shows the credentials
// it carried.
func TestOpenUnreachable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// .invalid never resolves (RFC 2606).
	_, err := source.Open(ctx, "https://user:s3cret@adaptbench.invalid/owner/repo.git", "main")
	if !errors.Is(err, source.ErrFetch) {
		t.Fatalf("err = %v, want ErrFetch", err)
	}
	if strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error %q shows the password", err)
	}
	if !strings.Contains(err.Error(), "network") || !strings.Contains(err.Error(), "adaptbench.invalid") {
		t.Errorf("error %q does not say the network is unreachable for the host", err)
	}
}

func TestSnapshotIsAnFS(t *testing.T) {
	r := testenv.InitRepo(t, false)
	r.Commit(fstest.MapFS{
		"README":         {Data: []byte("hi\n")},
		"pkg/mod.py":     {Data: []byte("x = 1\n")},
		"pkg/deep/z.txt": {Data: []byte("z")},
		"tool.sh":        {Data: []byte("#!/bin/sh\n"), Mode: 0o755},
		"link.py":        {Data: []byte("pkg/mod.py"), Mode: fs.ModeSymlink},
		"pkglink":        {Data: []byte("pkg"), Mode: fs.ModeSymlink},
	}, "fs")
	s := open(t, r.Dir, "main")
	if err := fstest.TestFS(s, "README", "pkg/mod.py", "pkg/deep/z.txt", "tool.sh", "link.py"); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"link.py": "x = 1\n", "pkglink/mod.py": "x = 1\n", "pkglink/deep/z.txt": "z"} {
		if got := read(t, s, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	fi, err := fs.Stat(s, "tool.sh")
	if err != nil || fi.Mode() != 0o755 {
		t.Errorf("tool.sh mode = %v (err %v), want -rwxr-xr-x", fi.Mode(), err)
	}
	if !fi.ModTime().Equal(testenv.Signature(0).When) {
		t.Errorf("ModTime = %v, want the commit's time", fi.ModTime())
	}
	li, err := fs.Lstat(s, "link.py")
	if err != nil || li.Mode().Type() != fs.ModeSymlink {
		t.Errorf("Lstat(link.py) = %v, %v; want a symbolic link", li, err)
	}
	if target, err := fs.ReadLink(s, "link.py"); err != nil || target != "pkg/mod.py" {
		t.Errorf("ReadLink(link.py) = %q, %v", target, err)
	}
}

// Concurrent readers of one snapshot (go-git's storers are not safe for
// concurrent use; the snapshot serializes them). Run with -race.
func TestSnapshotConcurrentReads(t *testing.T) {
	r, _, _ := twoCommits(t, false)
	s := open(t, r.Dir, "main")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if b, err := s.ReadFile("sub/a.py"); err != nil || string(b) != "a = 2\n" {
					t.Errorf("ReadFile = %q, %v", b, err)
				}
				if _, err := fs.ReadDir(s, "sub"); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}

func TestMaterialize(t *testing.T) {
	r := testenv.InitRepo(t, false)
	r.Commit(fstest.MapFS{
		"README":            {Data: []byte("hi\n")},
		"proj/src/mod.py":   {Data: []byte("x = 1\n")},
		"proj/build.sh":     {Data: []byte("#!/bin/sh\n"), Mode: 0o755},
		"proj/current":      {Data: []byte("src/mod.py"), Mode: fs.ModeSymlink},
		"proj/src/dangling": {Data: []byte("gone.py"), Mode: fs.ModeSymlink},
	}, "tree")
	s := open(t, r.Dir, "main")
	dir := filepath.Join(t.TempDir(), "out")
	if err := s.Materialize(context.Background(), "proj", dir); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			got[rel] = "-> " + target
		case fi.IsDir():
			got[rel] = fi.Mode().String()
		default:
			b, _ := os.ReadFile(p)
			got[rel] = fi.Mode().String() + " " + string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"build.sh":     "-rwxr-xr-x #!/bin/sh\n",
		"current":      "-> src/mod.py",
		"src":          "drwxr-xr-x",
		"src/mod.py":   "-rw-r--r-- x = 1\n",
		"src/dangling": "-> gone.py",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %q, want %q", k, got[k], w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected %s (%s)", k, got[k])
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "current")); err != nil || string(b) != "x = 1\n" {
		t.Errorf("the link does not lead to its file: %q, %v", b, err)
	}
	if err := s.Materialize(context.Background(), "proj", dir); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("materializing into a non-empty directory: err = %v, want 'not empty'", err)
	}
	if err := s.Materialize(context.Background(), "README", t.TempDir()); err == nil {
		t.Error("materializing a file: no error")
	}
}

// A linked worktree (git worktree add) has a .git file naming its gitdir
// under the main repository's .git/worktrees, whose commondir leads back
// to the objects; its HEAD is its own.
func TestOpenLinkedWorktree(t *testing.T) {
	r, first, _ := twoCommits(t, false)
	wt := t.TempDir()
	gitdir := filepath.Join(r.Dir, ".git", "worktrees", "wt")
	write := func(name, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(gitdir, "HEAD"), first+"\n") // detached at the first commit
	write(filepath.Join(gitdir, "commondir"), "../..\n")
	write(filepath.Join(gitdir, "gitdir"), filepath.Join(wt, ".git")+"\n")
	write(filepath.Join(wt, ".git"), "gitdir: "+gitdir+"\n")
	s := open(t, wt, "HEAD")
	if s.Commit() != first {
		t.Errorf("HEAD of the linked worktree = %s, want %s (its own, detached)", s.Commit(), first)
	}
	if got := read(t, s, "data.txt"); got != "one\n" {
		t.Errorf("data.txt = %q", got)
	}
}
